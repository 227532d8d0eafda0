#include "tilexform/hw/Occupancy.h"

#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Target.h"

#include <llvm/ADT/StringExtras.h>

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace tilexform::hw {

namespace {

int64_t roundUp(int64_t v, int64_t granule) {
  return granule <= 0 ? v : (v + granule - 1) / granule * granule;
}

/// Figures of one arch, each read once and recorded as used.
class Figures {
public:
  Figures(std::string arch, Occupancy &out) : arch_(std::move(arch)), out_(out) {}

  std::optional<int64_t> get(const std::string &key) {
    auto f = figure(arch_, key);
    if (!f)
      return std::nullopt;
    std::string line = fmt::format("{}.{} = {} ({})", arch_, key, f->value, f->source);
    if (std::find(out_.figuresUsed.begin(), out_.figuresUsed.end(), line) == out_.figuresUsed.end())
      out_.figuresUsed.push_back(line);
    return f->value;
  }

  llvm::Expected<int64_t> need(const std::string &key) {
    if (auto v = get(key))
      return *v;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no figure '" + key + "' for " + arch_ +
                                       " in data/hw; declined rather than borrowing another "
                                       "arch's number");
  }

private:
  std::string arch_;
  Occupancy &out_;
};

void decideBinding(Occupancy &occ) {
  std::optional<int64_t> least;
  bool allKnown = true;
  for (auto &l : occ.limits) {
    if (!l.known)
      allKnown = false;
    if (l.allows && (!least || *l.allows < *least))
      least = l.allows;
  }
  if (!least)
    return;
  std::string binding;
  for (auto &l : occ.limits)
    if (l.allows == least)
      binding += (binding.empty() ? "" : "+") + l.name;
  occ.binding = binding;
  if (allKnown)
    occ.resident = least;
  else
    occ.notes.push_back("not every limiter could be computed, so no residency is claimed");
}

llvm::Expected<Occupancy> nvidia(const OccupancyInput &in, Occupancy occ) {
  Figures f(in.arch, occ);
  auto maxWarps = f.need("max_warps_per_sm");
  auto maxBlocks = f.need("max_blocks_per_sm");
  auto regsPerSm = f.need("registers_per_sm");
  auto regUnit = f.need("register_alloc_unit_per_warp");
  auto subParts = f.need("register_sub_partitions");
  auto maxRegs = f.need("max_registers_per_thread");
  auto smemSm = f.need("shared_memory_per_sm_bytes");
  auto smemOptin = f.need("shared_memory_per_block_optin_bytes");
  auto reserved = f.need("reserved_shared_memory_per_block_bytes");
  auto smemUnit = f.need("shared_memory_alloc_granularity_bytes");
  auto maxThreads = f.need("max_threads_per_block");
  for (llvm::Expected<int64_t> *e :
       {&maxWarps, &maxBlocks, &regsPerSm, &regUnit, &subParts, &maxRegs, &smemSm, &smemOptin,
        &reserved, &smemUnit, &maxThreads})
    if (!*e)
      return e->takeError();
  int64_t warpSize = *hw::warpSize(in.arch), w = in.numWarps, threads = w * warpSize;

  Limiter warps{"warps", std::nullopt, true, ""};
  if (threads > *maxThreads) {
    warps.allows = 0;
    warps.detail = fmt::format("{} threads exceed {} per block", threads, *maxThreads);
  } else {
    warps.allows = *maxWarps / w;
    warps.detail = fmt::format("floor({} warps/SM / {} warps) = {}", *maxWarps, w, *warps.allows);
  }

  Limiter regs{"registers", std::nullopt, true, ""};
  if (!in.registers) {
    regs.known = false;
    regs.detail = "registers per thread unknown (needs the .cubin or n_regs in the metadata JSON)";
  } else if (*in.registers == 0) {
    regs.detail = "no registers";
  } else {
    int64_t r = *in.registers;
    int64_t perWarp = roundUp(r * warpSize, *regUnit);
    if (r > *maxRegs || perWarp * roundUp(w, *subParts) > *regsPerSm || perWarp * w > *regsPerSm) {
      regs.allows = 0;
      regs.detail = fmt::format("{} registers x {} warps do not fit {} per SM", r, w, *regsPerSm);
    } else {
      int64_t warpsPerPart = (*regsPerSm / *subParts) / perWarp;
      regs.allows = (*subParts * warpsPerPart) / w;
      regs.detail = fmt::format(
          "{} regs/thread -> {} per warp (unit {}); floor({} x floor({}/{}) / {} warps) = {}", r,
          perWarp, *regUnit, *subParts, *regsPerSm / *subParts, perWarp, w, *regs.allows);
    }
  }

  Limiter smem{"shared", std::nullopt, true, ""};
  if (!in.sharedBytes) {
    smem.known = false;
    smem.detail = "shared bytes unknown (the metadata JSON's \"shared\" is the dynamic size)";
  } else {
    // On sm_90 and later the binary's .nv.shared.<kernel> holds the block's
    // reservation (cuobjdump prints SHARED:1024 while the driver reports 0
    // static bytes for Triton kernels); the reservation is counted once, below.
    int64_t shared =
        *in.sharedBytes + std::max<int64_t>(0, in.binarySharedBytes.value_or(0) - *reserved);
    int64_t perBlock = roundUp(shared + *reserved, *smemUnit);
    if (perBlock > *smemOptin + *reserved) {
      smem.allows = 0;
      smem.detail = fmt::format("{} B + {} B reserved exceed the {} B opt-in limit", shared,
                                *reserved, *smemOptin);
    } else {
      smem.allows = *smemSm / perBlock;
      smem.detail =
          fmt::format("({} B + {} B reserved, granule {}) = {} B/block; floor({} / {}) = {}",
                      shared, *reserved, *smemUnit, perBlock, *smemSm, perBlock, *smem.allows);
    }
  }

  Limiter blocks{"blocks", *maxBlocks, true,
                 fmt::format("{} resident blocks per SM at most", *maxBlocks)};
  occ.limits = {regs, smem, warps, blocks};
  if (in.tmemColumns && *in.tmemColumns > 0) {
    if (auto cols = f.get("tmem_columns_per_sm")) {
      int64_t c = *in.tmemColumns;
      occ.limits.push_back(
          Limiter{"tmem", *cols / c, true,
                  fmt::format("floor({} TMEM columns / {}) = {}", *cols, c, *cols / c)});
    } else {
      occ.limits.push_back(
          Limiter{"tmem", std::nullopt, false,
                  "kernel allocates tensor memory but " + in.arch + " has no TMEM figure"});
    }
  }
  decideBinding(occ);
  if (occ.resident)
    occ.fraction = double(*occ.resident * w) / double(*maxWarps);
  return occ;
}

llvm::Expected<Occupancy> amd(const OccupancyInput &in, Occupancy occ) {
  Figures f(in.arch, occ);
  auto file = f.need("vgprs_per_simd_lane");
  auto granule = f.need("vgpr_alloc_granule");
  auto cap = f.need("max_waves_per_simd");
  for (llvm::Expected<int64_t> *e : {&file, &granule, &cap})
    if (!*e)
      return e->takeError();
  int64_t n = in.numWarps;

  if (!in.registers) {
    occ.notes.push_back("VGPR count unknown (needs the .amdgcn or .hsaco)");
  } else {
    int64_t v = *in.registers;
    auto perWave = f.get("max_vgprs_per_wave");
    if (perWave && v > *perWave)
      occ.wavesByVgpr = 0;
    else
      occ.wavesByVgpr =
          v <= 0
              ? *cap
              : std::min<int64_t>(*cap, *file / std::max<int64_t>(*granule, roundUp(v, *granule)));
  }
  // SGPRs only limit on GFX9 (CDNA); GFX10+ gives every wave its own SGPRs.
  auto sgprFile = f.get("sgprs_per_simd");
  auto sgprGranule = f.get("sgpr_alloc_granule");
  if (sgprFile && sgprGranule && in.sgprs)
    occ.wavesBySgpr = std::clamp<int64_t>(
        *sgprFile / roundUp(std::max<int64_t>(*in.sgprs, 1), *sgprGranule), 1, *cap);
  if (occ.wavesByVgpr)
    occ.wavesPerSimd =
        occ.wavesBySgpr ? std::min(*occ.wavesByVgpr, *occ.wavesBySgpr) : *occ.wavesByVgpr;

  auto simds = f.get("simds_per_cu");
  auto ldsCu = f.get("lds_per_cu_bytes");
  if (!simds || !ldsCu) {
    occ.notes.push_back("no per-CU figures for " + in.arch +
                        " (SIMDs or LDS per CU): workgroups per CU are not computed, only "
                        "waves per SIMD");
    return occ;
  }
  Limiter regs{"registers", std::nullopt, true, ""};
  if (!occ.wavesPerSimd) {
    regs.known = false;
    regs.detail = "register counts unknown";
  } else {
    regs.allows = (*occ.wavesPerSimd * *simds) / n;
    regs.detail = fmt::format("floor({} waves/SIMD x {} SIMDs / {} waves per workgroup) = {}",
                              *occ.wavesPerSimd, *simds, n, *regs.allows);
  }
  Limiter lds{"shared", std::nullopt, true, ""};
  if (!in.sharedBytes) {
    lds.known = false;
    lds.detail = "LDS bytes unknown: Triton's LDS is dynamic and only the metadata JSON's "
                 "\"shared\" states it (the assembly says 0)";
  } else if (*in.sharedBytes == 0) {
    lds.detail = "no LDS used";
  } else {
    auto ldsGranule = f.get("lds_alloc_granularity_bytes");
    int64_t perWg = roundUp(*in.sharedBytes, ldsGranule.value_or(1));
    auto maxWg = f.get("max_lds_per_workgroup_bytes");
    if (maxWg && perWg > *maxWg) {
      lds.allows = 0;
      lds.detail = fmt::format("{} B exceed {} B per workgroup", perWg, *maxWg);
    } else {
      lds.allows = *ldsCu / perWg;
      lds.detail = fmt::format("{} B (granule {}) per workgroup; floor({} / {}) = {}",
                               *in.sharedBytes, ldsGranule.value_or(1), *ldsCu, perWg, *lds.allows);
    }
  }
  Limiter wgs{"workgroups", std::nullopt, true, ""};
  if (n > 1) {
    if (auto maxWgs = f.get("max_workgroups_per_cu")) {
      wgs.allows = *maxWgs;
      wgs.detail = fmt::format("{} workgroups of more than one wave per CU at most", *maxWgs);
    }
  } else {
    wgs.detail = "single-wave workgroups are not capped by barriers";
  }
  occ.limits = {regs, lds, wgs};
  decideBinding(occ);
  if (occ.resident)
    occ.fraction = double(*occ.resident * n) / double(*simds * *cap);
  return occ;
}

} // namespace

llvm::Expected<Occupancy> computeOccupancy(const OccupancyInput &in) {
  auto target = parseTarget(in.arch);
  if (!target || !target->hasFigures())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), declinedNote(in.arch));
  if (in.numWarps <= 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "warps per block unknown (needs the metadata JSON, the "
                                   "binary's block size or the assembly's workgroup size)");
  Occupancy occ;
  occ.vendor = vendorName(target->vendor);
  return target->vendor == Vendor::Amd ? amd(in, std::move(occ)) : nvidia(in, std::move(occ));
}

} // namespace tilexform::hw
