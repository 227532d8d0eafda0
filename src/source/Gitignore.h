// .gitignore rules as git reads them, for survey's tree walk: nested files,
// negation, anchored and directory-only patterns, `*`, `?`, `[...]` and `**`.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace tilexform::source::detail {

struct IgnoreRule {
  std::string base; // directory of the .gitignore, relative to the root ("" at the root)
  std::string pattern;
  bool negate = false;
};

/// Appends the rules of `dir`/.gitignore (a regular file only), `rel` being
/// the directory relative to the root.
void readGitignore(const std::string &dir, const std::string &rel, std::vector<IgnoreRule> &rules);

/// Whether the last matching rule ignores `path` (relative, '/'-separated).
bool isIgnored(const std::vector<IgnoreRule> &rules, const std::string &path, bool isDirectory);

} // namespace tilexform::source::detail
