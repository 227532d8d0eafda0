// One entry point per command; each parses its own flags on a CLI11 subcommand
// and calls into the core library.
#pragma once

namespace CLI {
class App;
}

namespace tilexform::cli {

/// Runs the tool; returns the process exit code.
int run(int argc, char **argv);

void addInspectCommand(CLI::App &root);
int runInspectCommand();
void addLayoutCommand(CLI::App &root);
int runLayoutCommand();
void addRecoverCommand(CLI::App &root);
int runRecoverCommand();
void addVerifyCommand(CLI::App &root);
int runVerifyCommand();
void addProbeCommand(CLI::App &root);
int runProbeCommand();
void addSurveyCommand(CLI::App &root);
int runSurveyCommand();
void addGateCommand(CLI::App &root);
int runGateCommand();
void addAuditCommand(CLI::App &root);
int runAuditCommand();
void addParityGateCommand(CLI::App &root);
int runParityGateCommand();
void addTranscribeCommand(CLI::App &root);
int runTranscribeCommand();
void addLintCommand(CLI::App &root);
int runLintCommand();

} // namespace tilexform::cli
