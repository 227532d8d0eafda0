// Man pages and shell completions generated from the command-line definitions
// themselves, so they never drift from what the parser accepts.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace tilexform::cli {

/// Writes tilexform.1 and tilexform-COMMAND.1 (roff) into `dir`, each with
/// an EXAMPLES section from `examplesFile` (examples/commands.txt, whose
/// header states its format; none when empty); 0, or the exit code of the
/// reported error.
int writeManPages(const CLI::App &root, const std::string &dir,
                  const std::string &examplesFile = "");
/// Every long and short spelling (`--json`, `-j`) of the options of `app`
/// and of its parents, as the parser accepts them.
std::vector<std::string> optionSpellings(const CLI::App &app);

/// A completion script for `shell` ("bash" or "zsh"); empty for another shell.
std::string completionScript(const CLI::App &root, const std::string &shell);

} // namespace tilexform::cli
