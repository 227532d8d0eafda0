// `tilexform recover FILE.ttgir`: plain Triton's layouts as Gluon constructors,
// with proofs, use sites, roles, pipelining, load buckets and shared memory.
#include "tilexform/analysis/Recover.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/HtmlReport.h"
#include "tilexform/cli/ReportView.h"

#include "tilexform/support/InputError.h"
#include <llvm/ADT/ScopeExit.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

namespace tilexform::cli {

namespace {

struct RecoverOptions {
  std::vector<std::string> files;
  std::string html;
  bool allowUnrecoverable = false;
  size_t maxSites = 8;
  CommonOptions common;
} opts;

/// One dump's recovered layouts and the verdict on them.
struct Recovered {
  const analysis::RecoverReport &report;
  std::string shown;
  Verdict verdict;
  int exitCode;
};

class RecoverView : public ReportView {
public:
  explicit RecoverView(const Recovered &r) : r_(r) {}

  Json json() const override {
    Json j = envelope("recover", r_.verdict, r_.exitCode);
    j["file"] = r_.shown;
    j["module"] = Json{
        {"target", r_.report.facts.target.empty() ? Json(nullptr) : Json(r_.report.facts.target)},
        {"arch", r_.report.arch.empty() ? Json(nullptr) : Json(r_.report.arch)},
        {"num_warps", optionalJson(r_.report.facts.numWarps)},
        {"threads_per_warp", optionalJson(r_.report.facts.threadsPerWarp)},
        {"num_ctas", optionalJson(r_.report.facts.numCtas)}};
    j["gluon_api"] = gluon::gluonApiName(r_.report.api);
    Json layouts = Json::array();
    for (auto &l : r_.report.layouts) {
      Json lj;
      lj["name"] = l.name;
      lj["attr"] = l.attr;
      lj["kind"] = l.kind;
      lj["gluon"] = l.gluon ? Json(*l.gluon) : Json(nullptr);
      lj["status"] = verdictName(l.status);
      lj["reason"] = l.reason.empty() ? Json(nullptr) : Json(l.reason);
      lj["role"] = l.role;
      lj["roles"] = l.roles;
      lj["warps"] = l.warps ? Json(l.warps) : Json(nullptr);
      lj["site_count"] = l.siteCount;
      Json sites = Json::array();
      for (size_t i = 0; i < l.sites.size(); ++i) {
        auto &s = l.sites[i];
        sites.push_back(Json{{"op", s.op},
                             {"position", s.position},
                             {"line", s.line},
                             {"shape", s.shape},
                             {"element_type", s.elementType},
                             {"memory", s.memory},
                             {"source", sourceJson(s.source)}});
      }
      lj["sites"] = std::move(sites);
      layouts.push_back(std::move(lj));
    }
    j["layouts"] = std::move(layouts);
    Json unsupported = Json::array();
    for (auto &u : r_.report.unsupportedOps)
      unsupported.push_back(
          Json{{"name", u.name}, {"count", u.count}, {"line", u.line}, {"reason", u.reason}});
    j["unsupported_ops"] = std::move(unsupported);
    Json loops = Json::array();
    for (auto &f : r_.report.loops)
      loops.push_back(Json{{"op", f.op},
                           {"line", f.line},
                           {"function", f.function},
                           {"num_stages", optionalJson(f.numStages)},
                           {"loads", f.loads},
                           {"dots", f.dots},
                           {"async_copies", f.asyncCopies},
                           {"buffers", f.buffers},
                           {"iter_args", f.iterArgs},
                           {"prefetch", f.prefetch},
                           {"verdict", verdictName(f.verdict)},
                           {"why", f.why},
                           {"source", sourceJson(f.source)}});
    j["loops"] = std::move(loops);
    Json loads = Json::array();
    for (auto &l : r_.report.loads)
      loads.push_back(Json{{"op", l.op},
                           {"line", l.line},
                           {"bucket", l.bucket},
                           {"operands", l.operands},
                           {"contiguity", optionalJson(l.contiguity)},
                           {"stride", l.stride},
                           {"in_loop", l.inLoop}});
    j["loads"] = std::move(loads);
    auto &sh = r_.report.shared;
    Json allocs = Json::array();
    for (auto &a : sh.allocations)
      allocs.push_back(Json{{"name", a.name},
                            {"line", a.line},
                            {"type", a.type},
                            {"bytes", a.bytes},
                            {"live_from_line", a.firstLine},
                            {"live_to_line", a.lastLine}});
    j["shared"] = Json{
        {"peak_bytes", sh.peakBytes},
        {"declared_bytes", sh.declaredBytes},
        {"compiler_bytes", optionalJson(sh.compilerBytes)},
        {"capacity_bytes", sh.capacity ? Json(sh.capacity->value) : Json(nullptr)},
        {"capacity_source", sh.capacity ? Json(sh.capacity->source) : Json(sh.capacityNote)},
        {"over_capacity", sh.capacity ? Json(sh.peakBytes > sh.capacity->value) : Json(nullptr)},
        {"allocations", std::move(allocs)}};
    Json mismatches = Json::array();
    for (auto &m : r_.report.warpMismatches)
      mismatches.push_back(Json{{"layout", m.layout},
                                {"layout_warps", m.layoutWarps},
                                {"num_warps", m.expected},
                                {"line", m.line}});
    j["num_warps_mismatches"] = std::move(mismatches);
    j["constants_digest"] = r_.report.constantsDigest;
    if (!opts.common.out.empty())
      j["out"] = opts.common.out;
    if (!opts.html.empty())
      j["html"] = opts.html;
    return j;
  }

  std::string text() const override {
    // The verdict first, as in every text r_.report.
    std::string out = fmt::format("verdict:   {}\n", verdictName(r_.verdict));
    out += fmt::format("file:      {}\n", r_.shown);
    out += fmt::format("target:    {}  num_warps={}  gluon api {}\n",
                       r_.report.facts.target.empty() ? "?" : r_.report.facts.target,
                       r_.report.facts.numWarps ? std::to_string(*r_.report.facts.numWarps) : "?",
                       gluon::gluonApiName(r_.report.api));
    out += fmt::format("\nlayouts ({}):\n", r_.report.layouts.size());
    for (auto &l : r_.report.layouts) {
      out += fmt::format("  {:<22} {:<14} {:<20} {} sites\n", l.name, verdictName(l.status), l.role,
                         l.siteCount);
      out += fmt::format("      {}\n", l.attr);
      if (l.gluon)
        out += fmt::format("      {}\n", *l.gluon);
      if (!l.reason.empty())
        out += fmt::format("      reason: {}\n", l.reason);
    }
    if (!r_.report.unsupportedOps.empty()) {
      out += "\nops without a Gluon builtin:\n";
      for (auto &u : r_.report.unsupportedOps)
        out += fmt::format("  {} ({}x, first at line {}): {}\n", u.name, u.count, u.line, u.reason);
    }
    if (!r_.report.warpMismatches.empty()) {
      out += "\nnum_warps disagreements:\n";
      for (auto &m : r_.report.warpMismatches)
        out += fmt::format("  {}: {} warps, the module runs {} (line {})\n", m.layout,
                           m.layoutWarps, m.expected, m.line);
    }
    out += "\nloops:\n";
    for (auto &f : r_.report.loops)
      out += fmt::format("  line {:<5} {:<14} num_stages={} loads={} dots={} async={} buffers={} "
                         "iter_args={}  ({})\n",
                         f.line, verdictName(f.verdict),
                         f.numStages ? std::to_string(*f.numStages) : "-", f.loads, f.dots,
                         f.asyncCopies, f.buffers, f.iterArgs, f.why);
    if (!r_.report.loads.empty()) {
      std::map<std::string, int> buckets;
      for (auto &l : r_.report.loads)
        ++buckets[l.op + " " + l.bucket];
      out += "\nload operand buckets:\n";
      for (auto &[k, n] : buckets)
        out += fmt::format("  {:>3}  {}\n", n, k);
    }
    auto &sh = r_.report.shared;
    out +=
        fmt::format("\nshared memory: peak {} B live ({} B declared{}); capacity {}\n",
                    sh.peakBytes, sh.declaredBytes,
                    sh.compilerBytes ? fmt::format(", compiler total {} B", *sh.compilerBytes) : "",
                    sh.capacity ? fmt::format("{} B ({})", sh.capacity->value, sh.capacity->source)
                                : "unknown: " + sh.capacityNote);
    for (auto &a : sh.allocations)
      out += fmt::format("  {} B  {} line {}-{}  {}\n", a.bytes, a.name, a.firstLine, a.lastLine,
                         a.type);
    out += fmt::format("\nconstants-digest: {}\n", r_.report.constantsDigest);
    if (!opts.common.out.empty())
      out += fmt::format("wrote {}\n", opts.common.out);
    return out;
  }

private:
  const Recovered &r_;
};

FileOutput recoverOne(const std::string &file) {
  FileOutput o;
  auto loaded = loadForCommand(file, "recover");
  if (!loaded) {
    o.error = errorLine(loaded.takeError());
    return o;
  }
  const CommonOptions &common = opts.common;
  // The name the reader gave the module: the input as shown (shownPath).
  const std::string &shown = (*loaded)->path;
  if (int code = refuseCrossVendorArch(shown, **loaded, common.arch)) {
    o.exitCode = code;
    o.reported = true;
    return o;
  }
  auto kept = std::make_unique<analysis::RecoverReport>(
      analysis::recover(**loaded, common.api(), common.arch, opts.maxSites));
  auto &report = *kept;
  llvm::scope_exit keep([&] { keepUntilExit(std::move(kept)); });

  bool unrecoverable = false, differs = false;
  for (auto &l : report.layouts) {
    unrecoverable |= l.status == Verdict::Unrecoverable;
    differs |= l.status == Verdict::Differs;
  }
  Verdict verdict = !report.warpMismatches.empty() ? Verdict::NumWarpsMismatch
                    : differs                      ? Verdict::Differs
                    : unrecoverable                ? Verdict::Unrecoverable
                                                   : Verdict::Recovered;
  int exitCode = verdict == Verdict::Unrecoverable && opts.allowUnrecoverable
                     ? kExitOk
                     : exitCodeFor("recover", verdict);

  if (!common.out.empty()) {
    auto text = analysis::anchorModule(report, shown);
    if (!text) {
      o.exitCode = reportError(text.takeError(), kExitInternal);
      o.reported = true;
      return o;
    }
    if (int code = writeOutFile(common.out, *text, common.force)) {
      o.exitCode = code;
      o.reported = true;
      return o;
    }
  }
  if (!opts.html.empty()) {
    if (int code =
            writeOutFile(opts.html, recoverHtml(report, verdict, shown), common.force, "--html")) {
      o.exitCode = code;
      o.reported = true;
      return o;
    }
  }
  return reportOutput(common, RecoverView(Recovered{report, shown, verdict, exitCode}), exitCode);
}

} // namespace

void addRecoverCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "recover", "Plain Triton's layouts as Gluon constructors, with proof, roles and facts");
  cmd->add_option("files", opts.files, "Plain Triton .ttgir dumps ('-': standard input)")
      ->required();
  CommonOptions &common = opts.common;
  common.addJobs(cmd);
  common.addGluonApi(cmd);
  common.addOut(cmd, "Write the layouts as a Python module (anchor_layouts.py)");
  cmd->add_option("--html", opts.html,
                  "Write the report as one self-contained HTML page (every layout drawn)");
  common.addForce(cmd, "Overwrite --out or --html if it exists");
  cmd->add_flag("--allow-unrecoverable", opts.allowUnrecoverable,
                "Exit 0 even when some layout has no Gluon constructor");
  common.addArch(cmd, "Override the target arch");
  cmd->add_option("--max-sites", opts.maxSites,
                  "List at most N use sites per layout (0: all; site_count is always the total)")
      ->check(CLI::Validator(checkCount, "N"));
  common.addFormat(cmd);
}

int runRecoverCommand() {
  CommonOptions &common = opts.common;
  if (int code = common.prepare())
    return code;
  if (!common.out.empty() && opts.files.size() != 1)
    return reportError("--out writes the module of one dump; give one file", kExitUsage);
  // Refuse before any work: an existing target needs --force.
  if (int code = common.refuseExistingOut())
    return code;
  if (!opts.html.empty() && opts.files.size() != 1)
    return reportError("--html writes the report of one dump; give one file", kExitUsage);
  if (int code = refuseExistingOut(opts.html, common.force, "--html"))
    return code;
  return runOverFiles("recover", opts.files, common, recoverOne);
}

} // namespace tilexform::cli
