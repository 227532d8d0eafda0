#include "tilexform/cli/Output.h"
#include "tilexform/cli/JsonWriter.h"
#include "tilexform/cli/SourceQuote.h"
#include "tilexform/cli/Terminal.h"

#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Products.h"
#include "tilexform/hw/Target.h"
#include "tilexform/support/OutputFile.h"
#include "tilexform/support/PythonText.h"

#include "tilexform/Version.h"
#include "tilexform/ir/Module.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/InputKind.h"
#include "tilexform/support/Parallel.h"
#include "tilexform/support/RunArena.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/ScopeExit.h>
#include <llvm/ADT/StringExtras.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <unistd.h>

namespace tilexform::cli {

constexpr int kSchemaVersion = 2;

std::string checkCount(std::string &value) {
  if (value.empty() || value.size() > 12 ||
      value.find_first_not_of("0123456789") != std::string::npos)
    return "expected a whole number >= 0, got '" + value + "'";
  return "";
}

llvm::Error checkDumpKind(const std::string &shown, llvm::StringRef contents,
                          llvm::StringRef command, bool readsTtir, bool parsed) {
  InputKind kind = sniffInputKind(contents, shown);
  switch (kind) {
  case InputKind::Ttgir:
  case InputKind::Unknown:
  case InputKind::Binary: // the reader names where the text stops being text
    return llvm::Error::success();
  case InputKind::Ttir:
    // Judged once it parses: a damaged dump is named for where it breaks.
    if (readsTtir || !parsed)
      return llvm::Error::success();
    return llvm::make_error<InputError>(
        shown, 0, 0,
        fmt::format("TTIR is before layout assignment; {} reads the .ttgir of the same compilation",
                    command));
  default:
    return wrongInputKindError(shown, kind,
                               fmt::format("{} reads a {} dump (see 'tilexform help dumps')",
                                           command, readsTtir ? ".ttgir or .ttir" : ".ttgir"));
  }
}

std::string shownPath(const std::string &path) {
  return path == "-" ? "<stdin>" : visibleText(path);
}

llvm::Expected<ir::Module *> loadForCommand(const std::string &path, llvm::StringRef command,
                                            bool readsTtir) {
  auto start = std::chrono::steady_clock::now();
  const std::string shown = shownPath(path);
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (path == "-") {
    auto text = readStandardInput();
    if (!text)
      return text.takeError();
    buffer = llvm::MemoryBuffer::getMemBufferCopy(*text, shown);
  } else {
    auto read = readInputFile(path);
    if (!read)
      return read.takeError();
    buffer = std::move(*read);
  }
  if (auto err = checkDumpKind(shown, buffer->getBuffer(), command, readsTtir, false))
    return err;
  auto loaded = ir::loadModuleBuffer(std::move(buffer), shown);
  if (!loaded)
    return loaded.takeError();
  if (auto err = checkDumpKind(shown, (*loaded)->source(), command, readsTtir, true))
    return err;
  ir::Module *mod = loaded->get();
  // Kept reachable until exit and never destroyed (llvm::BuryPointer keeps
  // only 16, so a run over many files would look leaked to LeakSanitizer).
  {
    static std::mutex mutex;
    static auto *kept = new std::vector<std::unique_ptr<ir::Module>>();
    std::lock_guard<std::mutex> lock(mutex);
    kept->push_back(std::move(*loaded));
  }
  spdlog::info(
      "{}: read in {:.2f} ms: target {}, num_warps {}, {} layout aliases", path,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
      mod->facts.target.empty() ? "none" : mod->facts.target,
      mod->facts.numWarps ? std::to_string(*mod->facts.numWarps) : "unknown", mod->aliases.size());
  return mod;
}

int exitCodeFor(llvm::StringRef command, Verdict verdict) {
  struct Row {
    const char *command; // a command, or a prefix ("gate"); null: every command
    Verdict verdict;
    int code;
  };
  static constexpr Row kRows[] = {
      {"gate", Verdict::Fail, kExitGate},
      {nullptr, Verdict::Differs, kExitFinding},
      {nullptr, Verdict::Unrecoverable, kExitFinding},
      {nullptr, Verdict::NumWarpsMismatch, kExitNumWarps},
      {nullptr, Verdict::Fail, kExitFinding},
      {nullptr, Verdict::NotComparable, kExitNotComparable},
      {nullptr, Verdict::NotResolved, kExitGate},
      {nullptr, Verdict::NotCleared, kExitGate},
      {nullptr, Verdict::InvalidInput, kExitInput},
      {nullptr, Verdict::Blocked, kExitFinding},
      {nullptr, Verdict::Error, kExitInput},
  };
  for (const Row &r : kRows)
    if (r.verdict == verdict && (!r.command || command.starts_with(r.command)))
      return r.code;
  return kExitOk;
}

Json envelope(const std::string &command, Verdict verdict, int exitCode) {
  Json j;
  j["tool"] = "tilexform";
  j["version"] = kVersion;
  j["command"] = command;
  j["schema"] = kSchemaVersion;
  j["verdict"] = verdictName(verdict);
  j["exit_code"] = exitCode;
  return j;
}

namespace {
bool gJsonLines = false;
} // namespace

void setJsonLines(bool lines) { gJsonLines = lines; }
bool jsonLines() { return gJsonLines; }

void printJson(const Json &doc) {
  // Render fully before writing so a failure never leaves half a document.
  std::string text = dumpJson(doc, gJsonLines);
  text += '\n';
  printText(text);
}

std::string renderArrayElement(const Json &element) {
  if (gJsonLines)
    return dumpJson(element, true);
  // An element of a top-level key's array is two levels deep: four spaces
  // before each of its lines (a string never holds a raw newline).
  std::string flat = dumpJson(element, false);
  std::string out = "    ";
  out.reserve(flat.size() + flat.size() / 8 + 4);
  for (char c : flat) {
    out.push_back(c);
    if (c == '\n')
      out.append(4, ' ');
  }
  return out;
}

void printJsonWithArrays(const Json &doc, llvm::ArrayRef<RenderedArray> arrays) {
  std::string head = dumpJson(doc, gJsonLines);
  // Reopen the closing brace: `{...}` or `{\n...\n}`.
  bool first = doc.empty();
  head.resize(head.size() - (gJsonLines || first ? 1 : 2));
  // Everything is rendered; it is written piece by piece, never joined.
  std::vector<std::string> glue; // the text between elements, kept alive for `pieces`
  glue.reserve(arrays.size());
  std::vector<llvm::StringRef> pieces;
  const char *separator = gJsonLines ? "," : ",\n";
  for (const RenderedArray &a : arrays) {
    std::string open = first ? "" : ",";
    if (!gJsonLines)
      open += "\n  ";
    open += Json(a.key).dump() + (gJsonLines ? ":[" : ": [");
    if (!gJsonLines && !a.elements.empty())
      open += "\n";
    if (pieces.empty()) {
      head += open;
      pieces.push_back(head);
    } else {
      pieces.push_back(glue.emplace_back(std::move(open))); // reserved: never moves
    }
    for (size_t i = 0; i < a.elements.size(); ++i) {
      if (i)
        pieces.push_back(separator);
      pieces.push_back(a.elements[i]);
    }
    pieces.push_back(gJsonLines || a.elements.empty() ? "]" : "\n  ]");
    first = false;
  }
  if (pieces.empty())
    pieces.push_back(head);
  pieces.push_back(gJsonLines || first ? "}\n" : "\n}\n");
  printPieces(pieces);
}

namespace {
bool gOneInput = false;
/// One error line as the error document writes it: severity, file, line,
/// col, message.
Json errorEntry(llvm::StringRef line);
} // namespace

bool oneInputRun() { return gOneInput; }

int runOverFiles(const char *command, const std::vector<std::string> &files, bool json,
                 unsigned jobs, bool quiet,
                 const std::function<FileOutput(const std::string &)> &one) {
  // Standard input can be read once, and not from a worker thread's race.
  bool stdinTwice = std::count(files.begin(), files.end(), "-") > 1;
  if (stdinTwice)
    return reportError("'-' (standard input) named more than once", kExitUsage);
  return runOverInputs(command, files, json, jobs, quiet, [&](size_t i) { return one(files[i]); });
}

int runOverInputs(const char *command, const std::vector<std::string> &files, bool json,
                  unsigned jobs, bool quiet, const std::function<FileOutput(size_t)> &one) {
  gOneInput = files.size() == 1;
  if (gOneInput)
    arena::begin();
  auto kept = std::make_unique<std::vector<FileOutput>>(files.size());
  auto &out = *kept;
  llvm::scope_exit keep([&] { keepUntilExit(std::move(kept)); });
  ProgressLine progress(command, quiet || files.size() < 2);
  parallelForWithProgress(files.size(), files.size() > 1 ? jobs : 1, progress.callback(),
                          [&](size_t i) { out[i] = one(i); });
  progress.finish();
  for (size_t i = 0; i < files.size(); ++i)
    spdlog::debug("{}: exit {}{}", files[i], out[i].exitCode,
                  out[i].error.empty() ? "" : " (" + out[i].error + ")");
  int code = kExitOk;
  bool failed = false;
  std::vector<std::string> errors;
  for (auto &o : out) {
    if (o.reported) {
      code = std::max(code, o.exitCode);
      continue;
    }
    if (!o.error.empty()) {
      failed = true;
      errors.push_back(o.error);
      continue;
    }
    code = std::max(code, o.exitCode);
  }
  bool anyReported = std::any_of(out.begin(), out.end(), [](auto &o) { return o.reported; });
  if (anyReported && files.size() == 1)
    return code;
  printErrorLines(errors);
  if (json && (files.size() == 1 || gJsonLines)) {
    for (auto &o : out)
      if (o.error.empty() && !o.reported)
        printJson(o.doc);
  } else if (json) {
    // Every input has its entry, in the order given: its own document,
    // or the error document of an input that could not be read; the
    // envelope's verdict is the worst entry's.
    Verdict verdict = Verdict::None;
    int worst = -1;
    Json results = Json::array(), failures = Json::array();
    for (auto &o : out) {
      if (o.reported)
        continue;
      if (!o.error.empty()) {
        int exit = std::max(o.exitCode, int(kExitInput));
        Json entry = errorEntry(o.error);
        failures.push_back(entry);
        o.doc = envelope(command, Verdict::Error, exit);
        o.doc["errors"] = Json::array({std::move(entry)});
        o.exitCode = exit;
      }
      if (o.exitCode > worst) {
        worst = o.exitCode;
        verdict = parseVerdict(o.doc.value("verdict", "")).value_or(Verdict::None);
      }
      results.push_back(std::move(o.doc));
    }
    int overall = failed ? std::max(code, int(kExitInput)) : code;
    Json j = envelope(command, verdict, overall);
    // An envelope whose verdict is ERROR is an error document too: its
    // errors[] are the failed inputs'.
    if (verdict == Verdict::Error)
      j["errors"] = std::move(failures);
    j["input_count"] = files.size();
    j["failed_count"] = errors.size();
    j["results"] = std::move(results);
    printJson(j);
  } else {
    std::string text;
    for (size_t i = 0; i < out.size(); ++i) {
      if (!out[i].error.empty() || out[i].reported)
        continue;
      if (!text.empty())
        text += "\n";
      text += out[i].text;
    }
    printText(text);
  }
  return failed ? std::max(code, int(kExitInput)) : code;
}

namespace {
int gOutputErrno = 0;        // the first failed write to stdout
bool gStdoutWritten = false; // anything written to stdout so far

/// A JSON run's errors, kept for the document an error run prints
/// (`setErrorDocument`, `finishOutput`).
struct ErrorDocument {
  bool on = false;
  std::string command;
  Json errors = Json::array();
};
ErrorDocument &errorDocument() {
  static ErrorDocument doc;
  return doc;
}
} // namespace

void setErrorDocument(const std::string &command) {
  errorDocument().on = true;
  errorDocument().command = command;
}

void printText(const std::string &text) {
  if (gOutputErrno)
    return;
  gStdoutWritten = gStdoutWritten || !text.empty();
  errno = 0;
  // Input text in a report is shown, never obeyed by the terminal.
  std::string safe = terminalText(text);
  std::string painted;
  const std::string *out = &safe;
  if (colour(true)) {
    painted = paintVerdicts(safe);
    out = &painted;
  }
  size_t n = std::fwrite(out->data(), 1, out->size(), stdout);
  if (n != out->size() || std::fflush(stdout) != 0)
    gOutputErrno = errno ? errno : EIO;
}

void printPieces(llvm::ArrayRef<llvm::StringRef> pieces) {
  if (colour(true)) {
    std::string text;
    for (llvm::StringRef p : pieces)
      text += p;
    printText(text);
    return;
  }
  if (gOutputErrno)
    return;
  errno = 0;
  for (llvm::StringRef p : pieces)
    gStdoutWritten = gStdoutWritten || !p.empty();
  for (llvm::StringRef piece : pieces) {
    // Copied only where a character may need its escape (terminalText).
    std::string safe;
    if (llvm::any_of(piece, [](char c) {
          auto u = static_cast<unsigned char>(c);
          return (u < 0x20 && u != '\n' && u != '\t') || u >= 0x7F;
        })) {
      safe = terminalText(piece.str());
      piece = safe;
    }
    if (std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size()) {
      gOutputErrno = errno ? errno : EIO;
      return;
    }
  }
  if (std::fflush(stdout) != 0)
    gOutputErrno = errno ? errno : EIO;
}

bool stdoutFailed() {
  errno = 0;
  if (!gOutputErrno && (std::fflush(stdout) != 0 || std::ferror(stdout)))
    gOutputErrno = errno ? errno : EIO;
  return gOutputErrno != 0;
}

int finishOutput(int exitCode) {
  // A JSON run that failed before writing its document writes one saying
  // so: the envelope with verdict ERROR and every error line, structured.
  ErrorDocument &err = errorDocument();
  if (err.on && !gStdoutWritten && !gOutputErrno && exitCode >= kExitUsage && !err.errors.empty()) {
    Json j = envelope(err.command, Verdict::Error, exitCode);
    j["errors"] = err.errors;
    printJson(j);
  }
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

namespace {

/// For an error at `FILE:LINE:COL: error: ...`, the source line and a
/// caret under the column, as clang and MLIR print them (two lines, each
/// ending in a newline); "" when the line names no position or the file
/// cannot be read again (standard input), or the line is not text.
bool gSourceQuotes = true;

/// The parts of one error line: `FILE:LINE:COL: error: MESSAGE`,
/// `FILE: error: MESSAGE`, `error: MESSAGE` or `usage: MESSAGE`.
struct ErrorParts {
  llvm::StringRef severity; // "error" or "usage"
  llvm::StringRef file;     // empty when the line names none
  unsigned line = 0, col = 0;
  llvm::StringRef message;
};

ErrorParts splitErrorLine(llvm::StringRef line) {
  ErrorParts parts;
  for (llvm::StringRef word : {"usage", "error"}) {
    std::string lead = word.str() + ": ";
    if (line.starts_with(lead)) {
      parts.severity = word;
      parts.message = line.drop_front(lead.size());
      return parts;
    }
  }
  parts.severity = "error";
  size_t at = line.find(": error: ");
  if (at == llvm::StringRef::npos) {
    parts.message = line;
    return parts;
  }
  parts.message = line.drop_front(at + strlen(": error: "));
  parts.file = line.take_front(at);
  auto [rest, colText] = parts.file.rsplit(':');
  auto [file, lineText] = rest.rsplit(':');
  unsigned lineNo = 0, col = 0;
  if (!file.empty() && !lineText.getAsInteger(10, lineNo) && !colText.getAsInteger(10, col) &&
      lineNo != 0 && col != 0) {
    parts.file = file;
    parts.line = lineNo;
    parts.col = col;
  }
  return parts;
}

/// Keeps an error line for the document a JSON run prints on failure.
void recordErrorLine(llvm::StringRef line) {
  ErrorDocument &doc = errorDocument();
  if (!doc.on)
    return;
  doc.errors.push_back(errorEntry(line));
}

Json errorEntry(llvm::StringRef line) {
  ErrorParts parts = splitErrorLine(line);
  return Json{{"severity", parts.severity},
              {"file", parts.file.empty() ? Json(nullptr) : Json(parts.file)},
              {"line", parts.line ? Json(parts.line) : Json(nullptr)},
              {"col", parts.col ? Json(parts.col) : Json(nullptr)},
              {"message", parts.message}};
}

std::string sourceQuote(llvm::StringRef line) {
  if (!gSourceQuotes)
    return "";
  ErrorParts parts = splitErrorLine(line);
  llvm::StringRef file = parts.file;
  unsigned lineNo = parts.line, col = parts.col;
  // Only a file the command read as its input is quoted: an error may
  // name a position in a file the input names (a dump's location).
  if (lineNo == 0 || file == "<stdin>" || !wasReadAsInput(file.str()) || !isRegularFile(file.str()))
    return "";
  auto buf = readInputFile(file.str());
  if (!buf) {
    llvm::consumeError(buf.takeError());
    return "";
  }
  llvm::StringRef text = (*buf)->getBuffer();
  for (unsigned i = 1; i < lineNo && !text.empty(); ++i)
    text = text.split('\n').second;
  llvm::StringRef source = text.split('\n').first.rtrim("\r");
  if (source.trim().empty() || col > source.size() + 1)
    return "";
  for (char c : source)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
      return "";
  // A long line is shown around the column.
  size_t from = 0, width = 160;
  std::string prefix;
  if (source.size() > width && col > width / 2) {
    from = col - 1 - width / 2;
    prefix = "...";
  }
  llvm::StringRef shown = source.substr(from, width);
  std::string caret = std::string(prefix.size(), ' ');
  for (size_t i = from; i + 1 < col && i < source.size(); ++i)
    caret.push_back(source[i] == '\t' ? '\t' : ' ');
  return prefix + shown.str() + "\n" + caret + "^\n";
}

/// One error line on stderr, its severity word painted on a terminal; for an
/// input error with a position, the source line quoted with a caret below.
void printErrorLine(const std::string &raw) {
  recordErrorLine(raw);
  std::string quote = terminalText(sourceQuote(raw));
  std::string line = terminalText(raw);
  for (const char *word : {"error:", "usage:"}) {
    size_t p = line.find(word);
    if (p != std::string::npos && (p == 0 || line.compare(p - 1, 1, " ") == 0)) {
      std::string painted = line.substr(0, p) + paintSeverity(word) + line.substr(p + strlen(word));
      std::fprintf(stderr, "tilexform: %s\n%s", painted.c_str(), quote.c_str());
      return;
    }
  }
  std::fprintf(stderr, "tilexform: %s\n%s", line.c_str(), quote.c_str());
}

} // namespace

void setSourceQuotes(bool on) { gSourceQuotes = on; }

int reportError(llvm::Error err, int exitCode) {
  printErrorLine(errorLine(std::move(err)));
  return exitCode;
}

int reportError(const std::string &message, int exitCode) {
  std::string line = (exitCode == kExitUsage ? "usage: " : "error: ") + message;
  for (auto &c : line)
    if (c == '\n' || c == '\r')
      c = ' ';
  if (line.size() > 400)
    line = line.substr(0, 400) + "...";
  printErrorLine(line);
  return exitCode;
}

int refuseExistingOut(const std::string &out, bool force, llvm::StringRef flag) {
  if (out.empty())
    return 0;
  std::error_code ec;
  // A directory is never the file meant, --force or not.
  if (std::filesystem::is_directory(out, ec))
    return reportError(flag.str() + ": " + out + " is a directory; " + flag.str() +
                           " wants a file name (" + (std::filesystem::path(out) / "NAME").string() +
                           ")",
                       kExitUsage);
  if (force)
    return 0;
  if (std::filesystem::symlink_status(out, ec).type() != std::filesystem::file_type::not_found &&
      !ec)
    return reportError(flag.str() + ": " + out + " exists; pass --force to overwrite it",
                       kExitUsage);
  return 0;
}

int writeOutFile(const std::string &out, llvm::StringRef text, bool force, llvm::StringRef flag) {
  if (auto err = writeFileAtomically(out, text, force)) {
    int code = kExitIO;
    std::string message;
    llvm::handleAllErrors(std::move(err), [&](const OutputFileError &e) {
      message = e.message;
      if (e.exists)
        code = kExitUsage;
    });
    return reportError(flag.str() + ": " + message, code);
  }
  return 0;
}

int refuseCrossVendorArch(const std::string &shown, const ir::Module &mod,
                          const std::string &arch) {
  if (arch.empty() || mod.facts.target.empty())
    return 0;
  if (auto c = hw::vendorConflict(shown, mod.facts.target, "dump", arch))
    return reportError(*c, kExitUsage);
  return 0;
}

ProgressLine::ProgressLine(const char *command, bool quiet)
    : command_(command), active_(!quiet && !cli::quiet() && isatty(fileno(stderr))) {}

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
    printErrorLine(line);
}

Json optionalJson(const std::optional<int64_t> &v) { return v ? Json(*v) : Json(nullptr); }

CLI::Validator oneOf(std::vector<std::string> values) {
  std::string shown = fmt::format("{{{}}}", llvm::join(values, ","));
  return CLI::Validator(
      [values = std::move(values)](std::string &value) -> std::string {
        if (std::find(values.begin(), values.end(), value) != values.end())
          return "";
        std::string best = nearestName(value, values);
        return fmt::format("'{}' is not one of {}{}", value, llvm::join(values, ", "),
                           best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best));
      },
      shown);
}

std::string nearestName(const std::string &word, const std::vector<std::string> &names) {
  std::string best;
  unsigned bestDistance = 3;
  for (auto &n : names) {
    unsigned d = llvm::StringRef(word).edit_distance(n);
    if (llvm::StringRef(n).starts_with(word) && word.size() > 2)
      d = std::min(d, 1u);
    if (d < bestDistance) {
      bestDistance = d;
      best = n;
    }
  }
  return best;
}

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
