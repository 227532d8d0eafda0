// Alias definitions and their expansion.
#include "ReaderSupport.h"

#include <cctype>
#include <functional>

namespace tilexform::ir::detail {

namespace {
bool isIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}
bool isBareIdStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
} // namespace

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

size_t skipString(llvm::StringRef s, size_t i) {
  for (size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\')
      ++j;
    else if (s[j] == '"')
      return j;
  }
  return std::string::npos;
}

size_t matchBracket(llvm::StringRef s, size_t i) {
  size_t depth = 0;
  for (size_t j = i; j < s.size(); ++j) {
    char c = s[j];
    if (c == '"') {
      j = skipString(s, j);
      if (j == std::string::npos)
        return j;
      continue;
    }
    if (c == '-' && j + 1 < s.size() && s[j + 1] == '>') {
      ++j;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<')
      ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (depth == 0)
        return std::string::npos;
      if (--depth == 0)
        return j;
    }
  }
  return std::string::npos;
}

size_t nestingTooDeep(const std::string &s, size_t limit) {
  size_t depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      size_t e = skipString(s, i);
      if (e == std::string::npos)
        return std::string::npos;
      i = e;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit)
        return i;
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0 &&
               !(c == '>' && i > 0 && s[i - 1] == '-')) {
      --depth;
    }
  }
  return std::string::npos;
}

void AliasTable::add(std::string name, std::string text, size_t offset) {
  (name[0] == '#' ? attrs_ : types_)[name] = text;
  defs_.push_back({std::move(name), std::move(text), offset});
}

bool AliasTable::has(const std::string &name) const {
  return (name[0] == '#' ? attrs_ : types_).count(name) != 0;
}

const std::string &AliasTable::expansion(const std::string &name) const {
  return (name[0] == '#' ? attrs_ : types_).at(name);
}

std::string AliasTable::substitute(const std::string &s, size_t *firstChange) const {
  if (firstChange)
    *firstChange = std::string::npos;
  if (s.find_first_of("#!") == std::string::npos)
    return s;
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '"') {
      size_t e = skipString(s, i);
      if (e == std::string::npos)
        e = s.size() - 1;
      out.append(s, i, e - i + 1);
      i = e + 1;
      continue;
    }
    if ((c == '#' || c == '!') && i + 1 < s.size() && isBareIdStart(s[i + 1])) {
      size_t j = i + 1;
      while (j < s.size() && isIdChar(s[j]))
        ++j;
      std::string tok = s.substr(i, j - i);
      auto &table = c == '#' ? attrs_ : types_;
      auto ref = c == '#' ? refs_.find(tok) : refs_.end();
      auto it = table.find(tok);
      if (ref != refs_.end()) {
        if (firstChange && *firstChange == std::string::npos)
          *firstChange = i;
        out += "#ttg.alias_ref<" + std::to_string(ref->second) + ">";
      } else if (it != table.end()) {
        if (firstChange && *firstChange == std::string::npos)
          *firstChange = i;
        out += it->second;
      } else {
        out += tok;
      }
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

bool AliasTable::expandAll(std::string &message, size_t &offset) {
  constexpr size_t kMaxExpansion = size_t(1) << 20;
  std::map<std::string, int> state; // 1: expanding, 2: done
  std::map<std::string, size_t> where;
  for (auto &d : defs_)
    where.emplace(d.name, d.offset);
  std::function<bool(const std::string &, size_t)> expand = [&](const std::string &name,
                                                                size_t depth) -> bool {
    auto &table = name[0] == '#' ? attrs_ : types_;
    auto it = table.find(name);
    if (it == table.end() || state[name] == 2)
      return true;
    if (depth > kMaxNesting) {
      message = "aliases refer to each other more than " + std::to_string(kMaxNesting) +
                " deep, from '" + name + "'";
      offset = where[name];
      return false;
    }
    if (state[name] == 1) {
      message = "alias '" + name + "' refers to itself";
      offset = where[name];
      return false;
    }
    state[name] = 1;
    const std::string text = it->second;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '"') {
        size_t e = skipString(text, i);
        if (e == std::string::npos)
          break;
        i = e;
        continue;
      }
      if ((text[i] == '#' || text[i] == '!') && i + 1 < text.size() && isBareIdStart(text[i + 1])) {
        size_t j = i + 1;
        while (j < text.size() && isIdChar(text[j]))
          ++j;
        std::string ref = text.substr(i, j - i);
        if (has(ref) && !expand(ref, depth + 1))
          return false;
        i = j - 1;
      }
    }
    std::string expanded = substitute(text);
    if (expanded.size() > kMaxExpansion) {
      message = "alias '" + name + "' expands to more than 1 MiB";
      offset = where[name];
      return false;
    }
    table[name] = std::move(expanded);
    state[name] = 2;
    return true;
  };
  for (auto &d : defs_)
    if (!expand(d.name, 0))
      return false;
  return true;
}

} // namespace tilexform::ir::detail
