// SARIF 2.1.0 logs (cli/Sarif.h).
#include "tilexform/cli/Sarif.h"
#include "tilexform/Version.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <filesystem>
#include <map>
#include <optional>

namespace tilexform::cli {

namespace {

/// A path as a URI reference (RFC 3986): every byte but the unreserved
/// characters and `/` percent-encoded, so `#`, `?`, `%`, spaces, quotes,
/// backslashes, control characters and non-ASCII bytes (each byte of their
/// UTF-8) cannot end the path or change what it names; `:` is encoded too,
/// so a relative path's first segment never reads as a scheme. An absolute
/// path becomes a `file://` URI.
std::string sarifUri(const std::string &path) {
  std::string uri;
  if (!path.empty() && path[0] == '/')
    uri = "file://";
  for (char c : path) {
    auto b = static_cast<unsigned char>(c);
    if (llvm::isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      uri += c;
    else
      uri += fmt::format("%{:02X}", b);
  }
  return uri;
}

/// A path relative to the working directory when it lies under it (the
/// SARIF `%SRCROOT%` base), else none.
std::optional<std::string> underWorkingDirectory(const std::string &path) {
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  if (ec)
    return std::nullopt;
  auto abs = std::filesystem::absolute(path, ec).lexically_normal();
  if (ec)
    return std::nullopt;
  auto rel = abs.lexically_relative(cwd);
  std::string r = rel.generic_string();
  if (r.empty() || r.rfind("..", 0) == 0)
    return std::nullopt;
  return r;
}

/// The files the findings are in, each read once, as their lines: a log of
/// many findings in one file reads it once, not once a finding. Standard
/// input is never read again (a file named `<stdin>` is not it).
class LineTexts {
public:
  /// The text of line `line` (1-based) of the finding's file, or none.
  std::optional<llvm::StringRef> line(const SarifResult &f) {
    if (f.standardInput)
      return std::nullopt;
    auto [it, fresh] = files_.try_emplace(f.file);
    File &file = it->second;
    // Only a regular file is read again: a pipe or a device would block
    // or give other bytes.
    if (fresh && llvm::sys::fs::is_regular_file(f.file)) {
      auto buf = llvm::MemoryBuffer::getFile(f.file, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
      if (!buf)
        return std::nullopt;
      file.buffer = std::move(*buf);
      llvm::StringRef text = file.buffer->getBuffer();
      file.starts.push_back(0);
      for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n')
          file.starts.push_back(i + 1);
    }
    if (!file.buffer || f.line == 0 || f.line > file.starts.size())
      return std::nullopt;
    llvm::StringRef text = file.buffer->getBuffer();
    return text.substr(file.starts[f.line - 1]).split('\n').first;
  }

private:
  struct File {
    std::unique_ptr<llvm::MemoryBuffer> buffer;
    std::vector<size_t> starts; // of each line
  };
  std::map<std::string, File> files_;
};

/// FNV-1a over the rule, the file and the finding line's text (whitespace
/// removed): stable across runs and across edits elsewhere in the file.
std::string lineFingerprint(const SarifResult &f, LineTexts &lines) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](llvm::StringRef s) {
    for (char c : s) {
      if (c == ' ' || c == '\t')
        continue;
      h ^= uint8_t(c);
      h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
  };
  mix(f.ruleId);
  mix(underWorkingDirectory(f.file).value_or(f.file));
  if (auto text = lines.line(f))
    mix(*text);
  return fmt::format("{:016x}:1", h);
}

} // namespace

std::string manualUri(const std::string &page) {
  static const std::string base = [] {
    static int anchor;
    std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
    llvm::SmallString<256> docs(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(docs, "share", "doc", "tilexform", "docs");
    return llvm::sys::fs::is_directory(docs) ? std::string(docs) : std::string(kSourceDocsDir);
  }();
  return sarifUri(base + "/" + page.substr(0, page.find('#'))) +
         page.substr(std::min(page.find('#'), page.size()));
}

Json sarifDocument(const std::vector<SarifRule> &rules, const std::vector<SarifResult> &results,
                   const std::vector<std::string> &notifications) {
  Json ruleList = Json::array();
  std::map<std::string, size_t> ruleIndex;
  for (size_t i = 0; i < rules.size(); ++i) {
    ruleIndex[rules[i].id] = i;
    ruleList.push_back(Json{{"id", rules[i].id},
                            {"name", rules[i].id},
                            {"shortDescription", {{"text", rules[i].title}}},
                            {"fullDescription", {{"text", rules[i].why}}},
                            {"helpUri", manualUri(rules[i].helpPage)},
                            {"defaultConfiguration", {{"level", rules[i].level}}}});
  }
  Json out = Json::array();
  LineTexts lines;
  for (const SarifResult &f : results) {
    Json region{{"startLine", std::max(1u, f.line)}, {"startColumn", std::max(1u, f.col)}};
    Json artifact;
    if (f.standardInput)
      artifact = Json{{"uri", sarifUri(f.file)}};
    else if (auto rel = underWorkingDirectory(f.file))
      artifact = Json{{"uri", sarifUri(*rel)}, {"uriBaseId", "%SRCROOT%"}};
    else
      artifact = Json{{"uri", sarifUri(f.file)}};
    out.push_back(Json{
        {"ruleId", f.ruleId},
        {"ruleIndex", ruleIndex[f.ruleId]},
        {"level", f.level},
        {"message", {{"text", f.message}}},
        {"locations", Json::array({Json{{"physicalLocation",
                                         {{"artifactLocation", artifact}, {"region", region}}}}})},
        {"partialFingerprints", {{"primaryLocationLineHash", lineFingerprint(f, lines)}}}});
  }
  Json notes = Json::array();
  for (auto &e : notifications)
    notes.push_back(Json{{"level", "error"}, {"message", {{"text", e}}}});
  Json run{{"tool",
            {{"driver",
              {{"name", "tilexform"},
               {"version", kVersion},
               {"semanticVersion", kVersion},
               {"rules", ruleList}}}}},
           {"originalUriBaseIds",
            {{"%SRCROOT%",
              {{"uri",
                [] {
                  std::error_code ec;
                  std::string cwd = std::filesystem::current_path(ec).generic_string();
                  return sarifUri(cwd + (cwd.empty() || cwd.back() == '/' ? "" : "/"));
                }()}}}}},
           {"invocations", Json::array({Json{{"executionSuccessful", true},
                                             {"toolExecutionNotifications", notes}}})},
           {"results", out}};
  return Json{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({run})}};
}

} // namespace tilexform::cli
