// `tilexform verify PLAIN.ttgir ANCHOR.ttgir`: does the Gluon anchor carry
// exactly plain's layouts?
#include "tilexform/analysis/Verify.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/HtmlReport.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/PythonText.h"
#include "tilexform/support/SourceFiles.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace tilexform::cli {

namespace {

struct VerifyOptions {
  std::string plain, anchor, pairs, html;
  size_t maxSites = 8;
  CommonOptions common;
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

/// Why a dump looks like a Gluon anchor's: what its module shows
/// (analysis::gluonEvidence), else a file name that says gluon or anchor.
/// What the kernel's own source says it is: the decorator above its `def`
/// (`@gluon.jit` or `@triton.jit`), or the header transcribe writes. The
/// source is read as transcribe reads it: next to the dump or in the
/// working directory, through SourceFiles. Empty when the source is not at
/// hand or says neither; `dialect` gets "gluon" or "triton".
std::string sourceEvidence(const std::string &path, const ir::Module &mod, std::string &dialect) {
  const ir::Operation *fn = mod.firstFunction();
  if (!fn || fn->loc.file.empty())
    return "";
  std::vector<std::string> roots;
  if (path != "-")
    roots.push_back(std::filesystem::absolute(path).parent_path().string());
  roots.push_back(".");
  SourceFiles sources(roots, maxInputSize());
  const SourceText *src = sources.lines(fn->loc.file);
  if (!src)
    return "";
  std::string file = llvm::sys::path::filename(fn->loc.file).str();
  if (src->line(1).contains("A Gluon anchor transcribed by tilexform")) {
    dialect = "gluon";
    return fmt::format("its kernel's source {} is a transcribed Gluon anchor", visibleText(file));
  }
  // The `def` of the kernel: at the function's line, else the one that
  // defines its name.
  std::string def = "def " + llvm::StringRef(fn->symbol).ltrim('@').str() + "(";
  size_t at = fn->loc.line;
  if (!src->line(at).trim().starts_with(def))
    for (at = 1; at <= src->size() && !src->line(at).trim().starts_with(def); ++at) {
    }
  for (size_t l = at; l-- > 1 && at - l <= 12;) {
    llvm::StringRef t = src->line(l).trim();
    if (t.empty() || t.starts_with("def ") || t.starts_with("class "))
      break;
    for (const char *d : {"gluon", "triton"})
      if (t.starts_with("@") && t.contains(fmt::format("{}.jit", d))) {
        dialect = d;
        return fmt::format("its kernel's source {}:{} is @{}.jit", visibleText(file), l, d);
      }
  }
  return "";
}

std::string anchorEvidence(const std::string &path, const ir::Module &mod) {
  std::string evidence = analysis::gluonEvidence(mod);
  if (!evidence.empty())
    return evidence;
  std::string dialect;
  if (std::string s = sourceEvidence(path, mod, dialect); dialect == "gluon")
    return s;
  if (path == "-")
    return evidence;
  std::string name = llvm::sys::path::filename(path).lower();
  for (const char *word : {"gluon", "anchor"})
    if (name.find(word) != std::string::npos)
      return fmt::format("its file name says {}", word);
  return "";
}

/// One pair compared.
struct Comparison {
  const analysis::VerifyReport &report;
  std::string plainPath, anchorPath;
  bool swapped;
};

class VerifyView : public ReportView {
public:
  explicit VerifyView(const Comparison &r) : r_(r) {}

  Json json() const override {
    const analysis::VerifyReport &v = r_.report;
    Json j = envelope("verify", v.verdict, exitCodeFor("verify", v.verdict));
    j["plain"] = r_.plainPath;
    j["anchor"] = r_.anchorPath;
    j["swapped"] = r_.swapped;
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
    return j;
  }

  std::string text() const override {
    const analysis::VerifyReport &v = r_.report;
    // The verdict first, as in every text report.
    std::string out =
        fmt::format("verdict: {}\nplain:   {}{}\nanchor:  {}{}\n", verdictName(v.verdict),
                    r_.plainPath, r_.swapped ? "  (given second: the arguments were swapped)" : "",
                    r_.anchorPath, r_.swapped ? "  (given first)" : "");
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
      return fmt::format("{} sites, first {} {} at line {}{}", u.sites.size(), site.op,
                         site.position, site.line, src);
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
            edits.push_back(
                f.anchorValue.empty()
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
    return out;
  }

private:
  const Comparison &r_;
};

/// One comparison to make: two dumps, or why a dump has no anchor.
struct DumpPair {
  std::string plain, anchor;
  std::string error; // `file:line:col: error: ...` when no anchor was found
};

FileOutput verifyOne(const DumpPair &pair, gluon::GluonApi api) {
  FileOutput o;
  if (!pair.error.empty()) {
    // A directory pair found no anchor for this dump.
    o.error = pair.error;
    return o;
  }
  std::string plainPath = pair.plain, anchorPath = pair.anchor;
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
  for (ir::Module *mod : {*plain, *anchor})
    if (int code = refuseCrossVendorArch(mod->path, *mod, opts.common.arch)) {
      o.exitCode = code;
      o.reported = true;
      return o;
    }
  // One file twice compares a dump with itself: PASS would say nothing. Asked
  // after reading, so a file that cannot be read is named for that first.
  if (plainPath != "-" && llvm::sys::fs::equivalent(plainPath, anchorPath)) {
    o.exitCode = reportError(
        fmt::format("{} is given as both plain and anchor: verify compares plain Triton's dump "
                    "with its Gluon anchor's (verify PLAIN ANCHOR)",
                    shownPath(plainPath)),
        kExitUsage);
    o.reported = true;
    return o;
  }
  // PLAIN ANCHOR given the other way round: the verdict is only meaningful
  // one way (the anchor must carry plain's layouts), so the pair is compared
  // as meant and the command line named on stderr, for a CI whose script
  // swapped them to get the right verdict and a line telling it to fix that.
  bool swapped = false;
  if (std::string p = anchorEvidence(plainPath, **plain);
      !p.empty() && anchorEvidence(anchorPath, **anchor).empty()) {
    printErrorLines({fmt::format(
        "warning: arguments look swapped: {} looks like the Gluon anchor ({}) and {} like plain "
        "Triton's; compared as 'verify {} {}' (verify takes PLAIN ANCHOR)",
        plainPath, p, anchorPath, anchorPath, plainPath)});
    std::swap(plainPath, anchorPath);
    std::swap(plain, anchor);
    swapped = true;
  }
  // Two copies of one dump, or two plain dumps: said, whatever the verdict.
  std::string dialect, anchorSource = sourceEvidence(anchorPath, **anchor, dialect);
  if ((*plain)->source() == (*anchor)->source())
    printErrorLines({fmt::format("warning: {} and {} are the same dump byte for byte: verify "
                                 "compares plain Triton's dump with its Gluon anchor's",
                                 shownPath(plainPath), shownPath(anchorPath))});
  else if (dialect == "triton" && analysis::gluonEvidence(**anchor).empty())
    printErrorLines({fmt::format("warning: {} looks like plain Triton's dump too ({}): verify "
                                 "compares plain Triton's dump with its Gluon anchor's",
                                 shownPath(anchorPath), anchorSource)});
  auto v = analysis::verify(**plain, **anchor, api, opts.common.arch);
  int exitCode = exitCodeFor("verify", v.verdict);
  if (!opts.html.empty()) {
    if (int code = writeOutFile(opts.html, verifyHtml(v, plainPath, anchorPath), opts.common.force,
                                "--html")) {
      o.exitCode = code;
      o.reported = true;
      return o;
    }
  }
  return reportOutput(opts.common, VerifyView(Comparison{v, plainPath, anchorPath, swapped}),
                      exitCode);
}

/// The kernel a dump defines: the name of its first `tt.func public`, read
/// from the text without parsing it ("" when none, or the file cannot be read;
/// loading it for the comparison then says why).
std::string kernelNameOf(const std::string &path) {
  auto buf = readInputFile(path);
  if (!buf) {
    llvm::consumeError(buf.takeError());
    return "";
  }
  llvm::StringRef text = (*buf)->getBuffer();
  size_t at = text.find("tt.func public @");
  if (at == llvm::StringRef::npos)
    return "";
  llvm::StringRef rest = text.substr(at + strlen("tt.func public @"));
  if (rest.consume_front("\""))
    return rest.take_until([](char c) { return c == '"' || c == '\n'; }).str();
  return rest
      .take_while([](char c) { return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.'; })
      .str();
}

/// Every regular `.ttgir` directly in `dir`, sorted.
std::vector<std::string> ttgirFilesIn(const std::string &dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (it->path().extension() == ".ttgir" && isRegularFile(it->path().string()))
      files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  return files;
}

/// Two directories: each plain dump with the anchor that defines the same
/// kernel (`tt.func public @name`), whatever the files are called
/// (`foo.ttgir` with `foo_anchor.ttgir` or `foo.gluon.ttgir`); among several
/// anchors of one kernel the one named after the plain file; with none, the
/// anchor named after it (same name, or `_anchor`, `.anchor`, `_gluon`,
/// `.gluon` added, `gluon_` before). A dump with no anchor gets a pair with
/// the error line.
std::vector<DumpPair> pairByKernel(const std::vector<std::string> &plains,
                                   const std::vector<std::string> &anchors,
                                   const std::string &anchorDir) {
  namespace path = llvm::sys::path;
  std::vector<std::pair<std::string, std::string>> anchorKernels; // (file, kernel)
  for (auto &a : anchors)
    anchorKernels.emplace_back(a, kernelNameOf(a));
  auto namedAfter = [](const std::string &anchor, llvm::StringRef stem) {
    llvm::StringRef s = path::stem(anchor);
    for (const char *suffix : {"", "_anchor", ".anchor", "_gluon", ".gluon"})
      if (s == (stem + suffix).str())
        return true;
    return s == ("gluon_" + stem).str();
  };
  std::vector<DumpPair> pairs;
  for (auto &p : plains) {
    std::string kernel = kernelNameOf(p);
    llvm::StringRef stem = path::stem(p);
    std::vector<std::string> sameKernel, named;
    for (auto &[a, k] : anchorKernels) {
      if (!kernel.empty() && k == kernel)
        sameKernel.push_back(a);
      if (namedAfter(a, stem))
        named.push_back(a);
    }
    std::vector<std::string> chosen = sameKernel;
    if (chosen.size() > 1) {
      std::vector<std::string> both;
      for (auto &a : chosen)
        if (std::find(named.begin(), named.end(), a) != named.end())
          both.push_back(a);
      chosen = both.empty() ? chosen : both;
    } else if (chosen.empty()) {
      chosen = named;
    }
    if (chosen.size() == 1) {
      pairs.push_back({p, chosen.front(), ""});
      continue;
    }
    std::string why =
        chosen.empty()
            ? fmt::format("no anchor in {} for this dump: no .ttgir there defines {}, nor is one "
                          "named {}.ttgir, {}_anchor.ttgir or {}.gluon.ttgir",
                          anchorDir, kernel.empty() ? "its kernel" : "@" + kernel, stem.str(),
                          stem.str(), stem.str())
            : fmt::format("{} anchors in {} define @{}: {}; pair them with --pairs", chosen.size(),
                          anchorDir, kernel, llvm::join(chosen, ", "));
    pairs.push_back({p, "", errorLine(llvm::make_error<InputError>(p, 0, 0, why))});
  }
  return pairs;
}

} // namespace

void addVerifyCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "verify", "Layout equivalence of a Gluon anchor's dump against the plain Triton dump");
  cmd->add_option("plain", opts.plain,
                  "The plain Triton .ttgir (or a directory of them, paired by name)");
  cmd->add_option("anchor", opts.anchor, "The Gluon anchor's .ttgir (or a directory of them)");
  cmd->add_option("--pairs", opts.pairs, "A file of PLAIN ANCHOR pairs, one per line");
  CommonOptions &common = opts.common;
  common.addJobs(cmd);
  common.addGluonApi(cmd);
  common.addArch(cmd, "Override the target arch");
  cmd->add_option("--max-sites", opts.maxSites, "List at most N sites per entry (0: all)")
      ->capture_default_str()
      ->check(CLI::Validator(checkCount, "N"));
  cmd->add_option("--html", opts.html,
                  "Write the report as one self-contained HTML page (layouts drawn, "
                  "differing elements outlined)");
  common.addForce(cmd, "Overwrite the --html file if it exists");
  common.addFormat(cmd);
}

int runVerifyCommand() {
  CommonOptions &common = opts.common;
  if (int code = common.prepare())
    return code;
  std::vector<DumpPair> pairs;
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
      pairs.push_back({parts[0].str(), parts[1].str(), ""});
    }
    if (pairs.empty())
      return reportError(llvm::make_error<InputError>(opts.pairs, 0, 0, "no pairs in the file"));
  } else if (opts.plain.empty() || opts.anchor.empty()) {
    return reportError("verify takes PLAIN ANCHOR (two dumps or two directories) or --pairs FILE",
                       kExitUsage);
  } else if (fs::is_directory(opts.plain) && fs::is_directory(opts.anchor)) {
    // Two directories: every .ttgir of the plain one with the anchor of the
    // same kernel.
    std::vector<std::string> plains = ttgirFilesIn(opts.plain);
    if (plains.empty())
      return reportError(opts.plain + ": error: no .ttgir in this directory", kExitInput);
    pairs = pairByKernel(plains, ttgirFilesIn(opts.anchor), opts.anchor);
  } else {
    pairs.push_back({opts.plain, opts.anchor, ""});
  }
  if (!opts.html.empty() && pairs.size() != 1)
    return reportError("--html writes the report of one pair; give one PLAIN ANCHOR", kExitUsage);
  if (int code = refuseExistingOut(opts.html, common.force, "--html"))
    return code;
  // Standard input can be read once, and not from a worker thread's race.
  std::vector<std::string> names;
  size_t stdinUses = 0;
  for (auto &p : pairs) {
    names.push_back(p.plain + " " + p.anchor);
    stdinUses +=
        size_t(p.error.empty() && p.plain == "-") + size_t(p.error.empty() && p.anchor == "-");
  }
  if (stdinUses > 1)
    return reportError("'-' (standard input) named more than once", kExitUsage);
  return runOverInputs("verify", names, common.jsonOutput(), common.jobs, /*quiet=*/false,
                       [&](size_t i) { return verifyOne(pairs[i], common.api()); });
}

} // namespace tilexform::cli
