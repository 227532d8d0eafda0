// `loc(...)` to a source position and name: Triton names a location after
// the source variable (`loc("acc"(#loc3))`) and fuses or nests call sites.
#include "ReaderSupport.h"

#include <cstdio>

namespace tilexform::ir::detail {

SourceLoc LocationResolver::resolve(const std::string &rawText, int depth) {
  SourceLoc out;
  std::string t = trim(rawText);
  if (depth > 64 || t.empty())
    return out;
  if (t[0] == '#') {
    auto c = cache_.find(t);
    if (c != cache_.end())
      return c->second;
    auto a = aliases_.find(t);
    if (a == aliases_.end()) {
      if (missing_.empty())
        missing_ = t;
      return out;
    }
    out = resolve(a->second, depth + 1);
    cache_[t] = out;
    return out;
  }
  if (t.rfind("callsite(", 0) == 0) {
    size_t close = matchBracket(t, 8);
    std::string inner = close == std::string::npos ? t.substr(9) : t.substr(9, close - 9);
    size_t at = inner.find(" at ");
    return resolve(at == std::string::npos ? inner : inner.substr(0, at), depth + 1);
  }
  if (t.rfind("fused", 0) == 0) {
    size_t lb = t.find('[');
    if (lb == std::string::npos)
      return out;
    size_t rb = matchBracket(t, lb);
    std::string inner = t.substr(lb + 1, (rb == std::string::npos ? t.size() : rb) - lb - 1);
    // The first part that resolves.
    int d = 0;
    size_t start = 0;
    for (size_t i = 0; i <= inner.size(); ++i) {
      if (i < inner.size() && inner[i] == '"') {
        i = skipString(inner, i);
        if (i == std::string::npos)
          break;
        continue;
      }
      if (i < inner.size() && (inner[i] == '(' || inner[i] == '['))
        ++d;
      else if (i < inner.size() && (inner[i] == ')' || inner[i] == ']'))
        --d;
      else if (i == inner.size() || (inner[i] == ',' && d == 0)) {
        SourceLoc part = resolve(inner.substr(start, i - start), depth + 1);
        if (part.known())
          return part;
        start = i + 1;
      }
    }
    return out;
  }
  if (t[0] == '"') {
    size_t e = skipString(t, 0);
    if (e == std::string::npos)
      return out;
    std::string s = t.substr(1, e - 1);
    std::string rest = trim(t.substr(e + 1));
    if (!rest.empty() && rest[0] == ':') {
      out.file = s;
      unsigned line = 0, col = 0;
      if (std::sscanf(rest.c_str(), ":%u:%u", &line, &col) >= 1) {
        out.line = line;
        out.col = col;
      }
      return out;
    }
    if (!rest.empty() && rest[0] == '(') {
      size_t close = matchBracket(rest, 0);
      std::string child = rest.substr(1, (close == std::string::npos ? rest.size() : close) - 1);
      out = resolve(child, depth + 1);
    }
    out.name = s;
    return out;
  }
  return out;
}

} // namespace tilexform::ir::detail
