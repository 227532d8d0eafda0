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
    auto cga = cgaFromSplitParams(ctasPerCGA.empty() ? ones : ctasPerCGA,
                                  ctaSplitNum.empty() ? ones : ctaSplitNum,
                                  ctaOrder.empty() ? order : ctaOrder);
    if (!cga) {
      p.emitError(p.getNameLoc(), llvm::toString(cga.takeError()));
      return std::nullopt;
    }
    return std::move(*cga);
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

// An attribute body as a kind of kindTable() reads it: the accessors above,
// errors at the parser's position.
class DictFields : public AttrFields {
public:
  DictFields(DialectAsmParser &p, DictionaryAttr dict, CgaFields &cga, int64_t alignment,
             const std::vector<std::pair<int64_t, int64_t>> &paddings)
      : p_(p), dict_(dict), cga_(cga), alignment_(alignment), paddings_(paddings) {}
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
    return std::make_unique<DictFields>(p_, d, cga_, alignment_, paddings_);
  }
  EncodingPtr encoding(const std::string &key) override {
    return encodingValue(p_, dict_.get(key), key);
  }
  std::string typeText(const std::string &key) override {
    auto t = dyn_cast_or_null<TypeAttr>(dict_.get(key));
    if (!t)
      return "";
    std::string s;
    llvm::raw_string_ostream os(s);
    t.getValue().print(os);
    return s;
  }
  std::string text() const override { return "#ttg." + p_.getFullSymbolSpec().str(); }
  int64_t alignment() const override { return alignment_; }
  const std::vector<std::pair<int64_t, int64_t>> &paddings() const override { return paddings_; }
  bool takeCga(const std::string &key, bool &ok) override {
    return cga_.take(p_, key, dict_.get(key), ok);
  }
  std::optional<CGALayout> finishCga(unsigned rank) override { return cga_.finish(p_, rank); }
  unsigned cgaRank() const override { return cga_.legacyRank(); }
  void error(const std::string &message) override { p_.emitError(p_.getNameLoc(), message); }

private:
  DialectAsmParser &p_;
  DictionaryAttr dict_;
  CgaFields &cga_;
  int64_t alignment_;
  const std::vector<std::pair<int64_t, int64_t>> &paddings_;
};

// `#ttg.<mnemonic><...>`: the syntax around the dictionary read here, the
// fields read by the kind, the result validated.
Attribute parseLayoutBody(DialectAsmParser &p, const KindInfo &kind) {
  DictionaryAttr dict;
  int64_t alignment = 0;
  std::vector<std::pair<int64_t, int64_t>> paddings;
  if (kind.attrSyntax == AttrSyntax::PaddingsDict) {
    if (p.parseLess() || p.parseLSquare())
      return {};
    do {
      int64_t interval, pad;
      if (p.parseInteger(interval) || p.parseColon() || p.parsePlus() || p.parseInteger(pad))
        return {};
      paddings.emplace_back(interval, pad);
    } while (succeeded(p.parseOptionalComma()));
    if (p.parseRSquare() || p.parseAttribute(dict) || p.parseGreater())
      return {};
  } else {
    if (p.parseLess() || p.parseAttribute(dict))
      return {};
    if (kind.attrSyntax == AttrSyntax::DictAlignment &&
        (p.parseComma() || p.parseKeyword("alignment") || p.parseEqual() ||
         p.parseInteger(alignment)))
      return {};
    if (p.parseGreater())
      return {};
  }
  CgaFields cga;
  DictFields fields(p, dict, cga, alignment, paddings);
  EncodingPtr enc = kind.parseAttr(fields);
  if (!enc)
    return {};
  std::string invalid = validateEncoding(*enc);
  if (!invalid.empty()) {
    p.emitError(p.getNameLoc(), invalid);
    return {};
  }
  return LayoutEncodingAttr::get(p.getContext(), enc);
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

  // The layout model reports invalid input as errors, never by throwing; a
  // standard-library exception (a bug: an out-of-range `.at()`) still may
  // not cross MLIR's parser, so it too becomes a diagnostic here.
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
    if (canonical_ == "ttg")
      if (const KindInfo *kind = kindOfMnemonic(mnemonic.str()); kind && kind->parseAttr)
        return parseLayoutBody(p, *kind);
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
