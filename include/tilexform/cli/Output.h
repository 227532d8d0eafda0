// Shared pieces of every command: output format, the JSON envelope, exit codes
// and one-line errors.
#pragma once

#include "tilexform/gluon/Gluon.h"
#include "tilexform/support/Verdict.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/BuryPointer.h>
#include <llvm/Support/Error.h>
#include <optional>
#include <string>

namespace CLI {
class App;
class Validator;
} // namespace CLI
namespace tilexform::ir {
struct SourceLoc;
class Module;
} // namespace tilexform::ir

namespace tilexform::cli {

using Json = nlohmann::ordered_json;

/// A CLI11 check for a whole count (`--max-sites 8`): digits only, so `-1`
/// is refused with a plain message rather than wrapped to a huge number.
std::string checkCount(std::string &value);

/// How a report and a diagnostic name an input: `<stdin>` for `-`, else
/// the path with every character that could forge or hide a line escaped
/// (visibleText), in text and JSON alike; SARIF percent-encodes the path
/// itself.
std::string shownPath(const std::string &path);

/// Loads a dump for a command (`-`: standard input). The module lives until
/// the process exits and is never torn down (as clang's -disable-free):
/// freeing a large op tree costs more than a command's own work.
///
/// Input of another kind is refused before it is parsed, named for what it
/// is (support/InputKind.h): Python source, an ELF, JSON, a listing, an empty
/// file, and a TTIR dump unless `readsTtir` (it has no layouts yet).
/// `command` names the reader in that message.
llvm::Expected<ir::Module *> loadForCommand(const std::string &path, llvm::StringRef command,
                                            bool readsTtir = false);
/// The check `loadForCommand` makes before parsing (`parsed` false) and
/// after (true: only then is a dump without layouts TTIR rather than a
/// damaged TTGIR): success for a TTGIR dump, or text the reader must judge.
llvm::Error checkDumpKind(const std::string &shown, llvm::StringRef contents,
                          llvm::StringRef command, bool readsTtir, bool parsed);

enum ExitCode : int {
  kExitOk = 0,
  kExitFinding = 1,       // the command's "no": a layout that differs or is unrecoverable, FAIL
  kExitGate = 2,          // a gate not passed: FAIL, NOT_RESOLVED, NOT_CLEARED
  kExitNotComparable = 3, // verify: the two modules cannot be compared
  kExitNumWarps = 4,      // recover: layouts disagree with the module's num_warps
  kExitUsage = 64,        // EX_USAGE
  kExitInput = 65,        // EX_DATAERR
  kExitInternal = 70,     // EX_SOFTWARE
  kExitIO = 74,           // EX_IOERR: output cannot be written
};

enum class Format { Text, Json };

/// The one verdict -> exit-code table: what `verdict` of `command` exits
/// with ("gate champion" FAIL is 2, verify's FAIL 1).
int exitCodeFor(llvm::StringRef command, Verdict verdict);

/// The envelope every JSON document starts with.
Json envelope(const std::string &command, Verdict verdict, int exitCode);

/// Prints `doc` to stdout: pretty, or on one line when `--format jsonl`
/// was given (round logs append one document per line).
void printJson(const Json &doc);
/// A large document as a stream: each element of its last arrays is rendered
/// when it is made (`renderArrayElement`, its node tree freed at once) and
/// `printJsonWithArrays` writes `doc` with those arrays after its own keys:
/// the same bytes as `printJson` of the whole tree.
std::string renderArrayElement(const Json &element);
struct RenderedArray {
  std::string key; // not a key of the document itself
  std::vector<std::string> elements;
};
void printJsonWithArrays(const Json &doc, llvm::ArrayRef<RenderedArray> arrays);
/// `--format jsonl`: every JSON document on one line.
void setJsonLines(bool lines);
bool jsonLines();

/// What one input file gave a multi-file command: its JSON document, its
/// text report and exit code, or one error line when it could not be read.
struct FileOutput {
  int exitCode = 0;
  Json doc;
  std::string text;
  std::string error;     // `file:line:col: error: ...`; non-empty when the input failed
  bool reported = false; // failed, and the error line is already on stderr
};

/// Runs `one` over every input (on `jobs` threads, 0: all cores; a progress
/// line on a terminal) and prints the results in input order: the text
/// reports; one JSON document (the file's own for one input, else the
/// envelope with `results: [...]`); or one line per input with jsonl. Failed
/// inputs get their line on stderr and do not stop the rest. Returns the
/// largest exit code, 65 when an input failed.
int runOverFiles(const char *command, const std::vector<std::string> &files, bool json,
                 unsigned jobs, bool quiet,
                 const std::function<FileOutput(const std::string &)> &one);
/// The same over inputs that are not one path each (verify's pairs):
/// `one(i)` makes the i-th; `names` name them in the debug log. Standard
/// input read twice is the caller's to refuse.
int runOverInputs(const char *command, const std::vector<std::string> &names, bool json,
                  unsigned jobs, bool quiet, const std::function<FileOutput(size_t)> &one);

/// Whether the command runs over one input: what it made for it is then
/// left for the process's end to reclaim (freeing it is work nobody waits
/// for, as a compiler driver does), with `keepUntilExit`.
bool oneInputRun();
template <typename T> void keepUntilExit(std::unique_ptr<T> made) {
  if (oneInputRun())
    llvm::BuryPointer(std::move(made));
}

/// Prints a text report, rendered whole before it is written, to stdout.
void printText(const std::string &text);
/// The same for a report rendered in pieces: written one after the other,
/// never joined into one string (joined only to paint it for a terminal).
void printPieces(llvm::ArrayRef<llvm::StringRef> pieces);
/// The exit code once every output is written: 74 (EX_IOERR) with one
/// line on stderr when any write to stdout failed or fell short (a full disk,
/// /dev/full, a closed pipe), else `exitCode`.
int finishOutput(int exitCode);
/// Whether a write to stdout has failed so far (flushed first): a command
/// that wrote a file its report announces takes the file back.
bool stdoutFailed();

/// A JSON run of `command` (`--format json|jsonl`): when it ends with a
/// usage, input or internal error before anything reached stdout,
/// finishOutput writes the envelope with verdict ERROR and `errors[]` (each
/// line on stderr as `severity`, `file`, `line`, `col`, `message`).
void setErrorDocument(const std::string &command);

/// One line on stderr: `file:line:col: error: message` (or `error: message`).
int reportError(llvm::Error err, int exitCode = kExitInput);
int reportError(const std::string &message, int exitCode);

/// `--out PATH` (or `flag`) before any work: an existing target without `--force` is a
/// usage error (reported; its exit code returned), else 0.
int refuseExistingOut(const std::string &out, bool force, llvm::StringRef flag = "--out");
/// Writes `text` to `out` safely (support/OutputFile.h); 0, or the exit code
/// of the reported error (64 for an existing target, 74 for a failed write).
int writeOutFile(const std::string &out, llvm::StringRef text, bool force,
                 llvm::StringRef flag = "--out");

/// Whether `--format` asks for JSON (json, or jsonl: one document per line).
inline bool isJson(const std::string &format) { return format == "json" || format == "jsonl"; }

/// An `--arch` of another vendor than the target a dump states
/// (`ttg.target`): reported as a usage error (hw::vendorConflict) and 64
/// returned; 0 when the dump names no target or one of the same vendor.
int refuseCrossVendorArch(const std::string &shown, const ir::Module &mod, const std::string &arch);

/// "command: done/total files" on stderr while files are read, only when
/// stderr is a terminal and not `quiet`; finish() clears the line.
class ProgressLine {
public:
  ProgressLine(const char *command, bool quiet);
  /// The callback for the core's progress hook; empty when there is no line.
  std::function<void(size_t, size_t)> callback() const;
  void finish();

private:
  const char *command_;
  bool active_;
};

/// The nearest of `names` to `word` (at most two edits away, or a prefix),
/// for "did you mean" in usage errors; "" when none is near.
std::string nearestName(const std::string &word, const std::vector<std::string> &names);

/// A CLI11 check for an option that takes one of `values` (`--format`,
/// `--color`): any other value is named with the nearest one, as an unknown
/// command is ("'jsn' is not one of text, json, jsonl (did you mean 'json'?)").
CLI::Validator oneOf(std::vector<std::string> values);

/// One stderr line per unreadable input, each already `file:line:col: error: ...`.
void printErrorLines(const std::vector<std::string> &lines);

/// An optional integer as JSON (null when absent).
Json optionalJson(const std::optional<int64_t> &v);

/// A source location from `loc(...)`: file, line, col and variable name
/// (null when unknown).
Json sourceJson(const ir::SourceLoc &loc);

/// Bases as JSON lists of lists.
Json basesJson(const std::vector<std::vector<int32_t>> &bases);

} // namespace tilexform::cli
