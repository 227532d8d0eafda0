// A linear layout: a GF(2)-linear map from named input dimensions (register,
// lane, warp, block; or offset, block) to named output dimensions (dim0..).
//
// The algebra follows Triton's definition exactly, including the order of
// input and output dimensions, because two layouts are equal only when their
// bases are equal in order: tilexform decides layout equivalence on these
// normal forms.
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilexform::layout {

class LinearLayout {
public:
  using Basis = std::vector<int32_t>;
  using DimBases = std::pair<std::string, std::vector<Basis>>;
  using OutDim = std::pair<std::string, int32_t>;

  LinearLayout() = default;
  /// Bases with explicit output sizes, from the model's own derivations
  /// (bases it computed, valid by construction). Input read from a file goes
  /// through create() or createInferred().
  LinearLayout(std::vector<DimBases> bases, std::vector<OutDim> outDims);

  /// A layout from bases read from input, checked as Triton's LinearLayout
  /// asserts: every out-dim size a power of two, in- and out-dim names
  /// distinct, each basis one component per out-dim and within its size,
  /// and, with `requireSurjective`, every output reached. The first rule
  /// broken is the error (never an exception).
  static llvm::Expected<LinearLayout> create(std::vector<DimBases> bases,
                                             std::vector<OutDim> outDims, bool requireSurjective);
  /// create() with the out-dim sizes inferred as inferred() does: each the
  /// smallest power of two above its largest component (a negative or huge
  /// component is an error). Triton assumes such a layout surjective.
  static llvm::Expected<LinearLayout> createInferred(std::vector<DimBases> bases,
                                                     const std::vector<std::string> &outNames,
                                                     bool requireSurjective);
  /// Bases with output sizes inferred as the smallest power of two above the
  /// largest basis component (the layout is assumed surjective).
  static LinearLayout inferred(std::vector<DimBases> bases,
                               const std::vector<std::string> &outNames);

  static LinearLayout empty() { return {}; }
  static LinearLayout identity1D(int32_t size, const std::string &in, const std::string &out);
  static LinearLayout strided1D(int32_t size, int32_t stride, const std::string &in,
                                const std::string &out);
  static LinearLayout zeros1D(int32_t size, const std::string &in, const std::string &out,
                              int32_t outSize = 1);

  const std::vector<DimBases> &bases() const { return bases_; }
  const std::vector<OutDim> &outDims() const { return outDims_; }
  std::vector<std::string> inDimNames() const;
  std::vector<std::string> outDimNames() const;
  bool hasInDim(const std::string &name) const;
  bool hasOutDim(const std::string &name) const;
  int inDimSizeLog2(const std::string &name) const;
  int32_t inDimSize(const std::string &name) const { return int32_t(1) << inDimSizeLog2(name); }
  int outDimSizeLog2(const std::string &name) const;
  int32_t outDimSize(const std::string &name) const;
  int outDimIndex(const std::string &name) const;
  int numInDims() const { return int(bases_.size()); }
  int numOutDims() const { return int(outDims_.size()); }
  int totalInBits() const;
  int totalOutBits() const;
  const std::vector<Basis> &basesOf(const std::string &inDim) const;
  std::vector<Basis> &mutableBasesOf(const std::string &inDim);

  /// Direct sum: `inner` is the more minor factor.
  friend LinearLayout operator*(const LinearLayout &inner, const LinearLayout &outer);
  LinearLayout &operator*=(const LinearLayout &outer) {
    *this = *this * outer;
    return *this;
  }
  friend bool operator==(const LinearLayout &a, const LinearLayout &b);
  friend bool operator!=(const LinearLayout &a, const LinearLayout &b) { return !(a == b); }
  bool equalIgnoringOutDimSizes(const LinearLayout &other) const;

  LinearLayout transposeOuts(const std::vector<std::string> &names) const;
  LinearLayout transposeIns(const std::vector<std::string> &names) const;
  LinearLayout reshapeIns(const std::vector<OutDim> &newIns) const;
  LinearLayout reshapeOuts(const std::vector<OutDim> &newOuts) const;
  LinearLayout sublayout(const std::vector<std::string> &ins,
                         const std::vector<std::string> &outs) const;
  bool sublayoutIsZero(const std::vector<std::string> &ins,
                       const std::vector<std::string> &outs) const;
  /// Maps every basis of this layout through `outer`.
  LinearLayout compose(const LinearLayout &outer) const;
  /// C with outer(C(x)) == this(x), preferring low-index inputs; an error
  /// when `outer` does not cover this layout's image (two layouts of
  /// different data).
  llvm::Expected<LinearLayout> invertAndCompose(const LinearLayout &outer) const;
  /// An error when the layout is not surjective.
  llvm::Expected<LinearLayout> pseudoinvert() const;
  std::optional<LinearLayout> invert() const;

  /// Output coordinates for one input tuple (missing in-dims are 0).
  std::vector<std::pair<std::string, int32_t>>
  apply(const std::vector<std::pair<std::string, int32_t>> &ins) const;
  /// For each in-dim, the bit mask of its free (redundant) input bits.
  std::vector<std::pair<std::string, uint64_t>> freeVariableMasks() const;
  int rank() const;
  bool isSurjective() const { return rank() == totalOutBits(); }
  bool isInjective() const { return rank() == totalInBits(); }
  bool isInvertible() const { return isSurjective() && isInjective(); }

  /// Triton's toString() rendering.
  std::string toString() const;

private:
  // Matrix over GF(2): one uint64 per output bit row, columns are input bits.
  std::vector<uint64_t> matrixRows() const;

  std::vector<DimBases> bases_;
  std::vector<OutDim> outDims_;
};

// Helpers from Triton's layout utilities, expressed on named dims.
std::vector<std::string> standardOutDimNames(int rank);
std::vector<std::string> supremum(const std::vector<std::string> &x,
                                  const std::vector<std::string> &y);
LinearLayout identityStandardND(const std::string &inDim, const std::vector<int32_t> &shape,
                                const std::vector<unsigned> &order);
LinearLayout ensureLayoutNotLargerThan(const LinearLayout &layout,
                                       const std::vector<std::pair<std::string, int64_t>> &shape,
                                       bool broadcastRegisters = true);
LinearLayout ensureLayoutNotSmallerThan(const LinearLayout &layout,
                                        const std::vector<std::pair<std::string, int64_t>> &shape);
LinearLayout removeStandardDim(const LinearLayout &layout, int dim);
LinearLayout reshapeLayout(const LinearLayout &layout, const std::vector<int64_t> &shape);
LinearLayout transposeLinearLayout(const LinearLayout &layout, const std::vector<int> &order);
/// The CGA layout (in-dim `block`) combined with a per-CTA layout at `shape`.
LinearLayout combineCtaCgaWithShape(const LinearLayout &cta, const LinearLayout &cga,
                                    const std::vector<int64_t> &shape);
/// Drops the all-zero bases of one input dimension.
LinearLayout removeZeroBasesAlongDim(const LinearLayout &layout, const std::string &inDim);

} // namespace tilexform::layout
