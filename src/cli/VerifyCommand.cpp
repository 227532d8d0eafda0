// `tilexform verify PLAIN.ttgir ANCHOR.ttgir`: does the Gluon anchor carry
// exactly plain's layouts?
#include "tilexform/analysis/Verify.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/HtmlReport.h"
#include "tilexform/cli/Output.h"
#include "tilexform/support/InputError.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <filesystem>

namespace tilexform::cli {

namespace {

struct VerifyOptions {
  std::string plain, anchor, pairs, gluonApi = "3.6", format = "text", arch, html;
  bool json = false, quiet = false, force = false;
  size_t maxSites = 8;
  unsigned jobs = 0;
} opts;

Json useJson(const analysis::LayoutUse &u) {
  Json j;
  j["attr"] = u.attr;
  j["gluon"] = u.gluon ? Json(*u.gluon) : Json(nullptr);
  j["kind"] = u.kind;
  j["shapes"] = Json::array({u.shape});
  j["memory"] = u.memory;
  j["role"] = u.roles.empty() ? "elementwise" : u.roles.front();
  j["roles"] = u.roles;
  j["site_count"] = u.sites.size();
  Json sites = Json::array();
  for (size_t i = 0; i < u.sites.size() && (!opts.maxSites || i < opts.maxSites); ++i) {
    auto &s = u.sites[i];
    Json sj{{"op", s.op}, {"position", s.position}, {"line", s.line}};
    if (!s.source.name.empty())
      sj["name"] = s.source.name;
    if (s.source.line)
      sj["loc"] = fmt::format("{}:{}", s.source.file, s.source.line);
    sites.push_back(sj);
  }
  j["sites"] = sites;
  return j;
}

Json differenceJson(const analysis::LayoutDifference &d) {
  Json j = useJson(d.use);
  j["nearest"] =
      d.nearest ? Json{{"attr", d.nearest->attr}, {"differs", d.nearest->differs}} : Json(nullptr);
  return j;
}

Json sharedJson(const analysis::SharedSummary &s) {
  return Json{{"peak_bytes", s.peakBytes},
              {"capacity_bytes", s.capacity ? Json(s.capacity->value) : Json(nullptr)},
              {"over_capacity", s.capacity ? Json(s.peakBytes > s.capacity->value) : Json(nullptr)},
              {"capacity_source", s.capacity ? Json(s.capacity->source) : Json(s.capacityNote)}};
}

FileOutput verifyOne(const std::string &plainPath, const std::string &anchorPath,
                     gluon::GluonApi api) {
  FileOutput o;
  auto plain = loadForCommand(plainPath, "verify");
  if (!plain) {
    o.error = errorLine(plain.takeError());
    return o;
  }
  auto anchor = loadForCommand(anchorPath, "verify");
  if (!anchor) {
    o.error = errorLine(anchor.takeError());
    return o;
  }
  auto v = analysis::verify(**plain, **anchor, api, opts.arch);
  int exitCode = exitCodeFor("verify", v.verdict);
  if (!opts.html.empty()) {
    if (int code =
            writeOutFile(opts.html, verifyHtml(v, plainPath, anchorPath), opts.force, "--html")) {
      o.exitCode = code;
      o.reported = true;
      return o;
    }
  }
  o.exitCode = exitCode;

  if (isJson(opts.format)) {
    Json j = envelope("verify", v.verdict, exitCode);
    j["plain"] = plainPath;
    j["anchor"] = anchorPath;
    j["not_comparable_reason"] =
        v.notComparableReason.empty() ? Json(nullptr) : Json(v.notComparableReason);
    Json missing = Json::array(), extra = Json::array(), reconciled = Json::array(),
         mult = Json::array();
    for (auto &d : v.missing)
      missing.push_back(differenceJson(d));
    for (auto &d : v.extra)
      extra.push_back(differenceJson(d));
    for (auto &r : v.reconciled) {
      Json rj = useJson(r.use);
      rj["cause"] = r.cause;
      rj["side"] = r.side;
      rj["detail"] = r.detail;
      reconciled.push_back(rj);
    }
    for (auto &m : v.multiplicity)
      mult.push_back(Json{{"role", m.role},
                          {"shape", m.shape},
                          {"plain_sites", m.plainSites},
                          {"anchor_sites", m.anchorSites}});
    j["missing"] = missing;
    j["extra"] = extra;
    Json differences = Json::array();
    for (auto &d : v.differences) {
      Json fixes = Json::array();
      for (auto &f : d.fixes)
        fixes.push_back(
            Json{{"field", f.field},
                 {"keyword", f.keyword},
                 {"anchor", f.anchorValue.empty() ? Json(nullptr) : Json(f.anchorValue)},
                 {"plain", f.plainValue}});
      differences.push_back(Json{{"plain", d.plain ? useJson(*d.plain) : Json(nullptr)},
                                 {"anchor", d.anchor ? useJson(*d.anchor) : Json(nullptr)},
                                 {"differs", d.differs},
                                 {"fix", fixes}});
    }
    j["differences"] = differences;
    j["reconciled"] = reconciled;
    j["multiplicity"] = mult;
    if (!opts.html.empty())
      j["html"] = opts.html;
    Json sigDiffs = Json::array();
    for (auto &d : v.signature.differences)
      sigDiffs.push_back(Json{{"argument", d.name}, {"plain", d.plain}, {"anchor", d.anchor}});
    j["signature"] = Json{{"compared", v.signature.compared},
                          {"same", v.signature.same()},
                          {"differences", sigDiffs}};
    j["shared"] = Json{{"plain", sharedJson(v.plain.shared)},
                       {"anchor", sharedJson(v.anchor.shared)},
                       {"anchor_crosses_capacity", v.anchorCrossesCapacity}};
    o.doc = std::move(j);
    return o;
  }

  std::string out = fmt::format("plain:   {}\nanchor:  {}\nverdict: {}\n", plainPath, anchorPath,
                                verdictName(v.verdict));
  if (!v.notComparableReason.empty())
    out += fmt::format("not comparable: {}\n", v.notComparableReason);
  // One entry per difference, both sides, and the edit that fixes it.
  auto where = [](const analysis::LayoutUse &u) {
    if (u.sites.empty())
      return std::string("no use site");
    const auto &site = u.sites[0];
    std::string src =
        site.source.line
            ? fmt::format(", {}:{}{}", site.source.file, site.source.line,
                          site.source.name.empty() ? "" : " (" + site.source.name + ")")
            : "";
    return fmt::format("{} sites, first {} {} at line {}{}", u.sites.size(), site.op, site.position,
                       site.line, src);
  };
  if (!v.differences.empty()) {
    out += fmt::format("\ndifferences ({}):\n", v.differences.size());
    for (auto &d : v.differences) {
      if (d.plain)
        out += fmt::format(
            "  plain:  {} at {} ({}; {})\n", d.plain->attr, fmt::join(d.plain->shape, "x"),
            d.plain->roles.empty() ? "elementwise" : d.plain->roles.front(), where(*d.plain));
      else
        out += "  plain:  (no counterpart)\n";
      if (d.anchor)
        out += fmt::format("  anchor: {} at {} ({})\n", d.anchor->attr,
                           fmt::join(d.anchor->shape, "x"), where(*d.anchor));
      else
        out += "  anchor: (no counterpart: the anchor does not carry this layout)\n";
      out += fmt::format("  differs: {}\n", d.differs);
      if (!d.fixes.empty()) {
        std::vector<std::string> edits;
        for (auto &f : d.fixes)
          edits.push_back(f.anchorValue.empty()
                              ? fmt::format("add {}={}", f.keyword, f.plainValue)
                              : fmt::format("{} {} -> {}", f.keyword, f.anchorValue, f.plainValue));
        out += fmt::format("  fix in the anchor: {}\n", fmt::join(edits, ", "));
      } else if (d.plain && d.plain->gluon) {
        out += fmt::format("  plain's constructor: {}\n", *d.plain->gluon);
      }
    }
  }
  if (!v.reconciled.empty()) {
    out += "\nreconciled:\n";
    for (auto &r : v.reconciled)
      out += fmt::format("  [{}] {}\n", r.cause, r.detail);
  }
  if (v.signature.compared) {
    out += fmt::format("\nsignature: {}\n",
                       v.signature.same() ? "same specialisation" : "DIFFERENT specialisation");
    for (auto &d : v.signature.differences)
      out += fmt::format("  {}: plain {}; anchor {}\n", d.name, d.plain, d.anchor);
  }
  out += fmt::format(
      "\nshared memory: plain peak {} B, anchor peak {} B{}\n", v.plain.shared.peakBytes,
      v.anchor.shared.peakBytes,
      v.anchorCrossesCapacity ? " — the anchor crosses the arch capacity plain did not" : "");
  o.text = std::move(out);
  return o;
}

// Pairs travel through the multi-file driver as "plain\tanchor".
int execute() {
  if (opts.json)
    opts.format = "json";
  auto api = resolveGluonApi(opts.gluonApi);
  if (!api)
    return kExitUsage;
  std::vector<std::string> pairs;
  namespace fs = std::filesystem;
  if (!opts.pairs.empty()) {
    if (!opts.plain.empty() || !opts.anchor.empty())
      return reportError("--pairs takes the pairs from its file; give no PLAIN ANCHOR", kExitUsage);
    auto buf = readInputFile(opts.pairs);
    if (!buf)
      return reportError(buf.takeError());
    unsigned lineNo = 0;
    for (llvm::StringRef rest = (*buf)->getBuffer(); !rest.empty();) {
      auto [line, tail] = rest.split('\n');
      rest = tail;
      ++lineNo;
      line = line.trim();
      if (line.empty() || line.starts_with("#"))
        continue;
      llvm::SmallVector<llvm::StringRef> parts;
      for (char sep : {' ', '\t'}) {
        parts.clear();
        line.split(parts, sep, -1, false);
        if (parts.size() > 1)
          break;
      }
      for (auto &part : parts)
        part = part.trim();
      if (parts.size() != 2)
        return reportError(llvm::make_error<InputError>(
            opts.pairs, lineNo, 1, "expected two paths, PLAIN ANCHOR, on the line"));
      pairs.push_back(parts[0].str() + "\t" + parts[1].str());
    }
    if (pairs.empty())
      return reportError(llvm::make_error<InputError>(opts.pairs, 0, 0, "no pairs in the file"));
  } else if (opts.plain.empty() || opts.anchor.empty()) {
    return reportError("verify takes PLAIN ANCHOR (two dumps or two directories) or --pairs FILE",
                       kExitUsage);
  } else if (fs::is_directory(opts.plain) && fs::is_directory(opts.anchor)) {
    // Two directories: every .ttgir of the plain one with the anchor of the
    // same name.
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(opts.plain, ec), end; it != end && !ec; it.increment(ec))
      if (it->path().extension() == ".ttgir" && isRegularFile(it->path().string()))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    if (names.empty())
      return reportError(opts.plain + ": error: no .ttgir in this directory", kExitInput);
    for (auto &n : names)
      pairs.push_back((fs::path(opts.plain) / n).string() + "\t" +
                      (fs::path(opts.anchor) / n).string());
  } else {
    pairs.push_back(opts.plain + "\t" + opts.anchor);
  }
  if (!opts.html.empty() && pairs.size() != 1)
    return reportError("--html writes the report of one pair; give one PLAIN ANCHOR", kExitUsage);
  if (int code = refuseExistingOut(opts.html, opts.force, "--html"))
    return code;
  return runOverFiles("verify", pairs, isJson(opts.format), opts.jobs, opts.quiet,
                      [&](const std::string &pair) {
                        auto [p, a] = llvm::StringRef(pair).split('\t');
                        return verifyOne(p.str(), a.str(), *api);
                      });
}

} // namespace

void addVerifyCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "verify", "Layout equivalence of a Gluon anchor's dump against the plain Triton dump");
  cmd->add_option("plain", opts.plain,
                  "The plain Triton .ttgir (or a directory of them, paired by name)");
  cmd->add_option("anchor", opts.anchor, "The Gluon anchor's .ttgir (or a directory of them)");
  cmd->add_option("--pairs", opts.pairs, "A file of PLAIN ANCHOR pairs, one per line");
  addJobsOptions(cmd, opts.jobs, opts.quiet);
  addGluonApiOption(cmd, opts.gluonApi);
  addArchOption(cmd, opts.arch, "Override the target arch");
  cmd->add_option("--max-sites", opts.maxSites, "List at most N sites per entry (0: all)")
      ->capture_default_str()
      ->check(CLI::Validator(checkCount, "N"));
  cmd->add_option("--html", opts.html,
                  "Write the report as one self-contained HTML page (layouts drawn, "
                  "differing elements outlined)");
  cmd->add_flag("--force", opts.force, "Overwrite the --html file if it exists");
  addFormatOptions(cmd, opts.format, opts.json);
}

int runVerifyCommand() { return execute(); }

} // namespace tilexform::cli
