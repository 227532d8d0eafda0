// `loc(...)` to a source position and name: Triton names a location after
// the source variable (`loc("acc"(#loc3))`) and fuses or nests call sites.
#include "ReaderSupport.h"

#include <algorithm>

namespace tilexform::ir {

const CallSite &CallerChain::operator[](size_t i) const {
  const Node *n = head_.get();
  for (; i > 0; --i)
    n = n->next.get();
  return *n->site;
}

std::vector<const CallSite *> CallerChain::outermostFirst() const {
  std::vector<const CallSite *> frames;
  frames.reserve(size());
  for (const CallSite &c : *this)
    frames.push_back(&c);
  std::reverse(frames.begin(), frames.end());
  return frames;
}

CallerChain CallerChain::prepend(std::shared_ptr<const CallSite> site, const CallerChain &rest) {
  CallerChain c;
  auto n = std::make_shared<Node>();
  n->site = std::move(site);
  n->next = rest.head_;
  n->size = rest.size() + 1;
  c.head_ = std::move(n);
  return c;
}

CallerChain CallerChain::concat(const CallerChain &inner, const CallerChain &outer) {
  if (inner.empty())
    return outer;
  if (outer.empty())
    return inner;
  std::vector<const Node *> nodes;
  for (const Node *n = inner.head_.get(); n; n = n->next.get())
    nodes.push_back(n);
  CallerChain c = outer;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
    c = prepend((*it)->site, c);
  return c;
}

} // namespace tilexform::ir

namespace tilexform::ir::detail {

namespace {

// The ` at ` of `callee at caller` outside brackets and strings (a callee
// may itself be a call site).
size_t findAt(llvm::StringRef s) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      i = skipString(s, i);
      if (i == llvm::StringRef::npos)
        return llvm::StringRef::npos;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (depth == 0 && s.substr(i).starts_with(" at ")) {
      return i;
    }
  }
  return llvm::StringRef::npos;
}

} // namespace

SourceLoc LocationResolver::resolve(llvm::StringRef text) {
  unsigned height = 0;
  SourceLoc out = resolve(text, 0, height);
  if (height == kTooDeep)
    return SourceLoc();
  return out;
}

SourceLoc LocationResolver::resolve(llvm::StringRef text, unsigned depth, unsigned &height) {
  SourceLoc out;
  height = 0;
  llvm::StringRef t = text.trim(" \t\r\n");
  if (depth > kMaxLocationDepth) {
    height = kTooDeep;
    return out;
  }
  if (t.empty())
    return out;
  // A part that does not fit makes the whole location unknown.
  auto fits = [&](unsigned partHeight) {
    if (partHeight == kTooDeep) {
      height = kTooDeep;
      return false;
    }
    height = std::max(height, partHeight + 1);
    return true;
  };
  if (t[0] == '#') {
    auto a = aliases_.find(t);
    if (a == aliases_.end()) {
      if (missing_.empty())
        missing_ = t.str();
      return out;
    }
    Entry &e = cache_[t];
    if (e.done) {
      if (depth + e.height > kMaxLocationDepth) {
        height = kTooDeep;
        return out;
      }
      height = e.height;
      return e.loc;
    }
    if (e.active || e.tooDeepAt <= depth) {
      height = kTooDeep;
      return out;
    }
    e.active = true;
    unsigned inner = 0;
    out = resolve(a->second, depth + 1, inner);
    // StringMap entries stay where they are while the map grows.
    e.active = false;
    if (inner == kTooDeep) {
      e.tooDeepAt = std::min(e.tooDeepAt, depth);
      height = kTooDeep;
      return SourceLoc();
    }
    e.height = inner + 1;
    e.loc = out;
    e.done = true;
    height = e.height;
    return out;
  }
  if (t.starts_with("callsite(")) {
    size_t close = matchBracket(t, 8);
    llvm::StringRef inner = t.slice(9, close == llvm::StringRef::npos ? t.size() : close);
    size_t at = findAt(inner);
    unsigned h = 0;
    out = resolve(inner.substr(0, at), depth + 1, h);
    if (!fits(h))
      return SourceLoc();
    if (at == llvm::StringRef::npos)
      return out;
    // The caller, and its own callers when it was inlined too: the
    // callee's callers first (it may itself be a call site), then the
    // caller's frame, then the caller's chain, shared.
    SourceLoc caller = resolve(inner.drop_front(at + 4), depth + 1, h);
    if (!fits(h))
      return SourceLoc();
    CallerChain outer = caller.callers;
    if (caller.known() || !caller.file.empty())
      outer = CallerChain::prepend(
          std::make_shared<const CallSite>(
              CallSite{std::move(caller.file), caller.line, caller.col, std::move(caller.name)}),
          outer);
    out.callers = CallerChain::concat(out.callers, outer);
    return out;
  }
  if (t.starts_with("fused")) {
    size_t lb = t.find('[');
    if (lb == llvm::StringRef::npos)
      return out;
    size_t rb = matchBracket(t, lb);
    llvm::StringRef inner = t.slice(lb + 1, rb == llvm::StringRef::npos ? t.size() : rb);
    // The first part that resolves.
    int d = 0;
    size_t start = 0;
    for (size_t i = 0; i <= inner.size(); ++i) {
      if (i < inner.size() && inner[i] == '"') {
        i = skipString(inner, i);
        if (i == llvm::StringRef::npos)
          break;
        continue;
      }
      if (i < inner.size() && (inner[i] == '(' || inner[i] == '['))
        ++d;
      else if (i < inner.size() && (inner[i] == ')' || inner[i] == ']'))
        --d;
      else if (i == inner.size() || (inner[i] == ',' && d == 0)) {
        unsigned h = 0;
        SourceLoc part = resolve(inner.slice(start, i), depth + 1, h);
        if (!fits(h))
          return SourceLoc();
        if (part.known())
          return part;
        start = i + 1;
      }
    }
    return out;
  }
  if (t[0] == '"') {
    size_t e = skipString(t, 0);
    if (e == llvm::StringRef::npos)
      return out;
    llvm::StringRef s = t.slice(1, e);
    llvm::StringRef rest = t.drop_front(e + 1).ltrim(" \t\r\n");
    if (rest.consume_front(":")) {
      // `"file":line:col`, blanks allowed between the tokens as MLIR's lexer
      // allows them; what parses is kept.
      out.file = s.str();
      constexpr const char *blank = " \t\r\n";
      unsigned line = 0, col = 0;
      rest = rest.ltrim(blank);
      if (!rest.consumeInteger(10, line)) {
        out.line = line;
        rest = rest.ltrim(blank);
        if (rest.consume_front(":") && !rest.ltrim(blank).consumeInteger(10, col))
          out.col = col;
      }
      return out;
    }
    if (rest.starts_with("(")) {
      size_t close = matchBracket(rest, 0);
      unsigned h = 0;
      out = resolve(rest.slice(1, close == llvm::StringRef::npos ? rest.size() : close), depth + 1,
                    h);
      if (!fits(h))
        return SourceLoc();
    }
    out.name = s.str();
    if (out.firstName.empty())
      out.firstName = out.name;
    return out;
  }
  return out;
}

} // namespace tilexform::ir::detail
