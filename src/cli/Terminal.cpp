#include "tilexform/cli/Terminal.h"

#include "tilexform/support/PythonText.h"

#include "tilexform/cli/Output.h"
#include "tilexform/support/Verdict.h"

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <utility>

namespace tilexform::cli {

namespace {

struct Settings {
  int verbose = 0;
  bool quiet = false;
  std::string color = "auto";
} gSettings;

const char *kGreen = "\033[32m", *kRed = "\033[31m", *kYellow = "\033[33m",
           *kBoldRed = "\033[1;31m", *kBoldMagenta = "\033[1;35m", *kReset = "\033[0m";

} // namespace

void addTerminalOptions(CLI::App &app) {
  app.add_flag("-v,--verbose", gSettings.verbose,
               "Log what is read and decided to stderr (-vv: more)");
  app.add_flag("-q,--quiet", gSettings.quiet, "Errors only on stderr: no warnings or progress");
  app.add_option("--color", gSettings.color,
                 "Colour: auto (a terminal, unless NO_COLOR is set), always or never")
      ->check(oneOf({"auto", "always", "never"}))
      ->capture_default_str();
}

void configureTerminal() {
  auto logger = spdlog::stderr_logger_mt("tilexform");
  logger->set_pattern("tilexform: %l: %v");
  logger->set_level(gSettings.quiet          ? spdlog::level::err
                    : gSettings.verbose >= 2 ? spdlog::level::debug
                    : gSettings.verbose == 1 ? spdlog::level::info
                                             : spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

bool quiet() { return gSettings.quiet; }

void warning(const std::string &text) { spdlog::warn("{}", terminalText(text)); }

bool colour(bool toStdout) {
  if (gSettings.color == "always")
    return true;
  if (gSettings.color == "never")
    return false;
  const char *noColor = std::getenv("NO_COLOR");
  if (noColor && *noColor)
    return false;
  return isatty(toStdout ? STDOUT_FILENO : STDERR_FILENO);
}

std::string paintVerdicts(std::string text) {
  if (!colour(true))
    return text;
  std::string out;
  out.reserve(text.size() + 64);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(pos, end - pos);
    // A finding written as a diagnostic (`FILE:LINE:COL: error: ...`, lint
    // and survey): its severity, as clang paints it.
    for (auto [word, paint] : {std::pair{": error: ", kBoldRed}, {": warning: ", kBoldMagenta}}) {
      size_t d = line.find(word);
      if (d != std::string::npos) {
        std::string name(word + 2, strlen(word) - 3);
        line = line.substr(0, d + 2) + paint + name + kReset + line.substr(d + strlen(word) - 1);
        break;
      }
    }
    // The verdict line, and a layout's round-trip verdict.
    size_t at = line.find("verdict:");
    size_t label = strlen("verdict:");
    if (at == std::string::npos) {
      at = line.find("roundtrip:");
      label = strlen("roundtrip:");
    }
    if (at != std::string::npos && line.find_first_not_of(' ') == at) {
      size_t word = line.find_first_not_of(' ', at + label);
      size_t wordEnd = word == std::string::npos ? word : line.find_first_of(" (", word);
      if (word != std::string::npos) {
        std::string name =
            line.substr(word, wordEnd == std::string::npos ? wordEnd : wordEnd - word);
        if (auto v = parseVerdict(name)) {
          int code = exitCodeFor("", *v);
          const char *paint = code == kExitOk                             ? kGreen
                              : code == kExitFinding || code == kExitGate ? kRed
                                                                          : kYellow;
          line = line.substr(0, word) + paint + name + kReset + line.substr(word + name.size());
        }
      }
    }
    out += line;
    if (end < text.size())
      out += '\n';
    pos = end + 1;
  }
  return out;
}

std::string paintSeverity(const std::string &severity) {
  if (!colour(false))
    return severity;
  return kBoldRed + severity + kReset;
}

std::string terminalText(std::string text) { return visibleText(text, /*keepLineFeeds=*/true); }

} // namespace tilexform::cli
