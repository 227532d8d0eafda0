#include "Gitignore.h"

#include "tilexform/source/Survey.h"
#include "tilexform/support/InputError.h"

#include <llvm/Support/MemoryBuffer.h>

namespace tilexform::source {

namespace {

bool globMatch(llvm::StringRef pat, llvm::StringRef str) {
  // '*' and '?' do not cross '/'; "**" does.
  while (!pat.empty()) {
    if (pat.starts_with("**")) {
      llvm::StringRef rest = pat.drop_front(2);
      if (rest.starts_with("/")) {
        llvm::StringRef after = rest.drop_front(1);
        // "**/" matches zero or more directories.
        if (globMatch(after, str))
          return true;
        for (size_t i = 0; i < str.size(); ++i)
          if (str[i] == '/' && globMatch(after, str.drop_front(i + 1)))
            return true;
        return false;
      }
      for (size_t i = 0; i <= str.size(); ++i)
        if (globMatch(rest, str.drop_front(i)))
          return true;
      return false;
    }
    char p = pat.front();
    if (p == '*') {
      llvm::StringRef rest = pat.drop_front(1);
      for (size_t i = 0; i <= str.size(); ++i) {
        if (globMatch(rest, str.drop_front(i)))
          return true;
        if (i < str.size() && str[i] == '/')
          return false;
      }
      return false;
    }
    if (str.empty())
      return false;
    if (p == '?') {
      if (str.front() == '/')
        return false;
    } else if (p == '[') {
      size_t close = pat.find(']', 1);
      if (close == llvm::StringRef::npos)
        return false;
      llvm::StringRef set = pat.slice(1, close);
      bool negate = set.consume_front("!") || set.consume_front("^");
      bool hit = false;
      for (size_t i = 0; i < set.size(); ++i) {
        if (i + 2 < set.size() && set[i + 1] == '-') {
          hit |= str.front() >= set[i] && str.front() <= set[i + 2];
          i += 2;
        } else {
          hit |= str.front() == set[i];
        }
      }
      if (hit == negate)
        return false;
      pat = pat.drop_front(close + 1);
      str = str.drop_front(1);
      continue;
    } else {
      if (p == '\\' && pat.size() > 1) {
        pat = pat.drop_front(1);
        p = pat.front();
      }
      if (p != str.front())
        return false;
    }
    pat = pat.drop_front(1);
    str = str.drop_front(1);
  }
  return str.empty();
}

} // namespace

bool gitignoreMatch(llvm::StringRef pattern, llvm::StringRef path, bool isDirectory) {
  bool dirOnly = pattern.consume_back("/");
  if (dirOnly && !isDirectory)
    return false;
  bool anchored = pattern.contains('/');
  pattern.consume_front("/");
  if (anchored)
    return globMatch(pattern, path);
  llvm::StringRef base = path.rsplit('/').second.empty() ? path : path.rsplit('/').second;
  return globMatch(pattern, base);
}

namespace detail {

void readGitignore(const std::string &dir, const std::string &rel, std::vector<IgnoreRule> &rules) {
  // Only a regular .gitignore: a FIFO or a link to /dev/zero is skipped.
  std::string ignorePath = dir + "/.gitignore";
  if (!isRegularFile(ignorePath))
    return;
  auto buffer = readInputFile(ignorePath);
  if (!buffer) {
    llvm::consumeError(buffer.takeError());
    return;
  }
  llvm::StringRef text = (*buffer)->getBuffer();
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.rtrim("\r").rtrim(" ");
    if (line.empty() || line.starts_with("#"))
      continue;
    IgnoreRule r;
    r.base = rel;
    r.negate = line.consume_front("!");
    r.pattern = line.str();
    rules.push_back(r);
  }
}

bool isIgnored(const std::vector<IgnoreRule> &rules, const std::string &path, bool isDirectory) {
  bool ignored = false;
  for (auto &r : rules) {
    std::string local = path;
    if (!r.base.empty()) {
      if (!llvm::StringRef(path).starts_with(r.base + "/"))
        continue;
      local = path.substr(r.base.size() + 1);
    }
    if (gitignoreMatch(r.pattern, local, isDirectory))
      ignored = !r.negate;
  }
  return ignored;
}

} // namespace detail

} // namespace tilexform::source
