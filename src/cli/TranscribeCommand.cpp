// `tilexform transcribe PLAIN.ttgir --out anchor.py`: a Gluon kernel module
// written from plain's dump, every layout applied where plain's op carries it.
#include "tilexform/analysis/Recover.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/Output.h"
#include "tilexform/transcribe/Transcribe.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/Support/Path.h>

#include <cstdio>

namespace tilexform::cli {

namespace {

struct TranscribeCliOptions {
  std::string file, out, gluonApi = "3.6", kernelName, format = "text", arch, style = "faithful",
                         sourceRoot;
  bool json = false, force = false, allowGaps = false;
} opts;
CLI::App *transcribeCmd = nullptr;

} // namespace

void addTranscribeCommand(CLI::App &root) {
  auto *cmd = transcribeCmd = root.add_subcommand(
      "transcribe", "Write a Gluon kernel module from a plain .ttgir, every layout applied to its "
                    "op");
  cmd->add_option("file", opts.file, "The plain Triton dump (.ttgir)")->required();
  cmd->add_option("-o,--out", opts.out, "Write the module here (default: stdout, text format)");
  cmd->add_flag("--force", opts.force, "Overwrite an existing --out file");
  cmd->add_option("--kernel-name", opts.kernelName, "Name of the Gluon kernel (default: plain's)");
  cmd->add_flag("--allow-gaps", opts.allowGaps,
                "Write a placeholder that fails at compile time for what has no Gluon spelling, "
                "instead of refusing");
  cmd->add_option("--style", opts.style,
                  "faithful: one statement per op, as the dump has them (default); readable: "
                  "grouped by source line, expressions, the source's names")
      ->check(oneOf({"faithful", "readable"}))
      ->capture_default_str();
  cmd->add_option("--source-root", opts.sourceRoot,
                  "With --style readable: read the source files the dump's locations name below "
                  "this directory and quote each line above its statements");
  addArchOption(cmd, opts.arch, "The target, overriding the module's");
  addGluonApiOption(cmd, opts.gluonApi);
  addFormatOptions(cmd, opts.format, opts.json);
}

int runTranscribeCommand() {
  if (opts.json)
    opts.format = "json";
  auto api = resolveGluonApi(opts.gluonApi);
  if (!api)
    return kExitUsage;
  if (transcribeCmd->get_option("--out")->count() && opts.out.empty())
    return reportError("--out: expected a file name, got ''", kExitUsage);
  if (transcribeCmd->get_option("--kernel-name")->count()) {
    std::string problem = transcribe::kernelNameProblem(opts.kernelName);
    if (!problem.empty())
      return reportError("--kernel-name: " + problem, kExitUsage);
  }
  if (int code = refuseExistingOut(opts.out, opts.force))
    return code;
  auto loaded = loadForCommand(opts.file, "transcribe");
  if (!loaded)
    return reportError(loaded.takeError());
  if (int code =
          refuseCrossVendorArch(opts.file == "-" ? "<stdin>" : opts.file, **loaded, opts.arch))
    return code;
  auto recovered = analysis::recover(**loaded, *api, opts.arch);
  transcribe::TranscribeOptions o;
  o.api = *api;
  o.kernelName = opts.kernelName;
  o.allowGaps = opts.allowGaps;
  o.style = opts.style == "readable" ? transcribe::Style::Readable : transcribe::Style::Faithful;
  o.sourceRoot = opts.sourceRoot;
  o.sourceName = opts.file == "-" ? "<stdin>" : llvm::sys::path::filename(opts.file).str();
  auto r = transcribe::transcribe(**loaded, recovered, o);
  if (!r)
    return reportError(r.takeError());
  bool blocked = !r->blockedBy.empty();
  Verdict verdict = !blocked         ? Verdict::Transcribed
                    : opts.allowGaps ? Verdict::TranscribedWithGaps
                                     : Verdict::Blocked;
  int code = exitCodeFor("transcribe", verdict);
  bool wrote = false;
  if (!r->python.empty() && !opts.out.empty()) {
    if (int c = writeOutFile(opts.out, r->python, opts.force))
      return c;
    wrote = true;
  }
  // The report says the module was written; a report that cannot be written
  // (stdout full or closed: exit 74) takes the module back, so a failed run
  // leaves nothing behind.
  auto finish = [&](int exitCode) {
    if (wrote && stdoutFailed())
      std::remove(opts.out.c_str());
    return exitCode;
  };
  if (isJson(opts.format)) {
    Json j = envelope("transcribe", verdict, code);
    j["file"] = opts.file;
    j["kernel"] = r->kernel;
    j["anchor_kernel"] = r->anchorName;
    j["form"] = r->form;
    j["out"] = wrote ? Json(opts.out) : Json(nullptr);
    j["coverage"] =
        Json{{"transcribed", r->opsTranscribed},
             {"total", r->opsTotal},
             {"ratio", r->opsTotal ? double(r->opsTranscribed) / double(r->opsTotal) : 1.0}};
    Json gaps = Json::array();
    for (auto &g : r->blockedBy)
      gaps.push_back(
          Json{{"kind", g.kind}, {"what", g.what}, {"line", g.line}, {"reason", g.reason}});
    j["blocked_by"] = gaps;
    Json notCarried = Json::array();
    for (auto &n : r->notCarried)
      notCarried.push_back(
          Json{{"what", n.what}, {"line", n.line}, {"count", n.count}, {"reason", n.reason}});
    j["not_carried"] = notCarried;
    j["imports"] = r->imports;
    if (opts.out.empty() && !r->python.empty())
      j["python"] = r->python;
    printJson(j);
    return finish(code);
  }
  if (opts.out.empty() && !r->python.empty() && !blocked) {
    printText(r->python);
    return code;
  }
  std::string out = fmt::format("transcribe: {} ({}, {})\n", opts.file, r->kernel, r->form);
  out += fmt::format("  coverage: {}/{} ops\n", r->opsTranscribed, r->opsTotal);
  for (auto &g : r->blockedBy)
    out += fmt::format("  blocked by {} {} at line {}: {}\n", g.kind, g.what, g.line, g.reason);
  for (auto &n : r->notCarried)
    out += fmt::format("  not carried: {} x{} (first at line {}): {}\n", n.what, n.count, n.line,
                       n.reason);
  if (wrote)
    out += fmt::format("  wrote {}\n", opts.out);
  else if (blocked && !opts.allowGaps)
    out += "  nothing written (--allow-gaps writes placeholders that fail at compile time)\n";
  out += fmt::format("verdict: {}\n", verdictName(verdict));
  if (opts.out.empty() && !r->python.empty()) {
    // The module on stdout: the report before it as Python comments, so
    // stdout stays one module Python compiles.
    std::string commented;
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(out).split(lines, '\n', -1, false);
    for (llvm::StringRef l : lines)
      commented += "# " + l.str() + "\n";
    out = commented + r->python;
  }
  printText(out);
  return finish(code);
}

} // namespace tilexform::cli
