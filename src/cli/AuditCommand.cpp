// `tilexform audit FILE` and `tilexform audit --diff A B`: the hot-loop
// instruction census of a kernel listing, and the difference of two.
#include "tilexform/analysis/CompiledOps.h"
#include "tilexform/analysis/Signature.h"
#include "tilexform/asm/Audit.h"
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/hw/Target.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/InputKind.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

namespace tilexform::cli {

namespace {

struct AuditCliOptions {
  std::vector<std::string> files;
  std::vector<std::string> ttgir; // --diff: the two kernels' dumps, for the likely cause
  std::string kernel, loop;
  bool diff = false, full = false;
  size_t maxStream = 400, opcodes = 12, maxSteps = 200;
  CommonOptions common;
} opts;

char classSymbol(asmfile::InstrClass c) {
  using C = asmfile::InstrClass;
  switch (c) {
  case C::Matrix:
    return 'M';
  case C::GlobalLoad:
    return 'g';
  case C::GlobalStore:
    return 'G';
  case C::SharedRead:
    return 'R';
  case C::SharedWrite:
    return 'W';
  case C::AsyncCopy:
    return 'a';
  case C::Tma:
    return 'T';
  case C::Scratch:
    return 'x';
  case C::Atomic:
    return 'A';
  case C::Wait:
    return '~';
  case C::Barrier:
    return '|';
  case C::Mbarrier:
    return 'b';
  case C::Fence:
    return 'f';
  case C::Shuffle:
    return 'h';
  case C::Transcendental:
    return 'e';
  case C::Vector:
    return 'v';
  case C::Scalar:
    return 's';
  case C::Branch:
    return '>';
  case C::Nop:
    return 'n';
  case C::Schedule:
    return 'p';
  case C::Other:
    return '.';
  }
  return '.';
}

template <class K> Json countsJson(const std::map<K, size_t> &m) {
  Json j = Json::object();
  for (auto &[k, n] : m) {
    if constexpr (std::is_same_v<K, std::string>)
      j[k] = n;
    else
      j[fmt::format("{}", k)] = n;
  }
  return j;
}

void censusInto(Json &j, const asmfile::Census &c) {
  j["start_line"] = c.startLine;
  j["end_line"] = c.endLine;
  j["instructions"] = c.instructions;
  j["classes"] = countsJson(c.classes);
  j["opcodes"] = countsJson(c.opcodes);
  j["matrix"] = c.matrix;
  j["loads"] = countsJson(c.loads);
  j["stores"] = countsJson(c.stores);
  j["shared_reads"] = countsJson(c.sharedReads);
  j["shared_writes"] = countsJson(c.sharedWrites);
  j["async_copies"] = countsJson(c.asyncCopies);
  j["waits"] = Json{{"count", c.waits.count},
                    {"drains", c.waits.drains},
                    {"relaxed", c.waits.relaxed},
                    {"alu", c.waits.alu},
                    {"other", c.waits.other},
                    {"unparsed", c.waits.unparsed},
                    {"values", countsJson(c.waits.values)}};
  j["barriers"] = c.barriers;
  j["setprio"] = c.setprio;
  j["nops"] = c.nops;
  j["nop_wait_states"] = c.nopWaitStates;
  j["shared_address"] = Json{{"reads", c.sharedAddress.reads},
                             {"distinct_registers", c.sharedAddress.distinctRegisters},
                             {"max_per_register", c.sharedAddress.maxPerRegister},
                             {"rematerialized", c.sharedAddress.rematerialized}};
}

std::string widthsText(const std::map<unsigned, size_t> &m) {
  if (m.empty())
    return "-";
  std::vector<std::string> parts;
  for (auto it = m.rbegin(); it != m.rend(); ++it)
    parts.push_back(fmt::format("{}b x{}", it->first, it->second));
  return llvm::join(parts, ", ");
}

std::string censusText(const asmfile::Census &c) {
  std::string out;
  std::vector<std::pair<std::string, size_t>> classes(c.classes.begin(), c.classes.end());
  std::stable_sort(classes.begin(), classes.end(),
                   [](auto &a, auto &b) { return a.second > b.second; });
  std::vector<std::string> parts;
  for (auto &[k, n] : classes)
    parts.push_back(fmt::format("{} {}", k, n));
  out += "  classes: " + llvm::join(parts, ", ") + "\n";
  std::string stream;
  for (auto cls : c.sequence)
    stream += classSymbol(cls);
  if (opts.maxStream) {
    if (stream.size() > opts.maxStream)
      stream = stream.substr(0, opts.maxStream) +
               fmt::format("... (+{})", stream.size() - opts.maxStream);
    out += "  stream: " + stream + "\n";
  }
  std::vector<std::pair<std::string, size_t>> ops(c.opcodes.begin(), c.opcodes.end());
  std::stable_sort(ops.begin(), ops.end(), [](auto &a, auto &b) { return a.second > b.second; });
  parts.clear();
  for (size_t i = 0; i < ops.size() && i < opts.opcodes; ++i)
    parts.push_back(fmt::format("{} {}", ops[i].first, ops[i].second));
  if (ops.size() > opts.opcodes)
    parts.push_back(fmt::format("... {} more", ops.size() - opts.opcodes));
  out += "  opcodes: " + llvm::join(parts, ", ") + "\n";
  out += fmt::format("  matrix: {}\n", c.matrix);
  out += fmt::format("  global loads: {}; stores: {}\n", widthsText(c.loads), widthsText(c.stores));
  out +=
      fmt::format("  shared reads: {}; writes: {}; async copies: {}\n", widthsText(c.sharedReads),
                  widthsText(c.sharedWrites), widthsText(c.asyncCopies));
  out += fmt::format("  waits: {} ({} full drains, {} relaxed); ALU waits {}; other waits {}\n",
                     c.waits.count, c.waits.drains, c.waits.relaxed, c.waits.alu, c.waits.other);
  if (c.waits.unparsed)
    out += fmt::format("  note: {} wait{} not understood (counted as drains)\n", c.waits.unparsed,
                       c.waits.unparsed == 1 ? "" : "s");
  if (!c.waits.values.empty()) {
    parts.clear();
    for (auto &[k, n] : c.waits.values)
      parts.push_back(fmt::format("{} x{}", k, n));
    out += "    " + llvm::join(parts, "; ") + "\n";
  }
  out += fmt::format("  barriers: {}; s_setprio: {}; nops: {} ({} wait states)\n", c.barriers,
                     c.setprio, c.nops, c.nopWaitStates);
  out += fmt::format("  shared-read addresses: {} reads, {} registers (at most {} reads each), {} "
                     "rematerialized just above\n",
                     c.sharedAddress.reads, c.sharedAddress.distinctRegisters,
                     c.sharedAddress.maxPerRegister, c.sharedAddress.rematerialized);
  return out;
}

llvm::Expected<asmfile::AuditReport> auditFile(const std::string &path) {
  // `-`: standard input, its ISA sniffed from the text (no extension to go by).
  std::string text;
  if (path == "-") {
    auto in = readStandardInput();
    if (!in)
      return in.takeError();
    text = std::move(*in);
  } else {
    auto buf = readInputFile(path);
    if (!buf)
      return buf.takeError();
    text = (*buf)->getBuffer().str();
  }
  // A listing is what audit reads: anything else is named for what it is.
  const std::string shown = shownPath(path);
  switch (InputKind kind = sniffInputKind(text, shown)) {
  case InputKind::Ptx:
  case InputKind::Amdgcn:
  case InputKind::Sass:
  case InputKind::Unknown:
  case InputKind::Binary: // the listing reader names where the text stops
    break;
  case InputKind::CudaElf:
  case InputKind::AmdgpuElf:
  case InputKind::Elf:
    return wrongInputKindError(shown, kind,
                               "audit reads an .amdgcn, .sass or .ptx listing (for a code "
                               "object, give its llvm-objdump -d or cuobjdump -sass text)");
  default:
    return wrongInputKindError(shown, kind, "audit reads an .amdgcn, .sass or .ptx listing");
  }
  asmfile::AuditOptions o;
  if (!opts.kernel.empty())
    o.kernel = opts.kernel;
  if (!opts.loop.empty())
    o.loop = opts.loop;
  if (!opts.common.arch.empty())
    o.arch = opts.common.arch;
  return asmfile::audit(shown, text, o);
}

/// An `--arch` of another vendor than the listing's: its stated arch, or the
/// vendor its instruction set is (AMDGCN is AMD's, SASS and PTX NVIDIA's).
/// Reported (64) when they differ, else 0.
int refuseCrossVendorArch(const asmfile::AuditReport &r) {
  const std::string &arch = opts.common.arch;
  if (arch.empty())
    return 0;
  auto option = hw::parseTarget(arch);
  if (!option)
    return 0;
  std::optional<std::string> conflict;
  if (r.kernel.arch)
    conflict = hw::vendorConflict(r.file, *r.kernel.arch, "listing", arch);
  else {
    bool amd = r.kernel.isa == asmfile::Isa::Amdgcn;
    std::string isa = llvm::StringRef(asmfile::isaName(r.kernel.isa)).upper();
    conflict = hw::vendorConflict(r.file, isa, amd ? hw::Vendor::Amd : hw::Vendor::Nvidia,
                                  "listing", *option);
  }
  return conflict ? reportError(*conflict, kExitUsage) : 0;
}

int reportAuditError(llvm::Error err) {
  int code = asmfile::isChoiceError(err) ? kExitUsage : kExitInput;
  return reportError(std::move(err), code);
}

void reportInto(Json &j, const asmfile::AuditReport &r) {
  j["file"] = r.file;
  j["kernel"] = r.kernel.name;
  j["isa"] = asmfile::isaName(r.kernel.isa);
  j["arch"] = r.arch ? Json(*r.arch) : Json(nullptr);
  j["other_kernels"] = r.otherKernels;
  j["device_functions"] = r.deviceFunctions;
  Json loops = Json::array();
  for (auto &l : r.loops)
    loops.push_back(Json{{"label", l.label},
                         {"start_line", r.kernel.instructions[l.head].line},
                         {"end_line", r.kernel.instructions[l.latch].line},
                         {"instructions", l.latch - l.head + 1},
                         {"matrix", l.matrix},
                         {"depth", l.depth},
                         {"innermost", l.innermost},
                         {"spin_wait", l.spin}});
  j["loops"] = loops;
  j["why"] = r.why;
  if (r.hotLoop) {
    Json h;
    h["label"] = r.loops[*r.hot].label;
    h["why"] = r.why;
    censusInto(h, *r.hotLoop);
    j["hot_loop"] = h;
  } else {
    j["hot_loop"] = nullptr;
  }
  Json whole;
  censusInto(whole, r.whole);
  j["whole"] = whole;
}

/// One listing's census.
class AuditView : public ReportView {
public:
  explicit AuditView(const asmfile::AuditReport &r) : r_(r) {}

  Json json() const override {
    Json j = envelope("audit", Verdict::Audited, exitCodeFor("audit", Verdict::Audited));
    reportInto(j, r_);
    return j;
  }

  std::string text() const override {
    const asmfile::AuditReport *r = &r_;
    std::string out = fmt::format("audit: {}  kernel {} ({}{})\n", r->file, r->kernel.name,
                                  asmfile::isaName(r->kernel.isa), r->arch ? ", " + *r->arch : "");
    if (!r->otherKernels.empty())
      out += fmt::format("  other kernels in this file: {}\n", llvm::join(r->otherKernels, ", "));
    if (!r->deviceFunctions.empty())
      out += fmt::format("  device functions in this file (not in the census): {}\n",
                         llvm::join(r->deviceFunctions, ", "));
    size_t spins = 0;
    for (auto &l : r->loops)
      spins += l.spin;
    out += fmt::format("loops: {}{}\n", r->loops.size(),
                       spins ? fmt::format(" ({} spin-wait)", spins) : std::string());
    if (r->hotLoop) {
      auto &l = r->loops[*r->hot];
      out +=
          fmt::format("hot loop: {}, lines {}-{} ({} instructions)\n  why: {}\n", l.label,
                      r->hotLoop->startLine, r->hotLoop->endLine, r->hotLoop->instructions, r->why);
      out += censusText(*r->hotLoop);
    } else {
      out += "hot loop: none (" + r->why + ")\n";
    }
    out += fmt::format("whole kernel: lines {}-{} ({} instructions)\n", r->whole.startLine,
                       r->whole.endLine, r->whole.instructions);
    out += censusText(r->whole);
    return out;
  }

private:
  const asmfile::AuditReport &r_;
};

int runOne() {
  auto r = auditFile(opts.files[0]);
  if (!r)
    return reportAuditError(r.takeError());
  if (int code = refuseCrossVendorArch(*r))
    return code;
  return writeReport(opts.common, AuditView(*r), kExitOk);
}

Json deltasJson(const std::vector<asmfile::CountDelta> &ds) {
  Json j = Json::object();
  for (auto &d : ds)
    j[d.key] = Json{{"a", d.a}, {"b", d.b}, {"delta", d.b - d.a}};
  return j;
}

std::string deltasText(const char *title, const std::vector<asmfile::CountDelta> &ds,
                       const char *unit = "") {
  std::vector<std::string> parts;
  for (auto &d : ds)
    if (d.a != d.b)
      parts.push_back(fmt::format("{}{} {} -> {} ({:+})", d.key, unit, d.a, d.b, d.b - d.a));
  if (parts.empty())
    return "";
  return fmt::format("  {}: {}\n", title, llvm::join(parts, ", "));
}

/// Two listings compared, with what the dumps say of why they differ.
struct ListingComparison {
  const asmfile::AuditReport *a, *b;
  const asmfile::AuditDiff &d;
  const asmfile::Census &ca, &cb; // the hot loops compared, or the whole bodies
  const std::optional<analysis::SignatureComparison> &signature;
  const std::optional<analysis::CompiledOpsComparison> &compiledOps;
  const std::optional<std::string> &cause;
  Verdict verdict;
};

class AuditDiffView : public ReportView {
public:
  explicit AuditDiffView(const ListingComparison &diff) : diff_(&diff) {}

  Json json() const override {
    const auto &[a, b, d, ca, cb, signature, compiledOps, cause, verdict] = *diff_;
    Json j = envelope("audit", verdict, exitCodeFor("audit", verdict));
    Json ja, jb;
    reportInto(ja, *a);
    reportInto(jb, *b);
    j["a"] = ja;
    j["b"] = jb;
    Json dj;
    dj["compared"] = d.comparedLoops ? "hot_loops" : "whole_bodies";
    dj["instructions"] = Json{{"a", ca.instructions},
                              {"b", cb.instructions},
                              {"delta", int64_t(cb.instructions) - int64_t(ca.instructions)}};
    dj["classes"] = deltasJson(d.classes);
    dj["opcodes"] = deltasJson(d.opcodes);
    dj["loads"] = deltasJson(d.loads);
    dj["stores"] = deltasJson(d.stores);
    dj["shared_reads"] = deltasJson(d.sharedReads);
    dj["shared_writes"] = deltasJson(d.sharedWrites);
    dj["async_copies"] = deltasJson(d.asyncCopies);
    dj["waits"] = deltasJson(d.waits);
    dj["approximate"] = d.approximate;
    dj["schedule_only"] = d.scheduleOnly;
    dj["same"] = d.same;
    dj["removed"] = d.removed;
    dj["added"] = d.added;
    Json steps = Json::array();
    for (size_t i = 0; i < d.alignment.size();) {
      auto &s = d.alignment[i];
      if (s.op == '=') {
        size_t n = 0;
        while (i + n < d.alignment.size() && d.alignment[i + n].op == '=')
          ++n;
        steps.push_back(Json{{"op", "="},
                             {"count", n},
                             {"a_line", a->kernel.instructions[*s.a].line},
                             {"b_line", b->kernel.instructions[*s.b].line}});
        i += n;
        continue;
      }
      const asmfile::KernelListing &k = s.op == '-' ? a->kernel : b->kernel;
      const asmfile::Instruction &in = k.instructions[s.op == '-' ? *s.a : *s.b];
      steps.push_back(Json{{"op", std::string(1, s.op)},
                           {s.op == '-' ? "a_line" : "b_line", in.line},
                           {"opcode", in.opcode},
                           {"class", asmfile::instrClassName(asmfile::classify(k.isa, in))}});
      ++i;
    }
    dj["alignment"] = steps;
    j["diff"] = dj;
    if (signature)
      j["signature"] = Json{{"same", signature->same()}, {"summary", signature->summary()}};
    if (compiledOps) {
      Json ops = Json::object();
      for (auto &o : compiledOps->deltas)
        ops[o.op] = Json{{"a", o.a}, {"b", o.b}, {"delta", o.b - o.a}};
      Json known = Json::array();
      for (auto k : compiledOps->known)
        known.push_back(analysis::compiledDifferenceName(k));
      j["ttgir_ops"] = Json{{"same", compiledOps->same()}, {"deltas", ops}, {"known", known}};
    }
    j["likely_cause"] = cause ? Json(*cause) : Json(nullptr);
    return j;
  }

  std::string text() const override {
    const auto &[a, b, d, ca, cb, signature, compiledOps, cause, verdict] = *diff_;
    // The verdict first, then why, then the counts; the alignment step by
    // step only with --full.
    std::string out = fmt::format("verdict: {}\n", verdictName(verdict));
    if (cause)
      out += fmt::format("likely cause: {}\n", *cause);
    out += fmt::format("audit diff: A {} ({}) vs B {} ({}), {}\n", a->file, a->kernel.name, b->file,
                       b->kernel.name,
                       d.comparedLoops ? "hot loops" : "whole bodies (a side has no loop)");
    if (d.comparedLoops)
      out += fmt::format("  A hot loop {} lines {}-{}; B hot loop {} lines {}-{}\n",
                         a->loops[*a->hot].label, ca.startLine, ca.endLine, b->loops[*b->hot].label,
                         cb.startLine, cb.endLine);
    out += fmt::format("  instructions: {} -> {} ({:+})\n", ca.instructions, cb.instructions,
                       int64_t(cb.instructions) - int64_t(ca.instructions));
    out += deltasText("classes", d.classes);
    out += deltasText("opcodes", d.opcodes);
    out += deltasText("global loads", d.loads, "b");
    out += deltasText("global stores", d.stores, "b");
    out += deltasText("shared reads", d.sharedReads, "b");
    out += deltasText("shared writes", d.sharedWrites, "b");
    out += deltasText("async copies", d.asyncCopies, "b");
    out += deltasText("waits", d.waits);
    {
      out += fmt::format(
          "alignment by opcode: {} same, {} only in A, {} only in B{}{}\n", d.same, d.removed,
          d.added, d.approximate ? " (approximate: too different for the shortest script)" : "",
          opts.full || d.alignment.empty() ? "" : " (--full for every step)");
      size_t printed = 0;
      for (size_t i = 0; opts.full && i < d.alignment.size();) {
        if (opts.maxSteps && printed == opts.maxSteps) {
          out +=
              fmt::format("  ... {} more steps (--max-steps 0 for all; every step is in --json)\n",
                          d.alignment.size() - i);
          break;
        }
        ++printed;
        auto &s = d.alignment[i];
        if (s.op == '=') {
          size_t n = 0;
          while (i + n < d.alignment.size() && d.alignment[i + n].op == '=')
            ++n;
          out += fmt::format("  = {} same (A line {}, B line {})\n", n,
                             a->kernel.instructions[*s.a].line, b->kernel.instructions[*s.b].line);
          i += n;
          continue;
        }
        const asmfile::KernelListing &k = s.op == '-' ? a->kernel : b->kernel;
        const asmfile::Instruction &in = k.instructions[s.op == '-' ? *s.a : *s.b];
        out += fmt::format("  {} {} {:<6} {:<40} [{}]\n", s.op, s.op == '-' ? "A" : "B", in.line,
                           in.opcode, asmfile::instrClassName(asmfile::classify(k.isa, in)));
        ++i;
      }
    }
    if (signature)
      out += fmt::format("signatures: {}\n", signature->summary());
    return out;
  }

private:
  const ListingComparison *diff_;
};

int runDiff() {
  auto a = auditFile(opts.files[0]);
  if (!a)
    return reportAuditError(a.takeError());
  auto b = auditFile(opts.files[1]);
  if (!b)
    return reportAuditError(b.takeError());
  for (const asmfile::AuditReport *r : {&*a, &*b})
    if (int code = refuseCrossVendorArch(*r))
      return code;
  // With the two kernels' dumps, a difference in launch specialisation is
  // named as the likely cause of different code.
  std::optional<analysis::SignatureComparison> signature;
  std::optional<analysis::CompiledOpsComparison> compiledOps;
  if (!opts.ttgir.empty()) {
    auto pa = loadForCommand(opts.ttgir[0], "audit --ttgir");
    if (!pa)
      return reportError(pa.takeError(), kExitInput);
    auto pb = loadForCommand(opts.ttgir[1], "audit --ttgir");
    if (!pb)
      return reportError(pb.takeError(), kExitInput);
    signature =
        analysis::compareSignatures(analysis::signatureOf(**pa), analysis::signatureOf(**pb));
    compiledOps = analysis::compareCompiledOps(**pa, **pb);
  }
  auto d = asmfile::diffAudits(*a, *b);
  bool same = d.removed == 0 && d.added == 0 && !d.alignment.empty();
  if (d.alignment.empty())
    same = std::all_of(d.opcodes.begin(), d.opcodes.end(), [](auto &x) { return x.a == x.b; });
  Verdict verdict = same ? Verdict::Same : Verdict::Different;
  std::optional<std::string> cause;
  if (!same && signature && signature->compared && !signature->same()) {
    cause = "launch specialisation: " + signature->summary();
  } else if (!same && d.scheduleOnly) {
    // The same instructions in another order; the dumps, when given, tell
    // what the two compilers kept differently (plain's schedule hints).
    std::vector<std::string> moved;
    for (auto &o : d.opcodes)
      if (o.a != o.b)
        moved.push_back(fmt::format("{} {} -> {}", o.key, o.a, o.b));
    cause = fmt::format("schedule: the same work in another order (only waits, nops, scalar "
                        "bookkeeping and schedule hints differ{}{})",
                        moved.empty() ? "" : ": ", llvm::join(moved, ", "));
    if (compiledOps && !compiledOps->same())
      *cause += "; compiled ops: " + compiledOps->summary();
  } else if (!same && compiledOps && !compiledOps->same()) {
    // The two compilers kept other ops: the machine code follows the TTGIR.
    cause = "compiled ops: " + compiledOps->summary();
  }
  const asmfile::Census &ca = d.comparedLoops ? *a->hotLoop : a->whole;
  const asmfile::Census &cb = d.comparedLoops ? *b->hotLoop : b->whole;
  return writeReport(
      opts.common,
      AuditDiffView(ListingComparison{&*a, &*b, d, ca, cb, signature, compiledOps, cause, verdict}),
      kExitOk);
}

CLI::App *cmd = nullptr;

} // namespace

void addAuditCommand(CLI::App &root) {
  cmd = root.add_subcommand(
      "audit", "Hot-loop instruction census of an .amdgcn/.sass/.ptx listing; --diff A B compares "
               "two");
  cmd->add_option("files", opts.files, "The listing (two with --diff)")->required();
  cmd->add_flag("--diff", opts.diff,
                "Compare two listings: count deltas and the hot loops "
                "aligned by opcode");
  cmd->add_option("--ttgir", opts.ttgir,
                  "--diff: the .ttgir of A's and of B's kernel; a difference in their launch "
                  "specialisation is named as the likely cause of different code")
      ->expected(2);
  cmd->add_option("--kernel", opts.kernel, "The kernel (exact name or unique substring)");
  cmd->add_option("--loop", opts.loop, "Force the hot loop by its label (as the report names it)");
  opts.common.addArch(cmd, "The target, when the listing does not say");
  cmd->add_option("--max-stream", opts.maxStream,
                  "Text: at most this many class symbols of the stream (0: none)")
      ->check(CLI::Validator(checkCount, "N"));
  cmd->add_flag("--full", opts.full,
                "Text: the --diff alignment step by step (by default its summary line)");
  cmd->add_option("--max-steps", opts.maxSteps,
                  "Text, with --full: at most this many lines of the --diff alignment (0: all)")
      ->check(CLI::Validator(checkCount, "N"))
      ->capture_default_str();
  cmd->add_option("--opcodes", opts.opcodes, "Text: the top N opcodes")
      ->check(CLI::Validator(checkCount, "N"));
  opts.common.addFormat(cmd);
}

int runAuditCommand() {
  if (int code = opts.common.prepare())
    return code;
  if (!opts.ttgir.empty() && !opts.diff)
    return reportError("audit --ttgir goes with --diff A B", kExitUsage);
  if (opts.diff != (opts.files.size() == 2) || opts.files.size() > 2)
    return reportError(opts.diff ? "audit --diff takes two listings (A B)"
                                 : "audit takes one listing (or --diff A B)",
                       kExitUsage);
  return opts.diff ? runDiff() : runOne();
}

} // namespace tilexform::cli
