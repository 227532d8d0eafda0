// `tilexform survey TREE...`: pipeline forms of every kernel loop and the
// source patterns that defeat a port, as text, JSON or SARIF 2.1.0.
#include "tilexform/Version.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/cli/Sarif.h"
#include "tilexform/source/Survey.h"
#include "tilexform/support/InputKind.h"
#include "tilexform/support/PythonText.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace tilexform::cli {

namespace {

struct SurveyCliOptions {
  std::vector<std::string> roots, excludes, failOnList;
  std::set<std::string> failOn;
  std::string targetCompiler = "upstream";
  bool noGitignore = false;
  CommonOptions common;
} opts;

Json findingJson(const source::Finding &f, bool withFile) {
  Json j;
  j["kind"] = f.kind;
  if (withFile)
    j["file"] = f.file;
  j["line"] = f.line;
  j["col"] = f.col;
  if (withFile)
    j["kernel"] = f.kernel.empty() ? Json(nullptr) : Json(f.kernel);
  j["message"] = f.message;
  if (!f.forkRule.empty())
    j["fork_rule"] = f.forkRule;
  return j;
}

std::vector<const source::Finding *> allFindings(const source::SurveyReport &r) {
  std::vector<const source::Finding *> out;
  for (auto &k : r.kernels)
    for (auto &f : k.findings)
      out.push_back(&f);
  for (auto &f : r.findings)
    out.push_back(&f);
  std::sort(out.begin(), out.end(), [](const source::Finding *a, const source::Finding *b) {
    return std::tie(a->file, a->line, a->col, a->kind) <
           std::tie(b->file, b->line, b->col, b->kind);
  });
  return out;
}

Json summaryJson(const source::SurveyReport &r) {
  Json forms = Json::object();
  for (const char *f : {"annotated", "launch", "none", "frozen", "static", "authored", "outer"})
    forms[f] = 0;
  for (auto &k : r.kernels)
    for (auto &l : k.loops)
      forms[l.form] = forms[l.form].get<int>() + 1;
  Json kinds = Json::object();
  for (auto &rule : source::surveyRules())
    kinds[rule.id] = 0;
  for (auto *f : allFindings(r))
    kinds[f->kind] = kinds[f->kind].get<int>() + 1;
  int gluon = 0;
  for (auto &k : r.kernels)
    gluon += k.dialect == "gluon";
  return Json{{"kernels", r.kernels.size()},
              {"gluon_kernels", gluon},
              {"loops", forms},
              {"findings", kinds}};
}

/// One kernel's record in the JSON report.
Json kernelJson(const source::KernelRecord &k) {
  Json loops = Json::array();
  for (auto &l : k.loops)
    loops.push_back(Json{{"line", l.line},
                         {"col", l.col},
                         {"form", l.form},
                         {"dots", l.dots},
                         {"helper_dots", l.helperDots},
                         {"iterator", l.iterator},
                         {"num_stages", l.numStages.empty() ? Json(nullptr) : Json(l.numStages)},
                         {"flatten", l.flatten},
                         {"warp_specialize", l.warpSpecialize},
                         {"why", l.why}});
  Json findings = Json::array();
  for (auto &f : k.findings)
    findings.push_back(findingJson(f, false));
  return Json{
      {"name", k.name},
      {"file", k.file},
      {"line", k.line},
      {"dialect", k.dialect},
      {"autotuned", k.autotuned},
      {"autotune_wrapper", k.autotuneWrapper.empty() ? Json(nullptr) : Json(k.autotuneWrapper)},
      {"configs_opaque", k.configsOpaque},
      {"heuristics", k.heuristics},
      {"autotune_num_stages", k.autotuneNumStages},
      {"decorators", k.decorators},
      {"loops", loops},
      {"findings", findings}};
}

Json sarifJson(const source::SurveyReport &r) {
  std::vector<SarifRule> rules;
  for (auto &rule : source::surveyRules())
    rules.push_back({rule.id, rule.title, rule.why, std::string("survey.md#") + rule.id});
  std::vector<SarifResult> results;
  for (auto *f : allFindings(r))
    results.push_back({f->kind, "warning", f->message, f->file, f->line, f->col});
  return sarifDocument(rules, results, r.errors);
}

std::string reportText(const source::SurveyReport &r) {
  std::map<std::string, std::vector<const source::KernelRecord *>> byFile;
  std::map<std::string, std::vector<const source::Finding *>> fileFindings;
  for (auto &k : r.kernels)
    byFile[k.file].push_back(&k);
  for (auto &f : r.findings) {
    fileFindings[f.file].push_back(&f);
    byFile[f.file];
  }
  std::string out;
  for (auto &[file, kernels] : byFile) {
    out += visibleText(file) + "\n";
    for (auto *k : kernels) {
      std::string stages;
      if (!k->autotuneNumStages.empty()) {
        std::vector<std::string> shown;
        for (auto &ns : k->autotuneNumStages)
          shown.push_back(ns.empty() ? "-" : ns);
        stages = " num_stages " + llvm::join(shown, "/");
      }
      out += fmt::format("  {} ({}{}{}{}, line {})\n", k->name, k->dialect,
                         k->autotuned ? k->autotuneWrapper.empty()
                                            ? std::string(", autotuned")
                                            : ", autotuned by " + k->autotuneWrapper
                                      : std::string(),
                         stages, k->heuristics ? ", heuristics" : "", k->line);
      for (auto &l : k->loops)
        out += fmt::format("    loop line {:<5} {:<9} {} dot{}  {}\n", l.line, l.form, l.dots,
                           l.dots == 1 ? " " : "s", l.why);
      for (auto &f : k->findings)
        out += fmt::format("    {}:{}:{}: warning: {} [{}]\n", visibleText(file), f.line,
                           std::max(1u, f.col), f.message, f.kind);
    }
    for (auto *f : fileFindings[file])
      out += fmt::format("  {}:{}:{}: warning: {} [{}]\n", visibleText(file), f->line,
                         std::max(1u, f->col), f->message, f->kind);
  }
  Json s = summaryJson(r);
  out += fmt::format("\n{} kernel(s) ({} Gluon) in {} of {} file(s)", r.kernels.size(),
                     s["gluon_kernels"].get<int>(), r.filesWithKernels, r.filesScanned);
  if (r.filesExcluded)
    out += fmt::format(", {} path(s) excluded", r.filesExcluded);
  if (!r.errors.empty())
    out += fmt::format(", {} unreadable (see stderr)", r.errors.size());
  if (!r.directoriesSkipped.empty())
    out += fmt::format(", {} director{} skipped (see stderr)", r.directoriesSkipped.size(),
                       r.directoriesSkipped.size() == 1 ? "y" : "ies");
  out += "\nloops:";
  for (auto &[form, n] : s["loops"].items())
    out += fmt::format(" {} {}", form, n.get<int>());
  int total = 0;
  std::string kinds;
  for (auto &[kind, n] : s["findings"].items())
    if (n.get<int>()) {
      total += n.get<int>();
      kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", kind, n.get<int>());
    }
  out += fmt::format("\nfindings: {}{}\n", total, kinds.empty() ? "" : " (" + kinds + ")");
  return out;
}

/// The survey as text, JSON or SARIF. `code` is the run's exit: 1 when
/// --fail-on found a finding of a kind it names (verdict FINDINGS, as lint's).
class SurveyView : public ReportView {
public:
  SurveyView(source::SurveyReport &r, int code) : r_(r), code_(code) {}

  /// The document's own keys; its arrays follow (json(), write()).
  Json head() const {
    bool partial = !r_.errors.empty() || !r_.directoriesSkipped.empty();
    Verdict verdict = code_ == kExitFinding ? Verdict::Findings
                      : partial             ? Verdict::Partial
                                            : Verdict::Ok;
    Json j = envelope("survey", verdict, code_);
    j["roots"] = opts.roots;
    j["files_scanned"] = r_.filesScanned;
    j["files_with_kernels"] = r_.filesWithKernels;
    j["files_excluded"] = r_.filesExcluded;
    j["errors"] = r_.errors;
    Json skipped = Json::array();
    for (auto &d : r_.directoriesSkipped)
      skipped.push_back({{"path", d.path}, {"reason", d.reason}});
    j["directories_skipped"] = std::move(skipped);
    j["summary"] = summaryJson(r_);
    return j;
  }

  Json json() const override {
    Json j = head();
    Json kernels = Json::array(), findings = Json::array();
    for (auto &k : r_.kernels)
      kernels.push_back(kernelJson(k));
    for (auto &f : r_.findings)
      findings.push_back(findingJson(f, true));
    j["kernels"] = std::move(kernels);
    j["findings"] = std::move(findings);
    return j;
  }

  std::string text() const override { return reportText(r_); }

  void write(const CommonOptions &options) const override {
    if (options.format == "sarif") {
      printJson(sarifJson(r_));
      return;
    }
    if (!options.jsonOutput()) {
      printText(text());
      return;
    }
    // Each kernel rendered and its record freed in turn, so a tree of any
    // size never exists as one node tree.
    Json j = head();
    RenderedArray kernels{"kernels", {}}, fileFindings{"findings", {}};
    kernels.elements.reserve(r_.kernels.size());
    for (auto &k : r_.kernels) {
      kernels.elements.push_back(renderArrayElement(kernelJson(k)));
      k = source::KernelRecord();
    }
    for (auto &f : r_.findings)
      fileFindings.elements.push_back(renderArrayElement(findingJson(f, true)));
    printJsonWithArrays(j, {std::move(kernels), std::move(fileFindings)});
  }

private:
  source::SurveyReport &r_;
  int code_;
};

/// A file named on the command line that is no Python source (a dump, a
/// binary, a listing, a JSON document): its kind, as every command that
/// reads files names what it was given instead of parsing it.
llvm::Error checkRootKinds(const std::vector<std::string> &roots) {
  for (const std::string &root : roots) {
    if (!llvm::sys::fs::is_regular_file(root))
      continue; // a folder is walked for *.py; a missing root is the walk's error
    uint64_t size = 0;
    if (llvm::sys::fs::file_size(root, size))
      continue;
    auto buffer = llvm::MemoryBuffer::getFileSlice(root, std::min<uint64_t>(size, 64 << 10), 0);
    if (!buffer)
      continue;
    InputKind kind = sniffInputKind((*buffer)->getBuffer(), root);
    if (kind == InputKind::Python || kind == InputKind::Unknown || kind == InputKind::Empty)
      continue;
    return wrongInputKindError(
        shownPath(root), kind,
        "survey reads Python source: .py files and the folders that hold them");
  }
  return llvm::Error::success();
}

int survey() {
  if (llvm::Error e = checkRootKinds(opts.roots))
    return reportError(std::move(e), kExitInput);
  source::SurveyOptions options;
  options.excludes = opts.excludes;
  options.useGitignore = !opts.noGitignore;
  options.jobs = opts.common.jobs;
  options.targetCompiler = opts.targetCompiler == "fork" ? source::TargetCompiler::Fork
                                                         : source::TargetCompiler::Upstream;
  ProgressLine progress("survey", false);
  options.progress = progress.callback();
  auto report = source::survey(opts.roots, options);
  progress.finish();
  if (!report)
    return reportError(report.takeError());
  printErrorLines(report->errors);
  // A folder the walk could not enter is said, never silently left out.
  {
    std::vector<std::string> lines;
    for (auto &d : report->directoriesSkipped) {
      std::string line = fmt::format("{}: warning: cannot read directory ({}); skipped",
                                     visibleText(d.path), d.reason);
      for (auto &c : line) // one line, whatever the folder is named
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          c = '?';
      lines.push_back(std::move(line));
    }
    printErrorLines(lines);
  }
  // Nothing surveyed (a mistyped root, a tree without Python) says so: a
  // gate (--fail-on) that checked nothing fails instead of passing.
  if (report->filesScanned == 0 && report->errors.empty()) {
    std::string why =
        fmt::format("no .py files under {}{}", llvm::join(opts.roots, ", "),
                    report->filesExcluded ? fmt::format(" ({} excluded)", report->filesExcluded)
                                          : std::string());
    if (!opts.failOn.empty())
      return reportError(fmt::format("{}; --fail-on has nothing to check", why), kExitInput);
    printErrorLines({fmt::format("warning: {}", why)});
  }
  // Nothing could be read (every file named failed to parse): an input
  // error, as in every other command; the lines above say why.
  if (report->filesScanned == 0 && !report->errors.empty())
    return kExitInput;
  // --fail-on: exit 1 when a finding of a named kind (or any, `all`) exists.
  int code = kExitOk;
  if (!opts.failOn.empty())
    for (auto *f : allFindings(*report))
      if (opts.failOn.count("all") || opts.failOn.count(f->kind))
        code = kExitFinding;
  return writeReport(opts.common, SurveyView(*report, code), code);
}

} // namespace

void addSurveyCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "survey", "Pipeline forms of every kernel loop, and the source patterns that defeat a port");
  cmd->add_option("roots", opts.roots, "Source trees (searched for *.py) or Python files")
      ->required();
  cmd->add_option("--exclude", opts.excludes,
                  "Skip paths matching a .gitignore-style pattern (repeatable)");
  cmd->add_flag("--no-gitignore", opts.noGitignore, "Do not honour .gitignore files");
  opts.common.addJobs(cmd, "Files parsed in parallel (0: all cores)");
  opts.common.addFormat(cmd, {"sarif"}, "Output format (jsonl: the JSON on one line)");
  cmd->add_option("--target-compiler", opts.targetCompiler,
                  "Compiler that judges vendor backend folders (backend/_<vendor>/): upstream "
                  "Triton, or the vendor's fork (what the fork accepts is then no finding)")
      ->check(oneOf({"upstream", "fork"}))
      ->capture_default_str();
  cmd->add_option("--fail-on", opts.failOnList,
                  "Exit 1 when a finding of these kinds exists (comma-separated rule ids, or "
                  "all)")
      ->delimiter(',');
}

int runSurveyCommand() {
  if (int code = opts.common.prepare())
    return code;
  for (auto &k : opts.failOnList) {
    bool known = k == "all";
    for (auto &r : source::surveyRules())
      known = known || k == r.id;
    if (!known) {
      std::vector<std::string> ids;
      for (auto &r : source::surveyRules())
        ids.push_back(r.id);
      return reportError("--fail-on: unknown finding kind '" + k + "' (kinds: all, " +
                             llvm::join(ids, ", ") + ")",
                         kExitUsage);
    }
    opts.failOn.insert(k);
  }
  return survey();
}

} // namespace tilexform::cli
