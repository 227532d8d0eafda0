// swizzled_shared and AMD's amd_rotating_shared: shared memory whose rows
// are XOR-swizzled in vec-element groups (the rotating form also rotates the
// phase per block of rows), `#ttg.swizzled_shared<{...}>` and
// `gl.SwizzledSharedLayout(...)`. One model, two mnemonics.
#include "tilexform/layout/Kind.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

EncodingPtr parseAs(AttrFields &f, bool rotating) {
  LegacySharedEncoding e;
  if (!readSwizzleFields(f, /*legacy=*/false, e))
    return nullptr;
  SwizzledSharedEncoding s;
  s.vec = e.vec;
  s.perPhase = e.perPhase;
  s.maxPhase = e.maxPhase;
  s.order = e.order;
  s.cga = e.cga;
  s.rotating = rotating;
  return makeEncoding(s);
}

EncodingPtr parseSwizzled(AttrFields &f) { return parseAs(f, false); }
EncodingPtr parseRotating(AttrFields &f) { return parseAs(f, true); }

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<SwizzledSharedEncoding>();
  return fmt::format("#ttg.{}<{{vec = {}, perPhase = {}, maxPhase = {}, order = "
                     "{}{}}}>",
                     e.rotating ? "amd_rotating_shared" : "swizzled_shared", e.vec, e.perPhase,
                     e.maxPhase, listText(e.order), cgaSuffix(e.cga));
}

EncodingPtr parseGluon(const GluonArgs &a) {
  SwizzledSharedEncoding e;
  e.vec = unsigned(a.integer("vec"));
  e.perPhase = unsigned(a.integer("per_phase"));
  e.maxPhase = unsigned(a.integer("max_phase"));
  e.order = a.ints("order");
  e.cga = a.cga(unsigned(e.order.size()));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<SwizzledSharedEncoding>();
  if (e.rotating) {
    g.decline("#ttg.amd_rotating_shared has no Gluon class in "
              "Triton 3.6 (layoutToGluon does not handle it)");
    return std::nullopt;
  }
  return fmt::format("gl.SwizzledSharedLayout(vec={}, per_phase={}, "
                     "max_phase={}, order={}{})",
                     e.vec, e.perPhase, e.maxPhase, listText(e.order),
                     g.cga(e.cga, unsigned(e.order.size())));
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<SwizzledSharedEncoding>();
  return checkSwizzle(e.vec, e.perPhase, e.maxPhase, e.order, e.cga);
}

llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<SwizzledSharedEncoding>();
  unsigned rank = unsigned(shape.size());
  if (e.order.size() != rank)
    return misfit(
        fmt::format("shared layout has rank {} but the shape has rank {}", e.order.size(), rank));
  auto cgaOrErr = cgaToLinearLayout(e.cga, rank);
  if (!cgaOrErr)
    return cgaOrErr.takeError();
  const LinearLayout &cga = *cgaOrErr;
  auto spc = e.rotating ? shape : shapePerCTA(e.cga, shape);
  auto names = standardOutDimNames(int(rank));
  if (rank == 1)
    return combineCtaCgaWithShape(LinearLayout::identity1D(int32_t(spc[0]), "offset", "dim0"), cga,
                                  shape);
  unsigned colDim = e.order[0], rowDim = e.order[1];
  int32_t numCols = int32_t(spc[colDim]), numRows = int32_t(spc[rowDim]);
  Bases bases2D;
  for (int32_t c = 1; c < numCols; c *= 2)
    bases2D.push_back({0, c});
  for (int32_t r = 1; r < numRows; r *= 2) {
    int32_t phase = (r / int32_t(e.perPhase)) % int32_t(e.maxPhase);
    if (e.rotating) {
      int32_t blockNo = r / int32_t(e.maxPhase) / int32_t(e.perPhase) % int32_t(e.maxPhase);
      phase ^= blockNo;
    }
    bases2D.push_back({r, (int32_t(e.vec) * phase) % numCols});
  }
  auto cta = LinearLayout::inferred({{"offset", bases2D}}, {names[rowDim], names[colDim]});
  for (unsigned i = 2; i < rank; ++i)
    cta *= LinearLayout::identity1D(int32_t(spc[e.order[i]]), "offset", names[e.order[i]]);
  return combineCtaCgaWithShape(cta, cga, shape);
}

unsigned rank(const Encoding &enc) {
  return unsigned(enc.as<SwizzledSharedEncoding>()->order.size());
}

std::string constantName(const Encoding &enc) {
  const auto &e = *enc.as<SwizzledSharedEncoding>();
  return swizzleConstantName(e.rotating ? "ROTATING_SHARED" : "SWIZZLED_SHARED", e.vec, e.perPhase,
                             e.maxPhase, e.order);
}

bool isRotating(const Encoding &enc) { return enc.as<SwizzledSharedEncoding>()->rotating; }
bool isSwizzled(const Encoding &enc) { return !isRotating(enc); }

} // namespace

KindInfo swizzledSharedKind() {
  return {.mnemonic = "swizzled_shared",
          .gluonClass = "SwizzledSharedLayout",
          .gluonFields = withGluonCgaFields({"vec", "per_phase", "max_phase", "order"}),
          .variant = variantIndexOf<SwizzledSharedEncoding>(),
          .accepts = isSwizzled,
          .role = KindRole::Shared,
          .parseAttr = parseSwizzled,
          .print = print,
          .parseGluon = parseGluon,
          .emitGluon = emitGluon,
          .validate = validate,
          .linear = linear,
          .rank = rank,
          .constantName = constantName};
}

// AMD's rotating form: no Gluon class in Triton 3.6.
KindInfo amdRotatingSharedKind() {
  return {.mnemonic = "amd_rotating_shared",
          .variant = variantIndexOf<SwizzledSharedEncoding>(),
          .accepts = isRotating,
          .role = KindRole::Shared,
          .parseAttr = parseRotating,
          .print = print,
          .emitGluon = emitGluon,
          .validate = validate,
          .linear = linear,
          .rank = rank,
          .constantName = constantName};
}

} // namespace tilexform::layout::kinds
