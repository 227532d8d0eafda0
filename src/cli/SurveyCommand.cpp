// `tilexform survey TREE...`: pipeline forms of every kernel loop and the
// source patterns that defeat a port, as text, JSON or SARIF 2.1.0.
#include "tilexform/Version.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/Output.h"
#include "tilexform/source/Survey.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <map>

namespace tilexform::cli {

namespace {

struct SurveyCliOptions {
  std::vector<std::string> roots, excludes;
  std::string format = "text";
  bool json = false, quiet = false, noGitignore = false;
  unsigned jobs = 0;
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
  for (const char *f : {"annotated", "launch", "none", "frozen", "static", "authored"})
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

Json reportJson(const source::SurveyReport &r) {
  Json j = envelope("survey", r.errors.empty() ? "OK" : "PARTIAL", kExitOk);
  j["roots"] = opts.roots;
  j["files_scanned"] = r.filesScanned;
  j["files_with_kernels"] = r.filesWithKernels;
  j["files_excluded"] = r.filesExcluded;
  j["errors"] = r.errors;
  j["summary"] = summaryJson(r);
  Json kernels = Json::array();
  for (auto &k : r.kernels) {
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
    kernels.push_back(Json{{"name", k.name},
                           {"file", k.file},
                           {"line", k.line},
                           {"dialect", k.dialect},
                           {"autotuned", k.autotuned},
                           {"heuristics", k.heuristics},
                           {"decorators", k.decorators},
                           {"loops", loops},
                           {"findings", findings}});
  }
  j["kernels"] = kernels;
  Json fileFindings = Json::array();
  for (auto &f : r.findings)
    fileFindings.push_back(findingJson(f, true));
  j["findings"] = fileFindings;
  return j;
}

std::string sarifUri(const std::string &path) {
  std::string uri;
  if (!path.empty() && path[0] == '/')
    uri = "file://";
  for (char c : path) {
    if (c == ' ')
      uri += "%20";
    else if (c == '%')
      uri += "%25";
    else
      uri += c;
  }
  return uri;
}

Json sarifJson(const source::SurveyReport &r) {
  const auto &rules = source::surveyRules();
  Json ruleList = Json::array();
  std::map<std::string, size_t> ruleIndex;
  for (size_t i = 0; i < rules.size(); ++i) {
    ruleIndex[rules[i].id] = i;
    ruleList.push_back(Json{{"id", rules[i].id},
                            {"name", rules[i].id},
                            {"shortDescription", {{"text", rules[i].title}}},
                            {"fullDescription", {{"text", rules[i].why}}},
                            {"defaultConfiguration", {{"level", "warning"}}}});
  }
  Json results = Json::array();
  for (auto *f : allFindings(r)) {
    Json region{{"startLine", std::max(1u, f->line)}, {"startColumn", std::max(1u, f->col)}};
    results.push_back(
        Json{{"ruleId", f->kind},
             {"ruleIndex", ruleIndex[f->kind]},
             {"level", "warning"},
             {"message", {{"text", f->message}}},
             {"locations", Json::array({Json{{"physicalLocation",
                                              {{"artifactLocation", {{"uri", sarifUri(f->file)}}},
                                               {"region", region}}}}})}});
  }
  Json notifications = Json::array();
  for (auto &e : r.errors)
    notifications.push_back(Json{{"level", "error"}, {"message", {{"text", e}}}});
  Json run{{"tool",
            {{"driver",
              {{"name", "tilexform"},
               {"version", kVersion},
               {"semanticVersion", kVersion},
               {"rules", ruleList}}}}},
           {"invocations", Json::array({Json{{"executionSuccessful", true},
                                             {"toolExecutionNotifications", notifications}}})},
           {"results", results}};
  return Json{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({run})}};
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
    out += file + "\n";
    for (auto *k : kernels) {
      out += fmt::format("  {} ({}{}{}, line {})\n", k->name, k->dialect,
                         k->autotuned ? ", autotuned" : "", k->heuristics ? ", heuristics" : "",
                         k->line);
      for (auto &l : k->loops)
        out += fmt::format("    loop line {:<5} {:<9} {} dot{}  {}\n", l.line, l.form, l.dots,
                           l.dots == 1 ? " " : "s", l.why);
      for (auto &f : k->findings)
        out += fmt::format("    {}:{}: {}: {}\n", file, f.line, f.kind, f.message);
    }
    for (auto *f : fileFindings[file])
      out += fmt::format("  {}:{}: {}: {}\n", file, f->line, f->kind, f->message);
  }
  Json s = summaryJson(r);
  out += fmt::format("\n{} kernel(s) ({} Gluon) in {} of {} file(s)", r.kernels.size(),
                     s["gluon_kernels"].get<int>(), r.filesWithKernels, r.filesScanned);
  if (r.filesExcluded)
    out += fmt::format(", {} path(s) excluded", r.filesExcluded);
  if (!r.errors.empty())
    out += fmt::format(", {} unreadable (see stderr)", r.errors.size());
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

int execute() {
  if (opts.json)
    opts.format = "json";
  source::SurveyOptions options;
  options.excludes = opts.excludes;
  options.useGitignore = !opts.noGitignore;
  options.jobs = opts.jobs;
  ProgressLine progress("survey", opts.quiet);
  options.progress = progress.callback();
  auto report = source::survey(opts.roots, options);
  progress.finish();
  if (!report)
    return reportError(report.takeError());
  printErrorLines(report->errors);
  if (opts.format == "json") {
    printJson(reportJson(*report));
  } else if (opts.format == "sarif") {
    printJson(sarifJson(*report));
  } else {
    std::string text = reportText(*report);
    printText(text);
  }
  return kExitOk;
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
  cmd->add_option("-j,--jobs", opts.jobs, "Files parsed in parallel (0: all cores)")
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", opts.quiet, "No progress line on a terminal");
  cmd->add_option("--format", opts.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  cmd->add_flag("--json", opts.json, "Same as --format json");
}

int runSurveyCommand() { return execute(); }

} // namespace tilexform::cli
