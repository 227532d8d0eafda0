#include "tilexform/Version.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/Output.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

namespace tilexform::cli {

int run(int argc, char **argv) {
  CLI::App app{"tilexform: read Triton dumps and artifacts; recover and verify Gluon layouts; "
               "probe occupancy; survey kernel sources",
               "tilexform"};
  app.set_version_flag("--version", std::string("tilexform ") + kVersion);
  app.require_subcommand(1);
  addInspectCommand(app);
  addLayoutCommand(app);
  addRecoverCommand(app);
  addVerifyCommand(app);
  addProbeCommand(app);
  addSurveyCommand(app);
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
    return reportError(what + " (see tilexform --help)", kExitUsage);
  }
  try {
    for (auto *sub : app.get_subcommands()) {
      if (sub->get_name() == "inspect")
        return runInspectCommand();
      if (sub->get_name() == "layout")
        return runLayoutCommand();
      if (sub->get_name() == "recover")
        return runRecoverCommand();
      if (sub->get_name() == "verify")
        return runVerifyCommand();
      if (sub->get_name() == "probe")
        return runProbeCommand();
      if (sub->get_name() == "survey")
        return runSurveyCommand();
    }
  } catch (const std::exception &e) {
    return reportError(std::string("internal error: ") + e.what(), kExitInternal);
  }
  return reportError("no command given (see tilexform --help)", kExitUsage);
}

} // namespace tilexform::cli
