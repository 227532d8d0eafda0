// libFuzzer entry point for `layout --type`: a tensor or memdesc type, its
// layout's linear layout at the type's shape (or a shape the first byte
// picks), the Gluon constructor and the round-trip proof. Every input gives
// a result or an error, never a crash, a hang or an exception escaping.
#include "FuzzSupport.h"

#include "tilexform/gluon/Gluon.h"
#include "tilexform/ir/Module.h"
#include "tilexform/layout/LinearLayout.h"

#include <exception>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  if (size < 2 || size > 8192)
    return 0;
  // One context for many inputs (start-up dominates otherwise), renewed
  // now and then: uniqued attributes would grow without bound.
  static std::unique_ptr<mlir::MLIRContext> ctx;
  static unsigned uses = 0;
  if (!ctx || ++uses % 20000 == 0)
    ctx = tilexform::ir::makeContext();
  // Byte 0: a shape of rank 1-3 with power-of-two dims up to 512, used when
  // the text is a bare attribute.
  unsigned pick = data[0];
  std::vector<int64_t> shape;
  for (unsigned r = 0; r < 1 + pick % 3; ++r)
    shape.push_back(int64_t(1) << ((pick >> (2 + 2 * r)) % 10));
  std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
  tilexform::layout::EncodingPtr enc;
  if (auto t = tilexform::ir::parseTypeText(ctx.get(), text)) {
    enc = tilexform::ir::encodingOf(*t);
    shape = tilexform::ir::layoutShapeOf(*t);
  } else {
    llvm::consumeError(t.takeError());
    auto a = tilexform::ir::parseAttributeText(ctx.get(), text);
    if (!a) {
      llvm::consumeError(a.takeError());
      return 0;
    }
    if (auto l = mlir::dyn_cast<tilexform::ir::LayoutEncodingAttr>(*a))
      enc = l.getEncoding();
  }
  if (!enc || !enc->isLayout())
    return 0;
  // A layout that does not fit the shape is an error, never an exception
  // nor an abort: the fuzzer fails on either.
  if (enc->rank() == shape.size()) {
    auto ll = tilexform::layout::linearLayoutAt(*enc, shape);
    if (ll)
      (void)ll->toString();
    else
      llvm::consumeError(ll.takeError());
  }
  for (auto api : {tilexform::gluon::GluonApi::V3_6, tilexform::gluon::GluonApi::V3_5}) {
    auto g = tilexform::gluon::emitGluon(*enc, api);
    if (g.expr)
      (void)tilexform::gluon::checkRoundTrip(*enc, *g.expr, shape);
  }
  return 0;
}
