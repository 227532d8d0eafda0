// libFuzzer entry point for `lint --format sarif`: the input is a dump whose
// first line also names its file (any bytes: spaces, `#`, `%`, quotes,
// control characters, non-UTF-8). A dump that loads is linted and its
// findings written through the CLI's SARIF writer; the log must be JSON of
// SARIF's shape, and every `uri` in it a percent-encoded URI reference.
#include "FuzzSupport.h"

#include "tilexform/cli/JsonWriter.h"
#include "tilexform/cli/Sarif.h"
#include "tilexform/ir/Module.h"
#include "tilexform/lint/Lint.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

using tilexform::cli::Json;

/// Whether `uri` is a file URI or a relative reference whose every byte is
/// unreserved, `/` or a `%XX` escape (the file scheme's `file:` aside).
bool percentEncoded(const std::string &uri) {
  std::string rest = uri.rfind("file://", 0) == 0 ? uri.substr(7) : uri;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (plain)
      continue;
    if (c != '%' || i + 2 >= rest.size() ||
        !std::isxdigit(static_cast<unsigned char>(rest[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(rest[i + 2])))
      return false;
    i += 2;
  }
  return true;
}

void require(bool ok) {
  if (!ok)
    std::abort();
}

/// Every `uri` member anywhere in the document.
void checkUris(const Json &j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "uri") {
        require(it->is_string());
        // A rule's help page keeps its `#anchor` fragment.
        std::string uri = it->get<std::string>();
        require(percentEncoded(uri.substr(0, uri.find('#'))));
      }
      checkUris(*it);
    }
  } else if (j.is_array()) {
    for (auto &e : j)
      checkUris(e);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  namespace lint = tilexform::lint;
  namespace cli = tilexform::cli;
  tilexform::fuzz::keepLastInput(data, size);
  std::string text(reinterpret_cast<const char *>(data), size);
  // The file's name: the first line, with no `/` (so it names nothing that
  // exists outside a folder that does not), or standard input.
  std::string name = text.substr(0, std::min(text.find('\n'), size_t(64)));
  bool standardInput = !name.empty() && (static_cast<unsigned char>(name[0]) & 1);
  for (char &c : name)
    if (c == '/' || c == '\0')
      c = '_';
  std::string file = standardInput ? "<stdin>" : "fuzz-sarif-no-such-folder/" + name;

  std::vector<cli::SarifRule> rules;
  for (auto &r : lint::allRules())
    rules.push_back(
        {r.name, r.title, r.why, std::string("lint.md#") + r.name, lint::severityName(r.severity)});
  std::vector<cli::SarifResult> results;
  std::vector<std::string> notifications;
  auto m = tilexform::ir::loadModuleText(text, file);
  if (!m) {
    notifications.push_back(llvm::toString(m.takeError()));
  } else {
    lint::LintOptions o; // no dump path: nothing beside it is read
    auto report = lint::lintModule(**m, o);
    if (!report) {
      notifications.push_back(llvm::toString(report.takeError()));
      report = lint::LintReport();
    }
    for (auto &f : report->findings)
      results.push_back({lint::ruleInfo(f.rule).name, lint::severityName(f.severity),
                         f.message + " Fix: " + f.fix, file, f.line, f.col, standardInput});
  }
  // A result for the name itself, whatever the dump gave.
  results.push_back(
      {rules.empty() ? "rule" : rules.front().id, "warning", "fuzz", file, 1, 1, standardInput});

  Json doc = cli::sarifDocument(rules, results, notifications);
  // What the CLI prints (its JSON writer) must read back as JSON of
  // SARIF's shape.
  Json back = Json::parse(cli::dumpJson(doc, false), nullptr, /*allow_exceptions=*/false);
  require(!back.is_discarded());
  require(back.is_object() && back.value("version", "") == "2.1.0" && back.contains("$schema"));
  require(back["runs"].is_array() && back["runs"].size() == 1);
  const Json &run = back["runs"][0];
  require(run["tool"]["driver"]["name"] == "tilexform");
  require(run["results"].is_array() && run["results"].size() == results.size());
  for (auto &r : run["results"]) {
    require(r["locations"].is_array() && r["locations"].size() == 1);
    require(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].is_string());
    require(r["partialFingerprints"]["primaryLocationLineHash"].is_string());
  }
  checkUris(back);
  return 0;
}
