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

#include <fmt/format.h>
#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <set>

namespace tilexform::source {

using detail::IgnoreRule;
using detail::isIgnored;
using detail::readGitignore;

namespace {

struct WalkState {
  std::vector<std::string> files;
  size_t excluded = 0;
};

void walkTree(const std::filesystem::path &root, const std::filesystem::path &dir,
              std::vector<IgnoreRule> rules, const SurveyOptions &options, WalkState &state) {
  namespace fs = std::filesystem;
  std::string rel = fs::relative(dir, root).generic_string();
  if (rel == ".")
    rel.clear();
  if (options.useGitignore)
    readGitignore(dir.string(), rel, rules);
  std::vector<fs::directory_entry> entries;
  std::error_code ec;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    entries.push_back(*it);
  std::sort(entries.begin(), entries.end(),
            [](const auto &a, const auto &b) { return a.path() < b.path(); });
  for (auto &e : entries) {
    std::string name = e.path().filename().string();
    std::error_code typeEc;
    // Directory links are not followed (as git does not): a link to an
    // ancestor would never end.
    bool isDir = !e.is_symlink(typeEc) && e.is_directory(typeEc);
    std::string path = rel.empty() ? name : rel + "/" + name;
    if (isDir && (name == ".git" || name == "__pycache__" || name == ".hg" || name == ".svn"))
      continue;
    if (isIgnored(rules, path, isDir)) {
      ++state.excluded;
      continue;
    }
    if (isDir)
      walkTree(root, e.path(), rules, options, state);
    else if (llvm::StringRef(name).ends_with(".py"))
      state.files.push_back(e.path().string());
  }
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
  std::vector<std::string> out;
  std::string suffix;
  for (size_t j = parts.size(); j-- > 0;) {
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
      walkTree(root, root, cli, options, state);
    else
      state.files.push_back(root);
  }
  // One file named through overlapping roots is surveyed once.
  {
    std::set<std::string> seen;
    std::vector<std::string> unique;
    for (auto &f : state.files) {
      std::error_code canonEc;
      std::string canon = fs::weakly_canonical(f, canonEc).string();
      if (seen.insert(canonEc ? f : canon).second)
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
