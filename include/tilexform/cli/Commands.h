// One entry point per command; each parses its own flags on a CLI11 subcommand
// and calls into the core library.
#pragma once

namespace CLI {
class App;
}

namespace tilexform::cli {

/// Runs the tool; returns the process exit code.
int run(int argc, char **argv);

struct CommandHooks {
  void (*add)(CLI::App &root);
  int (*execute)();
};

void addInspectCommand(CLI::App &root);
int runInspectCommand();
void addLayoutCommand(CLI::App &root);
int runLayoutCommand();

} // namespace tilexform::cli
