// target-op: ops and layouts the dump's target does not have. Warp
// specialization is lowered for NVIDIA sm_90 and later only; wgmma
// (`ttng.warp_group_dot`, nvidia_mma v3) exists on sm_90a alone; tcgen05
// and tensor memory on sm_100-class parts; TMA and its fences from sm_90;
// MFMA on CDNA, WMMA on RDNA; each vendor's own ops on that vendor. A layout
// of a dialect upstream Triton does not define (a fork's) is named too.
#include "LintContext.h"

#include "tilexform/hw/ArchData.h"
#include "tilexform/ir/Dialects.h"

#include <mlir/IR/BuiltinAttributes.h>

#include <fmt/format.h>

namespace tilexform::lint {

namespace {

bool isTcgen05(llvm::StringRef n) {
  return n.starts_with("ttng.tc_gen5") || n.starts_with("ttng.tmem_");
}
bool isTma(llvm::StringRef n) {
  return n.starts_with("ttng.async_tma") || n == "ttng.fence_async_shared" ||
         n == "ttng.tensormap_create" || n == "ttng.tensormap_fenceproxy_acquire";
}
bool upstreamDialect(llvm::StringRef ns) {
  return ns == "ttg" || ns == "ttng" || ns == "amdg" || ns == "gluon" || ns == "nvg" ||
         ns == "triton_gpu" || ns == "triton_nvidia_gpu" || ns == "amdgpu" || ns == "nvgpu" ||
         ns == "tt";
}

} // namespace

void checkTarget(LintContext &ctx) {
  if (!ctx.target)
    return;
  const std::string &arch = ctx.target->arch;
  std::optional<int> sm = ctx.smVersion();
  // MFMA (CDNA) or WMMA (RDNA, gfx1250): data/hw matrix_instruction.
  auto matrix = hw::fact(arch, "matrix_instruction");
  bool cdna = ctx.amd() && matrix && matrix->value == "mfma";
  bool rdna = ctx.amd() && matrix && matrix->value == "wmma";
  bool tcgen05 = sm && *sm >= 100 && *sm < 120;
  for (const ir::Operation *op : allOps(ctx.module)) {
    llvm::StringRef n(op->name);
    std::string why;
    if (n == "ttg.warp_specialize" && ctx.amd())
      why = fmt::format("warp specialization (ttg.warp_specialize) is not lowered for {}: Triton "
                        "3.6 specializes warps on NVIDIA sm_90 and later only",
                        arch);
    else if (n == "ttg.warp_specialize" && sm && *sm < 90)
      why = fmt::format("warp specialization needs sm_90 or later (setmaxnreg, async barriers); "
                        "the target is {}",
                        arch);
    else if (n.starts_with("ttng.") && ctx.amd())
      why = fmt::format("{} is an NVIDIA op; the target is {}", op->name, arch);
    else if (n.starts_with("amdg.") && ctx.nvidia())
      why = fmt::format("{} is an AMD op; the target is {}", op->name, arch);
    else if (n == "ttng.warp_group_dot" && sm && *sm != 90)
      why =
          fmt::format("wgmma (ttng.warp_group_dot) exists on sm_90a only; the target is {}", arch);
    else if (isTcgen05(n) && sm && !tcgen05)
      why = fmt::format("{} needs tcgen05 and tensor memory (sm_100/sm_103); the target is {}",
                        op->name, arch);
    else if (isTma(n) && sm && *sm < 90)
      why = fmt::format("{} needs TMA and the async proxy (sm_90 or later); the target is {}",
                        op->name, arch);
    if (!why.empty())
      ctx.add(Rule::TargetOp, op, why,
              "compile for a target that has it, or use the form this target has (mma_v2 and "
              "cp.async on sm_80, MFMA on CDNA, WMMA on RDNA, no warp specialization on AMD)");
  }
  for (const ir::LayoutAlias &a : ctx.module.aliases) {
    std::string why;
    if (auto o = mlir::dyn_cast_or_null<mlir::OpaqueAttr>(a.attr)) {
      if (!upstreamDialect(o.getDialectNamespace().strref()))
        why = fmt::format("{} is a layout of the '{}' dialect, which upstream Triton does not "
                          "define (a fork's): the upstream compiler refuses it",
                          a.name, o.getDialectNamespace().str());
    } else if (auto l = mlir::dyn_cast_or_null<ir::LayoutEncodingAttr>(a.attr)) {
      const layout::Encoding &e = *l.getEncoding();
      std::string kind = e.kind();
      if ((kind == "nvidia_mma" || kind == "nvmma_shared") && ctx.amd())
        why = fmt::format("{} is an NVIDIA layout ({}); the target is {}", a.name, kind, arch);
      else if ((kind == "amd_mfma" || kind == "amd_wmma" || kind == "amd_rotating_shared") &&
               ctx.nvidia())
        why = fmt::format("{} is an AMD layout ({}); the target is {}", a.name, kind, arch);
      else if (kind == "amd_mfma" && rdna)
        why = fmt::format("{} is an MFMA layout; {} (RDNA) has WMMA, not MFMA", a.name, arch);
      else if (kind == "amd_wmma" && cdna)
        why = fmt::format("{} is a WMMA layout; {} (CDNA) has MFMA, not WMMA", a.name, arch);
      else if (auto *m = e.as<layout::NvidiaMmaEncoding>(); m && sm) {
        if (m->versionMajor == 3 && *sm != 90)
          why = fmt::format("{} is an nvidia_mma v3 (wgmma) layout; wgmma exists on sm_90a "
                            "only and the target is {}",
                            a.name, arch);
        else if (m->versionMajor >= 5 && !tcgen05)
          why = fmt::format("{} is an nvidia_mma v{} (tcgen05) layout; the target {} has no "
                            "tcgen05",
                            a.name, m->versionMajor, arch);
      }
    }
    if (!why.empty())
      ctx.addAt(Rule::TargetOp, a.name, a.pos, why,
                "use the layout of the target's own MMA (gl.NVMMADistributedLayout for sm_80/"
                "sm_90, AMDMFMALayout on CDNA, AMDWMMALayout on RDNA)");
  }
}

} // namespace tilexform::lint
