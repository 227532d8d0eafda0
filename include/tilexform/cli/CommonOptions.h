// The options every command repeats, each defined once: a command holds one
// CommonOptions, registers the shared options it takes among its own (in the
// order its help lists them), and runs `prepare()` before its analysis.
#pragma once

#include "tilexform/cli/Output.h"
#include "tilexform/gluon/Gluon.h"

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace tilexform::cli {

/// `--format`/`--json`, `-j/--jobs`, `-o/--out` and `--force`,
/// `--gluon-api` and `--arch`: one definition each (name, help, check), so
/// they read and behave the same in every command. `-v`, `-q` and `--color`
/// are the root's (cli/Terminal.h): given once before or after the command
/// name, and read through `quiet()` and `colour()`.
class CommonOptions {
public:
  std::string format = "text";
  bool json = false; // --json: --format json
  unsigned jobs = 0; // 0: every core
  std::string out;   // -o/--out; empty: none
  bool force = false;
  std::string gluonApi = "3.6";
  std::string arch; // canonical (hw::parseTarget), or empty

  /// `--format` (text, json, jsonl, then `extra`: sarif, csv) and `--json`.
  /// `help` words `--format` for a command whose formats say more.
  void addFormat(CLI::App *cmd, std::vector<std::string> extra = {}, const std::string &help = "");
  /// `-j/--jobs N`: inputs read on N threads.
  void addJobs(CLI::App *cmd, const std::string &help = "Files read in parallel (0: all cores)");
  /// `-o/--out FILE`, what the command writes there said by `help`.
  void addOut(CLI::App *cmd, const std::string &help);
  /// `--force`: overwrite what `--out` (or another file option) names.
  void addForce(CLI::App *cmd, const std::string &help);
  /// `--gluon-api 3.6|3.5`, resolved by `prepare()`.
  void addGluonApi(CLI::App *cmd);
  /// `--arch`: every spelling hw::parseTarget reads, rewritten to the
  /// canonical name while the line is parsed; an arch that is none, or has no
  /// figures, is the same usage error (64) in every command.
  void addArch(CLI::App *cmd, const std::string &help);

  /// The prologue, once the command line is parsed and before any work:
  /// `--json` becomes `--format json` and `--gluon-api` is resolved. 0, or
  /// the exit code of the usage error it reported.
  int prepare();

  /// Whether the report is JSON (json, or jsonl: one document per line).
  bool jsonOutput() const { return isJson(format); }
  /// The Gluon API `--gluon-api` named (after `prepare()`).
  gluon::GluonApi api() const { return api_.value_or(gluon::GluonApi::V3_6); }
  /// Whether `-o/--out` was on the command line (given empty, too).
  bool outGiven() const;
  /// `--out` existing and no `--force`: the usage error (reported, its exit
  /// code returned), before any work; else 0.
  int refuseExistingOut() const { return cli::refuseExistingOut(out, force); }

private:
  std::optional<gluon::GluonApi> api_;
  bool takesGluonApi_ = false;
  CLI::Option *outOption_ = nullptr;
};

/// Runs `one` over every input on `options.jobs` threads and prints the
/// results in input order in `options.format` (runOverFiles).
int runOverFiles(const char *command, const std::vector<std::string> &files,
                 const CommonOptions &options,
                 const std::function<FileOutput(const std::string &)> &one);

} // namespace tilexform::cli
