#include "Gitignore.h"

#include "tilexform/source/Survey.h"
#include "tilexform/support/InputError.h"

#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tilexform::source {

namespace {

// A glob compiled to a small NFA and run over the path once: time is
// pattern length times path length, whatever the pattern (a backtracking
// matcher is exponential in the number of stars). '*' and '?' do not cross
// '/'; "**" does; "**/" matches zero or more whole directories.
struct GlobState {
  enum Kind : uint8_t { Literal, AnyOne, Class, Star, StarStar, Dirs, Dead } kind = Literal;
  char literal = 0;
  bool negate = false;
  llvm::StringRef set; // the class's members, ranges as a-z
};

std::vector<GlobState> compileGlob(llvm::StringRef pat) {
  std::vector<GlobState> states;
  while (!pat.empty()) {
    GlobState st;
    if (pat.starts_with("**/")) {
      st.kind = GlobState::Dirs;
      pat = pat.drop_front(3);
    } else if (pat.starts_with("**")) {
      st.kind = GlobState::StarStar;
      pat = pat.drop_front(2);
    } else if (pat.front() == '*') {
      st.kind = GlobState::Star;
      pat = pat.drop_front(1);
    } else if (pat.front() == '?') {
      st.kind = GlobState::AnyOne;
      pat = pat.drop_front(1);
    } else if (pat.front() == '[') {
      size_t close = pat.find(']', 1);
      if (close == llvm::StringRef::npos) {
        st.kind = GlobState::Dead; // an unclosed class matches nothing
        states.push_back(st);
        break;
      }
      st.kind = GlobState::Class;
      st.set = pat.slice(1, close);
      st.negate = st.set.consume_front("!") || st.set.consume_front("^");
      pat = pat.drop_front(close + 1);
    } else {
      if (pat.front() == '\\' && pat.size() > 1)
        pat = pat.drop_front(1);
      st.literal = pat.front();
      pat = pat.drop_front(1);
    }
    states.push_back(st);
  }
  return states;
}

bool classHas(const GlobState &st, char c) {
  bool hit = false;
  for (size_t i = 0; i < st.set.size(); ++i) {
    if (i + 2 < st.set.size() && st.set[i + 1] == '-') {
      hit |= c >= st.set[i] && c <= st.set[i + 2];
      i += 2;
    } else {
      hit |= c == st.set[i];
    }
  }
  return hit != st.negate;
}

bool globMatch(llvm::StringRef pat, llvm::StringRef str) {
  std::vector<GlobState> states = compileGlob(pat);
  size_t n = states.size();
  // Position i means "states[0..i) matched"; n is acceptance. A Dirs state
  // has a second position, inside its directories (n + 1 + i).
  std::vector<char> cur(2 * n + 1, 0), next(2 * n + 1, 0);
  auto closeOver = [&](std::vector<char> &set) {
    for (size_t i = 0; i < n; ++i) {
      if (!set[i])
        continue;
      auto k = states[i].kind;
      if (k == GlobState::Star || k == GlobState::StarStar || k == GlobState::Dirs)
        set[i + 1] = 1;
      if (k == GlobState::Dirs)
        set[n + 1 + i] = 1;
    }
  };
  cur[0] = 1;
  closeOver(cur);
  for (char c : str) {
    std::fill(next.begin(), next.end(), 0);
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
      const GlobState &st = states[i];
      if (cur[i]) {
        switch (st.kind) {
        case GlobState::Literal:
          next[i + 1] |= c == st.literal;
          break;
        case GlobState::AnyOne:
          next[i + 1] |= c != '/';
          break;
        case GlobState::Class:
          next[i + 1] |= classHas(st, c);
          break;
        case GlobState::Star:
          next[i] |= c != '/';
          break;
        case GlobState::StarStar:
          next[i] = 1;
          break;
        case GlobState::Dirs:
        case GlobState::Dead:
          break;
        }
      }
      if (st.kind == GlobState::Dirs && cur[n + 1 + i]) {
        next[n + 1 + i] = 1;
        next[i + 1] |= c == '/';
      }
    }
    closeOver(next);
    for (char v : next)
      any |= v != 0;
    if (!any)
      return false;
    cur.swap(next);
  }
  return cur[n] != 0;
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
  llvm::StringRef full(path);
  for (auto &r : rules) {
    llvm::StringRef local = full;
    if (!r.base.empty()) {
      if (full.size() <= r.base.size() || !full.starts_with(r.base) || full[r.base.size()] != '/')
        continue;
      local = full.drop_front(r.base.size() + 1);
    }
    if (gitignoreMatch(r.pattern, local, isDirectory))
      ignored = !r.negate;
  }
  return ignored;
}

} // namespace detail

} // namespace tilexform::source
