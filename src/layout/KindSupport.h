// What the kinds' files share: Triton's small layout utilities on named
// dims, the printed CGA part, the checks several rules make and the readers'
// common steps.
#pragma once

#include "tilexform/layout/Encoding.h"
#include "tilexform/layout/Kind.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace tilexform::layout::detail {

/// What linearLayoutAt returns when a layout and a shape do not fit.
llvm::Error misfit(const std::string &msg);
bool isPow2(int64_t v);
/// [rank-1, ..., 0], with the two minor dims swapped unless row-major.
std::vector<unsigned> matrixOrder(unsigned rank, bool rowMajor);
std::vector<std::string> permuteNames(const std::vector<std::string> &names,
                                      const std::vector<unsigned> &order);
std::vector<int32_t> toI32(const std::vector<unsigned> &v);
/// `, CGALayout = [[...]]` in an attribute, empty for one CTA.
std::string cgaSuffix(const CGALayout &cga);
bool anyNotOne(const std::vector<unsigned> &v);
/// `dim0 = shape[0], ...`, the shape as ensureLayout* take it.
std::vector<std::pair<std::string, int64_t>> labeledShape(const std::vector<int64_t> &shape);
/// The CTAs each dim is split over (Triton's CTASplitNum).
std::vector<unsigned> ctaSplitNum(const CGALayout &cga, unsigned rank);
std::vector<int64_t> shapePerCTA(const CGALayout &cga, const std::vector<int64_t> &shape);

// Dot operands (KindSupport.cpp): what the parents' dotOperandLinear share.
std::vector<unsigned> orderForDotOperand(unsigned opIdx, unsigned rank, bool kContig);
/// The identity over `sizes` in `order`, broadcast (zeros) along `kDim`.
LinearLayout broadcastedDotOperandLayout(const std::vector<unsigned> &sizes,
                                         const std::vector<unsigned> &order, unsigned kDim,
                                         const std::string &in);
/// The parent's CGA with K zeroed: operands are multicast along K.
llvm::Expected<LinearLayout> dotOperandCga(const CGALayout &cga, unsigned opIdx, unsigned rank);

// The readers' common steps (KindSupport.cpp).
/// An integer read as int64 as the model's unsigned field: a value out of
/// range becomes 0, which validateEncoding refuses as it refuses 0, so
/// every spelling of one bad value gets one message.
unsigned positiveOrZero(int64_t v);
/// Named bases `in -> dim0..dim{rank-1}`, out-dim sizes inferred, checked
/// by LinearLayout::createInferred; a broken rule is reported to `f`.
std::optional<LinearLayout> namedLinear(AttrFields &f,
                                        std::vector<std::pair<std::string, Bases>> dims,
                                        unsigned rank, bool requireSurjective);
/// The `offset`/`block` bases of shared_linear and the long padded_shared
/// form; any other key is an error.
bool offsetBlockBases(AttrFields &f, Bases &off, Bases &blk, bool &ok);
/// A Gluon class's bases over its explicit `shape` (DistributedLinearLayout,
/// PaddedSharedLayout); a basis outside the shape is an error.
/// The fields of swizzled_shared, amd_rotating_shared and (with `legacy`,
/// which also takes hasLeadingOffset) the pre-3.3 `#ttg.shared`.
bool readSwizzleFields(AttrFields &f, bool legacy, LegacySharedEncoding &e);
LinearLayout basesOverShape(const GluonArgs &a, std::vector<std::pair<std::string, Bases>> dims,
                            const std::vector<unsigned> &shape);

// The validation rules' shared checks (Validate.cpp).
bool allPow2(const std::vector<unsigned> &v);
/// The product of `v` (a layout's warps: the product of its warpsPerCTA).
unsigned product(const std::vector<unsigned> &v);
bool isPermutation(const std::vector<unsigned> &order, size_t rank);
/// The first non-empty message.
std::string firstError(std::initializer_list<std::string> checks);
/// `what` has one power-of-two entry per dim.
std::string checkCounts(const char *what, const std::vector<unsigned> &v, size_t rank);
std::string checkCga(const CGALayout &cga, size_t rank);
/// A swizzled shared layout's fields (swizzled_shared, amd_rotating_shared
/// and the pre-3.3 `#ttg.shared`).
std::string checkSwizzle(unsigned vec, unsigned perPhase, unsigned maxPhase,
                         const std::vector<unsigned> &order, const CGALayout &cga);
/// A module constant's name for a swizzled shared layout, by its fields:
/// `SWIZZLED_SHARED_V8_P1_M8`, `_ORDER01` where the order is not the
/// row-major one.
std::string swizzleConstantName(const char *prefix, unsigned vec, unsigned perPhase,
                                unsigned maxPhase, const std::vector<unsigned> &order);

} // namespace tilexform::layout::detail
