// `tilexform probe DIR-or-FILES`: registers, spills, shared memory/LDS and
// occupancy with every limiter, per kernel.
#include "tilexform/asm/Probe.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/hw/ArchData.h"
#include "tilexform/support/InputError.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstdio>

namespace tilexform::cli {

namespace {

struct ProbeCliOptions {
  std::vector<std::string> paths;
  std::string kernel;
  CommonOptions common;
} opts;

std::string show(const std::optional<int64_t> &v) { return v ? std::to_string(*v) : "?"; }

Json kernelJson(const asmfile::ProbedKernel &k) {
  Json j;
  j["kernel"] = k.kernel;
  j["directory"] = k.directory;
  j["files"] = k.files;
  j["arch"] = k.arch ? Json(*k.arch) : Json(nullptr);
  j["arch_from"] = k.archFrom.empty() ? Json(nullptr) : Json(k.archFrom);
  j["vendor"] = k.occupancy ? Json(k.occupancy->vendor) : Json(nullptr);
  j["num_warps"] = optionalJson(k.get("num_warps"));
  j["registers"] = optionalJson(k.get("registers"));
  j["agprs"] = optionalJson(k.get("agprs"));
  j["sgprs"] = optionalJson(k.get("sgprs"));
  j["arch_vgprs"] = optionalJson(k.get("arch_vgprs"));
  j["total_vgprs"] = optionalJson(k.get("total_vgprs"));
  j["spills"] = optionalJson(k.spills);
  j["spill_detail"] = Json{{"vgpr_spills", optionalJson(k.get("vgpr_spills"))},
                           {"sgpr_spills", optionalJson(k.get("sgpr_spills"))},
                           {"scratch_bytes", optionalJson(k.get("scratch_bytes"))},
                           {"local_bytes", optionalJson(k.get("local_bytes"))},
                           {"spill_instructions", optionalJson(k.get("spill_instructions"))}};
  j["shared_bytes"] = optionalJson(k.get("shared_bytes"));
  j["static_shared_bytes"] = optionalJson(k.get("static_shared_bytes"));
  j["tmem_columns"] = optionalJson(k.get("tmem_columns"));
  j["waves_per_eu"] = optionalJson(k.get("waves_per_eu"));
  Json limits = Json::object(), details = Json::object();
  Json occupancy = nullptr;
  if (k.occupancy) {
    const auto &o = *k.occupancy;
    for (auto &l : o.limits) {
      limits[l.name] = optionalJson(l.allows);
      details[l.name] = l.detail;
    }
    occupancy = Json::object();
    occupancy[o.vendor == "amd" ? "workgroups_per_cu" : "blocks_per_sm"] = optionalJson(o.resident);
    occupancy["binding"] = o.binding.empty() ? Json(nullptr) : Json(o.binding);
    occupancy["fraction"] = o.fraction ? Json(*o.fraction) : Json(nullptr);
    j["waves_per_simd"] = optionalJson(o.wavesPerSimd);
    j["waves_by_vgpr"] = optionalJson(o.wavesByVgpr);
    j["waves_by_sgpr"] = optionalJson(o.wavesBySgpr);
  } else {
    j["waves_per_simd"] = nullptr;
    j["waves_by_vgpr"] = nullptr;
    j["waves_by_sgpr"] = nullptr;
  }
  j["compiler_occupancy"] = optionalJson(k.get("compiler_occupancy"));
  j["limits"] = limits;
  j["limit_details"] = details;
  j["occupancy"] = occupancy;
  j["declined"] = k.declined.empty() ? Json(nullptr) : Json(k.declined);
  Json sources = Json::object();
  for (auto &[key, f] : k.figures)
    sources[key] = fmt::format("{} ({})", llvm::sys::path::filename(f.file).str(), f.field);
  j["sources"] = sources;
  j["figures_used"] = k.occupancy ? Json(k.occupancy->figuresUsed) : Json::array();
  std::vector<std::string> notes = k.notes;
  if (k.occupancy)
    notes.insert(notes.end(), k.occupancy->notes.begin(), k.occupancy->notes.end());
  j["notes"] = notes;
  return j;
}

std::string kernelText(const asmfile::ProbedKernel &k) {
  std::string out = fmt::format("{}  [{}]  {}\n", k.kernel, k.arch.value_or("arch ?"),
                                (llvm::StringRef(k.directory) + "/" + k.stem).str());
  bool amd = k.occupancy ? k.occupancy->vendor == "amd"
                         : k.get("total_vgprs").has_value() || k.get("sgprs").has_value();
  auto shared = k.get("shared_bytes");
  std::string sharedText = shared ? fmt::format("{} B", *shared) : "?";
  if (amd) {
    std::string vgprs = show(k.get("registers"));
    if (auto a = k.get("arch_vgprs"), g = k.get("agprs"); a && g && *g > 0)
      vgprs += fmt::format(" ({} arch + {} AGPR)", *a, *g);
    out +=
        fmt::format("  warps {}  VGPRs {}  SGPRs {}  spills {}  LDS {}\n", show(k.get("num_warps")),
                    vgprs, show(k.get("sgprs")), show(k.spills), sharedText);
  } else {
    out += fmt::format(
        "  warps {}  registers {}  spills {}  shared {}{}\n", show(k.get("num_warps")),
        show(k.get("registers")), show(k.spills), sharedText,
        k.get("tmem_columns").value_or(0) ? fmt::format("  TMEM {} columns", *k.get("tmem_columns"))
                                          : "");
  }
  if (!k.declined.empty()) {
    out += fmt::format("  occupancy declined: {}\n", k.declined);
  } else if (k.occupancy) {
    const auto &o = *k.occupancy;
    if (o.wavesPerSimd) {
      out += fmt::format("  waves/SIMD {} (VGPR {}{}", *o.wavesPerSimd, show(o.wavesByVgpr),
                         o.wavesBySgpr ? fmt::format(", SGPR {}", *o.wavesBySgpr) : "");
      if (auto c = k.get("compiler_occupancy"))
        out += fmt::format("; LLVM says {}", *c);
      out += ")\n";
    }
    if (!o.limits.empty()) {
      std::string limits;
      for (auto &l : o.limits)
        limits += fmt::format("{}{} {}", limits.empty() ? "" : ", ", l.name,
                              l.allows ? std::to_string(*l.allows) : (l.known ? "-" : "?"));
      out += fmt::format("  {} {}  ({})  binding: {}{}\n",
                         o.vendor == "amd" ? "workgroups/CU" : "blocks/SM", show(o.resident),
                         limits, o.binding.empty() ? "?" : o.binding,
                         o.fraction ? fmt::format("  occupancy {:.1f}%", *o.fraction * 100) : "");
    }
    for (auto &n : o.notes)
      out += fmt::format("  note: {}\n", n);
  }
  for (auto &n : k.notes)
    out += fmt::format("  note: {}\n", n);
  return out;
}

/// A CSV field: quoted when it holds a comma, quote or newline (RFC 4180).
std::string csvField(const std::string &v) {
  if (v.find_first_of(",\"\n") == std::string::npos)
    return v;
  std::string out(1, '"');
  for (char c : v) {
    out.push_back(c);
    if (c == '"')
      out.push_back('"');
  }
  out.push_back('"');
  return out;
}

/// One row per kernel, as Nsight Compute and rocprof give them: the figures,
/// each limiter's allowance and the binding one. Empty fields are unknown.
const char *const kCsvFigures[] = {"num_warps",     "registers",  "arch_vgprs",   "agprs",
                                   "total_vgprs",   "sgprs",      "shared_bytes", "tmem_columns",
                                   "scratch_bytes", "local_bytes"};
const char *const kCsvLimiters[] = {"registers", "shared", "warps", "blocks", "tmem", "workgroups"};

std::string csvHeader() {
  std::vector<std::string> header = {"kernel", "arch", "directory", "stem"};
  for (const char *f : kCsvFigures)
    header.emplace_back(f);
  header.emplace_back("spills");
  for (const char *l : kCsvLimiters)
    header.push_back(fmt::format("by_{}", l));
  for (const char *c : {"resident", "binding", "occupancy", "declined"})
    header.emplace_back(c);
  return fmt::format("{}\n", fmt::join(header, ","));
}

std::string csvRow(const asmfile::ProbedKernel &k) {
  auto num = [](std::optional<int64_t> v) { return v ? std::to_string(*v) : std::string(); };
  std::vector<std::string> row = {csvField(k.kernel), csvField(k.arch.value_or("")),
                                  csvField(k.directory), csvField(k.stem)};
  for (const char *f : kCsvFigures)
    row.push_back(num(k.get(f)));
  row.push_back(num(k.spills));
  for (const char *l : kCsvLimiters) {
    std::optional<int64_t> allows;
    if (k.occupancy)
      for (auto &lim : k.occupancy->limits)
        if (lim.name == l && lim.known)
          allows = lim.allows;
    row.push_back(num(allows));
  }
  row.push_back(k.occupancy ? num(k.occupancy->resident) : std::string());
  row.push_back(csvField(k.occupancy ? k.occupancy->binding : std::string()));
  row.push_back(k.occupancy && k.occupancy->fraction ? fmt::format("{:.4f}", *k.occupancy->fraction)
                                                     : std::string());
  row.push_back(csvField(k.declined));
  return fmt::format("{}\n", fmt::join(row, ","));
}

/// The probe's kernels, each already rendered in the format asked for (a
/// JSON element, a text block or a CSV row) as it was read: what is held is
/// the output, not the tree.
class ProbeView : public ReportView {
public:
  ProbeView(const asmfile::ProbeReport &r, std::vector<std::string> &rendered)
      : r_(r), rendered_(rendered) {}

  Json json() const override {
    Json j = head();
    Json kernels = Json::array();
    for (auto &k : rendered_)
      kernels.push_back(Json::parse(k));
    j["kernels"] = std::move(kernels);
    return j;
  }

  std::string text() const override {
    std::string out;
    for (auto &p : pieces(false))
      out += p.str();
    return out;
  }

  void write(const CommonOptions &options) const override {
    if (options.jsonOutput())
      printJsonWithArrays(head(), {{"kernels", std::move(rendered_)}});
    else
      printPieces(pieces(options.format == "csv"));
  }

private:
  Json head() const {
    Verdict verdict = r_.errors.empty() ? Verdict::Ok : Verdict::Partial;
    Json j = envelope("probe", verdict, exitCodeFor("probe", verdict));
    j["inputs"] = opts.paths;
    j["files_read"] = r_.filesRead;
    j["files_skipped"] = r_.filesSkipped;
    j["errors"] = r_.errors;
    return j;
  }

  /// The text blocks (a blank line after each) and the count, or the CSV
  /// header and rows.
  std::vector<llvm::StringRef> pieces(bool csv) const {
    header_ = csv ? csvHeader() : std::string();
    footer_ =
        csv ? std::string()
            : fmt::format(
                  "{} kernel(s) from {} file(s){}{}\n", r_.kernelCount, r_.filesRead,
                  r_.filesSkipped ? fmt::format(", {} other file(s) skipped", r_.filesSkipped) : "",
                  r_.errors.empty()
                      ? ""
                      : fmt::format(", {} unreadable (see stderr)", r_.errors.size()));
    std::vector<llvm::StringRef> out{header_};
    for (auto &r : rendered_) {
      out.push_back(r);
      if (!csv)
        out.push_back("\n");
    }
    out.push_back(footer_);
    return out;
  }

  const asmfile::ProbeReport &r_;
  std::vector<std::string> &rendered_; // handed over to the JSON writer
  mutable std::string header_, footer_;
};

} // namespace

void addProbeCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "probe", "Registers, spills, shared memory/LDS and occupancy per kernel, every limiter");
  cmd->add_option("paths", opts.paths,
                  "Triton cache or dump directories (searched recursively) or artifact files")
      ->required();
  CommonOptions &common = opts.common;
  common.addArch(cmd, "Override the target arch");
  cmd->add_option("--kernel", opts.kernel,
                  "Only this kernel (its exact name, else every kernel whose name holds it)");
  common.addJobs(cmd);
  common.addFormat(cmd, {"csv"}, "Output format: text, json, jsonl, or csv (one row per kernel)");
}

int runProbeCommand() {
  CommonOptions &common = opts.common;
  if (int code = common.prepare())
    return code;
  asmfile::ProbeOptions options;
  if (!common.arch.empty())
    options.arch = common.arch;
  options.jobs = common.jobs;
  ProgressLine progress("probe", false);
  options.progress = progress.callback();
  // Each kernel is rendered as it comes and its facts freed.
  bool json = common.jsonOutput(), csv = common.format == "csv";
  auto render = [&](const asmfile::ProbedKernel &k) {
    return json ? renderArrayElement(kernelJson(k)) : csv ? csvRow(k) : kernelText(k);
  };
  std::vector<std::string> rendered;
  // --kernel NAME: the kernels of that name, else those whose name holds it.
  std::vector<std::string> containing, names;
  size_t exact = 0;
  std::string archConflict;
  options.onKernel = [&](asmfile::ProbedKernel &&k) {
    if (archConflict.empty())
      archConflict = k.archConflict;
    if (!opts.kernel.empty()) {
      names.push_back(k.kernel);
      bool same = k.kernel == opts.kernel;
      if (!same && k.kernel.find(opts.kernel) == std::string::npos)
        return;
      (same ? rendered : containing).push_back(render(k));
      exact += same;
      return;
    }
    rendered.push_back(render(k));
  };
  auto report = asmfile::probe(opts.paths, options);
  progress.finish();
  if (!report)
    return reportError(report.takeError());
  if (!archConflict.empty())
    return reportError(archConflict, kExitUsage);
  printErrorLines(report->errors);
  // Nothing readable: each unreadable file has had its one line.
  if (report->kernelCount == 0 && !report->errors.empty())
    return kExitInput;
  if (report->kernelCount == 0)
    return reportError(
        llvm::make_error<InputError>(opts.paths.front(), 0, 0,
                                     report->errors.empty()
                                         ? "no kernel artifacts found (.amdgcn, .hsaco, .cubin, "
                                           ".ptx, .sass or metadata .json)"
                                         : "no readable kernel artifacts"),
        kExitInput);
  if (!opts.kernel.empty()) {
    if (!exact)
      rendered = std::move(containing);
    if (rendered.empty()) {
      std::sort(names.begin(), names.end());
      names.erase(std::unique(names.begin(), names.end()), names.end());
      size_t found = names.size();
      if (found > 20) {
        names.resize(20);
        names.emplace_back("...");
      }
      return reportError(fmt::format("--kernel: no kernel named '{}' or holding it in its name "
                                     "among the {} found: {}",
                                     opts.kernel, found, fmt::join(names, ", ")),
                         kExitUsage);
    }
    report->kernelCount = rendered.size();
  }
  writeReport(common, ProbeView(*report, rendered), kExitOk);
  return kExitOk;
}

} // namespace tilexform::cli
