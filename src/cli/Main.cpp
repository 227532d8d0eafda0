#include "tilexform/Version.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/Generated.h"
#include "tilexform/cli/Output.h"
#include "tilexform/cli/SourceQuote.h"
#include "tilexform/cli/Terminal.h"

#include "tilexform/support/InputError.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <csignal>

#include <exception>
#include <iostream>

namespace tilexform::cli {

namespace {

int dispatch(int argc, char **argv);

/// CLI11's "The following argument was not expected: --jsn" as our line,
/// with the option meant.
std::string explainExtras(const CLI::App *app, const std::string &what) {
  size_t colon = what.find(": ");
  if (colon == std::string::npos)
    return what;
  // CLI11 lists every extra word: name an unknown option before a stray word.
  llvm::SmallVector<llvm::StringRef, 4> words;
  llvm::StringRef(what).substr(colon + 2).split(words, ' ', -1, false);
  if (words.empty())
    return what;
  std::string word = words.front().str();
  for (auto w : words)
    if (w.starts_with("-")) {
      word = w.str();
      break;
    }
  if (word[0] != '-')
    return "unexpected argument '" + word + "'";
  std::string flag = word.substr(0, word.find('='));
  std::string best = nearestName(flag, optionSpellings(*app));
  return "unknown option '" + flag + "'" + (best.empty() ? "" : " (did you mean '" + best + "'?)");
}

/// `tilexform help dumps`: where the files every command reads come from.
constexpr const char *kDumpsHelp =
    R"(Where the inputs come from

Triton writes every stage of a compilation into its cache, one directory per
compiled kernel and options: $TRITON_CACHE_DIR/<key>/ (default
~/.triton/cache). Run the kernel once (TRITON_ALWAYS_COMPILE=1 recompiles a
kernel that is already cached), then find it by name:

  KERNEL.ttir     Triton IR, before layout assignment: inspect reads it
  KERNEL.ttgir    TritonGPU IR with layouts: recover, verify, transcribe, lint,
                  inspect and audit --ttgir read it
  KERNEL.amdgcn   AMD assembly: audit and probe read it
  KERNEL.ptx      PTX: audit and probe read it
  KERNEL.hsaco    AMD code object, KERNEL.cubin NVIDIA binary: probe reads them
  KERNEL.json     the compile metadata (num_warps, target, ...): probe reads it

TRITON_KERNEL_DUMP=1 also writes the stages (and a .sass for NVIDIA) under
$TRITON_DUMP_DIR (default ~/.triton/dump), one directory per source; configs
of one kernel overwrite each other there, so prefer the cache directory.
survey reads the kernel sources (.py) themselves.

See docs/recover.md, "Getting the dumps".
)";

/// Every command: its name, what defines its options, what runs it.
struct CommandDef {
  const char *name;
  void (*add)(CLI::App &);
  int (*run)();
};
const CommandDef kCommands[] = {{"inspect", addInspectCommand, runInspectCommand},
                                {"layout", addLayoutCommand, runLayoutCommand},
                                {"recover", addRecoverCommand, runRecoverCommand},
                                {"verify", addVerifyCommand, runVerifyCommand},
                                {"probe", addProbeCommand, runProbeCommand},
                                {"survey", addSurveyCommand, runSurveyCommand},
                                {"gate", addGateCommand, runGateCommand},
                                {"audit", addAuditCommand, runAuditCommand},
                                {"parity-gate", addParityGateCommand, runParityGateCommand},
                                {"transcribe", addTranscribeCommand, runTranscribeCommand},
                                {"lint", addLintCommand, runLintCommand}};

/// The command a command line runs: its first word that is neither an
/// option nor the value of a global option, when that word names a command;
/// "" otherwise.
std::string commandWord(int argc, char **argv) {
  if (argc > 1 && llvm::StringRef(argv[1]).starts_with("--generate-"))
    return ""; // the man pages and completions describe every command
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    if (a == "--max-input-size" || a == "--color") {
      ++i; // its value
      continue;
    }
    if (a.starts_with("-"))
      continue;
    for (const CommandDef &c : kCommands)
      if (a == c.name)
        return c.name;
    return "";
  }
  return "";
}

/// The `command` an error document names: the command word, with its mode
/// (`gate ab`) when one it has follows; the first word given when it is no
/// command.
std::string documentCommand(CLI::App &app, const std::string &command, int argc, char **argv) {
  std::vector<std::string> words;
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-')
      words.push_back(argv[i]);
  if (command.empty())
    return words.empty() ? "" : words.front();
  auto at = std::find(words.begin(), words.end(), command);
  if (at == words.end() || at + 1 == words.end())
    return command;
  for (auto *cmd : app.get_subcommands({}))
    if (cmd->get_name() == command)
      for (auto *mode : cmd->get_subcommands({}))
        if (mode->get_name() == *(at + 1))
          return command + " " + *(at + 1);
  return command;
}

/// `gate champio`: the mode named with the nearest one and the modes there
/// are; `gate` alone: the modes there are. 0 when the mode is fine.
int checkMode(CLI::App &app, const std::string &command, int argc, char **argv) {
  CLI::App *cmd = nullptr;
  for (auto *sub : app.get_subcommands({}))
    if (sub->get_name() == command)
      cmd = sub;
  if (!cmd || cmd->get_subcommands({}).empty())
    return 0;
  std::vector<std::string> modes;
  for (auto *m : cmd->get_subcommands({}))
    modes.push_back(m->get_name());
  for (int i = 2; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    if (a == "-h" || a == "--help")
      return 0; // CLI11 prints the command's help
    if (a == "--max-input-size" || a == "--color") {
      ++i;
      continue;
    }
    if (a.starts_with("-"))
      continue;
    if (std::find(modes.begin(), modes.end(), a.str()) != modes.end())
      return 0;
    std::string best = nearestName(a.str(), modes);
    return reportError(fmt::format("{}: unknown mode '{}'{}; modes: {} (see tilexform {} --help)",
                                   command, a.str(),
                                   best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best),
                                   llvm::join(modes, ", "), command),
                       kExitUsage);
  }
  return reportError(fmt::format("{}: a mode is required: {} (see tilexform {} --help)", command,
                                 llvm::join(modes, ", "), command),
                     kExitUsage);
}

} // namespace

int run(int argc, char **argv) {
  // A closed stdout (`tilexform ... | head -c0`) is a failed write, reported
  // with exit 74 by finishOutput, not a death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  return finishOutput(dispatch(argc, argv));
}

namespace {

int dispatch(int argc, char **argv) {
  CLI::App app{"tilexform: read Triton dumps and artifacts; recover and verify Gluon layouts; "
               "probe occupancy; survey kernel sources",
               "tilexform"};
  app.set_version_flag("--version", std::string("tilexform ") + kVersion + " (commit " + kCommit +
                                        ")\nLLVM and MLIR " + kLlvmVersion +
                                        " (linked statically)");
  app.require_subcommand(1);
  app.fallthrough(); // --max-input-size after the command name too
  std::string maxInput;
  app.add_option("--max-input-size", maxInput,
                 "Refuse input files larger than this (bytes, or with K/M/G; default 32M)");
  addTerminalOptions(app);
  // A run of one command defines that command alone: defining every
  // command's options is a sizeable part of a small run's start-up. Help,
  // an unknown word and the generated pages see them all.
  std::string only = commandWord(argc, argv);
  for (const CommandDef &c : kCommands)
    if (only.empty() || only == c.name)
      c.add(app);
  // JSON and SARIF runs keep stderr to the one line per error; a JSON run
  // that fails before its document writes one that says why.
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    llvm::StringRef value = a.starts_with("--format=")        ? a.drop_front(strlen("--format="))
                            : a == "--format" && i + 1 < argc ? llvm::StringRef(argv[i + 1])
                                                              : llvm::StringRef();
    if (a == "--json" || value == "json" || value == "jsonl" || value == "sarif")
      setSourceQuotes(false);
    if (value == "jsonl")
      setJsonLines(true);
    if (a == "--json" || value == "json" || value == "jsonl")
      setErrorDocument(documentCommand(app, only, argc, argv));
  }
  // The build writes the man pages and completions from these definitions
  // (hidden: not for users, so not in --help).
  if ((argc == 3 || argc == 4) && llvm::StringRef(argv[1]) == "--generate-man-pages")
    return writeManPages(app, argv[2], argc == 4 ? argv[3] : "");
  if (argc == 3 && llvm::StringRef(argv[1]) == "--generate-completion") {
    std::string script = completionScript(app, argv[2]);
    if (script.empty())
      return reportError(std::string("--generate-completion: unknown shell '") + argv[2] +
                             "' (bash or zsh)",
                         kExitUsage);
    printText(script);
    return kExitOk;
  }
  // A first word that is no command: say so, with the nearest command.
  // `help [COMMAND]` prints that help, as git and cargo do.
  if (argc > 1 && argv[1][0] != '-') {
    std::string word = argv[1];
    std::vector<std::string> names;
    for (auto *sub : app.get_subcommands({}))
      names.push_back(sub->get_name());
    if (word == "help") {
      if (argc == 2) {
        printText(app.help());
        return kExitOk;
      }
      std::string of = argv[2];
      if (of == "dumps") {
        printText(kDumpsHelp);
        return kExitOk;
      }
      for (auto *sub : app.get_subcommands({}))
        if (sub->get_name() == of) {
          printText(sub->help("tilexform")); // the usage line as `COMMAND --help` gives it
          return kExitOk;
        }
      names.push_back("dumps");
      std::string best = nearestName(of, names);
      names.pop_back();
      return reportError("help: unknown command '" + of + "'" +
                             (best.empty() ? "" : " (did you mean '" + best + "'?)") +
                             "; commands: " + llvm::join(names, ", ") + "; topics: dumps",
                         kExitUsage);
    }
    if (std::find(names.begin(), names.end(), word) == names.end()) {
      std::string best = nearestName(word, names);
      return reportError("unknown command '" + word + "'" +
                             (best.empty() ? "" : " (did you mean '" + best + "'?)") +
                             "; commands: " + llvm::join(names, ", "),
                         kExitUsage);
    }
    // A command with modes (gate): an unknown or missing mode is named with
    // the nearest, as an unknown command is.
    if (int code = checkMode(app, word, argc, argv))
      return code;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::string what = e.what();
    if (what.empty())
      what = "bad command line";
    const CLI::App *where = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
    if (dynamic_cast<const CLI::ExtrasError *>(&e))
      what = explainExtras(where, what);
    // An option before any command: name it, not the missing command.
    // (One it knows, such as `--color` given a bad value, keeps CLI11's word.)
    if (argc > 1 && argv[1][0] == '-' && app.get_subcommands().empty() &&
        !dynamic_cast<const CLI::ExtrasError *>(&e)) {
      std::string flag = std::string(argv[1]).substr(0, std::string(argv[1]).find('='));
      auto known = optionSpellings(app);
      if (std::find(known.begin(), known.end(), flag) == known.end())
        what = explainExtras(&app, std::string(": ") + argv[1]);
    }
    std::string help = "tilexform --help";
    if (!app.get_subcommands().empty())
      help = "tilexform " + app.get_subcommands().front()->get_name() + " --help";
    return reportError(what + " (see " + help + ")", kExitUsage);
  }
  configureTerminal();
  if (!maxInput.empty()) {
    uint64_t bytes = 0;
    llvm::StringRef v(maxInput);
    uint64_t scale = 1;
    if (v.ends_with_insensitive("k"))
      scale = uint64_t(1) << 10;
    else if (v.ends_with_insensitive("m"))
      scale = uint64_t(1) << 20;
    else if (v.ends_with_insensitive("g"))
      scale = uint64_t(1) << 30;
    if (scale != 1)
      v = v.drop_back();
    if (v.getAsInteger(10, bytes) || bytes == 0 || bytes > (uint64_t(1) << 40) / scale)
      return reportError("--max-input-size: expected a size such as 1048576, 64M or 1G, got '" +
                             maxInput + "'",
                         kExitUsage);
    setMaxInputSize(bytes * scale);
  }
  try {
    for (auto *sub : app.get_subcommands())
      for (const CommandDef &c : kCommands)
        if (sub->get_name() == c.name)
          return c.run();
  } catch (const std::exception &e) {
    return reportError(std::string("internal error: ") + e.what(), kExitInternal);
  }
  return reportError("no command given (see tilexform --help)", kExitUsage);
}

} // namespace

} // namespace tilexform::cli
