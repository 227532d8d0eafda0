// The layout model: one value type per encoding Triton prints, independent of
// MLIR so the algebra can be tested and reused without a context.
#pragma once

#include "tilexform/layout/CGALayout.h"
#include "tilexform/layout/LinearLayout.h"
#include "tilexform/layout/kinds/AmdMfma.h"
#include "tilexform/layout/kinds/AmdWmma.h"
#include "tilexform/layout/kinds/Blocked.h"
#include "tilexform/layout/kinds/DotOperand.h"
#include "tilexform/layout/kinds/LegacyShared.h"
#include "tilexform/layout/kinds/Linear.h"
#include "tilexform/layout/kinds/NvidiaMma.h"
#include "tilexform/layout/kinds/NvmmaShared.h"
#include "tilexform/layout/kinds/PaddedShared.h"
#include "tilexform/layout/kinds/SharedLinear.h"
#include "tilexform/layout/kinds/Slice.h"
#include "tilexform/layout/kinds/SwizzledShared.h"

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tilexform::layout {

struct Encoding;
using EncodingPtr = std::shared_ptr<const Encoding>;

/// Encodings tilexform reads but has no linear layout for (tensor memory,
/// Gluon placeholders, partitioned shared): kept by their text.
struct OpaqueEncoding {
  std::string kind; // e.g. "tensor_memory_encoding"
  std::string text; // full attribute text
  bool operator==(const OpaqueEncoding &) const = default;
  /// A layout tilexform does not model (another backend's `#ttig.dpas`, a
  /// kind newer than tilexform, a Gluon placeholder), as opposed to a memory
  /// space or tensor-memory encoding: it may stand as a distributed parent.
  bool unmodelledLayout() const {
    return kind != "shared_memory" && kind != "tensor_memory_encoding" &&
           kind != "tensor_memory_scales_encoding" && kind != "ttng.tensor_memory" &&
           kind != "ttg.shared_memory";
  }
};

using EncodingVariant =
    std::variant<BlockedEncoding, SliceEncoding, DotOperandEncoding, NvidiaMmaEncoding,
                 AmdMfmaEncoding, AmdWmmaEncoding, LinearEncoding, SwizzledSharedEncoding,
                 NVMMASharedEncoding, SharedLinearEncoding, PaddedSharedEncoding,
                 LegacySharedEncoding, OpaqueEncoding>;

struct Encoding {
  EncodingVariant value;
  bool operator==(const Encoding &o) const { return value == o.value; }

  template <typename T> const T *as() const { return std::get_if<T>(&value); }
  template <typename T> bool is() const { return std::holds_alternative<T>(value); }
  /// Triton's mnemonic: "blocked", "slice", "dot_op", "amd_mfma", ...
  std::string kind() const;
  bool isShared() const;
  bool isDistributed() const;
  /// A layout (as opposed to a memory space or another non-layout attribute
  /// kept by text). Tensor-memory encodings are layouts without a linear form.
  bool isLayout() const;
  /// The number of tensor dims this layout describes.
  unsigned rank() const;
};

template <typename T> EncodingPtr makeEncoding(T value) {
  return std::make_shared<const Encoding>(Encoding{EncodingVariant(std::move(value))});
}

/// Canonical attribute text (Triton 3.6 printer), e.g.
/// `#ttg.blocked<{sizePerThread = [1, 8], ...}>`. Nested parents are printed
/// inline unless `aliasOf` names them.
std::string printEncoding(const Encoding &enc);
using AliasLookup = std::string (*)(const Encoding &, const void *ctx);
std::string printEncoding(const Encoding &enc, AliasLookup aliasOf, const void *ctx);

/// The shape `enc` is evaluated at for a value of `shape`: a shared layout
/// covers a memdesc's trailing dims (its leading dims count buffers); any
/// other layout the whole shape.
std::vector<int64_t> bufferShape(const Encoding &enc, std::vector<int64_t> shape);

/// The CGA layout as a LinearLayout `block -> dim0..` for `rank`; an error
/// when its bases are not of that rank.
llvm::Expected<LinearLayout> cgaToLinearLayout(const CGALayout &cga, unsigned rank);
/// Pre-3.6 CTAsPerCGA / CTASplitNum / CTAOrder to CGA bases; an error when
/// they do not describe one.
llvm::Expected<CGALayout> cgaFromSplitParams(const std::vector<unsigned> &ctasPerCGA,
                                             const std::vector<unsigned> &ctaSplitNum,
                                             const std::vector<unsigned> &ctaOrder);
/// Pre-3.6 fields recovered from CGA bases (for the old Gluon spelling).
struct SplitParams {
  std::vector<unsigned> ctasPerCGA, ctaSplitNum, ctaOrder;
};
SplitParams cgaToSplitParams(const CGALayout &cga, unsigned rank);

/// Whether `enc` is only complete at a memdesc that uses it: the pre-3.3
/// `#ttg.shared<{..., hasLeadingOffset}>` (the element type decides its
/// modern kind) and 3.5's `#ttg.padded_shared<[...] {order}>` (the shape).
bool needsMemdesc(const Encoding &enc);
/// The one resolver of those spellings: `enc` completed for a memdesc of
/// `elementBits`-bit elements and dims `dims` (the allocation shape when it
/// has one). Any other encoding, or a padded {order} form whose trailing
/// dims are no powers of two, comes back as it is.
EncodingPtr resolveAtMemdesc(const EncodingPtr &enc, unsigned elementBits,
                             const std::vector<int64_t> &dims);
/// An nvmma_shared written without its element width (before early 2025):
/// the legacy form that resolveAtMemdesc completes with the element type.
LegacySharedEncoding legacySharedOf(const NVMMASharedEncoding &e);
/// The `offset, block -> dim0..` identity over `shape` in `order`, the
/// linear layout of padded_shared's {order, shape} forms.
LinearLayout paddedIdentity(const std::vector<int32_t> &shape, const std::vector<unsigned> &order);

/// The linear layout of `enc` for a tensor (or memdesc allocation) shape;
/// an error when the layout and the shape do not fit together or the kind
/// has none (a tensor-memory layout, an unmodelled kind, a shape that is no
/// power of two).
llvm::Expected<LinearLayout> linearLayoutAt(const Encoding &enc, const std::vector<int64_t> &shape);

/// Whether two layouts are the same at `shape`: equal linear layouts (equal
/// encodings, or two whose linear layouts both exist and are equal).
bool equivalentAt(const Encoding &a, const Encoding &b, const std::vector<int64_t> &shape);

/// Whether a layout is or stands on a layout kind tilexform does not model
/// (`#ttg.slice` of a `#ttg.dot_op` of `#ttig.dpas`): its rank is unknown.
bool hasUnmodelledPart(const Encoding &enc);

/// The product of warpsPerCTA of a distributed layout (following parents);
/// 0 when the kind does not define it.
unsigned warpsInLayout(const Encoding &enc);

} // namespace tilexform::layout
