// `tilexform transcribe PLAIN.ttgir --out anchor.py`: a Gluon kernel module
// written from plain's dump, every layout applied where plain's op carries it.
#include "tilexform/analysis/Recover.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/cli/Terminal.h"
#include "tilexform/source/GeneratedModule.h"
#include "tilexform/support/SourceFiles.h"
#include "tilexform/transcribe/Transcribe.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/Support/Path.h>

#include <cstdio>
#include <filesystem>

namespace tilexform::cli {

namespace {

struct TranscribeCliOptions {
  std::string file, kernelName, style = "readable";
  std::vector<std::string> sourceRoots;
  bool allowGaps = false;
  CommonOptions common;
} opts;
CLI::App *transcribeCmd = nullptr;

/// The module written, and whether it went to `--out`.
struct Transcription {
  const transcribe::TranscribeReport &r;
  Verdict verdict;
  bool wrote;
};

class TranscribeView : public ReportView {
public:
  explicit TranscribeView(const Transcription &t) : t_(t) {}

  Json json() const override {
    const auto &r = t_.r;
    const std::string &out = opts.common.out;
    Json j = envelope("transcribe", t_.verdict, exitCodeFor("transcribe", t_.verdict));
    j["file"] = opts.file;
    j["kernel"] = r.kernel;
    j["anchor_kernel"] = r.anchorName;
    j["form"] = r.form;
    j["out"] = t_.wrote ? Json(out) : Json(nullptr);
    j["coverage"] =
        Json{{"transcribed", r.opsTranscribed},
             {"total", r.opsTotal},
             {"ratio", r.opsTotal ? double(r.opsTranscribed) / double(r.opsTotal) : 1.0}};
    Json gaps = Json::array();
    for (auto &g : r.blockedBy)
      gaps.push_back(
          Json{{"kind", g.kind}, {"what", g.what}, {"line", g.line}, {"reason", g.reason}});
    j["blocked_by"] = gaps;
    Json notCarried = Json::array();
    for (auto &n : r.notCarried)
      notCarried.push_back(
          Json{{"what", n.what}, {"line", n.line}, {"count", n.count}, {"reason", n.reason}});
    j["not_carried"] = notCarried;
    Json helpers = Json::array();
    for (auto &h : r.helpers)
      helpers.push_back(Json{{"name", h.name}, {"source", h.source}, {"calls", h.calls}});
    j["helpers"] = helpers;
    j["imports"] = r.imports;
    if (out.empty() && !r.python.empty())
      j["python"] = r.python;
    return j;
  }

  /// The module alone on stdout, or the report (before the module, as
  /// Python comments, so stdout stays one module Python compiles).
  std::string text() const override {
    const auto &r = t_.r;
    const std::string &outFile = opts.common.out;
    bool blocked = !r.blockedBy.empty();
    if (outFile.empty() && !r.python.empty() && !blocked)
      return r.python;
    std::string out = fmt::format("transcribe: {} ({}, {})\n", opts.file, r.kernel, r.form);
    out += fmt::format("  coverage: {}/{} ops\n", r.opsTranscribed, r.opsTotal);
    for (auto &g : r.blockedBy)
      out += fmt::format("  blocked by {} {} at line {}: {}\n", g.kind, g.what, g.line, g.reason);
    for (auto &n : r.notCarried)
      out += fmt::format("  not carried: {} x{} (first at line {}): {}\n", n.what, n.count, n.line,
                         n.reason);
    for (auto &h : r.helpers)
      out += fmt::format("  helper {} for the source's {} ({} call{})\n", h.name, h.source, h.calls,
                         h.calls == 1 ? "" : "s");
    if (t_.wrote)
      out += fmt::format("  wrote {}\n", outFile);
    else if (blocked && !opts.allowGaps)
      out += "  nothing written (--allow-gaps writes placeholders that fail at compile time)\n";
    out += fmt::format("verdict: {}\n", verdictName(t_.verdict));
    if (outFile.empty() && !r.python.empty()) {
      std::string commented;
      llvm::SmallVector<llvm::StringRef> lines;
      llvm::StringRef(out).split(lines, '\n', -1, false);
      for (llvm::StringRef l : lines)
        commented += "# " + l.str() + "\n";
      out = commented + r.python;
    }
    return out;
  }

private:
  const Transcription &t_;
};

} // namespace

void addTranscribeCommand(CLI::App &root) {
  auto *cmd = transcribeCmd = root.add_subcommand(
      "transcribe", "Write a Gluon kernel module from a plain .ttgir, every layout applied to its "
                    "op");
  CommonOptions &common = opts.common;
  cmd->add_option("file", opts.file, "The plain Triton dump (.ttgir)")->required();
  common.addOut(cmd, "Write the module here (default: stdout, text format)");
  common.addForce(cmd, "Overwrite an existing --out file");
  cmd->add_option("--kernel-name", opts.kernelName, "Name of the Gluon kernel (default: plain's)");
  cmd->add_flag("--allow-gaps", opts.allowGaps,
                "Write a placeholder that fails at compile time for what has no Gluon spelling, "
                "instead of refusing");
  cmd->add_option("--style", opts.style,
                  "readable: grouped by source line, expressions, the source's names (default); "
                  "faithful: one statement per op, as the dump has them")
      ->check(oneOf({"faithful", "readable"}))
      ->capture_default_str();
  cmd->add_option("--source-root", opts.sourceRoots,
                  "With --style readable: the directory the source files the dump's locations "
                  "name are read from (repeatable; default: the dump's directory and the working "
                  "directory). Only regular .py files inside it are read, never a file a "
                  "location names outside it")
      ->allow_extra_args(false);
  common.addArch(cmd, "The target, overriding the module's");
  common.addGluonApi(cmd);
  common.addFormat(cmd);
}

int runTranscribeCommand() {
  CommonOptions &common = opts.common;
  if (int code = common.prepare())
    return code;
  if (common.outGiven() && common.out.empty())
    return reportError("--out: expected a file name, got ''", kExitUsage);
  if (transcribeCmd->get_option("--kernel-name")->count()) {
    std::string problem = transcribe::kernelNameProblem(opts.kernelName);
    if (!problem.empty())
      return reportError("--kernel-name: " + problem, kExitUsage);
  }
  if (int code = common.refuseExistingOut())
    return code;
  auto loaded = loadForCommand(opts.file, "transcribe");
  if (!loaded)
    return reportError(loaded.takeError());
  if (int code = refuseCrossVendorArch((*loaded)->path, **loaded, common.arch))
    return code;
  auto recovered = analysis::recover(**loaded, common.api(), common.arch);
  transcribe::TranscribeOptions o;
  o.api = common.api();
  o.kernelName = opts.kernelName;
  o.allowGaps = opts.allowGaps;
  o.style = opts.style == "readable" ? transcribe::Style::Readable : transcribe::Style::Faithful;
  // The sources the dump's locations name, read only from inside the
  // directories the user named or, by default, the dump's and the working
  // directory (support/SourceFiles.h).
  std::vector<std::string> roots = opts.sourceRoots;
  for (auto &root : roots) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec))
      return reportError("--source-root: " + root + " is not a directory", kExitUsage);
  }
  if (roots.empty()) {
    if (opts.file != "-")
      roots.push_back(std::filesystem::absolute(opts.file).parent_path().string());
    roots.push_back(".");
  }
  SourceFiles sources(roots, maxInputSize());
  if (o.style == transcribe::Style::Readable)
    o.sources = &sources;
  o.sourceName = opts.file == "-" ? "<stdin>" : llvm::sys::path::filename(opts.file).str();
  auto r = transcribe::transcribe(**loaded, recovered, o);
  if (!r) {
    llvm::Error err = r.takeError();
    if (transcribe::isKernelNameError(err)) {
      std::string message;
      llvm::handleAllErrors(std::move(err), [&](const InputError &e) { message = e.message; });
      return reportError(message, kExitUsage);
    }
    bool ours = err.isA<source::UnsafeModuleError>();
    return reportError(std::move(err), ours ? kExitInternal : kExitInput);
  }
  // Readable without any of the sources the dump names: say where they
  // were looked for, once (the anchor lacks the source's lines, helpers
  // and loop variables, not its correctness).
  if (o.sources && sources.askedFor() > 0 && sources.found() == 0) {
    warning(fmt::format("none of the {} source file{} the dump's locations name was found in {}; "
                        "pass --source-root DIR for the source's lines, helpers and loop "
                        "variables",
                        sources.askedFor(), sources.askedFor() == 1 ? "" : "s",
                        fmt::join(roots, ", ")));
  }
  bool blocked = !r->blockedBy.empty();
  Verdict verdict = !blocked         ? Verdict::Transcribed
                    : opts.allowGaps ? Verdict::TranscribedWithGaps
                                     : Verdict::Blocked;
  bool wrote = false;
  if (!r->python.empty() && !common.out.empty()) {
    if (int c = writeOutFile(common.out, r->python, common.force))
      return c;
    wrote = true;
  }
  int code = writeReport(common, TranscribeView(Transcription{*r, verdict, wrote}),
                         exitCodeFor("transcribe", verdict));
  // The report says the module was written; a report that cannot be written
  // (stdout full or closed: exit 74) takes the module back, so a failed run
  // leaves nothing behind.
  if (wrote && stdoutFailed())
    std::remove(common.out.c_str());
  return code;
}

} // namespace tilexform::cli
