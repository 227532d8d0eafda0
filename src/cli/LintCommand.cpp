// `tilexform lint FILE.ttgir...`: the Gluon pitfalls a kernel's IR shows
// (lint/Lint.h), as text, JSON or SARIF 2.1.0.
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/cli/Sarif.h"
#include "tilexform/lint/Lint.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/PythonText.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

namespace tilexform::cli {

namespace {

struct LintCliOptions {
  std::vector<std::string> files, rules, noRules;
  std::string failOn = "error";
  CommonOptions common;
} opts;

lint::RuleSet gRules;

bool fails(const lint::Finding &f) {
  return opts.failOn == "warning" || f.severity == lint::Severity::Error;
}

Json findingJson(const lint::Finding &f) {
  return Json{{"rule", lint::ruleInfo(f.rule).name},
              {"severity", lint::severityName(f.severity)},
              {"op", f.op},
              {"line", f.line},
              {"col", f.col},
              {"source", sourceJson(f.source)},
              {"message", f.message},
              {"fix", f.fix}};
}

llvm::Expected<lint::LintReport> lintFile(const std::string &file) {
  auto loaded = loadForCommand(file, "lint");
  if (!loaded)
    return loaded.takeError();
  lint::LintOptions o;
  o.rules = gRules;
  o.arch = opts.common.arch;
  o.dumpPath = file;
  return lint::lintModule(**loaded, o);
}

/// One dump's findings, counted by severity.
struct Linted {
  const lint::LintReport &report;
  std::string shown;
  size_t errors = 0, warnings = 0;
  int exitCode = kExitOk;
};

class LintView : public ReportView {
public:
  explicit LintView(const Linted &l) : l_(l) {}

  Json json() const override {
    const auto &report = l_.report;
    Verdict verdict = report.findings.empty() ? Verdict::Clean : Verdict::Findings;
    Json j = envelope("lint", verdict, l_.exitCode);
    j["file"] = l_.shown;
    j["arch"] = report.arch.empty() ? Json(nullptr) : Json(report.arch);
    j["fail_on"] = opts.failOn;
    Json rules = Json::array();
    for (auto &r : lint::allRules())
      if (gRules.test(size_t(r.rule)))
        rules.push_back(r.name);
    j["rules"] = rules;
    Json byRule = Json::object();
    for (auto &r : lint::allRules())
      byRule[r.name] = 0;
    for (auto &f : report.findings)
      byRule[lint::ruleInfo(f.rule).name] = byRule[lint::ruleInfo(f.rule).name].get<int>() + 1;
    j["summary"] = Json{{"errors", l_.errors}, {"warnings", l_.warnings}, {"by_rule", byRule}};
    Json findings = Json::array();
    for (auto &f : report.findings)
      findings.push_back(findingJson(f));
    j["findings"] = findings;
    j["notes"] = report.notes;
    return j;
  }

  std::string text() const override {
    const auto &report = l_.report;
    const std::string &shown = l_.shown;
    std::string text;
    for (auto &f : report.findings) {
      text += fmt::format("{}:{}:{}: {}: {} [{}]\n", shown, f.line, std::max(1u, f.col),
                          lint::severityName(f.severity), f.message, lint::ruleInfo(f.rule).name);
      if (f.source.known() && !f.source.file.empty())
        text += fmt::format("  source: {}:{}:{}{}\n", visibleText(f.source.file), f.source.line,
                            f.source.col,
                            f.source.name.empty() ? "" : " (" + visibleText(f.source.name) + ")");
      text += fmt::format("  op: {}\n  fix: {}\n", f.op, f.fix);
    }
    for (auto &n : report.notes)
      text += fmt::format("{}: note: {}\n", shown, n);
    text += report.findings.empty()
                ? fmt::format("{}: clean\n", shown)
                : fmt::format("{}: {} error(s), {} warning(s)\n", shown, l_.errors, l_.warnings);
    return text;
  }

private:
  const Linted &l_;
};

FileOutput lintOne(const std::string &file) {
  auto report = lintFile(file);
  if (!report) {
    FileOutput out;
    out.error = errorLine(report.takeError());
    return out;
  }
  Linted l{*report, shownPath(file)};
  bool failing = false;
  for (auto &f : report->findings) {
    (f.severity == lint::Severity::Error ? l.errors : l.warnings) += 1;
    failing = failing || fails(f);
  }
  l.exitCode = failing ? kExitFinding : kExitOk;
  return reportOutput(opts.common, LintView(l), l.exitCode);
}

/// SARIF: one document for every dump, the unreadable ones among its
/// notifications.
int runSarif() {
  std::vector<SarifRule> rules;
  for (auto &r : lint::allRules())
    rules.push_back(
        {r.name, r.title, r.why, std::string("lint.md#") + r.name, lint::severityName(r.severity)});
  std::vector<SarifResult> results;
  std::vector<std::string> errors;
  int code = kExitOk;
  for (auto &file : opts.files) {
    auto report = lintFile(file);
    if (!report) {
      errors.push_back(errorLine(report.takeError()));
      continue;
    }
    for (auto &f : report->findings) {
      results.push_back({lint::ruleInfo(f.rule).name, lint::severityName(f.severity),
                         f.message + " Fix: " + f.fix, file == "-" ? "<stdin>" : file, f.line,
                         f.col, file == "-"});
      if (fails(f))
        code = kExitFinding;
    }
  }
  printErrorLines(errors);
  printJson(sarifDocument(rules, results, errors));
  return errors.empty() ? code : kExitInput;
}

/// `--rule`/`--no-rule` names to rules; a usage error (reported) for an
/// unknown one, with the rule meant.
bool selectRules() {
  std::vector<std::string> names;
  for (auto &r : lint::allRules())
    names.push_back(r.name);
  auto resolve = [&](const std::string &flag, const std::string &n) -> std::optional<lint::Rule> {
    if (auto r = lint::parseRule(n))
      return r;
    std::string best = nearestName(n, names);
    reportError(flag + ": unknown rule '" + n + "'" +
                    (best.empty() ? "" : " (did you mean '" + best + "'?)") +
                    "; rules: " + llvm::join(names, ", "),
                kExitUsage);
    return std::nullopt;
  };
  if (opts.rules.empty())
    gRules.set();
  for (auto &n : opts.rules) {
    auto r = resolve("--rule", n);
    if (!r)
      return false;
    gRules.set(size_t(*r));
  }
  for (auto &n : opts.noRules) {
    auto r = resolve("--no-rule", n);
    if (!r)
      return false;
    gRules.reset(size_t(*r));
  }
  return true;
}

} // namespace

void addLintCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "lint", "Gluon pitfalls in a kernel's TTGIR that compile and then give wrong numbers or "
              "lose speed (proxy fences, mbarrier phases, layout costs, NaN rows, TMA "
              "alignment, target)");
  cmd->add_option("files", opts.files, "Dumps (.ttgir), or - for standard input")->required();
  // One value per flag (`--rule a,b`, repeatable): the dumps after it stay
  // dumps.
  cmd->add_option("--rule", opts.rules, "Run only these rules (comma-separated, repeatable)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--no-rule", opts.noRules, "Do not run these rules (comma-separated)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--fail-on", opts.failOn,
                  "Exit 1 when a finding of this severity or worse exists")
      ->check(oneOf({"error", "warning"}))
      ->capture_default_str();
  CommonOptions &common = opts.common;
  common.addArch(cmd, "Judge the dump for this target instead of its ttg.target");
  common.addFormat(cmd, {"sarif"}, "Output format (jsonl: one JSON document per line)");
  common.addJobs(cmd);
}

int runLintCommand() {
  if (int code = opts.common.prepare())
    return code;
  if (!selectRules())
    return kExitUsage;
  if (opts.common.format == "sarif")
    return runSarif();
  return runOverFiles("lint", opts.files, opts.common, lintOne);
}

} // namespace tilexform::cli
