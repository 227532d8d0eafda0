#include "tilexform/ir/Dialects.h"
#include "tilexform/layout/Kind.h"
#include "tilexform/layout/Validate.h"

#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlow.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/GPU/IR/GPUDialect.h>
#include <mlir/Dialect/LLVMIR/LLVMDialect.h>
#include <mlir/Dialect/LLVMIR/NVVMDialect.h>
#include <mlir/Dialect/LLVMIR/ROCDLDialect.h>
#include <mlir/Dialect/Math/IR/Math.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/Dialect/UB/IR/UBOps.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/DialectImplementation.h>

#include <fmt/format.h>
#include <llvm/ADT/ScopeExit.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/raw_ostream.h>

namespace tilexform::ir {

using namespace mlir;
using layout::EncodingPtr;

namespace detail {

struct LayoutAttrStorage : public AttributeStorage {
  using KeyTy = std::pair<std::string, EncodingPtr>;
  explicit LayoutAttrStorage(const KeyTy &key) : text(key.first), enc(key.second) {}
  bool operator==(const KeyTy &key) const { return key.first == text; }
  static llvm::hash_code hashKey(const KeyTy &key) { return llvm::hash_value(key.first); }
  static LayoutAttrStorage *construct(AttributeStorageAllocator &alloc, const KeyTy &key) {
    return new (alloc.allocate<LayoutAttrStorage>()) LayoutAttrStorage(key);
  }
  std::string text;
  EncodingPtr enc;
};

struct TritonTypeStorage : public TypeStorage {
  using KeyTy = TritonTypeInfo;
  explicit TritonTypeStorage(const KeyTy &key) : info(key) {}
  bool operator==(const KeyTy &key) const { return key.text == info.text; }
  static llvm::hash_code hashKey(const KeyTy &key) { return llvm::hash_value(key.text); }
  static TritonTypeStorage *construct(TypeStorageAllocator &alloc, const KeyTy &key) {
    return new (alloc.allocate<TritonTypeStorage>()) TritonTypeStorage(key);
  }
  TritonTypeInfo info;
};

} // namespace detail

LayoutEncodingAttr LayoutEncodingAttr::get(MLIRContext *ctx, EncodingPtr enc, std::string text) {
  if (text.empty())
    text = layout::printEncoding(*enc);
  return Base::get(ctx, std::make_pair(std::move(text), std::move(enc)));
}

const EncodingPtr &LayoutEncodingAttr::getEncoding() const { return getImpl()->enc; }

llvm::StringRef LayoutEncodingAttr::getText() const { return getImpl()->text; }

TritonType TritonType::get(MLIRContext *ctx, TritonTypeInfo info) {
  return Base::get(ctx, std::move(info));
}

const TritonTypeInfo &TritonType::info() const { return getImpl()->info; }

std::string attrText(Attribute attr) {
  if (!attr)
    return "";
  if (auto l = dyn_cast<LayoutEncodingAttr>(attr))
    return l.getText().str();
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

static std::string dimsText(llvm::ArrayRef<int64_t> shape) {
  std::string s;
  for (auto d : shape)
    s += (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d)) + "x";
  return s;
}

std::string typeText(Type type) {
  if (!type)
    return "";
  if (auto t = dyn_cast<TritonType>(type))
    return t.info().text;
  if (auto t = dyn_cast<RankedTensorType>(type)) {
    std::string s = "tensor<" + dimsText(t.getShape()) + typeText(t.getElementType());
    if (t.getEncoding())
      s += ", " + attrText(t.getEncoding());
    return s + ">";
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

EncodingPtr encodingOf(Type type) {
  Attribute enc;
  if (auto t = dyn_cast<RankedTensorType>(type))
    enc = t.getEncoding();
  else if (auto t = dyn_cast<TritonType>(type))
    enc = t.info().encoding;
  if (auto l = dyn_cast_or_null<LayoutEncodingAttr>(enc))
    return l.getEncoding();
  return nullptr;
}

std::vector<int64_t> layoutShapeOf(Type type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    return std::vector<int64_t>(t.getShape().begin(), t.getShape().end());
  if (auto t = dyn_cast<TritonType>(type)) {
    auto &info = t.info();
    std::vector<int64_t> shape = info.allocShape.empty() ? info.shape : info.allocShape;
    if (auto enc = encodingOf(type)) {
      unsigned rank = enc->rank();
      if (rank && rank < shape.size())
        shape.erase(shape.begin(), shape.end() - rank);
    }
    return shape;
  }
  return {};
}

namespace {

using namespace layout;

// ---- attribute body parsing -------------------------------------------------

std::vector<unsigned> uintList(DialectAsmParser &p, Attribute a, StringRef key, bool &ok) {
  std::vector<unsigned> out;
  auto arr = dyn_cast_or_null<ArrayAttr>(a);
  if (!arr) {
    p.emitError(p.getNameLoc(), "expected a list of integers for '") << key << "'";
    ok = false;
    return out;
  }
  for (auto e : arr) {
    auto i = dyn_cast<IntegerAttr>(e);
    if (!i || i.getValue().isNegative()) {
      p.emitError(p.getNameLoc(), "expected non-negative integers in '") << key << "'";
      ok = false;
      return out;
    }
    // Triton's fields are 32-bit and its layout algebra signed: larger
    // values are refused, never cut to their low bits.
    if (i.getValue().getActiveBits() > 30) {
      p.emitError(p.getNameLoc(), "'") << key << "' entry out of range (must be below 2^30)";
      ok = false;
      return out;
    }
    out.push_back(unsigned(i.getValue().getZExtValue()));
  }
  return out;
}

bool isPermutationOf(const std::vector<unsigned> &order, unsigned rank) {
  std::vector<bool> seen(rank, false);
  if (order.size() != rank)
    return false;
  for (unsigned o : order) {
    if (o >= rank || seen[o])
      return false;
    seen[o] = true;
  }
  return true;
}

Bases basesList(DialectAsmParser &p, Attribute a, StringRef key, bool &ok) {
  Bases out;
  auto arr = dyn_cast_or_null<ArrayAttr>(a);
  if (!arr) {
    p.emitError(p.getNameLoc(), "expected a list of bases for '") << key << "'";
    ok = false;
    return out;
  }
  for (auto e : arr) {
    auto v = uintList(p, e, key, ok);
    if (!ok)
      return {};
    out.emplace_back(v.begin(), v.end());
  }
  return out;
}

bool uintValue(DialectAsmParser &p, Attribute a, StringRef key, unsigned &out) {
  auto i = dyn_cast_or_null<IntegerAttr>(a);
  if (!i || i.getValue().isNegative()) {
    p.emitError(p.getNameLoc(), "expected a non-negative integer for '") << key << "'";
    return false;
  }
  if (i.getValue().getActiveBits() > 30) {
    p.emitError(p.getNameLoc(), "'") << key << "' out of range (must be below 2^30)";
    return false;
  }
  out = unsigned(i.getValue().getZExtValue());
  return true;
}

bool boolValue(DialectAsmParser &p, Attribute a, StringRef key, bool &out) {
  auto b = dyn_cast_or_null<BoolAttr>(a);
  if (!b) {
    p.emitError(p.getNameLoc(), "expected true or false for '") << key << "'";
    return false;
  }
  out = b.getValue();
  return true;
}

EncodingPtr encodingValue(DialectAsmParser &p, Attribute a, StringRef key) {
  // Another backend's layout (`#ttig.dpas<...>`, an unregistered dialect):
  // kept opaque and named, so the rest of the module still loads.
  if (auto o = dyn_cast_or_null<OpaqueAttr>(a)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    a.print(os);
    StringRef data = o.getAttrData();
    std::string kind = (o.getDialectNamespace().strref() + "." + data.take_until([](char c) {
                         return c == '<';
                       })).str();
    return makeEncoding(OpaqueEncoding{kind, text});
  }
  auto l = dyn_cast_or_null<LayoutEncodingAttr>(a);
  if (l) {
    if (auto *o = l.getEncoding()->as<OpaqueEncoding>(); o && o->unmodelledLayout())
      return l.getEncoding();
  }
  // Which kinds may stand as a parent is the layout's rule (validateEncoding).
  if (!l || !l.getEncoding()->isLayout()) {
    p.emitError(p.getNameLoc(), "expected a distributed layout for '") << key << "'";
    return nullptr;
  }
  return l.getEncoding();
}

// Collects the CGA part: CGALayout or the legacy CTA triple.
struct CgaFields {
  std::optional<Bases> bases;
  std::vector<unsigned> ctasPerCGA, ctaSplitNum, ctaOrder;
  bool take(DialectAsmParser &p, StringRef key, Attribute v, bool &ok) {
    if (key == "CGALayout") {
      bases = basesList(p, v, key, ok);
      return true;
    }
    if (key == "CTAsPerCGA") {
      ctasPerCGA = uintList(p, v, key, ok);
      return true;
    }
    if (key == "CTASplitNum") {
      ctaSplitNum = uintList(p, v, key, ok);
      return true;
    }
    if (key == "CTAOrder") {
      ctaOrder = uintList(p, v, key, ok);
      return true;
    }
    return false;
  }
  std::optional<CGALayout> finish(DialectAsmParser &p, unsigned rank) {
    if (bases)
      return CGALayout{*bases}; // one entry per dim: validateEncoding checks

    if (ctasPerCGA.empty() && ctaSplitNum.empty() && ctaOrder.empty())
      return CGALayout{};
    std::vector<unsigned> ones(rank, 1), order;
    for (int i = int(rank) - 1; i >= 0; --i)
      order.push_back(unsigned(i));
    try {
      return cgaFromSplitParams(ctasPerCGA.empty() ? ones : ctasPerCGA,
                                ctaSplitNum.empty() ? ones : ctaSplitNum,
                                ctaOrder.empty() ? order : ctaOrder);
    } catch (const std::invalid_argument &e) {
      p.emitError(p.getNameLoc(), e.what());
      return std::nullopt;
    }
  }
  unsigned legacyRank() const {
    if (!ctaOrder.empty())
      return unsigned(ctaOrder.size());
    if (!ctasPerCGA.empty())
      return unsigned(ctasPerCGA.size());
    if (bases && !bases->empty())
      return unsigned((*bases)[0].size());
    return 0;
  }
};

LinearLayout namedLinear(std::vector<std::pair<std::string, Bases>> dims, unsigned rank) {
  std::vector<LinearLayout::DimBases> bases;
  for (auto &[n, b] : dims)
    bases.emplace_back(n, std::vector<LinearLayout::Basis>(b.begin(), b.end()));
  return LinearLayout::inferred(std::move(bases), standardOutDimNames(int(rank)));
}

// The rank all bases share, or false (with the error) when they disagree.
bool basesRank(DialectAsmParser &p, const std::vector<const Bases *> &all, unsigned &rank) {
  std::string err = validateBasesRank(all, rank);
  if (!err.empty()) {
    p.emitError(p.getNameLoc(), err);
    return false;
  }
  return true;
}

// An integer the parser read as int64, as the model's unsigned field: a
// value out of range becomes 0, which validateEncoding refuses as it
// refuses 0, so both spellings of one bad value get one message.
unsigned positiveOrZero(int64_t v) { return v > 0 && v < (int64_t(1) << 30) ? unsigned(v) : 0u; }

// MLIR's K for the pre-3.6 two-element amd_mfma instrShape (16-bit operands).
unsigned legacyMfmaK(unsigned version, unsigned m) {
  bool cdna4 = version >= 4;
  if (m == 32)
    return cdna4 ? 16 : 8;
  if (m == 16)
    return cdna4 ? 32 : 16;
  return 4;
}

// The `offset`/`block` bases of shared_linear and the long padded_shared
// form; any other key is an error.
bool offsetBlockBases(DialectAsmParser &p, DictionaryAttr dict, Bases &off, Bases &blk, bool &ok) {
  for (auto nv : dict) {
    StringRef k = nv.getName().strref();
    if (k == "offset")
      off = basesList(p, nv.getValue(), k, ok);
    else if (k == "block")
      blk = basesList(p, nv.getValue(), k, ok);
    else {
      p.emitError(p.getNameLoc(), "unexpected key: ") << k;
      return false;
    }
    if (!ok)
      return false;
  }
  return true;
}

// An attribute body as a kind of kindTable() reads it: the accessors above,
// errors at the parser's position.
class DictFields : public AttrFields {
public:
  DictFields(DialectAsmParser &p, DictionaryAttr dict, CgaFields &cga)
      : p_(p), dict_(dict), cga_(cga) {}
  std::vector<std::string> keys() const override {
    std::vector<std::string> out;
    for (auto nv : dict_)
      out.push_back(nv.getName().str());
    return out;
  }
  bool has(const std::string &key) const override { return bool(dict_.get(key)); }
  bool uintValue(const std::string &key, unsigned &out) override {
    return ::tilexform::ir::uintValue(p_, dict_.get(key), key, out);
  }
  bool boolValue(const std::string &key, bool &out) override {
    return ::tilexform::ir::boolValue(p_, dict_.get(key), key, out);
  }
  std::vector<unsigned> uintList(const std::string &key, bool &ok) override {
    return ::tilexform::ir::uintList(p_, dict_.get(key), key, ok);
  }
  Bases basesList(const std::string &key, bool &ok) override {
    return ::tilexform::ir::basesList(p_, dict_.get(key), key, ok);
  }
  std::unique_ptr<AttrFields> dictionary(const std::string &key) override {
    auto d = dyn_cast_or_null<DictionaryAttr>(dict_.get(key));
    if (!d)
      return nullptr;
    return std::make_unique<DictFields>(p_, d, cga_);
  }
  bool takeCga(const std::string &key, bool &ok) override {
    return cga_.take(p_, key, dict_.get(key), ok);
  }
  std::optional<CGALayout> finishCga(unsigned rank) override { return cga_.finish(p_, rank); }
  void error(const std::string &message) override { p_.emitError(p_.getNameLoc(), message); }

private:
  DialectAsmParser &p_;
  DictionaryAttr dict_;
  CgaFields &cga_;
};

Attribute parseLayoutBody(DialectAsmParser &p, StringRef mnemonic) {
  MLIRContext *ctx = p.getContext();
  bool ok = true;
  auto finish = [&](auto enc) -> Attribute {
    if (!ok)
      return {};
    auto made = [&] {
      if constexpr (std::is_same_v<decltype(enc), Encoding>)
        return std::make_shared<const Encoding>(std::move(enc));
      else
        return makeEncoding(std::move(enc));
    }();
    std::string invalid = validateEncoding(*made);
    if (!invalid.empty()) {
      p.emitError(p.getNameLoc(), invalid);
      return {};
    }
    return LayoutEncodingAttr::get(ctx, made);
  };

  if (mnemonic == "padded_shared") {
    PaddedSharedEncoding e;
    if (p.parseLess() || p.parseLSquare())
      return {};
    do {
      int64_t interval, pad;
      if (p.parseInteger(interval) || p.parseColon() || p.parsePlus() || p.parseInteger(pad))
        return {};
      e.intervalPaddings.emplace_back(positiveOrZero(interval), positiveOrZero(pad));
    } while (succeeded(p.parseOptionalComma()));
    DictionaryAttr dict;
    if (p.parseRSquare() || p.parseAttribute(dict) || p.parseGreater())
      return {};
    if (dict.get("offset") || dict.get("block")) {
      Bases off, blk;
      if (!offsetBlockBases(p, dict, off, blk, ok))
        return {};
      unsigned rank = 0;
      if (!ok || !basesRank(p, {&off, &blk}, rank))
        return {};
      e.linear = namedLinear({{"offset", off}, {"block", blk}}, rank);
      return finish(e);
    }
    std::vector<unsigned> order, shape;
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      if (k == "order")
        order = uintList(p, nv.getValue(), k, ok);
      else if (k == "shape")
        shape = uintList(p, nv.getValue(), k, ok);
      else if (k == "CTAsPerCGA" || k == "CTASplitNum" || k == "CTAOrder")
        continue; // pre-3.6 padded layouts only allowed one CTA
      else {
        p.emitError(p.getNameLoc(), "unexpected key: ") << k;
        return {};
      }
    }
    if (!ok)
      return {};
    if (shape.empty() && !order.empty()) {
      // The 3.5 form: the shape comes from the memdesc that uses it.
      e.orderOnly = order;
      return finish(e);
    }
    if (order.size() != shape.size() || order.empty()) {
      p.emitError(p.getNameLoc(), "padded_shared needs 'order' and 'shape' of the same rank");
      return {};
    }
    for (unsigned d : shape)
      if (d == 0 || (d & (d - 1)) != 0) {
        p.emitError(p.getNameLoc(), "padded_shared 'shape' entries must be powers of two");
        return {};
      }
    if (!isPermutationOf(order, unsigned(shape.size()))) {
      p.emitError(p.getNameLoc(), "padded_shared 'order' must be a permutation of the dims");
      return {};
    }
    e.linear = paddedIdentity(std::vector<int32_t>(shape.begin(), shape.end()), order);
    return finish(e);
  }

  DictionaryAttr dict;
  if (p.parseLess() || p.parseAttribute(dict))
    return {};
  unsigned alignment = 0;
  if (mnemonic == "shared_linear") {
    int64_t a;
    if (p.parseComma() || p.parseKeyword("alignment") || p.parseEqual() || p.parseInteger(a))
      return {};
    alignment = positiveOrZero(a);
  }
  if (p.parseGreater())
    return {};

  CgaFields cga;
  if (const KindInfo *kind = kindOfMnemonic(mnemonic.str())) {
    DictFields fields(p, dict, cga);
    EncodingPtr enc = kind->parseAttr(fields);
    if (!enc)
      return {};
    return finish(*enc);
  }
  if (mnemonic == "blocked") {
    BlockedEncoding e;
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      Attribute v = nv.getValue();
      if (k == "sizePerThread")
        e.sizePerThread = uintList(p, v, k, ok);
      else if (k == "threadsPerWarp")
        e.threadsPerWarp = uintList(p, v, k, ok);
      else if (k == "warpsPerCTA")
        e.warpsPerCTA = uintList(p, v, k, ok);
      else if (k == "order")
        e.order = uintList(p, v, k, ok);
      else if (!cga.take(p, k, v, ok)) {
        p.emitError(p.getNameLoc(), "unexpected key: ") << k;
        return {};
      }
    }
    size_t r = e.order.size();
    auto c = ok ? cga.finish(p, unsigned(r)) : std::nullopt;
    if (!c)
      return {};
    e.cga = *c;
    return finish(e);
  }
  if (mnemonic == "slice") {
    SliceEncoding e;
    bool haveDim = false;
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      if (k == "dim")
        haveDim = ok = uintValue(p, nv.getValue(), k, e.dim);
      else if (k == "parent") {
        e.parent = encodingValue(p, nv.getValue(), k);
        ok = ok && e.parent;
      } else {
        p.emitError(p.getNameLoc(), "unexpected key: ") << k;
        return {};
      }
      if (!ok)
        return {};
    }
    if (!haveDim || !e.parent) {
      p.emitError(p.getNameLoc(), "slice needs 'dim' and 'parent'");
      return {};
    }
    return finish(e);
  }
  if (mnemonic == "dot_op") {
    DotOperandEncoding e;
    bool haveIdx = false;
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      if (k == "opIdx")
        haveIdx = ok = uintValue(p, nv.getValue(), k, e.opIdx);
      else if (k == "kWidth")
        ok = uintValue(p, nv.getValue(), k, e.kWidth);
      else if (k == "parent") {
        e.parent = encodingValue(p, nv.getValue(), k);
        ok = e.parent != nullptr;
      } else if (k == "isMMAv1Row") {
        continue; // Volta's operand order, meaningful only for the unmodelled v1 parent
      } else {
        p.emitError(p.getNameLoc(), "unexpected key: ") << k;
        return {};
      }
      if (!ok)
        return {};
    }
    if (!haveIdx || !e.parent) {
      p.emitError(p.getNameLoc(), "dot_op needs 'opIdx' (0 or 1) and 'parent'");
      return {};
    }
    return finish(e);
  }
  if (mnemonic == "nvidia_mma") {
    NvidiaMmaEncoding e;
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      Attribute v = nv.getValue();
      if (k == "versionMajor")
        ok = uintValue(p, v, k, e.versionMajor);
      else if (k == "versionMinor")
        ok = uintValue(p, v, k, e.versionMinor);
      else if (k == "warpsPerCTA")
        e.warpsPerCTA = uintList(p, v, k, ok);
      else if (k == "instrShape")
        e.instrShape = uintList(p, v, k, ok);
      else
        cga.take(p, k, v, ok); // Triton ignores unknown keys here
      if (!ok)
        return {};
    }
    // Volta's MMA (version 1) was removed from Triton in 2024 and is not
    // modelled: kept by name, as another backend's layout is.
    if (e.versionMajor == 1) {
      std::string text = "#ttg." + p.getFullSymbolSpec().str();
      return LayoutEncodingAttr::get(p.getContext(),
                                     makeEncoding(OpaqueEncoding{"ttg.nvidia_mma_v1", text}), text);
    }
    // Before instrShape was written, version 2 meant Ampere's m16n8 tile
    // (Triton's getMMAv2InstrShape then), with a leading 1 per batch dim.
    if (e.instrShape.empty() && e.versionMajor == 2 && !e.warpsPerCTA.empty()) {
      e.instrShape.assign(e.warpsPerCTA.size() - std::min<size_t>(e.warpsPerCTA.size(), 2), 1);
      e.instrShape.push_back(16);
      e.instrShape.push_back(8);
    }
    auto c = cga.finish(p, unsigned(e.warpsPerCTA.size()));
    if (!c)
      return {};
    e.cga = *c;
    return finish(e);
  }
  if (mnemonic == "amd_mfma") {
    AmdMfmaEncoding e;
    bool haveTransposed = false, haveVersion = false, haveWarps = false, haveInstr = false;
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      Attribute v = nv.getValue();
      if (k == "version" || k == "versionMajor")
        haveVersion = ok = uintValue(p, v, k, e.version);
      else if (k == "versionMinor")
        continue;
      else if (k == "warpsPerCTA")
        e.warpsPerCTA = uintList(p, v, k, ok), haveWarps = true;
      else if (k == "instrShape")
        e.instrShape = uintList(p, v, k, ok), haveInstr = true;
      else if (k == "isTransposed" || k == "isTranspose") // older hand-written spelling
        haveTransposed = ok = boolValue(p, v, k, e.isTransposed);
      else if (k == "tilesPerWarp")
        e.tilesPerWarp = uintList(p, v, k, ok);
      else if (k == "elementBitWidth")
        ok = uintValue(p, v, k, e.elementBitWidth);
      else if (k == "elementType") {
        auto t = dyn_cast<TypeAttr>(v);
        e.elementBitWidth = t && t.getValue().isF64() ? 64 : 32;
      } else
        cga.take(p, k, v, ok);
      if (!ok)
        return {};
    }
    // Before `version` (and `versionMajor`) were required, Triton's parser
    // left an absent version at 0.
    if (!haveVersion && haveWarps && haveInstr)
      haveVersion = true;
    if (!haveVersion || !haveWarps || !haveInstr || !haveTransposed) {
      p.emitError(p.getNameLoc(), "amd_mfma needs 'version', 'warpsPerCTA', 'instrShape' and "
                                  "'isTransposed'");
      return {};
    }
    if (e.instrShape.size() == 2)
      e.instrShape.push_back(legacyMfmaK(e.version, e.instrShape[0]));
    if (std::all_of(e.tilesPerWarp.begin(), e.tilesPerWarp.end(),
                    [](unsigned t) { return t == 1; }))
      e.tilesPerWarp.clear();
    auto c = cga.finish(p, unsigned(e.warpsPerCTA.size()));
    if (!c)
      return {};
    e.cga = *c;
    return finish(e);
  }
  if (mnemonic == "linear" || mnemonic == "generic_linear") {
    Bases regs, lanes, warps, blocks;
    bool have[4] = {false, false, false, false};
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      if (k == "register")
        regs = basesList(p, nv.getValue(), k, ok), have[0] = true;
      else if (k == "lane")
        lanes = basesList(p, nv.getValue(), k, ok), have[1] = true;
      else if (k == "warp")
        warps = basesList(p, nv.getValue(), k, ok), have[2] = true;
      else if (k == "block")
        blocks = basesList(p, nv.getValue(), k, ok), have[3] = true;
      else {
        p.emitError(p.getNameLoc(), "unexpected key: ") << k;
        return {};
      }
      if (!ok)
        return {};
    }
    const char *names[] = {"register", "lane", "warp", "block"};
    for (int i = 0; i < 4; ++i)
      if (!have[i]) {
        p.emitError(p.getNameLoc(), "Expected basis of '") << names[i] << "' not found";
        return {};
      }
    unsigned rank = 0;
    if (!basesRank(p, {&regs, &lanes, &warps, &blocks}, rank))
      return {};
    LinearEncoding e;
    e.generic = mnemonic == "generic_linear";
    e.ll = namedLinear({{"register", regs}, {"lane", lanes}, {"warp", warps}, {"block", blocks}},
                       rank);
    return finish(e);
  }
  if (mnemonic == "swizzled_shared" || mnemonic == "amd_rotating_shared" || mnemonic == "shared") {
    LegacySharedEncoding e;
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      Attribute v = nv.getValue();
      if (k == "vec")
        ok = uintValue(p, v, k, e.vec);
      else if (k == "perPhase")
        ok = uintValue(p, v, k, e.perPhase);
      else if (k == "maxPhase")
        ok = uintValue(p, v, k, e.maxPhase);
      else if (k == "order")
        e.order = uintList(p, v, k, ok);
      else if (k == "hasLeadingOffset" && mnemonic == "shared")
        ok = boolValue(p, v, k, e.hasLeadingOffset);
      else if (!cga.take(p, k, v, ok)) {
        p.emitError(p.getNameLoc(), "unexpected key: ") << k;
        return {};
      }
      if (!ok)
        return {};
    }
    auto c = cga.finish(p, unsigned(e.order.size()));
    if (!c)
      return {};
    e.cga = *c;
    if (mnemonic == "shared")
      return finish(e);
    SwizzledSharedEncoding s;
    s.vec = e.vec;
    s.perPhase = e.perPhase;
    s.maxPhase = e.maxPhase;
    s.order = e.order;
    s.cga = e.cga;
    s.rotating = mnemonic == "amd_rotating_shared";
    return finish(s);
  }
  if (mnemonic == "nvmma_shared") {
    NVMMASharedEncoding e;
    bool haveSwizzle = false, haveBits = false, haveRank = false;
    for (auto nv : dict) {
      StringRef k = nv.getName().strref();
      Attribute v = nv.getValue();
      if (k == "swizzlingByteWidth")
        haveSwizzle = ok = uintValue(p, v, k, e.swizzlingByteWidth);
      else if (k == "transposed")
        ok = boolValue(p, v, k, e.transposed);
      else if (k == "elementBitWidth")
        haveBits = ok = uintValue(p, v, k, e.elementBitWidth);
      else if (k == "fp4Padded")
        ok = boolValue(p, v, k, e.fp4Padded);
      else if (k == "rank")
        haveRank = ok = uintValue(p, v, k, e.rank);
      else if (!cga.take(p, k, v, ok)) {
        p.emitError(p.getNameLoc(), "unexpected key: ") << k;
        return {};
      }
      if (!ok)
        return {};
    }
    if (!haveSwizzle) {
      p.emitError(p.getNameLoc(), "nvmma_shared needs 'swizzlingByteWidth' and 'elementBitWidth'");
      return {};
    }
    if (!haveRank && cga.legacyRank())
      e.rank = cga.legacyRank();
    auto c = cga.finish(p, e.rank);
    if (!c)
      return {};
    e.cga = *c;
    if (!haveBits || e.elementBitWidth == 0) {
      // Written before elementBitWidth moved into the attribute (early
      // 2025), or as 0: the width is the element type's, known at each
      // memdesc that uses it, exactly as for the older #ttg.shared with
      // hasLeadingOffset. Its other fields are checked as written, with a
      // stand-in width.
      NVMMASharedEncoding written = e;
      written.elementBitWidth = 16;
      if (std::string invalid = validateEncoding(Encoding{written}); !invalid.empty()) {
        p.emitError(p.getNameLoc(), invalid);
        return {};
      }
      return finish(legacySharedOf(e));
    }
    return finish(e);
  }
  if (mnemonic == "shared_linear") {
    Bases off, blk;
    if (!offsetBlockBases(p, dict, off, blk, ok))
      return {};
    unsigned rank = 0;
    if (!basesRank(p, {&off, &blk}, rank))
      return {};
    SharedLinearEncoding e;
    e.ll = namedLinear({{"offset", off}, {"block", blk}}, rank);
    e.alignment = alignment;
    return finish(e);
  }
  p.emitError(p.getNameLoc(), "unknown layout '") << mnemonic << "'";
  return {};
}

// How deep unknown bodies may nest inside unknown bodies. Each level reads
// its body again for every level around it, so a deep nest of them costs
// time exponential in its depth (a fuzzed 800-byte type ran for minutes);
// real ones nest two or three deep.
constexpr int kMaxOpaqueDepth = 8;
thread_local int opaqueDepth = 0;

// Consumes an attribute or type body we only keep by text.
bool skipOpaqueBody(DialectAsmParser &p) {
  if (failed(p.parseOptionalLess()))
    return true;
  if (opaqueDepth >= kMaxOpaqueDepth) {
    p.emitError(p.getCurrentLocation(), "unknown types or attributes nested deeper than " +
                                            std::to_string(kMaxOpaqueDepth));
    return false;
  }
  ++opaqueDepth;
  llvm::scope_exit leave([] { --opaqueDepth; });
  int depth = 1;
  int guard = 0;
  while (depth > 0) {
    if (++guard > 100000)
      return false;
    if (succeeded(p.parseOptionalGreater())) {
      --depth;
      continue;
    }
    if (succeeded(p.parseOptionalLess())) {
      ++depth;
      continue;
    }
    if (succeeded(p.parseOptionalComma()) || succeeded(p.parseOptionalEqual()) ||
        succeeded(p.parseOptionalColon()) || succeeded(p.parseOptionalArrow()) ||
        succeeded(p.parseOptionalQuestion()) || succeeded(p.parseOptionalStar()) ||
        succeeded(p.parseOptionalPlus()) || succeeded(p.parseOptionalLParen()) ||
        succeeded(p.parseOptionalRParen()))
      continue;
    StringRef kw;
    if (succeeded(p.parseOptionalKeyword(&kw)))
      continue;
    Attribute a;
    auto r = p.parseOptionalAttribute(a);
    if (r.has_value()) {
      if (failed(*r))
        return false;
      continue;
    }
    Type t;
    auto rt = p.parseOptionalType(t);
    if (rt.has_value()) {
      if (failed(*rt))
        return false;
      continue;
    }
    p.emitError(p.getCurrentLocation(), "unexpected token in attribute body");
    return false;
  }
  return true;
}

const llvm::StringSet<> &layoutMnemonics() {
  static const llvm::StringSet<> set = {
      "blocked",  "slice",        "dot_op",         "nvidia_mma",      "amd_mfma",
      "amd_wmma", "linear",       "generic_linear", "swizzled_shared", "amd_rotating_shared",
      "shared",   "nvmma_shared", "shared_linear",  "padded_shared"};
  return set;
}

// ---- type bodies ------------------------------------------------------------

Type parseTritonType(DialectAsmParser &p, StringRef canonicalNs, StringRef mnemonic) {
  MLIRContext *ctx = p.getContext();
  TritonTypeInfo info;
  if (mnemonic == "ptr") {
    info.kind = TritonTypeKind::Pointer;
    if (p.parseLess() || p.parseType(info.elementType))
      return {};
    if (succeeded(p.parseOptionalComma())) {
      int64_t as;
      if (p.parseInteger(as))
        return {};
      info.addressSpace = int(as);
    }
    if (p.parseGreater())
      return {};
    info.text = "!tt.ptr<" + typeText(info.elementType) +
                (info.addressSpace != 1 ? ", " + std::to_string(info.addressSpace) : "") + ">";
    return TritonType::get(ctx, std::move(info));
  }
  if (mnemonic == "memdesc") {
    info.kind = TritonTypeKind::MemDesc;
    SmallVector<int64_t> dims;
    if (p.parseLess() ||
        p.parseDimensionList(dims, /*allowDynamic=*/false,
                             /*withTrailingX=*/true) ||
        p.parseType(info.elementType))
      return {};
    info.shape.assign(dims.begin(), dims.end());
    while (succeeded(p.parseOptionalComma())) {
      if (succeeded(p.parseOptionalKeyword("mutable"))) {
        info.isMutable = true;
        continue;
      }
      // The allocation shape, `64x64`: an integer, then `x64` lexed as one
      // keyword (an attribute parse would take the `64` and stop).
      int64_t firstDim = 0;
      auto dim = p.parseOptionalInteger(firstDim);
      if (dim.has_value()) {
        if (failed(*dim) || firstDim < 0)
          return {};
        SmallVector<int64_t> alloc{firstDim};
        StringRef rest;
        if (succeeded(p.parseOptionalKeyword(&rest))) {
          SmallVector<StringRef> parts;
          rest.split(parts, 'x');
          if (parts.empty() || !parts[0].empty()) {
            p.emitError(p.getCurrentLocation(), "expected an allocation shape like 64x64");
            return {};
          }
          for (size_t k = 1; k < parts.size(); ++k) {
            int64_t d = 0;
            if (parts[k].getAsInteger(10, d) || d < 0) {
              p.emitError(p.getCurrentLocation(), "expected an allocation shape like 64x64");
              return {};
            }
            alloc.push_back(d);
          }
        }
        info.allocShape.assign(alloc.begin(), alloc.end());
        continue;
      }
      Attribute a;
      auto r = p.parseOptionalAttribute(a);
      if (r.has_value()) {
        if (failed(*r))
          return {};
        if (!info.encoding)
          info.encoding = a;
        else
          info.memorySpace = a;
        continue;
      }
      SmallVector<int64_t> alloc;
      if (p.parseDimensionList(alloc, false, /*withTrailingX=*/false))
        return {};
      info.allocShape.assign(alloc.begin(), alloc.end());
    }
    if (p.parseGreater())
      return {};
    if (auto l = dyn_cast_or_null<LayoutEncodingAttr>(info.encoding);
        l && needsMemdesc(*l.getEncoding())) {
      unsigned bits =
          info.elementType.isIntOrFloat() ? info.elementType.getIntOrFloatBitWidth() : 16;
      auto resolved = resolveAtMemdesc(l.getEncoding(), bits,
                                       info.allocShape.empty() ? info.shape : info.allocShape);
      if (resolved != l.getEncoding())
        info.encoding = LayoutEncodingAttr::get(ctx, resolved);
    }
    if (!info.memorySpace)
      info.memorySpace = LayoutEncodingAttr::get(
          ctx, makeEncoding(OpaqueEncoding{"shared_memory", "#ttg.shared_memory"}),
          "#ttg.shared_memory");
    std::string s = "!ttg.memdesc<";
    for (auto d : info.shape)
      s += std::to_string(d) + "x";
    s += typeText(info.elementType);
    if (info.encoding)
      s += ", " + attrText(info.encoding);
    s += ", " + attrText(info.memorySpace);
    if (info.isMutable)
      s += ", mutable";
    if (!info.allocShape.empty() && info.allocShape != info.shape) {
      std::vector<std::string> parts;
      for (auto d : info.allocShape)
        parts.push_back(std::to_string(d));
      s += ", " + fmt::format("{}", fmt::join(parts, "x"));
    }
    info.text = s + ">";
    return TritonType::get(ctx, std::move(info));
  }
  if (mnemonic == "tensordesc" || mnemonic == "tensordesc_im2col") {
    info.kind = TritonTypeKind::TensorDesc;
    if (p.parseLess())
      return {};
    if (succeeded(p.parseOptionalKeyword("tensor"))) {
      // 3.3-3.7 spelling: !tt.tensordesc<tensor<...>>
      SmallVector<int64_t> dims;
      if (p.parseLess() || p.parseDimensionList(dims, false, true) || p.parseType(info.elementType))
        return {};
      info.shape.assign(dims.begin(), dims.end());
      if (succeeded(p.parseOptionalComma()) && p.parseAttribute(info.encoding))
        return {};
      if (p.parseGreater())
        return {};
    } else {
      SmallVector<int64_t> dims;
      if (p.parseDimensionList(dims, false, true) || p.parseType(info.elementType))
        return {};
      info.shape.assign(dims.begin(), dims.end());
      if (succeeded(p.parseOptionalComma()) && p.parseAttribute(info.encoding))
        return {};
    }
    if (p.parseGreater())
      return {};
    std::string s = "!" + canonicalNs.str() + "." + mnemonic.str() + "<tensor<";
    for (auto d : info.shape)
      s += std::to_string(d) + "x";
    s += typeText(info.elementType);
    if (info.encoding)
      s += ", " + attrText(info.encoding);
    info.text = s + ">>";
    return TritonType::get(ctx, std::move(info));
  }
  // Anything else (async tokens, newer types) is kept by its text.
  std::string spec = p.getFullSymbolSpec().str();
  if (!skipOpaqueBody(p))
    return {};
  info.kind = TritonTypeKind::Other;
  info.text = "!" + canonicalNs.str() + "." + spec;
  return TritonType::get(ctx, std::move(info));
}

// ---- dialects ---------------------------------------------------------------

class TritonFamilyDialect : public Dialect {
public:
  TritonFamilyDialect(StringRef ns, StringRef canonical, MLIRContext *ctx, TypeID id)
      : Dialect(ns, ctx, id), canonical_(canonical) {}

  // The layout model reports some invalid input by throwing; no exception
  // may cross MLIR's parser, so it becomes a diagnostic here.
  Attribute parseAttribute(DialectAsmParser &p, Type type) const override {
    try {
      return parseAttributeImpl(p, type);
    } catch (const std::exception &e) {
      p.emitError(p.getNameLoc(), e.what());
      return {};
    }
  }
  Type parseType(DialectAsmParser &p) const override {
    try {
      return parseTypeImpl(p);
    } catch (const std::exception &e) {
      p.emitError(p.getNameLoc(), e.what());
      return {};
    }
  }

  Attribute parseAttributeImpl(DialectAsmParser &p, Type type) const {
    StringRef mnemonic;
    std::string spec = p.getFullSymbolSpec().str();
    if (p.parseKeyword(&mnemonic))
      return {};
    if (mnemonic == "alias_ref" && aliasTable_) {
      // An alias the reader already parsed (see setAliasAttributes).
      uint64_t index = 0;
      if (p.parseLess() || p.parseInteger(index) || p.parseGreater())
        return {};
      if (index >= aliasTable_->size()) {
        p.emitError(p.getNameLoc(), "no alias ") << index;
        return {};
      }
      return (*aliasTable_)[index];
    }
    if (canonical_ == "ttg" && layoutMnemonics().contains(mnemonic))
      return parseLayoutBody(p, mnemonic);
    if (!skipOpaqueBody(p))
      return {};
    std::string text = "#" + canonical_ + "." + spec;
    std::string kind = canonical_ + "." + mnemonic.str();
    if (canonical_ == "ttng" &&
        (mnemonic == "tensor_memory_encoding" || mnemonic == "tensor_memory_scales_encoding"))
      kind = mnemonic.str();
    return LayoutEncodingAttr::get(getContext(), makeEncoding(OpaqueEncoding{kind, text}), text);
  }
  void printAttribute(Attribute attr, DialectAsmPrinter &os) const override {
    std::string t = attrText(attr);
    auto dot = t.find('.');
    os << (dot == std::string::npos ? t : t.substr(dot + 1));
  }
  Type parseTypeImpl(DialectAsmParser &p) const {
    StringRef mnemonic;
    if (p.parseKeyword(&mnemonic))
      return {};
    return parseTritonType(p, canonical_, mnemonic);
  }
  void printType(Type type, DialectAsmPrinter &os) const override {
    std::string t = typeText(type);
    auto dot = t.find('.');
    os << (dot == std::string::npos ? t : t.substr(dot + 1));
  }

  void setAliasTable(const std::vector<Attribute> *table) { aliasTable_ = table; }

protected:
  std::string canonical_;
  const std::vector<Attribute> *aliasTable_ = nullptr;
};

#define TILEXFORM_DIALECT(ClassName, Ns, Canonical, Init)                                          \
  class ClassName : public TritonFamilyDialect {                                                   \
  public:                                                                                          \
    explicit ClassName(MLIRContext *ctx)                                                           \
        : TritonFamilyDialect(Ns, Canonical, ctx, TypeID::get<ClassName>()) {                      \
      Init;                                                                                        \
    }                                                                                              \
    static constexpr StringLiteral getDialectNamespace() { return Ns; }                            \
  };

TILEXFORM_DIALECT(TritonDialect, "tt", "tt", addTypes<TritonType>())
TILEXFORM_DIALECT(TritonGPUDialect, "ttg", "ttg", addAttributes<LayoutEncodingAttr>())
TILEXFORM_DIALECT(TritonNvidiaGPUDialect, "ttng", "ttng", (void)0)
TILEXFORM_DIALECT(TritonAMDGPUDialect, "amdg", "amdg", (void)0)
TILEXFORM_DIALECT(GluonDialect, "gluon", "gluon", (void)0)
TILEXFORM_DIALECT(NVGPUDialect, "nvg", "nvg", (void)0)
// Older prefixes, parsed into the canonical attributes and types.
TILEXFORM_DIALECT(LegacyTritonGPUDialect, "triton_gpu", "ttg", (void)0)
TILEXFORM_DIALECT(LegacyTritonNvidiaGPUDialect, "triton_nvidia_gpu", "ttng", (void)0)
TILEXFORM_DIALECT(LegacyAMDGPUDialect, "amdgpu", "amdg", (void)0)
TILEXFORM_DIALECT(LegacyNVGPUDialect, "nvgpu", "nvg", (void)0)

#undef TILEXFORM_DIALECT

} // namespace

void registerAllDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  ub::UBDialect, func::FuncDialect, LLVM::LLVMDialect, NVVM::NVVMDialect,
                  ROCDL::ROCDLDialect, gpu::GPUDialect>();
  registry.insert<TritonDialect, TritonGPUDialect, TritonNvidiaGPUDialect, TritonAMDGPUDialect,
                  GluonDialect, NVGPUDialect, LegacyTritonGPUDialect, LegacyTritonNvidiaGPUDialect,
                  LegacyAMDGPUDialect, LegacyNVGPUDialect>();
}

void setAliasAttributes(MLIRContext *ctx, const std::vector<Attribute> *table) {
  if (auto *d = ctx->getLoadedDialect<TritonGPUDialect>())
    d->setAliasTable(table);
}

std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  // Triton's dialects are small and always needed; the upstream ones (LLVM,
  // NVVM, ROCDL, GPU are large) load from the registry when first used.
  ctx->loadDialect<TritonDialect, TritonGPUDialect, TritonNvidiaGPUDialect, TritonAMDGPUDialect,
                   GluonDialect, NVGPUDialect, LegacyTritonGPUDialect, LegacyTritonNvidiaGPUDialect,
                   LegacyAMDGPUDialect, LegacyNVGPUDialect>();
  ctx->allowUnregisteredDialects(true);
  return ctx;
}

} // namespace tilexform::ir
