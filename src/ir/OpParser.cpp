// The structural op parser over MLIR's tokens.
//
// An op ends where MLIR's parser would end it: its brackets are balanced and
// the next token starts another op (results `%a, %b:2 =`, a dialect-qualified
// name, a generic `"name"(`), closes the region (`}`) or labels a block
// (`^bb1(...):`). Regions are `{...}` groups wherever the grammar allows them
// (after the operands, inside a generic `({...})` list, after `else`, `do`,
// `default`, `partitionN(...) num_warps(N)`), told from attribute
// dictionaries by what opens them. Within an op the parser takes results,
// name, operands (with the keyword or bracket each follows), region-argument
// definitions, attribute dictionaries and properties, the type signature and
// the location; attributes and types go to MLIR's own parser with
// tilexform's dialects. What an op's operands and results mean comes from
// the op-schema table.
#include "ReaderSupport.h"
#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/Lexer.h"
#include "tilexform/ir/Module.h"
#include "tilexform/ir/OpSchema.h"
#include "tilexform/layout/Encoding.h"
#include "tilexform/support/TextPosition.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <mlir/AsmParser/AsmParser.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/Diagnostics.h>

#include <fmt/format.h>

#include <string_view>
#include <unordered_map>

namespace tilexform::ir {

namespace {

using detail::trim;

constexpr unsigned kMaxRegionDepth = 256;

// Runs an MLIR parse with diagnostics captured into one message and the
// 1-based line/column MLIR reported within `text`.
template <typename T, typename Fn>
llvm::Expected<T> captureParse(mlir::MLIRContext *ctx, const std::string &text, Fn &&parse,
                               unsigned &errLine, unsigned &errCol) {
  std::string message;
  errLine = errCol = 0;
  mlir::ScopedDiagnosticHandler handler(ctx, [&](mlir::Diagnostic &d) {
    if (message.empty()) {
      message = d.str();
      if (auto fl = mlir::dyn_cast<mlir::FileLineColLoc>(d.getLocation())) {
        errLine = fl.getLine();
        errCol = fl.getColumn();
      }
    }
    return mlir::success();
  });
  size_t numRead = 0;
  T result = parse(text, &numRead);
  if (!result)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   message.empty() ? "cannot parse" : message.c_str());
  if (numRead != text.size() && !trim(text.substr(numRead)).empty()) {
    TextPosition end = positionOf(text, numRead);
    errLine = end.line;
    errCol = end.col;
    std::string head = text.substr(0, std::min<size_t>(numRead, 80));
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "unexpected text after '%s'",
                                   head.c_str());
  }
  return result;
}

// `<...>` in a type position of an op printed with `type($x)`: the dialect
// prefix was stripped by the printer.
std::string fixStrippedType(const std::string &t, bool descriptor) {
  if (t.empty() || t[0] != '<')
    return t;
  if (descriptor)
    return "!tt.tensordesc" + t;
  if (t.find("#smem") != std::string::npos || t.find("shared_memory") != std::string::npos ||
      t.find("tensor_memory") != std::string::npos || t.find(", mutable") != std::string::npos ||
      t.find("#shared") != std::string::npos)
    return "!ttg.memdesc" + t;
  size_t k = 1;
  while (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k])))
    ++k;
  if (k > 1 && k < t.size() && t[k] == 'x')
    return "!tt.tensordesc" + t;
  return "!tt.ptr" + t;
}

bool isOpName(llvm::StringRef s) {
  return s.contains('.') || s == "module" || s == "func" || s == "return";
}

/// Token index ranges [a, b) of the types in a signature.
using TypeSpans = llvm::SmallVector<std::pair<size_t, size_t>, 8>;

class Parser {
public:
  Parser(std::string path, std::unique_ptr<llvm::MemoryBuffer> buffer)
      : path_(std::move(path)), owned_(std::move(buffer)), buf_(owned_->getBuffer()), lines_(buf_) {
  }
  ~Parser() {
    if (context_)
      setAliasAttributes(context_, nullptr);
  }

  llvm::Expected<std::unique_ptr<Module>> run();

private:
  llvm::Error checkTokenNesting() const;
  // ---- tokens ----
  const Token &tok(size_t i) const { return toks_[std::min(i, toks_.size() - 1)]; }
  TokenKind kind(size_t i) const { return tok(i).kind; }
  llvm::StringRef spell(size_t i) const { return tok(i).spelling(buf_); }
  // Text from the start of token `a` to the end of token `b - 1`.
  std::string span(size_t a, size_t b) const {
    if (b <= a)
      return "";
    return buf_.substr(tok(a).offset, tok(b - 1).end() - tok(a).offset).str();
  }
  // The index of the token closing the bracket opened at `i` (any kind
  // nested), or npos.
  size_t matching(size_t i) const;
  // The first token from `i` (before `limit`) that, outside any bracket
  // opened on the way, satisfies `stop` or closes an enclosing bracket.
  template <typename Stop> size_t balancedUntil(size_t i, size_t limit, Stop stop) const {
    size_t depth = 0;
    for (; i < limit && !tok(i).is(TokenKind::Eof); ++i) {
      const Token &t = tok(i);
      if (depth == 0 && stop(i))
        break;
      if (t.isOpening())
        ++depth;
      else if (t.isClosing()) {
        if (depth == 0)
          break;
        --depth;
      }
    }
    return i;
  }

  // ---- errors ----
  llvm::Error errorAt(size_t offset, const std::string &msg) const {
    auto [l, c] = lines_.position(offset);
    return llvm::make_error<InputError>(path_, l, c, msg);
  }
  llvm::Error errorTok(size_t i, const std::string &msg) const {
    return errorAt(tok(i).offset, msg);
  }
  TextPos posOf(size_t i) const {
    auto [l, c] = lines_.position(tok(i).offset);
    return {l, c};
  }

  // ---- MLIR attributes and types ----
  llvm::Expected<mlir::Type> parseType(const std::string &raw, size_t offset, bool desc = false);
  llvm::Expected<mlir::Attribute> parseAttr(const std::string &raw, size_t offset);
  std::optional<mlir::Type> simpleTensorType(llvm::StringRef text, size_t offset);
  // Types and attribute dictionaries repeat thousands of times in a dump:
  // look them up by the written text before building any string.
  llvm::Expected<mlir::Type> parseTypeTokens(size_t a, size_t b, bool desc = false) {
    std::string_view text = spanView(a, b);
    auto &cache = desc ? descTypeViews_ : typeViews_;
    auto hit = cache.find(text);
    if (hit != cache.end())
      return hit->second;
    auto t = parseType(std::string(text), tok(a).offset, desc);
    if (t)
      cache.emplace(text, *t);
    return t;
  }
  llvm::Expected<mlir::Attribute> parseAttrTokens(size_t a, size_t b) {
    std::string_view text = spanView(a, b);
    auto hit = attrViews_.find(text);
    if (hit != attrViews_.end())
      return hit->second;
    auto at = parseAttr(std::string(text), tok(a).offset);
    if (at)
      attrViews_.emplace(text, *at);
    return at;
  }
  std::string_view spanView(size_t a, size_t b) const {
    if (b <= a)
      return {};
    return std::string_view(buf_.data() + tok(a).offset, tok(b - 1).end() - tok(a).offset);
  }
  template <typename T, typename Fn>
  llvm::Expected<T> parseWith(const std::string &raw, size_t offset, Fn &&fn);

  // ---- structure ----
  llvm::Error collectAliases();
  llvm::Error completeAtMemdesc();
  bool aliasDefAt(size_t i) const {
    return (kind(i) == TokenKind::HashId || kind(i) == TokenKind::BangId) &&
           kind(i + 1) == TokenKind::Equal;
  }
  bool startsOp(size_t i) const;
  bool blockLabelAt(size_t i) const;
  bool regionAt(size_t i) const;
  llvm::Expected<std::unique_ptr<Operation>> parseOp(Block *parent);
  llvm::Error parseRegion(Operation *op, std::string label, std::vector<Value *> args);
  llvm::Error parseBlockLabel(Block *block);
  llvm::Error parseArgumentType(size_t &i, Value *v, size_t closeLimit);
  llvm::Error finishOp(Operation *op, struct OpScan &scan);
  llvm::Error readSchemaAttrs(Operation *op, const struct OpScan &scan);
  void assignSegments(Operation *op, const struct OpScan &scan);
  TypeSpans splitTypes(llvm::ArrayRef<size_t> toks, size_t from, size_t to, bool &split,
                       size_t &splitAt) const;

  Value *newValue(std::string name) {
    mod_->values.push_back(std::make_unique<Value>());
    mod_->values.back()->name = std::move(name);
    return mod_->values.back().get();
  }
  Value *lookup(const std::string &name);
  void define(const std::string &name, Value *v);

  std::string path_;
  std::unique_ptr<llvm::MemoryBuffer> owned_; // handed to the module
  llvm::StringRef buf_;
  LineTable lines_;
  std::vector<Token> toks_;
  size_t p_ = 0;
  unsigned regionDepth_ = 0;
  std::unique_ptr<Module> mod_;
  detail::AliasTable aliases_;
  std::vector<mlir::Attribute> aliasAttrs_; // by alias_ref index
  mlir::MLIRContext *context_ = nullptr;
  detail::LocationResolver locs_;
  std::vector<std::pair<size_t, size_t>> aliasRanges_; // token [begin, end)
  std::unordered_map<std::string, mlir::Type> typeCache_;
  std::unordered_map<std::string_view, mlir::Type> typeViews_, descTypeViews_;
  std::unordered_map<std::string_view, mlir::Attribute> attrViews_;
  std::unordered_map<std::string, mlir::Attribute> attrCache_;
  std::vector<std::unordered_map<std::string, Value *>> scopes_;
  std::unordered_map<std::string, Value *> forward_;
  size_t missingLocTok_ = 0;
  bool missingLocSeen_ = false;
  /// The first SSA name defined twice in one scope: the second definition.
  std::optional<std::pair<std::string, TextPos>> redefined_;
  /// The first value used before its definition in the same block, or by
  /// the op that defines it: the use.
  std::optional<std::pair<std::string, TextPos>> usedBeforeDefined_;
};

struct Use {
  std::string name;
  size_t tok;
  std::string keyword; // "" positional, "[" bracketed, else the keyword before it
  bool listContinuation = false;
  // The first operand inside its `[...]`: several bracketed groups in a
  // row (`[%a, %b], [%c]`) are several segments.
  bool opensBracket = false;
};

struct OpScan {
  size_t first = 0, nameTok = 0;
  bool generic = false;
  // Inline capacities cover nearly every op: no allocation while scanning one.
  llvm::SmallVector<std::pair<std::string, unsigned>, 2> results;
  llvm::SmallVector<Use, 4> uses;
  llvm::SmallVector<std::pair<size_t, size_t>, 2> dicts; // token ranges [`{`, `}`]
  llvm::SmallVector<size_t, 16> sig, arrow;              // token indices of the types
  llvm::SmallVector<std::pair<size_t, size_t>, 2> headerRuns;
  std::vector<Value *> pendingArgs;
  size_t locBegin = 0, locEnd = 0; // tokens inside `loc(...)`
};

size_t Parser::matching(size_t i) const {
  size_t depth = 0;
  for (size_t j = i; j < toks_.size(); ++j) {
    const Token &t = toks_[j];
    if (t.isOpening())
      ++depth;
    else if (t.isClosing()) {
      if (depth == 0)
        return llvm::StringRef::npos;
      if (--depth == 0)
        return j;
    } else if (t.is(TokenKind::Eof))
      break;
  }
  return llvm::StringRef::npos;
}

template <typename T, typename Fn>
llvm::Expected<T> Parser::parseWith(const std::string &raw, size_t offset, Fn &&fn) {
  size_t firstChange;
  std::string text = aliases_.substitute(raw, &firstChange);
  if (size_t deep = detail::nestingTooDeep(text); deep != std::string::npos)
    return errorAt(
        std::min(offset +
                     (firstChange == std::string::npos || deep < firstChange ? deep : firstChange),
                 buf_.size()),
        "brackets nested deeper than " + std::to_string(detail::kMaxNesting));
  unsigned line, col;
  auto r = captureParse<T>(mod_->context.get(), text, fn, line, col);
  if (!r) {
    size_t at = offset;
    if (col > 0) {
      size_t inText = offsetOf(text, line, col);
      // Positions past a substituted alias are inside its expansion: name
      // the use instead.
      at += firstChange == std::string::npos || inText < firstChange ? inText : firstChange;
    }
    return errorAt(std::min(at, buf_.size()), llvm::toString(r.takeError()));
  }
  return *r;
}

// `tensor<64x32xf16, #blocked>` or `tensor<128xi32>`, most types of a dump,
// built directly from their dimensions, element type and encoding alias, the
// last two each parsed once by the general path: the uniqued type MLIR's
// parser would give. Anything else (dynamic or scalable sizes, an inline
// encoding, text the general path would refuse) is left to it, so its
// errors and positions are the same.
std::optional<mlir::Type> Parser::simpleTensorType(llvm::StringRef text, size_t offset) {
  llvm::StringRef body = text;
  if (!body.consume_front("tensor<") || !body.consume_back(">"))
    return std::nullopt;
  llvm::StringRef encoding;
  if (size_t at = body.rfind(", #"); at != llvm::StringRef::npos) {
    encoding = body.substr(at + 2);
    body = body.take_front(at);
    if (!llvm::all_of(encoding.drop_front(),
                      [](char c) {
                        return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
                      }) ||
        encoding.size() < 2 || !aliases_.has(encoding.str()))
      return std::nullopt;
  }
  llvm::SmallVector<int64_t, 6> dims;
  while (!body.empty() && llvm::isDigit(body.front())) {
    size_t n = body.find_first_not_of("0123456789");
    if (n == llvm::StringRef::npos || body[n] != 'x')
      return std::nullopt;
    int64_t d = 0;
    if (body.take_front(n).getAsInteger(10, d) || d > (int64_t(1) << 40))
      return std::nullopt;
    dims.push_back(d);
    body = body.drop_front(n + 1);
  }
  if (dims.empty() || body.empty() || body.contains(' '))
    return std::nullopt;
  auto element = parseType(body.str(), offset);
  if (!element) {
    llvm::consumeError(element.takeError());
    return std::nullopt;
  }
  if (!mlir::TensorType::isValidElementType(*element))
    return std::nullopt;
  mlir::Attribute encodingAttr;
  if (!encoding.empty()) {
    auto attr = parseAttr(encoding.str(), offset);
    if (!attr) {
      llvm::consumeError(attr.takeError());
      return std::nullopt;
    }
    encodingAttr = *attr;
  }
  return mlir::RankedTensorType::get(dims, *element, encodingAttr);
}

// A tensor's distributed layout has the tensor's rank (Triton's verifier
// says so); empty when it does or the type has no such layout.
static std::string layoutRankProblem(mlir::Type t) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(t);
  if (!tensor || !tensor.getEncoding())
    return "";
  layout::EncodingPtr enc = encodingOf(t);
  if (!enc || !enc->isDistributed() || !enc->rank() || enc->rank() > 16 ||
      enc->rank() == unsigned(tensor.getRank()))
    return "";
  return fmt::format("a tensor of rank {} with a layout of rank {}", tensor.getRank(), enc->rank());
}

llvm::Expected<mlir::Type> Parser::parseType(const std::string &raw0, size_t offset, bool desc) {
  std::string raw = fixStrippedType(raw0, desc);
  auto cached = typeCache_.find(raw);
  if (cached != typeCache_.end())
    return cached->second;
  if (raw.size() == raw0.size())
    if (auto t = simpleTensorType(raw, offset)) {
      if (std::string problem = layoutRankProblem(*t); !problem.empty())
        return errorAt(std::min(offset, buf_.size()), problem);
      if (std::string problem = detail::shapeSizeProblem(*t); !problem.empty())
        return errorAt(std::min(offset, buf_.size()), problem);
      typeCache_.emplace(raw, *t);
      return *t;
    }
  // A restored `!ttg.memdesc` prefix is not in the file: an error position
  // inside the text maps back past it.
  size_t prefix = raw.size() - raw0.size();
  auto r = parseWith<mlir::Type>(
      raw, offset >= prefix ? offset - prefix : 0,
      [&](const std::string &t, size_t *n) { return mlir::parseType(t, mod_->context.get(), n); });
  if (r) {
    if (std::string problem = layoutRankProblem(*r); !problem.empty())
      return errorAt(std::min(offset, buf_.size()), problem);
    if (std::string problem = detail::shapeSizeProblem(*r); !problem.empty())
      return errorAt(std::min(offset, buf_.size()), problem);
    typeCache_.emplace(raw, *r);
  }
  return r;
}

llvm::Expected<mlir::Attribute> Parser::parseAttr(const std::string &raw, size_t offset) {
  auto cached = attrCache_.find(raw);
  if (cached != attrCache_.end())
    return cached->second;
  auto r = parseWith<mlir::Attribute>(raw, offset, [&](const std::string &t, size_t *n) {
    return mlir::parseAttribute(t, mod_->context.get(), mlir::Type(), n);
  });
  if (r)
    attrCache_.emplace(raw, *r);
  return r;
}

Value *Parser::lookup(const std::string &name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end())
      return f->second;
  }
  // `%x#0` names the only result of `%x = ...` too.
  if (llvm::StringRef(name).ends_with("#0")) {
    std::string base = name.substr(0, name.size() - 2);
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto f = it->find(base);
      if (f != it->end() && f->second->definingOp && f->second->definingOp->results.size() == 1)
        return f->second;
    }
  }
  auto f = forward_.find(name);
  if (f != forward_.end())
    return f->second;
  Value *v = newValue(name);
  forward_[name] = v;
  return v;
}

void Parser::define(const std::string &name, Value *v) {
  if (!forward_.empty()) { // uses before definitions are rare: no lookups without them
    if (v->definingOp && v->definingOp->results.size() == 1 &&
        !llvm::StringRef(name).contains('#') && forward_.count(name + "#0"))
      define(name + "#0", v);
    auto f = forward_.find(name);
    if (f != forward_.end()) {
      // A use came first (graph regions, branches): fold it into the definition.
      Value *placeholder = f->second;
      // Across blocks a use may come first in the text (dominance); in one
      // block of an SSA region, or in the defining op itself, it may not.
      const Operation *def = v->definingOp;
      if (def && !usedBeforeDefined_)
        for (auto &[op, idx] : placeholder->uses)
          if (op == def || (op->parentBlock && op->parentBlock == def->parentBlock)) {
            usedBeforeDefined_.emplace(name, op->pos);
            break;
          }
      for (auto &[op, idx] : placeholder->uses) {
        op->operands[idx] = v;
        v->uses.emplace_back(op, idx);
      }
      placeholder->uses.clear();
      forward_.erase(f);
    }
  }
  auto [it, fresh] = scopes_.back().try_emplace(name, v);
  if (!fresh) {
    // SSA: a name has one definition in its region.
    if (!redefined_ && v->definingOp)
      redefined_.emplace(name, v->definingOp->pos);
    it->second = v;
  }
}

// ---- where ops, blocks and regions start --------------------------------------

bool Parser::startsOp(size_t i) const {
  switch (kind(i)) {
  case TokenKind::BareId:
    return isOpName(spell(i)) && kind(i + 1) != TokenKind::Equal;
  case TokenKind::String:
    return kind(i + 1) == TokenKind::LParen;
  case TokenKind::PercentId: {
    // `%a, %b:2 = name`
    size_t j = i;
    while (kind(j) == TokenKind::PercentId) {
      ++j;
      if (kind(j) == TokenKind::Colon && kind(j + 1) == TokenKind::Integer)
        j += 2;
      if (kind(j) != TokenKind::Comma)
        break;
      ++j;
    }
    return kind(j) == TokenKind::Equal &&
           (kind(j + 1) == TokenKind::BareId || kind(j + 1) == TokenKind::String);
  }
  default:
    return false;
  }
}

bool Parser::blockLabelAt(size_t i) const {
  if (kind(i) != TokenKind::CaretId)
    return false;
  if (kind(i + 1) == TokenKind::Colon)
    return true;
  if (kind(i + 1) != TokenKind::LParen)
    return false;
  size_t close = matching(i + 1);
  return close != llvm::StringRef::npos && kind(close + 1) == TokenKind::Colon;
}

// Whether the `{` at `i` opens a region (ops, block labels) rather than an
// attribute dictionary (`key = value`, `key`).
bool Parser::regionAt(size_t i) const {
  size_t n = i + 1;
  switch (kind(n)) {
  case TokenKind::RBrace:
    // `{}`: an empty region only where a region list holds it.
    return kind(i - 1) == TokenKind::LParen;
  case TokenKind::CaretId:
    return true;
  case TokenKind::PercentId:
    // A region's first op starts with its results (`%a =`, `%a, %b =`,
    // `%a:2 =`); `{%v(...)}` or `%v{%a, %b}` is an op's own syntax.
    if (startsOp(n))
      return true;
    return kind(i - 1) != TokenKind::PercentId &&
           (kind(n + 1) == TokenKind::Equal || kind(n + 1) == TokenKind::Comma ||
            kind(n + 1) == TokenKind::Colon);
  case TokenKind::String:
    return kind(n + 1) == TokenKind::LParen;
  case TokenKind::BareId: {
    TokenKind after = kind(n + 1);
    if (after == TokenKind::Equal || after == TokenKind::Comma)
      return false;
    if (after == TokenKind::RBrace)
      return isOpName(spell(n)) && resolveOpName(spell(n)).schema != nullptr;
    return true;
  }
  default:
    return false;
  }
}

// ---- aliases --------------------------------------------------------------

llvm::Error Parser::collectAliases() {
  size_t depth = 0;
  for (size_t i = 0; i < toks_.size() && !toks_[i].is(TokenKind::Eof); ++i) {
    const Token &t = toks_[i];
    if (t.isOpening()) {
      ++depth;
      continue;
    }
    if (t.isClosing()) {
      if (depth > 0)
        --depth;
      continue;
    }
    if (depth != 0 || !aliasDefAt(i))
      continue;
    // The value runs to the next top-level item.
    size_t b = i + 2;
    size_t e = balancedUntil(b, toks_.size(), [&](size_t k) {
      return k > b && (aliasDefAt(k) || startsOp(k) || kind(k) == TokenKind::FileMetadata);
    });
    if (e == b)
      return errorTok(i + 1, "expected a value after '=' in the alias definition");
    std::string name = spell(i).str();
    std::string value = span(b, e);
    aliasRanges_.emplace_back(i, e);
    if (name[0] == '#' && spell(b) == "loc" && kind(b + 1) == TokenKind::LParen) {
      size_t close = matching(b + 1);
      if (close == llvm::StringRef::npos || close >= e)
        return errorTok(b + 1, "unterminated loc(...)");
      locs_.addAlias(name, span(b + 2, close));
    } else {
      aliases_.add(name, value, t.offset);
    }
    i = e - 1;
  }
  std::string message;
  size_t offset = 0;
  if (!aliases_.expandAll(message, offset))
    return errorAt(offset, message);
  for (auto &d : aliases_.definitions()) {
    LayoutAlias a;
    a.name = d.name;
    a.definition = d.text;
    auto [l, c] = lines_.position(d.offset);
    a.pos = {l, c};
    // The value starts after `NAME = `.
    size_t valueOffset = buf_.find(d.text, d.offset + d.name.size());
    if (valueOffset == llvm::StringRef::npos)
      valueOffset = d.offset;
    if (d.name[0] == '#') {
      auto attr = parseAttr(d.text, valueOffset);
      if (!attr)
        return attr.takeError();
      a.attr = *attr;
      aliases_.bind(d.name, aliasAttrs_.size());
      aliasAttrs_.push_back(a.attr);
    } else {
      auto type = parseType(d.text, valueOffset);
      if (!type)
        return type.takeError();
    }
    mod_->aliases.push_back(std::move(a));
  }
  return llvm::Error::success();
}

// Aliases whose meaning the memdescs that use them complete: pre-3.3
// `#triton_gpu.shared<{..., hasLeadingOffset}>` (the element type decides
// the modern kind) and 3.5's `#ttg.padded_shared<[...] {order}>` (the shape).
// Read each from its first such use.
llvm::Error Parser::completeAtMemdesc() {
  for (auto &a : mod_->aliases) {
    auto l = mlir::dyn_cast_or_null<LayoutEncodingAttr>(a.attr);
    if (!l)
      continue;
    if (!layout::needsMemdesc(*l.getEncoding()))
      continue;
    for (size_t i = 0; i + 2 < toks_.size(); ++i) {
      if (kind(i) != TokenKind::HashId || spell(i) != a.name || kind(i - 1) != TokenKind::Comma)
        continue;
      // Back to the `<` of the enclosing memdesc.
      size_t depth = 0, j = i;
      while (j > 0) {
        --j;
        if (tok(j).isClosing())
          ++depth;
        else if (tok(j).isOpening()) {
          if (depth == 0)
            break;
          --depth;
        }
      }
      if (kind(j) != TokenKind::Less || j == 0)
        continue;
      llvm::StringRef before = spell(j - 1);
      if (!before.ends_with("memdesc"))
        continue;
      size_t close = matching(j);
      if (close == llvm::StringRef::npos)
        continue;
      auto type = parseType("!ttg.memdesc" + span(j, close + 1), tok(j).offset);
      if (type) {
        a.attr = mlir::cast<TritonType>(*type).info().encoding;
        break;
      }
      llvm::consumeError(type.takeError());
    }
  }
  return llvm::Error::success();
}

// ---- ops ------------------------------------------------------------------------

llvm::Error Parser::parseArgumentType(size_t &i, Value *v, size_t closeLimit) {
  // `%a: TYPE [{attrs}] [loc(...)]` up to `,` or the closing `)`.
  size_t b = i;
  size_t e = balancedUntil(b, closeLimit, [&](size_t k) {
    return kind(k) == TokenKind::Comma || kind(k) == TokenKind::LBrace ||
           (kind(k) == TokenKind::BareId && spell(k) == "loc" && kind(k + 1) == TokenKind::LParen);
  });
  if (e == b)
    return errorTok(b, "expected a type after ':'");
  auto type = parseTypeTokens(b, e);
  if (!type)
    return type.takeError();
  v->type = *type;
  i = e;
  if (kind(i) == TokenKind::LBrace) {
    size_t close = matching(i);
    if (close == llvm::StringRef::npos || close > closeLimit)
      return errorTok(i, "unterminated argument attributes");
    auto a = parseAttr(span(i, close + 1), tok(i).offset);
    if (!a)
      return a.takeError();
    v->attributes = mlir::dyn_cast<mlir::DictionaryAttr>(*a);
    i = close + 1;
  }
  if (kind(i) == TokenKind::BareId && spell(i) == "loc" && kind(i + 1) == TokenKind::LParen) {
    size_t close = matching(i + 1);
    if (close == llvm::StringRef::npos || close > closeLimit)
      return errorTok(i + 1, "unterminated loc(...)");
    v->paramName = locs_.resolve(span(i + 2, close)).firstName;
    i = close + 1;
  }
  return llvm::Error::success();
}

llvm::Error Parser::parseBlockLabel(Block *block) {
  block->label = spell(p_).str();
  ++p_;
  if (kind(p_) == TokenKind::LParen) {
    size_t close = matching(p_);
    ++p_;
    while (p_ < close) {
      if (kind(p_) != TokenKind::PercentId || kind(p_ + 1) != TokenKind::Colon)
        return errorTok(p_, "expected '%name: type' in block arguments");
      Value *v = newValue(spell(p_).str());
      p_ += 2;
      if (auto e = parseArgumentType(p_, v, close))
        return e;
      v->ownerBlock = block;
      block->arguments.push_back(v);
      define(v->name, v);
      if (kind(p_) == TokenKind::Comma)
        ++p_;
      else if (p_ != close)
        return errorTok(p_, "expected ',' or ')' in block arguments");
    }
    p_ = close + 1;
  }
  ++p_; // ':'
  return llvm::Error::success();
}

llvm::Error Parser::parseRegion(Operation *op, std::string label, std::vector<Value *> args) {
  if (++regionDepth_ > kMaxRegionDepth)
    return errorTok(p_, "regions nested deeper than " + std::to_string(kMaxRegionDepth));
  size_t open = p_++;
  auto region = std::make_unique<Region>();
  region->parent = op;
  region->label = std::move(label);
  auto block = std::make_unique<Block>();
  block->parent = region.get();
  scopes_.emplace_back();
  for (Value *v : args) {
    v->ownerBlock = block.get();
    block->arguments.push_back(v);
    define(v->name, v);
  }
  while (true) {
    TokenKind k = kind(p_);
    if (k == TokenKind::Eof) {
      scopes_.pop_back();
      return errorTok(open, "region opened here is never closed (truncated dump?)");
    }
    if (k == TokenKind::RBrace)
      break;
    if (k == TokenKind::CaretId) {
      if (!blockLabelAt(p_)) {
        scopes_.pop_back();
        return errorTok(p_, "expected ':' after the block label");
      }
      if (!block->ops.empty() || !block->label.empty() || !block->arguments.empty())
        region->blocks.push_back(std::move(block));
      block = std::make_unique<Block>();
      block->parent = region.get();
      if (auto e = parseBlockLabel(block.get())) {
        scopes_.pop_back();
        return e;
      }
      continue;
    }
    auto child = parseOp(block.get());
    if (!child) {
      scopes_.pop_back();
      return child.takeError();
    }
    block->ops.push_back(std::move(*child));
  }
  ++p_; // '}'
  region->blocks.push_back(std::move(block));
  scopes_.pop_back();
  op->regions.push_back(std::move(region));
  --regionDepth_;
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Operation>> Parser::parseOp(Block *parent) {
  auto op = std::make_unique<Operation>();
  op->parentBlock = parent;
  OpScan scan;
  scan.first = p_;
  op->pos = posOf(p_);

  // Results: `%a, %b:2 =`.
  if (kind(p_) == TokenKind::PercentId) {
    while (true) {
      if (kind(p_) != TokenKind::PercentId)
        return errorTok(p_, "expected a result name");
      std::string name = spell(p_).str();
      unsigned count = 1;
      ++p_;
      bool counted = false;
      if (kind(p_) == TokenKind::Colon) {
        if (kind(p_ + 1) != TokenKind::Integer)
          return errorTok(p_ + 1, "expected a result count after ':'");
        unsigned long long c = 0;
        if (spell(p_ + 1).getAsInteger(10, c) || c == 0 || c > 1u << 16)
          return errorTok(p_ + 1, "bad result count");
        count = unsigned(c);
        counted = true;
        p_ += 2;
      }
      if (counted && count == 1)
        count = ~0u; // `%0:1`: the one result is still `%0#0`
      scan.results.emplace_back(name, count);
      if (kind(p_) == TokenKind::Comma) {
        ++p_;
        continue;
      }
      if (kind(p_) == TokenKind::Equal) {
        ++p_;
        break;
      }
      return errorTok(p_, "expected '=' after the results");
    }
  }
  // The name: bare or quoted (generic form).
  scan.nameTok = p_;
  if (kind(p_) == TokenKind::String) {
    op->writtenName = spell(p_).drop_front().drop_back().str();
    scan.generic = true;
  } else if (kind(p_) == TokenKind::BareId) {
    op->writtenName = spell(p_).str();
  } else {
    return errorTok(p_, "expected an operation name");
  }
  if (!scan.generic && !isOpName(op->writtenName))
    return errorTok(p_, "expected a dialect-qualified operation name, got '" +
                            clipForMessage(op->writtenName) + "'");
  auto resolved = resolveOpName(op->writtenName);
  op->name = std::move(resolved.name);
  op->schema = resolved.schema;
  op->known = op->schema != nullptr;
  ++p_;

  struct Open {
    size_t tok;
    bool successorArgs; // `^bb1(%x : i32)`: uses, not definitions
  };
  llvm::SmallVector<Open, 8> stack;
  bool sigOpen = false, arrowOpen = false;
  size_t runStart = scan.first;
  bool structuralBefore = false; // a region or depth-0 dictionary came before
  size_t labelStart = p_;
  auto closeRun = [&](size_t end) {
    if (end > runStart)
      scan.headerRuns.emplace_back(runStart, end);
  };

  while (true) {
    const Token &t = tok(p_);
    if (stack.empty()) {
      bool end = t.is(TokenKind::Eof) || t.is(TokenKind::RBrace) || t.is(TokenKind::FileMetadata) ||
                 blockLabelAt(p_) || startsOp(p_) || aliasDefAt(p_);
      if (end)
        break;
    }
    bool inTypeBracket = false;
    for (auto &o : stack)
      if (kind(o.tok) == TokenKind::Less || kind(o.tok) == TokenKind::LSquare)
        inTypeBracket = true;
    switch (t.kind) {
    case TokenKind::Eof:
      return errorTok(stack.back().tok,
                      "'" + spell(stack.back().tok).str() + "' opened here is never closed");
    case TokenKind::LBrace: {
      bool regionPlace = stack.empty() || kind(stack.back().tok) == TokenKind::LParen;
      if (regionPlace && regionAt(p_)) {
        closeRun(p_);
        std::string label;
        if (structuralBefore && stack.empty() && labelStart < p_ &&
            kind(labelStart) == TokenKind::BareId && !isOpName(spell(labelStart)))
          label = span(labelStart, p_);
        sigOpen = arrowOpen = false;
        if (auto e = parseRegion(op.get(), label, std::move(scan.pendingArgs)))
          return e;
        scan.pendingArgs.clear();
        runStart = p_;
        structuralBefore = true;
        labelStart = p_;
        continue;
      }
      if (!inTypeBracket && (stack.empty() || kind(stack.back().tok) == TokenKind::LParen)) {
        size_t close = matching(p_);
        if (close == llvm::StringRef::npos)
          return errorTok(p_, "'{' opened here is never closed");
        if (stack.empty()) {
          scan.dicts.emplace_back(p_, close);
          sigOpen = arrowOpen = false;
          structuralBefore = true;
          labelStart = close + 1;
        } else if (!scan.pendingArgs.empty()) {
          // Argument attributes written after a definition's type.
          auto a = parseAttr(span(p_, close + 1), t.offset);
          if (!a)
            return a.takeError();
          scan.pendingArgs.back()->attributes = mlir::dyn_cast<mlir::DictionaryAttr>(*a);
        }
        p_ = close + 1;
        continue;
      }
      stack.push_back({p_, false});
      break;
    }
    case TokenKind::Less:
      if (stack.empty() && kind(p_ + 1) == TokenKind::LBrace && kind(p_ - 1) != TokenKind::HashId &&
          kind(p_ - 1) != TokenKind::BangId) {
        // `<{properties}>`
        size_t close = matching(p_ + 1);
        if (close == llvm::StringRef::npos || kind(close + 1) != TokenKind::Greater)
          return errorTok(p_, "unterminated properties '<{...}>'");
        scan.dicts.emplace_back(p_ + 1, close);
        p_ = close + 2;
        continue;
      }
      if (sigOpen)
        scan.sig.push_back(p_);
      else if (arrowOpen)
        scan.arrow.push_back(p_);
      stack.push_back({p_, false});
      ++p_;
      continue;
    case TokenKind::LParen:
    case TokenKind::LSquare:
      if (sigOpen)
        scan.sig.push_back(p_);
      else if (arrowOpen)
        scan.arrow.push_back(p_);
      stack.push_back({p_, kind(p_ - 1) == TokenKind::CaretId});
      ++p_;
      continue;
    case TokenKind::RParen:
    case TokenKind::RSquare:
    case TokenKind::Greater:
    case TokenKind::RBrace: {
      static const std::pair<TokenKind, TokenKind> pairs[] = {
          {TokenKind::LParen, TokenKind::RParen},
          {TokenKind::LSquare, TokenKind::RSquare},
          {TokenKind::Less, TokenKind::Greater},
          {TokenKind::LBrace, TokenKind::RBrace}};
      TokenKind want = TokenKind::Eof;
      if (!stack.empty())
        for (auto &[o, c] : pairs)
          if (o == kind(stack.back().tok))
            want = c;
      if (want != t.kind) {
        std::string open;
        if (!stack.empty()) {
          TextPos at = posOf(stack.back().tok);
          open = fmt::format(" (the '{}' at {}:{} is still open)", spell(stack.back().tok).str(),
                             at.line, at.col);
        }
        return errorTok(p_, "unbalanced '" + spell(p_).str() + "'" + open);
      }
      stack.pop_back();
      if (sigOpen)
        scan.sig.push_back(p_);
      else if (arrowOpen)
        scan.arrow.push_back(p_);
      ++p_;
      continue;
    }
    case TokenKind::PercentId: {
      std::string name = spell(p_).str();
      bool inParens = !stack.empty() && kind(stack.back().tok) == TokenKind::LParen &&
                      !stack.back().successorArgs;
      if (!inTypeBracket && kind(p_ + 1) == TokenKind::Equal && kind(p_ + 2) != TokenKind::Equal) {
        // `%iv = %lb`, `iter_args(%acc = %init)`: a region argument.
        scan.pendingArgs.push_back(newValue(name));
        p_ += 2;
        continue;
      }
      if (inParens && kind(p_ + 1) == TokenKind::Colon && !inTypeBracket) {
        // `(%arg: type ...)`: a region argument with its type written.
        Value *v = newValue(name);
        size_t close = matching(stack.back().tok);
        if (close == llvm::StringRef::npos)
          return errorTok(stack.back().tok, "'(' opened here is never closed");
        p_ += 2;
        if (auto e = parseArgumentType(p_, v, close))
          return e;
        scan.pendingArgs.push_back(v);
        continue;
      }
      Use u;
      u.name = name;
      u.tok = p_;
      size_t prev = p_ - 1;
      if (!stack.empty() && kind(stack.back().tok) == TokenKind::LSquare) {
        u.keyword = "[";
        u.opensBracket = kind(prev) == TokenKind::LSquare;
      } else if (prev > scan.nameTok && kind(prev) == TokenKind::BareId)
        u.keyword = spell(prev).str();
      else if (prev > scan.nameTok + 1 && kind(prev) == TokenKind::Equal &&
               kind(prev - 1) == TokenKind::BareId)
        u.keyword = spell(prev - 1).str();
      u.listContinuation = kind(prev) == TokenKind::Comma;
      scan.uses.push_back(std::move(u));
      if (sigOpen)
        scan.sig.push_back(p_);
      ++p_;
      continue;
    }
    case TokenKind::Colon:
      if (stack.empty() && kind(p_ + 1) != TokenKind::PercentId) {
        sigOpen = true;
        arrowOpen = false;
        scan.sig.clear();
        ++p_;
        continue;
      }
      break;
    case TokenKind::Arrow:
      if (stack.empty() && !sigOpen) {
        arrowOpen = true;
        scan.arrow.clear();
        ++p_;
        continue;
      }
      break;
    case TokenKind::CaretId: // a successor (`cf.cond_br %c, ^bb1, ^bb2`)
      op->successors.push_back(spell(p_).str());
      break;
    case TokenKind::AtId:
      if (op->symbol.empty())
        op->symbol = spell(p_).str();
      break;
    case TokenKind::BareId:
      if (spell(p_) == "loc" && kind(p_ + 1) == TokenKind::LParen && stack.empty()) {
        size_t close = matching(p_ + 1);
        if (close == llvm::StringRef::npos)
          return errorTok(p_ + 1, "'(' opened here is never closed");
        scan.locBegin = p_ + 2;
        scan.locEnd = close;
        closeRun(p_);
        sigOpen = arrowOpen = false;
        p_ = close + 1;
        runStart = p_;
        continue;
      }
      // The `-> T` list ends where a word follows a complete type
      // (`-> i32 attributes {...}`, `-> T no_inline {`).
      if (stack.empty() && arrowOpen && !scan.arrow.empty()) {
        TokenKind last = kind(scan.arrow.back());
        if (last == TokenKind::Greater || last == TokenKind::BareId || last == TokenKind::RParen ||
            last == TokenKind::BangId)
          arrowOpen = false;
      }
      break;
    default:
      break;
    }
    if (sigOpen)
      scan.sig.push_back(p_);
    else if (arrowOpen)
      scan.arrow.push_back(p_);
    ++p_;
  }
  closeRun(p_);
  if (auto e = finishOp(op.get(), scan))
    return e;
  // A module is its body; one without (`module attribu` at the end of the
  // text) is a dump cut in its header, as is a function whose header runs
  // into the end.
  bool function = op->schema && op->schema->is(OpFlagFunction);
  bool bodyClosed = p_ > 0 && kind(p_ - 1) == TokenKind::RBrace;
  if (op->regions.empty() && !bodyClosed &&
      (op->name == "builtin.module" || (function && tok(p_).is(TokenKind::Eof))))
    return errorTok(p_, std::string("the text ends inside the header of ") +
                            (function ? "function " + op->symbol : std::string("a module")) +
                            ", before its body (truncated dump?)");
  return op;
}

// The attributes the op's schema names: what its own syntax writes (a
// predicate after the name, `cacheModifier = ca`, `%b, 1`, `[0, 32]`, a
// constant's value) read into the dictionary as the generic form holds it,
// then every one checked against its type; a required one that is absent, or
// a value its type does not allow, is refused here, with its position.
llvm::Error Parser::readSchemaAttrs(Operation *op, const OpScan &scan) {
  const OpSchema *schema = op->schema;
  if (!schema || schema->attrs.empty())
    return llvm::Error::success();
  mlir::MLIRContext *ctx = mod_->context.get();
  auto i32 = mlir::IntegerType::get(ctx, 32);
  auto where = [&](const AttrSpec &a) {
    return fmt::format("{}'s {}", op->writtenName, a.name.str());
  };

  // The op's own syntax: from after its name to its type (`:` at depth 0),
  // within the text before its first region or location.
  size_t begin = scan.nameTok + 1, runEnd = begin;
  for (auto [a, b] : scan.headerRuns)
    if (a <= scan.nameTok && scan.nameTok < b)
      runEnd = b;
  size_t end = begin;
  {
    int depth = 0;
    for (; end < runEnd; ++end) {
      const Token &t = tok(end);
      if (t.isOpening())
        ++depth;
      else if (t.isClosing())
        --depth;
      else if (depth == 0 && t.is(TokenKind::Colon) && kind(end + 1) != TokenKind::PercentId)
        break;
    }
  }
  // Each token of that text at depth 0, in order.
  llvm::SmallVector<size_t, 16> top;
  for (size_t i = begin; i < end; ++i) {
    top.push_back(i);
    if (tok(i).isOpening()) {
      size_t close = matching(i);
      if (close == llvm::StringRef::npos || close >= end)
        break;
      i = close;
    }
  }
  // The words right after the name: `slt`, `fadd, acq_rel, gpu`; MLIR
  // also reads an enum's case as a string (`"slt"`, older Triton's tests).
  llvm::SmallVector<size_t, 4> words;
  for (size_t i = begin; i < end; ++i) {
    if (kind(i) == TokenKind::BareId || kind(i) == TokenKind::String)
      words.push_back(i);
    else if (kind(i) != TokenKind::Comma)
      break;
  }

  llvm::SmallVector<mlir::NamedAttribute, 4> added;
  // What the syntax wrote for an attribute, as the dictionary would hold it;
  // null when it wrote nothing.
  auto fromSyntax = [&](const AttrSpec &a) -> llvm::Expected<mlir::Attribute> {
    auto keywordValue = [&](size_t at) -> llvm::Expected<mlir::Attribute> {
      llvm::StringRef w = spell(at);
      if (kind(at) == TokenKind::String)
        w = w.drop_front().drop_back();
      if (a.type == AttrType::String) {
        if (std::find(a.cases.begin(), a.cases.end(), w) == a.cases.end())
          return errorTok(at, fmt::format("unknown {} '{}' (expected {})", where(a),
                                          clipForMessage(w.str()), a.caseList()));
        return mlir::StringAttr::get(ctx, w);
      }
      if (a.type == AttrType::Integer && kind(at) == TokenKind::Integer) {
        int64_t v = 0;
        if (w.getAsInteger(0, v))
          return errorTok(at, fmt::format("{} '{}' is not an integer", where(a), w.str()));
        return mlir::IntegerAttr::get(i32, v);
      }
      auto n = a.caseNumber(w);
      if (a.type != AttrType::Enum || !n)
        return errorTok(at, fmt::format("unknown {} '{}' (expected {})", where(a),
                                        clipForMessage(w.str()), a.caseList()));
      return mlir::IntegerAttr::get(mlir::IntegerType::get(ctx, a.bits), *n);
    };
    switch (a.place) {
    case AttrPlace::Dictionary:
      return mlir::Attribute();
    case AttrPlace::Word:
      if (a.word < words.size())
        return keywordValue(words[a.word]);
      return mlir::Attribute();
    case AttrPlace::Keyword:
      for (size_t k = 0; k + 2 < top.size(); ++k)
        if (kind(top[k]) == TokenKind::BareId && spell(top[k]) == a.keyword &&
            kind(top[k + 1]) == TokenKind::Equal)
          return keywordValue(top[k + 2]);
      return mlir::Attribute();
    case AttrPlace::Integer:
      for (size_t k : top)
        if (kind(k) == TokenKind::Integer)
          return keywordValue(k);
      return mlir::Attribute();
    case AttrPlace::Brackets:
      for (size_t k : top) {
        if (kind(k) != TokenKind::LSquare)
          continue;
        size_t close = matching(k);
        llvm::SmallVector<int32_t, 4> values;
        bool negative = false;
        for (size_t i = k + 1; i < close; ++i) {
          int64_t v = 0;
          if (kind(i) == TokenKind::Other && spell(i) == "-" && !negative) {
            negative = true;
          } else if (kind(i) == TokenKind::Integer && !spell(i).getAsInteger(0, v) &&
                     v <= INT32_MAX) {
            values.push_back(int32_t(negative ? -v : v));
            negative = false;
          } else if (kind(i) != TokenKind::Comma || negative) {
            return errorTok(i, fmt::format("{} are integers; got '{}'", where(a),
                                           clipForMessage(spell(i).str())));
          }
        }
        return mlir::DenseI32ArrayAttr::get(ctx, values);
      }
      return mlir::Attribute();
    case AttrPlace::Bare:
      for (size_t k : top)
        if (kind(k) == TokenKind::BareId && spell(k) == a.name)
          return mlir::Attribute(mlir::UnitAttr::get(ctx));
      return mlir::Attribute();
    case AttrPlace::Literal: {
      size_t from = begin;
      for (auto [d, close] : scan.dicts)
        if (d == from)
          from = close + 1;
      if (from >= runEnd || kind(from) == TokenKind::Colon)
        return mlir::Attribute();
      return parseAttrTokens(from, runEnd);
    }
    }
    return mlir::Attribute();
  };

  for (const AttrSpec &a : schema->attrs) {
    mlir::Attribute have = op->attributes.get(a.name);
    if (!have && !scan.generic) {
      auto written = fromSyntax(a);
      if (!written)
        return written.takeError();
      if (*written) {
        have = *written;
        added.emplace_back(mlir::StringAttr::get(ctx, a.name), have);
        continue;
      }
    }
    if (!have) {
      if (a.required)
        return errorTok(
            scan.nameTok,
            a.type == AttrType::Enum || a.type == AttrType::String
                ? fmt::format("{} without its {} ({})", op->writtenName, a.name.str(), a.caseList())
                : fmt::format("{} without its {}", op->writtenName, a.name.str()));
      continue;
    }
    // A dictionary's value, checked against the type.
    bool ok = true;
    std::string value = clipForMessage(attrText(have));
    switch (a.type) {
    case AttrType::Enum:
      if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(have))
        ok = !a.caseName(i.getInt()).empty();
      else // an enum attribute printed by its dialect: `#tt<cache ca>`
        ok = a.caseNumber(llvm::StringRef(value).rtrim('>').rsplit(' ').second).has_value();
      break;
    case AttrType::String:
      if (auto str = mlir::dyn_cast<mlir::StringAttr>(have))
        ok = std::find(a.cases.begin(), a.cases.end(), str.getValue()) != a.cases.end();
      else
        ok = false;
      break;
    case AttrType::Integer:
      ok = mlir::isa<mlir::IntegerAttr>(have);
      break;
    case AttrType::Integers:
      ok = mlir::isa<mlir::DenseI32ArrayAttr, mlir::DenseI64ArrayAttr, mlir::DenseIntElementsAttr>(
          have);
      if (auto arr = mlir::dyn_cast<mlir::ArrayAttr>(have))
        ok = llvm::all_of(arr, [](mlir::Attribute e) { return mlir::isa<mlir::IntegerAttr>(e); });
      break;
    case AttrType::Unit:
      ok = mlir::isa<mlir::UnitAttr, mlir::BoolAttr>(have);
      break;
    case AttrType::Literal:
      break;
    }
    if (!ok)
      return errorTok(scan.nameTok,
                      fmt::format("{} = {} is not {}", where(a), value,
                                  a.type == AttrType::Enum || a.type == AttrType::String
                                      ? "one of " + a.caseList()
                                  : a.type == AttrType::Integer
                                      ? std::string("an integer")
                                      : std::string("a list of integers")));
  }
  if (!added.empty()) {
    mlir::NamedAttrList all(op->attributes);
    for (auto &na : added)
      all.set(na.getName(), na.getValue());
    op->attributes = all.getDictionary(ctx);
  }
  return llvm::Error::success();
}

// Splits the type tokens `toks[from, to)` into one span per type: at
// depth-0 `,` `*` `[` `]`, between juxtaposed types, and at `->` / `to`
// (where `split` is set and `splitAt` is the index of the first output).
TypeSpans Parser::splitTypes(llvm::ArrayRef<size_t> ts, size_t from, size_t to, bool &split,
                             size_t &splitAt) const {
  TypeSpans out; // token index ranges [a, b)
  size_t depth = 0;
  size_t start = llvm::StringRef::npos, last = 0;
  auto flush = [&]() {
    if (start != llvm::StringRef::npos)
      out.emplace_back(start, last + 1);
    start = llvm::StringRef::npos;
  };
  for (size_t k = from; k < to; ++k) {
    size_t i = ts[k];
    const Token &t = tok(i);
    if (depth == 0) {
      bool separator = t.is(TokenKind::Comma) || t.is(TokenKind::LSquare) ||
                       t.is(TokenKind::RSquare) || (t.is(TokenKind::Other) && spell(i) == "*");
      if (t.is(TokenKind::Arrow) || (t.is(TokenKind::BareId) && spell(i) == "to")) {
        flush();
        if (!split) {
          split = true;
          splitAt = out.size();
        }
        continue;
      }
      if (separator) {
        flush();
        continue;
      }
      // A new type right after a complete one (`[T] T`).
      bool continues = t.is(TokenKind::Less) && start != llvm::StringRef::npos &&
                       (kind(last) == TokenKind::BareId || kind(last) == TokenKind::BangId);
      if (start != llvm::StringRef::npos && !continues &&
          (kind(last) == TokenKind::Greater || kind(last) == TokenKind::BareId ||
           kind(last) == TokenKind::RParen || kind(last) == TokenKind::BangId))
        flush();
    }
    if (t.isOpening())
      ++depth;
    else if (t.isClosing() && depth > 0)
      --depth;
    if (start == llvm::StringRef::npos)
      start = i;
    last = i;
  }
  flush();
  return out;
}

void Parser::assignSegments(Operation *op, const OpScan &scan) {
  const OpSchema *s = op->schema;
  if (!s || s->segments.empty())
    return;
  size_t nseg = s->segments.size();
  // Per segment: its first operand and how many (a segment is contiguous).
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 8> members(nseg, {0, 0});
  // Generic form with explicit segment sizes.
  mlir::Attribute sizesAttr = op->attr("operandSegmentSizes");
  if (!sizesAttr)
    sizesAttr = op->attr("operand_segment_sizes");
  if (auto sizes = mlir::dyn_cast_or_null<mlir::DenseI32ArrayAttr>(sizesAttr)) {
    uint32_t at = 0;
    op->segments.assign(nseg, {0, 0});
    for (size_t k = 0; k < nseg && k < size_t(sizes.size()); ++k) {
      uint32_t n = uint32_t(std::max(0, sizes[k]));
      if (at + n > op->operands.size())
        break;
      op->segments[k] = {at, n};
      at += n;
    }
    return;
  }
  size_t cur = 0;
  int lastSeg = -1;
  auto hasKeyword = [&](const std::string &kw) {
    for (auto &seg : s->segments)
      if (seg.keyword == kw)
        return true;
    return false;
  };
  for (uint32_t u = 0; u < scan.uses.size(); ++u) {
    const Use &use = scan.uses[u];
    int chosen = -1;
    std::string kw = use.keyword;
    if (!kw.empty() && !hasKeyword(kw))
      kw.clear();
    if (kw.empty() && use.listContinuation && lastSeg >= 0 && s->segments[lastSeg].variadic &&
        !s->segments[lastSeg].keyword.empty() && s->segments[lastSeg].keyword != "[")
      chosen = lastSeg;
    else if (!kw.empty()) {
      bool nextGroup = use.opensBracket && lastSeg >= 0 && s->segments[lastSeg].keyword == "[";
      if (nextGroup)
        cur = size_t(lastSeg) + 1;
      else if (lastSeg >= 0 && s->segments[lastSeg].keyword == kw && s->segments[lastSeg].variadic)
        chosen = lastSeg;
      for (size_t k = cur; chosen < 0 && k < nseg; ++k)
        if (s->segments[k].keyword == kw)
          chosen = int(k);
      for (size_t k = 0; chosen < 0 && k < nseg; ++k)
        if (s->segments[k].keyword == kw && s->segments[k].variadic)
          chosen = int(k);
    } else {
      if (lastSeg >= 0 && s->segments[lastSeg].variadic && s->segments[lastSeg].keyword.empty())
        chosen = lastSeg;
      for (size_t k = cur; chosen < 0 && k < nseg; ++k)
        if (s->segments[k].keyword.empty())
          chosen = int(k);
    }
    if (chosen < 0)
      continue;
    auto &m = members[size_t(chosen)];
    if (m.second++ == 0)
      m.first = u;
    lastSeg = chosen;
    cur = s->segments[chosen].variadic ? size_t(chosen) : size_t(chosen) + 1;
    if (s->segments[chosen].variadic && size_t(chosen) + 1 > cur)
      cur = size_t(chosen);
  }
  // Operands keep their written order; a segment is contiguous in it.
  op->segments.assign(members.begin(), members.end());
}

llvm::Error Parser::finishOp(Operation *op, OpScan &scan) {
  // Own text, for reports: where it is; Operation::text() reads it.
  op->source = buf_;
  for (auto &[a, b] : scan.headerRuns)
    if (b > a)
      op->textRuns.emplace_back(uint32_t(tok(a).offset), uint32_t(tok(b - 1).end()));

  // Location.
  if (scan.locEnd > scan.locBegin) {
    op->loc = locs_.resolve(span(scan.locBegin, scan.locEnd));
    if (!locs_.missing().empty() && !missingLocSeen_) {
      missingLocSeen_ = true;
      missingLocTok_ = scan.locBegin;
    }
  }

  // Attribute dictionaries (attr-dict and `<{properties}>`), merged.
  {
    llvm::SmallVector<mlir::NamedAttribute> merged;
    for (auto &[a, b] : scan.dicts) {
      auto attr = parseAttrTokens(a, b + 1);
      if (!attr) {
        if (!op->known) {
          llvm::consumeError(attr.takeError());
          continue;
        }
        return attr.takeError();
      }
      if (auto dict = mlir::dyn_cast<mlir::DictionaryAttr>(*attr))
        for (auto nv : dict)
          merged.push_back(nv);
    }
    op->attributes = mlir::DictionaryAttr::get(mod_->context.get(), merged);
  }
  if (auto e = readSchemaAttrs(op, scan))
    return e;

  // Operands.
  op->operands.reserve(scan.uses.size());
  for (auto &u : scan.uses) {
    Value *v = lookup(u.name);
    unsigned idx = unsigned(op->operands.size());
    op->operands.push_back(v);
    v->uses.emplace_back(op, idx);
  }
  assignSegments(op, scan);

  // Results.
  for (auto [name, count] : scan.results) {
    bool numbered = count != 1;
    if (count == ~0u)
      count = 1;
    for (unsigned r = 0; r < count; ++r) {
      std::string vname = numbered ? name + "#" + std::to_string(r) : name;
      Value *v = newValue(vname);
      v->definingOp = op;
      v->resultIndex = unsigned(op->results.size());
      op->results.push_back(v);
      define(vname, v);
      if (numbered && r == 0)
        scopes_.back()[name] = v;
    }
  }

  // The type signature.
  bool known = op->known;
  bool desc = op->schema && op->schema->is(OpFlagStrippedDesc);
  auto parseSpans = [&](const TypeSpans &spans, size_t a, size_t b,
                        llvm::SmallVectorImpl<mlir::Type> &out) -> llvm::Error {
    for (size_t k = a; k < b; ++k) {
      auto [x, y] = spans[k];
      // A parenthesised list: `(A, B)`.
      if (kind(x) == TokenKind::LParen && matching(x) == y - 1) {
        llvm::SmallVector<size_t, 16> inner;
        for (size_t i = x + 1; i + 1 < y; ++i)
          inner.push_back(i);
        bool s2 = false;
        size_t at2 = 0;
        auto parts = splitTypes(inner, 0, inner.size(), s2, at2);
        for (auto [u, w] : parts) {
          auto t = parseTypeTokens(u, w, desc);
          if (!t)
            return t.takeError();
          out.push_back(*t);
        }
        continue;
      }
      auto t = parseTypeTokens(x, y, desc);
      if (!t)
        return t.takeError();
      out.push_back(*t);
    }
    return llvm::Error::success();
  };
  llvm::SmallVector<mlir::Type, 4> ins, outs, arrowTypes;
  bool split = false;
  size_t splitAt = 0;
  auto spans = splitTypes(scan.sig, 0, scan.sig.size(), split, splitAt);
  llvm::Error sigErr = llvm::Error::success();
  if (auto e = parseSpans(spans, 0, split ? splitAt : spans.size(), ins))
    sigErr = std::move(e);
  else if (split)
    if (auto e2 = parseSpans(spans, splitAt, spans.size(), outs))
      sigErr = std::move(e2);
  if (sigErr) {
    if (known)
      return sigErr;
    llvm::consumeError(std::move(sigErr));
    ins.clear();
    outs.clear();
    split = false;
  }
  {
    bool s2 = false;
    size_t at2 = 0;
    auto aspans = splitTypes(scan.arrow, 0, scan.arrow.size(), s2, at2);
    if (auto e = parseSpans(aspans, 0, aspans.size(), arrowTypes)) {
      if (known)
        return e;
      llvm::consumeError(std::move(e));
      arrowTypes.clear();
    }
  }
  op->signatureTypes.reserve(ins.size() + outs.size());
  op->signatureTypes.assign(ins.begin(), ins.end());
  op->signatureTypes.insert(op->signatureTypes.end(), outs.begin(), outs.end());

  // Result types, by the op's rule; nothing is guessed.
  mlir::MLIRContext *ctx = mod_->context.get();
  size_t n = op->results.size();
  llvm::SmallVector<mlir::Type, 4> types;
  ResultRule rule = op->schema ? op->schema->results : ResultRule::Structural;
  if (scan.generic)
    rule = split ? ResultRule::Outputs : ResultRule::None;
  auto tokenType = [&]() -> mlir::Type {
    auto t = parseType("!ttg.async.token", 0);
    if (!t) {
      llvm::consumeError(t.takeError());
      return {};
    }
    return *t;
  };
  switch (rule) {
  case ResultRule::None:
    break;
  case ResultRule::Same:
    if (!split && ins.size() == n)
      types = ins;
    break;
  case ResultRule::Outputs:
    if (split && outs.size() == n)
      types = outs;
    break;
  case ResultRule::Structural:
    // An op the table does not know (a newer dialect's, a backend's
    // intrinsic such as `rocdl.workitem.id.x : i32`) is typed from its
    // printed form: a functional type's outputs, else one written type
    // per result.
    if (split && outs.size() == n)
      types = outs;
    else if (!split && n != 0 && ins.size() == n)
      types = ins;
    break;
  case ResultRule::OutputsSplat:
    if (split && outs.size() == 1)
      types.assign(n, outs[0]);
    break;
  case ResultRule::OutputsThenToken:
    if (split && !outs.empty()) {
      types.push_back(outs[0]);
      if (n == 2)
        types.push_back(tokenType());
    }
    break;
  case ResultRule::First:
    if (!ins.empty())
      types.assign(1, ins.front());
    break;
  case ResultRule::Last:
    if (split ? !outs.empty() : !ins.empty())
      types.assign(1, split ? outs.back() : ins.back());
    break;
  case ResultRule::CompareI1:
    if (!ins.empty()) {
      mlir::Type i1 = mlir::IntegerType::get(ctx, 1);
      if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(ins.front()))
        types.assign(1, mlir::RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding()));
      else
        types.assign(1, i1);
    }
    break;
  case ResultRule::Pointee:
    if (!ins.empty()) {
      mlir::Type t = ins.front();
      auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(t);
      auto elem = tensor ? tensor.getElementType() : t;
      if (auto ptr = mlir::dyn_cast<TritonType>(elem)) {
        if (ptr.kind() == TritonTypeKind::Pointer) {
          mlir::Type pointee = ptr.info().elementType;
          t = tensor ? mlir::Type(mlir::RankedTensorType::get(tensor.getShape(), pointee,
                                                              tensor.getEncoding()))
                     : pointee;
        }
      }
      types.assign(1, t);
    }
    break;
  case ResultRule::Token:
    if (n > 0)
      types.assign(n, tokenType());
    break;
  case ResultRule::Constant:
    if (split && !outs.empty())
      types.assign(1, outs.back());
    else if (!ins.empty())
      types.assign(1, ins.back());
    else if (scan.nameTok + 1 < toks_.size() && kind(scan.nameTok + 1) == TokenKind::BareId &&
             (spell(scan.nameTok + 1) == "true" || spell(scan.nameTok + 1) == "false"))
      types.assign(1, mlir::IntegerType::get(ctx, 1));
    break;
  case ResultRule::ArrowList:
    if (arrowTypes.size() == n)
      types = arrowTypes;
    break;
  case ResultRule::ElementOf:
    if (!ins.empty()) {
      mlir::Type t = ins.front();
      if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(t))
        t = tensor.getElementType();
      types.assign(1, t);
    }
    break;
  }
  for (size_t r = 0; r < n && r < types.size(); ++r)
    op->results[r]->type = types[r];

  // Region arguments the op does not write.
  if (op->schema && !op->regions.empty() && !op->regions[0]->blocks.empty()) {
    auto &args = op->regions[0]->blocks[0]->arguments;
    switch (op->schema->regionArgs) {
    case RegionArgs::ForLoop:
      if (!args.empty() && !args[0]->type)
        args[0]->type = !ins.empty() ? ins.back() : mlir::IndexType::get(ctx);
      for (size_t a = 1; a < args.size() && a - 1 < op->results.size(); ++a)
        if (!args[a]->type)
          args[a]->type = op->results[a - 1]->type;
      break;
    case RegionArgs::WhileLoop:
      for (size_t a = 0; a < args.size() && a < ins.size(); ++a)
        if (!args[a]->type)
          args[a]->type = ins[a];
      break;
    case RegionArgs::Written:
      break;
    }
  }
  return llvm::Error::success();
}

llvm::Error Parser::checkTokenNesting() const {
  // One pass over the tokens before any other: the scans that find where an
  // op, an operand list or an attribute ends walk a nest once per level, so
  // 100,000 brackets inside one op took seconds; refused here instead.
  // Parentheses, square and angle brackets nest at most kMaxNesting deep, as
  // MLIR's own parser is asked to read them. Braces are left to the region
  // parser (kMaxRegionDepth), which names the region too deep.
  size_t depth = 0;
  for (size_t i = 0; i < toks_.size(); ++i) {
    const Token &t = toks_[i];
    if (t.is(TokenKind::LBrace) || t.is(TokenKind::RBrace))
      continue;
    if (t.isOpening()) {
      if (++depth > detail::kMaxNesting)
        return errorTok(i, "brackets nested deeper than " + std::to_string(detail::kMaxNesting));
    } else if (t.isClosing()) {
      depth -= depth > 0;
    }
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Module>> Parser::run() {
  mod_ = std::make_unique<Module>();
  mod_->path = path_;
  // The module keeps the text: every offset into it stays the same.
  mod_->buffer = std::move(owned_);
  mod_->context = makeContext();
  context_ = mod_->context.get();
  setAliasAttributes(context_, &aliasAttrs_);
  {
    TokenStream ts = lex(buf_);
    if (!ts.error.empty())
      return errorAt(ts.errorOffset, ts.error);
    toks_ = std::move(ts.tokens);
  }
  if (auto e = checkTokenNesting())
    return e;
  if (auto e = collectAliases())
    return e;
  if (auto e = completeAtMemdesc())
    return e;

  // The top level: modules, or bare ops read into an implicit module.
  auto top = std::make_unique<Operation>();
  top->name = "builtin.module";
  top->writtenName = "module";
  top->schema = lookupOpSchema("builtin.module");
  top->regions.push_back(std::make_unique<Region>());
  top->regions[0]->parent = top.get();
  top->regions[0]->blocks.push_back(std::make_unique<Block>());
  Block *block = top->regions[0]->blocks[0].get();
  block->parent = top->regions[0].get();
  scopes_.emplace_back();
  size_t nextAlias = 0;
  p_ = 0;
  while (!tok(p_).is(TokenKind::Eof)) {
    while (nextAlias < aliasRanges_.size() && aliasRanges_[nextAlias].first < p_)
      ++nextAlias;
    if (nextAlias < aliasRanges_.size() && aliasRanges_[nextAlias].first == p_) {
      p_ = aliasRanges_[nextAlias].second;
      continue;
    }
    if (kind(p_) == TokenKind::FileMetadata) {
      ++p_;
      continue;
    }
    if (kind(p_) == TokenKind::RBrace)
      return errorTok(p_, "unexpected '}' at the top level");
    if (!startsOp(p_))
      return errorTok(p_, kind(p_) == TokenKind::BareId || kind(p_) == TokenKind::String
                              ? "expected a dialect-qualified operation name, got '" +
                                    clipForMessage(spell(p_)) + "'"
                              : "expected an operation or an alias definition");
    auto op = parseOp(block);
    if (!op)
      return op.takeError();
    block->ops.push_back(std::move(*op));
  }

  if (!forward_.empty()) {
    // A use never defined: point at the first such use.
    const Value *first = nullptr;
    auto at = [](const Value *v) {
      const TextPos &p = v->uses[0].first->pos;
      return std::make_tuple(p.line, p.col, llvm::StringRef(v->name));
    };
    for (auto &entry : forward_) {
      const Value *v = entry.second;
      if (!v->uses.empty() && (!first || at(v) < at(first)))
        first = v;
    }
    if (first) {
      TextPos pos = first->uses[0].first->pos;
      return llvm::make_error<InputError>(path_, pos.line, pos.col,
                                          "use of undefined value '" + first->name + "'");
    }
  }
  if (usedBeforeDefined_)
    return llvm::make_error<InputError>(
        path_, usedBeforeDefined_->second.line, usedBeforeDefined_->second.col,
        "'" + usedBeforeDefined_->first + "' is used before its definition in the same block");
  if (redefined_)
    return llvm::make_error<InputError>(path_, redefined_->second.line, redefined_->second.col,
                                        "'" + redefined_->first +
                                            "' is defined twice (SSA names have one definition)");
  if (missingLocSeen_)
    return errorTok(missingLocTok_,
                    "undefined location alias '" + locs_.missing() + "' (truncated dump?)");

  // One module: it is the root. Several, or bare ops: the implicit module
  // holds them, and the first module's attributes describe the target.
  size_t modules = 0;
  Operation *firstModule = nullptr;
  for (auto &o : block->ops)
    if (o->name == "builtin.module") {
      ++modules;
      if (!firstModule || (!firstModule->attributes.size() && o->attributes.size()))
        firstModule = o.get();
    }
  if (modules == 1 && block->ops.size() == 1) {
    std::unique_ptr<Operation> only = std::move(block->ops[0]);
    only->parentBlock = nullptr;
    mod_->root = std::move(only);
  } else {
    mod_->root = std::move(top);
  }
  if (firstModule && firstModule->attributes && !firstModule->attributes.empty())
    mod_->moduleAttributes = firstModule->attributes;
  return std::move(mod_);
}

} // namespace

llvm::Expected<std::unique_ptr<Module>>
parseModuleBuffer(const std::string &path, std::unique_ptr<llvm::MemoryBuffer> buffer) {
  Parser parser(path, std::move(buffer));
  return parser.run();
}

} // namespace tilexform::ir
