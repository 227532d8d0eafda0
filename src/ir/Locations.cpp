// `loc(...)` to a source position and name: Triton names a location after
// the source variable (`loc("acc"(#loc3))`) and fuses or nests call sites.
#include "ReaderSupport.h"

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

SourceLoc LocationResolver::resolve(llvm::StringRef text, int depth) {
  SourceLoc out;
  llvm::StringRef t = text.trim(" \t\r\n");
  if (depth > 64 || t.empty())
    return out;
  if (t[0] == '#') {
    auto c = cache_.find(t);
    if (c != cache_.end())
      return c->second;
    auto a = aliases_.find(t);
    if (a == aliases_.end()) {
      if (missing_.empty())
        missing_ = t.str();
      return out;
    }
    out = resolve(a->second, depth + 1);
    cache_[t] = out;
    return out;
  }
  if (t.starts_with("callsite(")) {
    size_t close = matchBracket(t, 8);
    llvm::StringRef inner = t.slice(9, close == llvm::StringRef::npos ? t.size() : close);
    size_t at = findAt(inner);
    out = resolve(inner.substr(0, at), depth + 1);
    if (at == llvm::StringRef::npos)
      return out;
    // The caller, and its own callers when it was inlined too.
    SourceLoc caller = resolve(inner.drop_front(at + 4), depth + 1);
    if (caller.known() || !caller.file.empty())
      out.callers.push_back({caller.file, caller.line, caller.col, caller.name});
    out.callers.insert(out.callers.end(), caller.callers.begin(), caller.callers.end());
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
        SourceLoc part = resolve(inner.slice(start, i), depth + 1);
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
      out = resolve(rest.slice(1, close == llvm::StringRef::npos ? rest.size() : close), depth + 1);
    }
    out.name = s.str();
    if (out.firstName.empty())
      out.firstName = out.name;
    return out;
  }
  return out;
}

} // namespace tilexform::ir::detail
