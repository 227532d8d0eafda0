// survey over trees: the walk (with .gitignore and --exclude rules), one
// FileAnalysis per file in parallel, then the joins across files (imported
// helpers, imported kernels' launches) and the compiler each folder is
// judged by.
#include "tilexform/source/Survey.h"

#include "Gitignore.h"
#include "SurveyFile.h"
#include "tilexform/source/Python.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/Parallel.h"
#include "tilexform/support/SourceFiles.h"

#include <fmt/format.h>
#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <set>
#include <sys/stat.h>

namespace tilexform::source {

using detail::IgnoreRule;
using detail::isIgnored;
using detail::readGitignore;

namespace {

struct WalkState {
  std::vector<std::string> files;
  size_t excluded = 0;
  std::vector<SkippedDirectory> skipped;
};

/// A directory being walked: its entries (sorted) and the next one to visit.
struct WalkFrame {
  std::filesystem::path dir;
  std::string rel;         // relative to the root, '/'-separated ("" at the root)
  size_t rulesAtEntry = 0; // the rules in force above it (its own .gitignore's follow)
  std::vector<std::filesystem::directory_entry> entries;
  size_t next = 0;
};

/// Whether a symlink at `path` leads to something inside the tree (the
/// resolved `realRoot`): a link that leaves it is never followed, so no file
/// outside the tree is read (or quoted in an error) because a link names it.
bool linkStaysInside(const std::filesystem::path &path, const std::string &realRoot) {
  std::string target = resolvedPath(path.string());
  return !target.empty() && isBelowDirectory(target, realRoot);
}

/// The sorted entries of `dir`, or false (with the directory recorded as
/// skipped, and why) when it cannot be entered or read through.
bool listDirectory(const std::filesystem::path &dir,
                   std::vector<std::filesystem::directory_entry> &entries, WalkState &state) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec))
    entries.push_back(*it);
  if (ec) {
    state.skipped.push_back({dir.string(), describeSystemError(ec.value())});
    if (entries.empty())
      return false;
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto &a, const auto &b) { return a.path() < b.path(); });
  return true;
}

/// Depth-first over the tree in path order, with an explicit stack (a chain
/// of thousands of folders costs no native stack) and paths relative to the
/// root built as it descends, so the walk is linear in the paths it lists.
void walkTree(const std::filesystem::path &root, std::vector<IgnoreRule> &rules,
              const SurveyOptions &options, WalkState &state) {
  namespace fs = std::filesystem;
  const std::string realRoot = resolvedPath(root.string());
  std::vector<WalkFrame> stack;
  auto enter = [&](const fs::path &dir, std::string rel) {
    WalkFrame f;
    f.dir = dir;
    f.rel = std::move(rel);
    f.rulesAtEntry = rules.size();
    if (!listDirectory(dir, f.entries, state))
      return;
    if (options.useGitignore) {
      fs::path ignore = dir / ".gitignore";
      std::error_code linkEc;
      if (!fs::is_symlink(ignore, linkEc) || linkStaysInside(ignore, realRoot))
        readGitignore(dir.string(), f.rel, rules);
    }
    stack.push_back(std::move(f));
  };
  const size_t cliRules = rules.size();
  enter(root, "");
  while (!stack.empty()) {
    WalkFrame &f = stack.back();
    if (f.next == f.entries.size()) {
      rules.resize(f.rulesAtEntry);
      stack.pop_back();
      continue;
    }
    fs::directory_entry e = std::move(f.entries[f.next++]);
    std::string name = e.path().filename().string();
    std::error_code typeEc;
    bool isLink = e.is_symlink(typeEc);
    // Directory links are not followed (as git does not): a link to an
    // ancestor would never end.
    bool isDir = !isLink && e.is_directory(typeEc);
    std::string path = f.rel.empty() ? name : f.rel + "/" + name;
    if (isDir && (name == ".git" || name == "__pycache__" || name == ".hg" || name == ".svn"))
      continue;
    if (isIgnored(rules, path, isDir)) {
      ++state.excluded;
      continue;
    }
    if (isDir)
      enter(e.path(), std::move(path)); // may move the frames: `f` is not used after
    else if (llvm::StringRef(name).ends_with(".py") &&
             (!isLink || linkStaysInside(e.path(), realRoot)))
      state.files.push_back(e.path().string());
  }
  rules.resize(cliRules);
}

struct FileResult {
  FileSurvey survey;
  std::optional<std::string> error;
};

FileResult surveyFile(const std::string &path) {
  FileResult r;
  auto buffer = readInputFile(path);
  if (!buffer) {
    r.error = errorLine(buffer.takeError());
    return r;
  }
  llvm::StringRef text = (*buffer)->getBuffer();
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
  const auto *cursor = begin;
  if (!llvm::isLegalUTF8String(&cursor, begin + text.size())) {
    size_t at = cursor - begin;
    TextPosition pos = positionOf(text, at);
    r.error = errorLine(llvm::make_error<InputError>(
        path, pos.line, pos.col, "not UTF-8 (byte " + std::to_string(at) + "); skipped"));
    return r;
  }
  if (text.contains('\0')) {
    r.error = errorLine(llvm::make_error<InputError>(path, 0, 0, "binary file; skipped"));
    return r;
  }
  auto s = surveySource(text, path);
  if (!s) {
    r.error = errorLine(s.takeError());
    return r;
  }
  r.survey = std::move(*s);
  return r;
}

} // namespace

llvm::Expected<FileSurvey> surveySource(llvm::StringRef text, const std::string &file) {
  auto module = parsePython(text, file);
  if (!module)
    return module.takeError();
  detail::FileAnalysis analysis(**module, text);
  return analysis.run();
}

llvm::Expected<std::vector<Finding>>
surveyImportedLaunches(llvm::StringRef text, const std::string &file, const KernelIndex &index) {
  auto module = parsePython(text, file);
  if (!module)
    return module.takeError();
  detail::FileAnalysis analysis(**module, text);
  return analysis.importedLaunchFindings(index);
}

std::string vendorBackendOf(llvm::StringRef path) {
  // A vendor backend folder: ".../backend/_<vendor>/..." (or
  // ".../backends/triton_<vendor>/..."), compiled by that vendor's Triton
  // fork. The NVIDIA and AMD folders are compiled by upstream Triton.
  llvm::SmallVector<llvm::StringRef> parts;
  path.split(parts, '/', -1, false);
  for (size_t i = 0; i + 2 < parts.size(); ++i) {
    if (parts[i] != "backend" && parts[i] != "backends")
      continue;
    llvm::StringRef vendor = parts[i + 1];
    if (!vendor.consume_front("_") && !vendor.consume_front("triton_"))
      continue;
    if (vendor.empty() || vendor == "nvidia" || vendor == "amd" || vendor == "cuda" ||
        vendor == "hip")
      continue;
    return vendor.str();
  }
  return "";
}

namespace {

/// The dotted names a module file is imported by, whatever the tree's root:
/// "pkg/helpers.py" is "helpers" and "pkg.helpers" (a package's __init__ is
/// the package).
std::vector<std::string> moduleSuffixes(const std::string &file) {
  llvm::StringRef p(file);
  p.consume_back(".py");
  llvm::SmallVector<llvm::StringRef> parts;
  p.split(parts, '/', -1, false);
  if (!parts.empty() && parts.back() == "__init__")
    parts.pop_back();
  // At most kMaxModuleDepth components: an import names a module by a
  // short dotted path, and a file deep in a long chain of folders must not
  // cost its depth squared (the join still finds the longest suffix kept).
  constexpr size_t kMaxModuleDepth = 16;
  std::vector<std::string> out;
  std::string suffix;
  for (size_t j = parts.size(); j-- > 0 && out.size() < kMaxModuleDepth;) {
    suffix = suffix.empty() ? parts[j].str() : parts[j].str() + "." + suffix;
    out.push_back(suffix);
  }
  return out;
}

/// Loops that call @jit helpers imported from other modules of the tree get
/// what those helpers bring once inlined: their dots (then the launch
/// num_stages controls a bare loop) or their loops (then the loop is an
/// outer loop, never pipelined). Modules are named by the file's path
/// suffixes ("pkg/helpers.py": "helpers", "pkg.helpers"), which is how an
/// import names them whatever the tree's root.
void joinImportedHelpers(const std::vector<std::string> &files, std::vector<FileResult> &results) {
  std::map<std::string, JitFunctionFacts> byPath; // "helpers.mm", "pkg.helpers.mm"
  for (size_t i = 0; i < files.size(); ++i) {
    if (results[i].error || results[i].survey.jitFunctions.empty())
      continue;
    for (const std::string &suffix : moduleSuffixes(files[i]))
      for (auto &[fn, facts] : results[i].survey.jitFunctions)
        if (facts.dots > 0 || facts.loop)
          byPath.emplace(suffix + "." + fn, facts);
  }
  if (byPath.empty())
    return;
  for (auto &r : results) {
    if (r.error)
      continue;
    for (auto &k : r.survey.kernels)
      for (auto &loop : k.loops) {
        int added = 0;
        const JitFunctionFacts *bringsLoop = nullptr;
        std::string helper;
        for (auto &call : loop.importedCalls) {
          llvm::StringRef c(call.path);
          c = c.ltrim('.');
          // The longest suffix of the dotted path that names a helper.
          while (!c.empty()) {
            auto it = byPath.find(c.str());
            if (it != byPath.end()) {
              added += it->second.dots;
              if (it->second.loop && call.direct && !bringsLoop) {
                bringsLoop = &it->second;
                helper = call.path;
              }
              break;
            }
            size_t dot = c.find('.');
            if (dot == llvm::StringRef::npos)
              break;
            c = c.drop_front(dot + 1);
            if (!c.contains('.'))
              break; // a bare function name alone is too weak a join
          }
        }
        loop.dots += added;
        loop.helperDots += added;
        bool pipelinable = loop.iterator != "while" && k.dialect == "triton" &&
                           loop.form != "static" && !loop.flatten && !loop.warpSpecialize;
        if (bringsLoop && pipelinable) {
          loop.form = "outer";
          loop.why = fmt::format("an outer loop: it inlines @jit helper {}, whose loop (line {}) "
                                 "lands in its body; Triton pipelines innermost loops only "
                                 "(isOuterLoop), so {}",
                                 helper, bringsLoop->loopLine,
                                 loop.numStages.empty()
                                     ? std::string("no num_stages reaches it")
                                     : "its num_stages=" + loop.numStages + " is inert");
        } else if (added && loop.form == "none" && pipelinable) {
          loop.form = "launch";
          loop.why = fmt::format("{} dot{} ({} in @jit helpers it imports and calls, inlined "
                                 "before pipelining) in a bare loop: the launch num_stages "
                                 "decides its depth",
                                 loop.dots, loop.dots == 1 ? "" : "s", loop.helperDots);
        }
      }
  }
}

/// Launches of kernels imported from other modules of the tree, checked
/// against those kernels (autotune configs, dialect): in some trees most
/// kernels are launched only from other modules.
void joinImportedLaunches(const std::vector<std::string> &files, std::vector<FileResult> &results) {
  KernelIndex index;
  for (size_t i = 0; i < files.size(); ++i) {
    if (results[i].error || results[i].survey.kernels.empty())
      continue;
    for (const std::string &suffix : moduleSuffixes(files[i]))
      for (auto &k : results[i].survey.kernels) {
        ExternalKernel e;
        e.name = k.name;
        e.gluon = k.dialect == "gluon";
        e.autotuned = k.autotuned;
        e.tunedKeys = k.tunedKeys;
        e.file = files[i];
        index.emplace(suffix + "." + k.name, std::move(e));
      }
  }
  if (index.empty())
    return;
  for (size_t i = 0; i < files.size(); ++i) {
    if (results[i].error || !results[i].survey.importedLaunches)
      continue;
    auto buffer = readInputFile(files[i]);
    if (!buffer) {
      llvm::consumeError(buffer.takeError());
      continue;
    }
    auto found = surveyImportedLaunches((*buffer)->getBuffer(), files[i], index);
    if (!found) {
      llvm::consumeError(found.takeError());
      continue;
    }
    for (auto &f : *found)
      results[i].survey.findings.push_back(std::move(f));
  }
}

} // namespace

llvm::Expected<SurveyReport> survey(const std::vector<std::string> &roots,
                                    const SurveyOptions &options) {
  namespace fs = std::filesystem;
  WalkState state;
  std::vector<IgnoreRule> cli;
  for (auto &e : options.excludes) {
    IgnoreRule r;
    llvm::StringRef p(e);
    r.negate = p.consume_front("!");
    r.pattern = p.str();
    cli.push_back(r);
  }
  for (auto &root : roots) {
    std::error_code ec;
    auto st = fs::status(root, ec);
    if (ec || !fs::exists(st))
      return llvm::make_error<InputError>(
          root, 0, 0, describeSystemError(ec && ec.value() ? ec.value() : ENOENT));
    if (fs::is_directory(st))
      walkTree(root, cli, options, state);
    else
      state.files.push_back(root);
  }
  // One file named through overlapping roots (or an in-tree link) is
  // surveyed once: files are told apart by device and inode, one stat each
  // (canonicalising every path would cost a stat per folder of its depth).
  {
    std::set<std::pair<dev_t, ino_t>> seen;
    std::vector<std::string> unique;
    for (auto &f : state.files) {
      struct stat st;
      if (::stat(f.c_str(), &st) != 0 || seen.insert({st.st_dev, st.st_ino}).second)
        unique.push_back(f);
    }
    state.files = std::move(unique);
  }
  std::vector<FileResult> results(state.files.size());
  parallelForWithProgress(state.files.size(), options.jobs, options.progress,
                          [&](size_t i) { results[i] = surveyFile(state.files[i]); });
  joinImportedHelpers(state.files, results);
  joinImportedLaunches(state.files, results);
  // Judged by the fork that compiles a vendor backend folder, what the fork
  // accepts is no finding there.
  if (options.targetCompiler == TargetCompiler::Fork)
    for (auto &r : results) {
      auto accepted = [](const Finding &f) { return !f.forkRule.empty(); };
      for (auto &k : r.survey.kernels)
        k.findings.erase(std::remove_if(k.findings.begin(), k.findings.end(), accepted),
                         k.findings.end());
      r.survey.findings.erase(
          std::remove_if(r.survey.findings.begin(), r.survey.findings.end(), accepted),
          r.survey.findings.end());
    }
  SurveyReport report;
  report.filesExcluded = state.excluded;
  report.directoriesSkipped = std::move(state.skipped);
  for (auto &r : results) {
    if (r.error) {
      report.errors.push_back(*r.error);
      continue;
    }
    ++report.filesScanned;
    if (!r.survey.kernels.empty())
      ++report.filesWithKernels;
    for (auto &k : r.survey.kernels)
      report.kernels.push_back(std::move(k));
    for (auto &f : r.survey.findings)
      report.findings.push_back(std::move(f));
  }
  return report;
}

} // namespace tilexform::source
