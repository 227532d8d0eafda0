#include "tilexform/cli/CommonOptions.h"

#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Products.h"
#include "tilexform/hw/Target.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <cstring>

namespace tilexform::cli {

void CommonOptions::addFormat(CLI::App *cmd, std::vector<std::string> extra,
                              const std::string &help) {
  std::vector<std::string> formats = {"text", "json", "jsonl"};
  formats.insert(formats.end(), extra.begin(), extra.end());
  cmd->add_option("--format", format,
                  help.empty() ? "Output format: text, json (one pretty document) or jsonl (one "
                                 "compact document per line, per input file)"
                               : help)
      ->check(oneOf(formats))
      ->each([](const std::string &v) {
        if (v == "jsonl")
          setJsonLines(true);
      })
      ->capture_default_str();
  cmd->add_flag("--json", json, "Same as --format json");
}

void CommonOptions::addJobs(CLI::App *cmd, const std::string &help) {
  // -q is the root command's (cli/Terminal.h): no progress line either.
  cmd->add_option("-j,--jobs", jobs, help)
      ->check(CLI::Validator(checkCount, "N"))
      ->capture_default_str();
}

void CommonOptions::addOut(CLI::App *cmd, const std::string &help) {
  outOption_ = cmd->add_option("-o,--out", out, help);
}

void CommonOptions::addForce(CLI::App *cmd, const std::string &help) {
  cmd->add_flag("--force", force, help);
}

void CommonOptions::addGluonApi(CLI::App *cmd) {
  takesGluonApi_ = true;
  cmd->add_option("--gluon-api", gluonApi,
                  "Gluon API of the constructors: 3.6 (cga_layout) or 3.5 (ctas_per_cga)")
      ->capture_default_str();
}

void CommonOptions::addArch(CLI::App *cmd, const std::string &help) {
  auto canonical = [](std::string &value) -> std::string {
    auto t = hw::parseTargetOption(value);
    if (!t) {
      // Arch and product names alike, compared without case ("mi300" is MI300X's).
      std::vector<std::string> names = hw::knownArchs(), lowered;
      for (auto &p : hw::products())
        names.push_back(p.name);
      for (auto &n : names)
        lowered.push_back(llvm::StringRef(n).lower());
      std::string best = nearestName(llvm::StringRef(value).lower(), lowered);
      for (size_t i = 0; i < names.size(); ++i)
        if (!best.empty() && lowered[i] == best) {
          best = names[i];
          break;
        }
      return llvm::toString(t.takeError()).substr(strlen("--arch: ")) +
             (best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best));
    }
    value = t->arch;
    return "";
  };
  cmd->add_option("--arch", arch,
                  help + " (" + llvm::join(hw::knownArchs(), ", ") +
                      ", any spelling or case, or a GPU: H100, MI300X, RTX 5090, ...)")
      ->transform(CLI::Validator(canonical, "ARCH"));
}

int CommonOptions::prepare() {
  if (json)
    format = "json";
  if (takesGluonApi_) {
    api_ = gluon::parseGluonApi(gluonApi);
    if (!api_)
      return reportError("--gluon-api: unknown Gluon API '" + gluonApi +
                             "': tilexform writes the Gluon of Triton 3.6, or 3.5 for the "
                             "ctas_per_cga spelling",
                         kExitUsage);
  }
  return 0;
}

bool CommonOptions::outGiven() const { return outOption_ && outOption_->count() > 0; }

int runOverFiles(const char *command, const std::vector<std::string> &files,
                 const CommonOptions &options,
                 const std::function<FileOutput(const std::string &)> &one) {
  // -q (cli::quiet) already keeps the progress line off.
  return runOverFiles(command, files, options.jsonOutput(), options.jobs, /*quiet=*/false, one);
}

} // namespace tilexform::cli
