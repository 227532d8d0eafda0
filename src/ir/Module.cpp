// The loaded module: op accessors, module facts, names, and the entry points
// that check a buffer is text before the parser sees it.
#include "tilexform/ir/Module.h"
#include "tilexform/hw/Target.h"
#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/Lexer.h"

#include "ReaderSupport.h"

#include <cstring>
#include <fmt/format.h>
#include <mlir/AsmParser/AsmParser.h>
#include <mlir/IR/Diagnostics.h>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>

namespace tilexform::ir {

llvm::Expected<std::unique_ptr<Module>>
parseModuleBuffer(const std::string &path, std::unique_ptr<llvm::MemoryBuffer> buffer);

Operation *Operation::parentOp() const {
  if (!parentBlock || !parentBlock->parent)
    return nullptr;
  return parentBlock->parent->parent;
}

bool Operation::hasKeyword(llvm::StringRef word) const {
  // Written bare (`allow_reorder`: the reader sets it) or, in older dumps,
  // as an attribute that may also say false (`{allow_reorder = true}`).
  mlir::Attribute a = attr(word);
  if (auto b = mlir::dyn_cast_or_null<mlir::BoolAttr>(a))
    return b.getValue();
  return a != nullptr;
}

std::string Operation::enumAttr(llvm::StringRef name) const {
  mlir::Attribute a = attr(name);
  if (!a)
    return "";
  if (auto str = mlir::dyn_cast<mlir::StringAttr>(a))
    return str.getValue().str();
  const AttrSpec *spec = schema ? schema->attr(name) : nullptr;
  if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(a))
    return spec ? spec->caseName(i.getInt()).str() : "";
  // An enum attribute printed by its dialect: `#tt<cache ca>`.
  std::string printed = attrText(a);
  return llvm::StringRef(printed).rtrim('>').rsplit(' ').second.str();
}

std::vector<int64_t> Operation::intsAttr(llvm::StringRef name) const {
  mlir::Attribute a = attr(name);
  std::vector<int64_t> out;
  if (auto d = mlir::dyn_cast_or_null<mlir::DenseI32ArrayAttr>(a))
    out.assign(d.asArrayRef().begin(), d.asArrayRef().end());
  else if (auto d64 = mlir::dyn_cast_or_null<mlir::DenseI64ArrayAttr>(a))
    out.assign(d64.asArrayRef().begin(), d64.asArrayRef().end());
  else if (auto e = mlir::dyn_cast_or_null<mlir::DenseIntElementsAttr>(a))
    for (const llvm::APInt &v : e)
      out.push_back(v.getSExtValue());
  else if (auto arr = mlir::dyn_cast_or_null<mlir::ArrayAttr>(a)) {
    for (mlir::Attribute x : arr)
      if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(x))
        out.push_back(i.getInt());
  } else if (auto one = mlir::dyn_cast_or_null<mlir::IntegerAttr>(a)) {
    out.push_back(one.getInt());
  }
  return out;
}

std::string Operation::text() const {
  std::string out;
  bool space = false;
  for (auto [begin, end] : textRuns) {
    if (!out.empty())
      space = true;
    for (char c : source.slice(begin, end)) {
      if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
        space = true;
        continue;
      }
      if (space && !out.empty())
        out += ' ';
      space = false;
      out += c;
    }
  }
  return out;
}

mlir::Attribute Operation::attr(llvm::StringRef name) const {
  return attributes ? attributes.get(name) : mlir::Attribute();
}

std::optional<int64_t> Operation::intAttr(llvm::StringRef name) const {
  if (auto i = mlir::dyn_cast_or_null<mlir::IntegerAttr>(attr(name)))
    return i.getInt();
  return std::nullopt;
}

std::vector<Value *> Operation::operandGroup(llvm::StringRef segment) const {
  if (!schema)
    return {};
  int k = schema->segmentIndex(segment);
  if (k < 0 || size_t(k) >= segments.size())
    return {};
  auto [first, count] = segments[size_t(k)];
  std::vector<Value *> out;
  for (uint32_t i = first; i < first + count && i < operands.size(); ++i)
    out.push_back(operands[i]);
  return out;
}

Value *Operation::operand(llvm::StringRef segment) const {
  auto group = operandGroup(segment);
  return group.empty() ? nullptr : group.front();
}

const Operation *Module::firstFunction() const {
  const Operation *fn = nullptr;
  walk([&](const Operation *op) {
    if (!fn && op->isFunction())
      fn = op;
  });
  return fn;
}

std::string Operation::enclosingFunction() const {
  for (auto *p = parentOp(); p; p = p->parentOp())
    if (p->isFunction())
      return p->symbol.empty() ? "" : p->symbol.substr(1);
  return "";
}

int Operation::loopDepth() const {
  int depth = 0;
  for (auto *p = parentOp(); p; p = p->parentOp())
    if (p->isLoop())
      ++depth;
  return depth;
}

std::string ModuleFacts::arch() const {
  if (auto t = hw::parseTarget(target))
    return t->arch;
  auto colon = target.find(':');
  if (colon == std::string::npos)
    return target;
  std::string v = target.substr(colon + 1);
  if (target.rfind("cuda", 0) == 0)
    return "sm_" + v;
  return v;
}

std::string ModuleFacts::vendor() const {
  if (auto t = hw::parseTarget(target))
    return hw::vendorName(t->vendor);
  if (target.rfind("cuda", 0) == 0)
    return "nvidia";
  if (target.rfind("hip", 0) == 0)
    return "amd";
  return "";
}

std::string Module::aliasFor(mlir::Attribute attr) const {
  for (auto &a : aliases)
    if (a.attr == attr)
      return a.name;
  return "";
}

ResolvedOpName resolveOpName(llvm::StringRef name) {
  static const std::pair<llvm::StringLiteral, llvm::StringLiteral> prefixes[] = {
      {"triton_gpu.", "ttg."},
      {"triton_nvidia_gpu.", "ttng."},
      {"amdgpu.", "amdg."},
      {"nvgpu.", "nvg."}};
  llvm::SmallString<64> renamed;
  llvm::StringRef out = name;
  for (auto &[from, to] : prefixes)
    if (name.starts_with(from)) {
      renamed = to;
      renamed += name.drop_front(from.size());
      out = renamed;
      break;
    }
  if (out == "module")
    out = "builtin.module";
  else if (out == "func")
    out = "func.func";
  else if (out == "return")
    out = "func.return";
  // An older name of an op the table knows comes back as the table's name.
  if (const OpSchema *s = lookupOpSchema(out))
    return {s->name.str(), s};
  return {out.str(), nullptr};
}

std::string canonicalName(llvm::StringRef name) { return resolveOpName(name).name; }

bool isKnownOp(mlir::MLIRContext *, llvm::StringRef name) {
  return resolveOpName(name).schema != nullptr;
}

namespace {

/// Where the first byte that is no text is: `text.size()` when all are
/// printable ASCII, tab, newline, carriage return or valid UTF-8.
size_t firstNonText(llvm::StringRef text, const char **why) {
  const auto *p = reinterpret_cast<const unsigned char *>(text.data());
  size_t n = text.size(), i = 0;
  while (i < n) {
    // Eight printable ASCII bytes at a time, the common case: no byte below
    // 0x20 (a borrow sets its high bit) and none at or above 0x80.
    if (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (((w - 0x2020202020202020ULL) | w) & 0x8080808080808080ULL) {
        // Something else in these eight: byte by byte below.
      } else {
        i += 8;
        continue;
      }
    }
    unsigned char c = p[i];
    if (c >= 0x20 && c < 0x80) {
      ++i;
      continue;
    }
    if (c == '\n' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (c < 0x20) {
      *why = "binary data, not a text dump";
      return i;
    }
    size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool valid = len != 0 && i + len <= n;
    for (size_t k = 1; valid && k < len; ++k)
      valid = (p[i + k] >> 6) == 0x2;
    if (!valid) {
      *why = "invalid UTF-8 (binary file?)";
      return i;
    }
    i += len;
  }
  return n;
}

llvm::Error checkText(const std::string &path, llvm::StringRef text) {
  if (text.empty())
    return llvm::make_error<InputError>(path, 1, 1, "empty file");
  const char *why = nullptr;
  size_t at = firstNonText(text, &why);
  if (at == text.size())
    return llvm::Error::success();
  // The position, counted only when there is something to report: columns
  // count characters, not bytes.
  TextPosition pos = positionOf(text, at, ColumnUnit::Characters);
  return llvm::make_error<InputError>(path, pos.line, pos.col, why);
}

llvm::Error readFacts(Module &mod) {
  if (!mod.moduleAttributes)
    return llvm::Error::success();
  for (auto nv : mod.moduleAttributes) {
    std::string key = canonicalName(nv.getName().strref());
    auto asInt = [&]() -> std::optional<int64_t> {
      if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(nv.getValue()))
        return i.getInt();
      return std::nullopt;
    };
    if (key == "ttg.num-warps")
      mod.facts.numWarps = asInt();
    else if (key == "ttg.threads-per-warp")
      mod.facts.threadsPerWarp = asInt();
    else if (key == "ttg.num-ctas")
      mod.facts.numCtas = asInt();
    else if (key == "ttg.shared")
      mod.facts.shared = asInt();
    else if (key == "ttg.target") {
      // A target is printable ASCII ("cuda:90", "hip:gfx942:sramecc+"); any
      // other byte is kept as its escape, so no report line it reaches can
      // be broken or forged by it.
      mod.facts.target.clear();
      if (auto s = mlir::dyn_cast<mlir::StringAttr>(nv.getValue()))
        for (unsigned char c : s.getValue())
          mod.facts.target += c >= 0x20 && c < 0x7F && c != '\\' ? std::string(1, char(c))
                                                                 : fmt::format("\\x{:02x}", c);
    } else if (key == "ttg.compute-capability" && mod.facts.target.empty()) {
      if (auto v = asInt())
        mod.facts.target = "cuda:" + std::to_string(*v);
    }
  }
  // What every layout is checked against must itself be sane.
  auto check = [&](const char *key, std::optional<int64_t> v, int64_t max) -> llvm::Error {
    if (v && (*v <= 0 || *v > max || (*v & (*v - 1)) != 0))
      return llvm::make_error<InputError>(
          mod.path, mod.root->pos.line, mod.root->pos.col,
          fmt::format("\"{}\" = {}: expected a power of two from 1 to {}", key, *v, max));
    return llvm::Error::success();
  };
  if (auto e = check("ttg.num-warps", mod.facts.numWarps, 1024))
    return e;
  if (auto e = check("ttg.threads-per-warp", mod.facts.threadsPerWarp, 128))
    return e;
  if (auto e = check("ttg.num-ctas", mod.facts.numCtas, 1024))
    return e;
  if (mod.facts.shared && *mod.facts.shared < 0)
    return llvm::make_error<InputError>(
        mod.path, mod.root->pos.line, mod.root->pos.col,
        fmt::format("\"ttg.shared\" = {}: expected a byte count", *mod.facts.shared));
  return llvm::Error::success();
}

// Parses one attribute or type outside a module, errors at their column.
template <typename T, typename Fn>
llvm::Expected<T> parseStandalone(mlir::MLIRContext *ctx, const std::string &text, const char *what,
                                  Fn &&parse) {
  if (size_t deep = detail::nestingTooDeep(text); deep != std::string::npos)
    return llvm::make_error<InputError>(what, 1, unsigned(deep + 1),
                                        "brackets nested deeper than " +
                                            std::to_string(detail::kMaxNesting));
  std::string message;
  unsigned col = 0;
  mlir::ScopedDiagnosticHandler handler(ctx, [&](mlir::Diagnostic &d) {
    if (message.empty()) {
      message = d.str();
      if (auto fl = mlir::dyn_cast<mlir::FileLineColLoc>(d.getLocation()))
        col = fl.getColumn();
    }
    return mlir::success();
  });
  size_t numRead = 0;
  T result = parse(text, &numRead);
  if (!result)
    return llvm::make_error<InputError>(what, 1, col ? col : 1,
                                        message.empty() ? "cannot parse" : message);
  if (numRead != text.size() && !detail::trim(text.substr(numRead)).empty())
    return llvm::make_error<InputError>(what, 1, unsigned(numRead) + 1,
                                        "unexpected text after '" +
                                            text.substr(0, std::min<size_t>(numRead, 80)) + "'");
  return result;
}

} // namespace

llvm::Expected<std::unique_ptr<Module>> loadModuleBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                                         const std::string &path) {
  if (auto e = checkText(path, buffer->getBuffer()))
    return e;
  auto mod = parseModuleBuffer(path, std::move(buffer));
  if (mod)
    if (auto e = readFacts(**mod))
      return e;
  return mod;
}

llvm::Expected<std::unique_ptr<Module>> loadModuleText(llvm::StringRef text,
                                                       const std::string &path) {
  return loadModuleBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, path), path);
}

llvm::Expected<std::unique_ptr<Module>> loadModuleFile(const std::string &path) {
  auto buf = readInputFile(path);
  if (!buf)
    return buf.takeError();
  return loadModuleBuffer(std::move(*buf), path);
}

llvm::Expected<mlir::Attribute> parseAttributeText(mlir::MLIRContext *ctx,
                                                   const std::string &text) {
  return parseStandalone<mlir::Attribute>(ctx, text, "<attr>",
                                          [&](const std::string &t, size_t *n) {
                                            return mlir::parseAttribute(t, ctx, mlir::Type(), n);
                                          });
}

llvm::Expected<mlir::Type> parseTypeText(mlir::MLIRContext *ctx, const std::string &text) {
  std::string t = detail::trim(text);
  auto type = parseStandalone<mlir::Type>(ctx, t, "<type>", [&](const std::string &s, size_t *n) {
    return mlir::parseType(s, ctx, n);
  });
  // The bound a dump's types have (ReaderSupport.h): sizes would wrap.
  if (type)
    if (std::string problem = detail::shapeSizeProblem(*type); !problem.empty())
      return llvm::make_error<InputError>("<type>", 1, 1, problem);
  return type;
}

} // namespace tilexform::ir
