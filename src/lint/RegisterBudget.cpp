// register-budget: a warp-specialized kernel launches with every partition's
// warps (the workers' rounded up to a warpgroup of 4) at the register count
// the compiled kernel declares; registers x threads must fit the register
// file one block may use. The register count comes from the artifacts beside
// the dump (`<stem>.cubin`, else the metadata `<stem>.json`).
#include "LintContext.h"

#include "tilexform/asm/Artifacts.h"
#include "tilexform/hw/ArchData.h"
#include "tilexform/support/InputError.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <fmt/format.h>

#include <cstdlib>

namespace tilexform::lint {

namespace {

unsigned partitionWarps(const ir::Region &r) {
  auto at = r.label.find("num_warps(");
  return at == std::string::npos ? 0
                                 : unsigned(std::strtoul(r.label.c_str() + at + 10, nullptr, 10));
}

/// The registers per thread the artifacts beside the dump declare.
std::optional<asmfile::Figure> registersBeside(const std::string &dump) {
  for (auto kind : {asmfile::ArtifactKind::Cubin, asmfile::ArtifactKind::MetadataJson}) {
    llvm::SmallString<256> path(dump);
    llvm::sys::path::replace_extension(path,
                                       kind == asmfile::ArtifactKind::Cubin ? ".cubin" : ".json");
    if (!llvm::sys::fs::exists(path) || !isRegularFile(std::string(path)))
      continue;
    auto buffer = readInputFile(std::string(path));
    if (!buffer) {
      llvm::consumeError(buffer.takeError());
      continue;
    }
    auto facts = asmfile::readArtifact(kind, std::string(path), (*buffer)->getBuffer());
    if (!facts) {
      llvm::consumeError(facts.takeError());
      continue;
    }
    for (auto &k : *facts) {
      if (k.registers)
        return k.registers;
      if (k.jsonRegisters)
        return k.jsonRegisters;
    }
  }
  return std::nullopt;
}

} // namespace

void checkRegisterBudget(LintContext &ctx) {
  std::vector<const ir::Operation *> specialized;
  for (const ir::Operation *op : allOps(ctx.module))
    if (op->name == "ttg.warp_specialize")
      specialized.push_back(op);
  if (specialized.empty())
    return;
  if (ctx.options.dumpPath.empty() || ctx.options.dumpPath == "-" || !ctx.nvidia()) {
    ctx.report.notes.push_back("register-budget: not judged (an NVIDIA dump read from a file, "
                               "with its .cubin or metadata .json beside it, is needed)");
    return;
  }
  auto regs = registersBeside(ctx.options.dumpPath);
  auto file = hw::figure(ctx.target->arch, "registers_per_block");
  if (!regs || !file) {
    ctx.report.notes.push_back(
        regs ? "register-budget: not judged (no register-file figure for " + ctx.target->arch + ")"
             : "register-budget: not judged (no .cubin or metadata .json with the register "
               "count beside the dump)");
    return;
  }
  unsigned warps = unsigned(ctx.module.facts.numWarps.value_or(0));
  for (const ir::Operation *ws : specialized) {
    unsigned workers = 0;
    for (size_t i = 1; i < ws->regions.size(); ++i)
      workers += partitionWarps(*ws->regions[i]);
    unsigned padded = (workers + 3) / 4 * 4;
    int64_t threads = int64_t(warps + padded) * 32;
    int64_t need = regs->value * threads;
    if (need <= file->value)
      continue;
    ctx.add(Rule::RegisterBudget, ws,
            fmt::format("{} registers per thread ({}, {}) x {} threads (num_warps {} + {} worker "
                        "warp(s), padded to {}) = {} registers, more than the {} a block has on "
                        "{}: the launch fails",
                        regs->value, llvm::sys::path::filename(regs->file).str(), regs->field,
                        threads, warps, workers, padded, need, file->value, ctx.target->arch),
            fmt::format("cap the registers (maxnreg <= {}), or give the partitions fewer warps",
                        file->value / threads));
  }
}

} // namespace tilexform::lint
