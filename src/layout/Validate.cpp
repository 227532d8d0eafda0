#include "tilexform/layout/Validate.h"
#include "tilexform/layout/Kind.h"

#include "KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>

namespace tilexform::layout {

namespace detail {

bool allPow2(const std::vector<unsigned> &v) {
  return std::all_of(v.begin(), v.end(), [](unsigned x) { return isPow2(x); });
}

bool isPermutation(const std::vector<unsigned> &order, size_t rank) {
  if (order.size() != rank)
    return false;
  std::vector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

/// The first non-empty message.
std::string firstError(std::initializer_list<std::string> checks) {
  for (auto &c : checks)
    if (!c.empty())
      return c;
  return "";
}

std::string checkCounts(const char *what, const std::vector<unsigned> &v, size_t rank) {
  if (v.size() != rank)
    return fmt::format("{} has {} entries for a rank-{} layout", what, v.size(), rank);
  if (!allPow2(v))
    return fmt::format("{} entries must be powers of two", what);
  return "";
}

std::string checkCga(const CGALayout &cga, size_t rank) {
  for (auto &b : cga.bases) {
    if (b.size() != rank)
      return "CGALayout bases must have one entry per dim";
    for (auto x : b)
      if (x < 0 || (x != 0 && !isPow2(x)))
        return "CGALayout bases must be zero or powers of two";
  }
  return "";
}

} // namespace detail

namespace {

using namespace detail;

/// A swizzled shared layout's fields (swizzled_shared, amd_rotating_shared
/// and the pre-3.3 `#ttg.shared`).
std::string checkSwizzle(unsigned vec, unsigned perPhase, unsigned maxPhase,
                         const std::vector<unsigned> &order, const CGALayout &cga) {
  size_t r = order.size();
  if (r == 0 || vec == 0 || perPhase == 0 || maxPhase == 0)
    return "shared layout needs vec, perPhase, maxPhase (>= 1) and order";
  if (!isPermutation(order, r))
    return "shared order must be a permutation of the dims";
  if (!isPow2(vec) || !isPow2(perPhase) || !isPow2(maxPhase))
    return "vec, perPhase and maxPhase must be powers of two";
  return checkCga(cga, r);
}

// ---- one rule per kind --------------------------------------------------------

std::string validateBlocked(const BlockedEncoding &e) {
  size_t r = e.order.size();
  if (r == 0 || e.sizePerThread.size() != r || e.threadsPerWarp.size() != r ||
      e.warpsPerCTA.size() != r)
    return "blocked needs sizePerThread, threadsPerWarp, warpsPerCTA and order of one rank";
  for (auto *v : {&e.sizePerThread, &e.threadsPerWarp, &e.warpsPerCTA})
    if (!allPow2(*v))
      return "blocked layout entries must be powers of two";
  if (!isPermutation(e.order, r))
    return "blocked order must be a permutation of the dims";
  if (auto err = checkCga(e.cga, r); !err.empty())
    return err;
  // One CTA tile must be addressable by the (32-bit) layout algebra. Each
  // factor is at most 2^30 (the readers' bound): stop as soon as the product
  // passes 2^30, before it can overflow.
  uint64_t tile = 1;
  for (size_t d = 0; d < r && tile <= (uint64_t(1) << 30); ++d)
    for (unsigned f : {e.sizePerThread[d], e.threadsPerWarp[d], e.warpsPerCTA[d]})
      if (tile <= (uint64_t(1) << 30))
        tile *= f;
  if (tile > (uint64_t(1) << 30))
    return "blocked layout covers more than 2^30 elements per CTA";
  return "";
}

std::string validateSlice(const SliceEncoding &e) {
  if (e.parent && hasUnmodelledPart(*e.parent))
    return ""; // another backend's or a newer layout, kept by name
  if (!e.parent || !e.parent->isDistributed())
    return "slice needs a distributed parent";
  if (e.parent->rank() < 2 || e.dim >= e.parent->rank())
    return "slice dim must be below the parent rank (>= 2)";
  return validateEncoding(*e.parent);
}

std::string validateDotOperand(const DotOperandEncoding &e) {
  if (e.opIdx > 1)
    return "dot_op opIdx must be 0 or 1";
  if (e.parent && hasUnmodelledPart(*e.parent))
    return "";
  if (!e.parent || !(e.parent->is<BlockedEncoding>() || e.parent->is<NvidiaMmaEncoding>() ||
                     e.parent->is<AmdMfmaEncoding>() || e.parent->is<AmdWmmaEncoding>()))
    return "dot_op parent must be blocked or an MMA layout";
  if (e.parent->rank() < 2)
    return "dot_op parent must have rank >= 2";
  if (e.kWidth != 0 && !isPow2(e.kWidth))
    return "kWidth must be a power of two";
  return validateEncoding(*e.parent);
}

std::string validateNvidiaMma(const NvidiaMmaEncoding &e) {
  size_t r = e.warpsPerCTA.size();
  if (r == 0 || e.instrShape.empty())
    return "nvidia_mma needs 'warpsPerCTA' and 'instrShape'";
  if (auto err = firstError({checkCounts("warpsPerCTA", e.warpsPerCTA, r), checkCga(e.cga, r)});
      !err.empty())
    return err;
  if (r < 2)
    return "nvidia_mma needs rank >= 2";
  if (!allPow2(e.instrShape) ||
      (e.versionMajor == 3 ? e.instrShape.size() != 3 : e.instrShape.size() != r))
    return "nvidia_mma instrShape must be [M, N] per dim (v2) or [M, N, K] (v3), powers of two";
  return "";
}

std::string validateAmdMfma(const AmdMfmaEncoding &e) {
  size_t r = e.warpsPerCTA.size();
  if (e.instrShape.size() != 3)
    return "amd_mfma instrShape must be [M, N, K], powers of two";
  auto mn = std::make_pair(e.instrShape[0], e.instrShape[1]);
  if (mn != std::make_pair(32u, 32u) && mn != std::make_pair(16u, 16u) &&
      mn != std::make_pair(64u, 4u) && mn != std::make_pair(4u, 64u))
    return "amd_mfma instrShape (M, N) must be 32x32, 16x16, 64x4 or 4x64";
  if (!isPow2(e.instrShape[2]))
    return "amd_mfma instrShape must be [M, N, K], powers of two";
  if (e.elementBitWidth != 32 && e.elementBitWidth != 64)
    return "amd_mfma elementBitWidth must be 32 or 64";
  if (!e.tilesPerWarp.empty() && e.tilesPerWarp.size() != r)
    return "amd_mfma tilesPerWarp must have one entry per dim";
  if (auto err = firstError({checkCounts("warpsPerCTA", e.warpsPerCTA, r), checkCga(e.cga, r)});
      !err.empty())
    return err;
  if (r < 2 || r > 3)
    return "amd_mfma needs rank 2 or 3";
  if (!e.tilesPerWarp.empty() && !allPow2(e.tilesPerWarp))
    return "tilesPerWarp entries must be powers of two";
  // Triton's verifier: version 0 (unset, pre-3.5 tests) to 4 (gfx950).
  if (e.version > 4)
    return "amd_mfma version must be 0 to 4";
  return "";
}

std::string validateLinear(const LinearEncoding &e) {
  if (e.ll.outDims().empty())
    return "Empty Layout not supported";
  if (!e.ll.isSurjective())
    return "linear layout is not surjective";
  return "";
}

std::string validateNVMMAShared(const NVMMASharedEncoding &e) {
  if (e.swizzlingByteWidth != 0 && e.swizzlingByteWidth != 32 && e.swizzlingByteWidth != 64 &&
      e.swizzlingByteWidth != 128)
    return "swizzlingByteWidth must be 0, 32, 64 or 128";
  if (e.elementBitWidth == 0 || !isPow2(e.elementBitWidth) || e.elementBitWidth > 64)
    return "elementBitWidth must be 1, 2, 4, ..., 64";
  if (e.rank == 0 || e.rank > 8)
    return "nvmma_shared rank must be 1 to 8";
  return checkCga(e.cga, e.rank);
}

std::string validateSharedLinear(const SharedLinearEncoding &e) {
  if (e.ll.outDims().empty())
    return "shared_linear needs offset bases";
  if (!isPow2(e.alignment))
    return "alignment must be a power of two";
  return "";
}

std::string validatePaddedShared(const PaddedSharedEncoding &e) {
  if (e.intervalPaddings.empty())
    return "padded_shared needs at least one interval:padding pair";
  for (auto &[i, p] : e.intervalPaddings)
    if (!isPow2(i) || !isPow2(p))
      return "padded_shared intervals and paddings must be powers of two";
  if (e.orderOnly.empty() && e.linear.outDims().empty())
    return "padded_shared needs offset bases";
  if (!e.orderOnly.empty() && !isPermutation(e.orderOnly, e.orderOnly.size()))
    return "padded_shared 'order' must be a permutation of the dims";
  return "";
}

} // namespace

std::string validateEncoding(const Encoding &enc) {
  if (const KindInfo *kind = kindOf(enc))
    return kind->validate(enc);
  return std::visit(
      Overloaded{[](const BlockedEncoding &e) { return validateBlocked(e); },
                 [](const SliceEncoding &e) { return validateSlice(e); },
                 [](const DotOperandEncoding &e) { return validateDotOperand(e); },
                 [](const NvidiaMmaEncoding &e) { return validateNvidiaMma(e); },
                 [](const AmdMfmaEncoding &e) { return validateAmdMfma(e); },
                 [](const LinearEncoding &e) { return validateLinear(e); },
                 [](const SwizzledSharedEncoding &e) {
                   return checkSwizzle(e.vec, e.perPhase, e.maxPhase, e.order, e.cga);
                 },
                 [](const LegacySharedEncoding &e) {
                   // Checked as swizzled_shared before it is resolved at its memdesc.
                   return checkSwizzle(e.vec, e.perPhase, e.maxPhase, e.order, e.cga);
                 },
                 [](const NVMMASharedEncoding &e) { return validateNVMMAShared(e); },
                 [](const SharedLinearEncoding &e) { return validateSharedLinear(e); },
                 [](const PaddedSharedEncoding &e) { return validatePaddedShared(e); },
                 [](const OpaqueEncoding &) { return std::string(); },
                 [](const auto &) { return std::string(); }},
      enc.value);
}

std::string validateBasesRank(const std::vector<const Bases *> &all, unsigned &rank) {
  rank = 0;
  for (auto *b : all)
    if (b && !b->empty()) {
      rank = unsigned((*b)[0].size());
      break;
    }
  for (auto *b : all)
    if (b)
      for (auto &v : *b)
        if (v.size() != rank)
          return "all bases must have the same length";
  return "";
}

} // namespace tilexform::layout
