// What every command shares about the terminal: -v/-q (spdlog on stderr),
// colour (--color, NO_COLOR, a TTY), and painting of verdicts and errors.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace tilexform::cli {

/// `-v/--verbose` (repeatable), `-q/--quiet` and `--color` on the root
/// command; they may also follow the command name.
void addTerminalOptions(CLI::App &app);
/// Applies them once the command line is parsed: the log level, colour.
void configureTerminal();

/// `-q`: warnings and progress lines are not printed (errors still are).
bool quiet();

/// `tilexform: warning: TEXT` on stderr, unless `-q` (TEXT through
/// terminalText).
void warning(const std::string &text);

/// Whether text written to stdout (`toStdout`) or stderr is coloured:
/// `--color always|never`, else NO_COLOR unset and the stream a terminal.
bool colour(bool toStdout);

/// `text` with every `verdict: NAME` word coloured by what the verdict means
/// (green: yes, red: no, yellow: neither), when stdout is coloured.
std::string paintVerdicts(std::string text);
/// "error:" / "usage:" in bold red when stderr is coloured.
std::string paintSeverity(const std::string &severity);

/// `text` with every control character but line feed and tab (ESC, a bare
/// carriage return, backspace, BEL, the C1 controls such as NEL and CSI),
/// every other line break (U+2028), every character that changes how a
/// line is shown without being seen (bidi controls, zero-width characters)
/// and every byte that is not UTF-8 written as its escape (`\x1b`, `\r`,
/// `\u2028`; visibleText): text read from an input (a kernel's name, a file
/// name, a location, a quoted source line) can neither forge a line, move
/// the cursor over a verdict nor send the terminal a command. tilexform's
/// own colours are added after this.
std::string terminalText(std::string text);

} // namespace tilexform::cli
