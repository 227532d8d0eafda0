#include "tilexform/cli/Output.h"
#include "tilexform/support/OutputFile.h"

#include "tilexform/Version.h"
#include "tilexform/ir/Module.h"
#include "tilexform/support/InputError.h"

#include <CLI/CLI.hpp>
#include <llvm/Support/BuryPointer.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace tilexform::cli {

constexpr int kSchemaVersion = 1;

std::string checkCount(std::string &value) {
  if (value.empty() || value.size() > 12 ||
      value.find_first_not_of("0123456789") != std::string::npos)
    return "expected a whole number >= 0, got '" + value + "'";
  return "";
}

llvm::Expected<ir::Module *> loadForCommand(const std::string &path) {
  auto loaded = ir::loadModuleFile(path);
  if (!loaded)
    return loaded.takeError();
  ir::Module *mod = loaded->get();
  llvm::BuryPointer(std::move(*loaded));
  return mod;
}

Json envelope(const std::string &command, const std::string &verdict, int exitCode) {
  Json j;
  j["tool"] = "tilexform";
  j["version"] = kVersion;
  j["command"] = command;
  j["schema"] = kSchemaVersion;
  j["verdict"] = verdict;
  j["exit_code"] = exitCode;
  return j;
}

void printJson(const Json &doc) {
  // Render fully before writing so a failure never leaves half a document.
  std::string text = doc.dump(2, ' ', false, Json::error_handler_t::replace);
  text += '\n';
  printText(text);
}

namespace {
int gOutputErrno = 0; // the first failed write to stdout
} // namespace

void printText(const std::string &text) {
  if (gOutputErrno)
    return;
  errno = 0;
  size_t n = std::fwrite(text.data(), 1, text.size(), stdout);
  if (n != text.size() || std::fflush(stdout) != 0)
    gOutputErrno = errno ? errno : EIO;
}

int finishOutput(int exitCode) {
  errno = 0;
  if (!gOutputErrno && (std::fflush(stdout) != 0 || std::ferror(stdout)))
    gOutputErrno = errno ? errno : EIO;
  if (gOutputErrno) {
    // Whatever reached the reader is incomplete: never claim success.
    std::fprintf(stderr, "tilexform: error: cannot write the output: %s\n",
                 std::strerror(gOutputErrno));
    return kExitIO;
  }
  if (std::fflush(stderr) != 0 || std::ferror(stderr))
    return kExitIO;
  return exitCode;
}

int reportError(llvm::Error err, int exitCode) {
  std::fprintf(stderr, "tilexform: %s\n", errorLine(std::move(err)).c_str());
  return exitCode;
}

int reportError(const std::string &message, int exitCode) {
  std::string line = (exitCode == kExitUsage ? "usage: " : "error: ") + message;
  for (auto &c : line)
    if (c == '\n' || c == '\r')
      c = ' ';
  if (line.size() > 400)
    line = line.substr(0, 400) + "...";
  std::fprintf(stderr, "tilexform: %s\n", line.c_str());
  return exitCode;
}

int refuseExistingOut(const std::string &out, bool force) {
  if (out.empty() || force)
    return 0;
  std::error_code ec;
  if (std::filesystem::symlink_status(out, ec).type() != std::filesystem::file_type::not_found &&
      !ec)
    return reportError("--out: " + out + " exists; pass --force to overwrite it", kExitUsage);
  return 0;
}

int writeOutFile(const std::string &out, llvm::StringRef text, bool force) {
  if (auto err = writeFileAtomically(out, text, force)) {
    int code = kExitIO;
    std::string message;
    llvm::handleAllErrors(std::move(err), [&](const OutputFileError &e) {
      message = e.message;
      if (e.exists)
        code = kExitUsage;
    });
    return reportError("--out: " + message, code);
  }
  return 0;
}

void addFormatOptions(CLI::App *cmd, std::string &format, bool &json) {
  cmd->add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_flag("--json", json, "Same as --format json");
}

void addGluonApiOption(CLI::App *cmd, std::string &api) {
  cmd->add_option("--gluon-api", api,
                  "Gluon API of the constructors: 3.6 (cga_layout) or 3.5 (ctas_per_cga)")
      ->capture_default_str();
}

std::optional<gluon::GluonApi> resolveGluonApi(const std::string &name) {
  auto api = gluon::parseGluonApi(name);
  if (!api)
    reportError("--gluon-api: unknown Gluon API '" + name +
                    "' (use 3.6, or 3.5 for the ctas_per_cga spelling)",
                kExitUsage);
  return api;
}

ProgressLine::ProgressLine(const char *command, bool quiet)
    : command_(command), active_(!quiet && isatty(fileno(stderr))) {}

std::function<void(size_t, size_t)> ProgressLine::callback() const {
  if (!active_)
    return {};
  const char *command = command_;
  return [command](size_t done, size_t total) {
    if (done == total || done % 64 == 0)
      std::fprintf(stderr, "\r%s: %zu/%zu files", command, done, total);
  };
}

void ProgressLine::finish() {
  if (active_)
    std::fprintf(stderr, "\r\033[K");
  active_ = false;
}

void printErrorLines(const std::vector<std::string> &lines) {
  for (auto &line : lines)
    std::fprintf(stderr, "tilexform: %s\n", line.c_str());
}

Json optionalJson(const std::optional<int64_t> &v) { return v ? Json(*v) : Json(nullptr); }

Json sourceJson(const ir::SourceLoc &loc) {
  if (!loc.known())
    return nullptr;
  Json j;
  if (!loc.file.empty()) {
    j["file"] = loc.file;
    j["line"] = loc.line;
    j["col"] = loc.col;
  }
  if (!loc.name.empty())
    j["name"] = loc.name;
  return j;
}

Json basesJson(const std::vector<std::vector<int32_t>> &bases) {
  Json arr = Json::array();
  for (auto &b : bases)
    arr.push_back(b);
  return arr;
}

} // namespace tilexform::cli
