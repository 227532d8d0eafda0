// The parity gate: the ratio of the champion's time to the anchor's, its
// spread when samples are given, and the attribution of a gap to its owner
// from both kernels' artifacts, each rule reading the hot loop.
#include "tilexform/gate/Parity.h"
#include "tilexform/analysis/Pipeline.h"
#include "tilexform/analysis/Verify.h"
#include "tilexform/asm/Artifacts.h"
#include "tilexform/asm/Audit.h"
#include "tilexform/asm/Probe.h"
#include "tilexform/hw/Target.h"
#include "tilexform/ir/Module.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/Json.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace tilexform::gate {

const char *suspectName(SuspectKind k) {
  switch (k) {
  case SuspectKind::LostPipeline:
    return "lost_pipeline";
  case SuspectKind::LostVectorization:
    return "lost_vectorization";
  case SuspectKind::LostLayout:
    return "lost_layout";
  case SuspectKind::LostRA:
    return "lost_RA";
  case SuspectKind::LostSchedule:
    return "lost_schedule";
  case SuspectKind::LdsBudget:
    return "lds_budget";
  }
  return "?";
}

const char *suspectStatusName(SuspectStatus s) {
  switch (s) {
  case SuspectStatus::Suspected:
    return "SUSPECTED";
  case SuspectStatus::Cleared:
    return "CLEARED";
  case SuspectStatus::Untested:
    return "UNTESTED";
  }
  return "UNTESTED";
}

namespace {

llvm::Error inputError(const std::string &file, const std::string &why) {
  return llvm::make_error<InputError>(file, 0, 0, why);
}

// ---- timings ----------------------------------------------------------------------

struct Samples {
  std::vector<double> values;
  std::string file, key;
  size_t rounds = 0; // of the file, when it is an interleaved samples file
  bool interleaved = false;
};

/// Reads `FILE` (a JSON array) or `FILE:KEY` (an arm of a samples file).
/// A NaN, infinite or non-positive sample sets `invalid`.
llvm::Expected<Samples> readSamples(const std::string &spec, const char *side,
                                    std::string &invalid) {
  Samples s;
  s.file = spec;
  if (!llvm::sys::fs::exists(spec)) {
    size_t colon = spec.rfind(':');
    if (colon != std::string::npos && colon > 0) {
      s.file = spec.substr(0, colon);
      s.key = spec.substr(colon + 1);
    }
  }
  auto buf = readInputFile(s.file);
  if (!buf)
    return buf.takeError();
  llvm::StringRef text = (*buf)->getBuffer();
  auto parsed = parseJson(text, s.file);
  if (!parsed) {
    // Python's json writes NaN and Infinity as bare words, which are not JSON.
    if (text.contains("NaN") || text.contains("Infinity")) {
      llvm::consumeError(parsed.takeError());
      invalid = fmt::format("{} samples in {} hold NaN or Infinity", side, s.file);
      return s;
    }
    return parsed.takeError();
  }
  nlohmann::json doc = std::move(*parsed);
  const nlohmann::json *list = &doc;
  if (!s.key.empty()) {
    const nlohmann::json *arms =
        doc.is_object() && doc.contains("samples_ms") && doc["samples_ms"].is_object()
            ? &doc["samples_ms"]
            : &doc;
    if (!arms->is_object() || !arms->contains(s.key)) {
      std::vector<std::string> keys;
      if (arms->is_object())
        for (auto &[k, v] : arms->items())
          keys.push_back(k);
      return inputError(s.file,
                        fmt::format("no arm '{}' in this samples file{}", s.key,
                                    keys.empty() ? "" : "; arms: " + llvm::join(keys, ", ")));
    }
    list = &(*arms)[s.key];
    s.interleaved = arms != &doc;
    if (s.interleaved)
      s.rounds = list->is_array() ? list->size() : 0;
  } else if (doc.is_object()) {
    std::vector<std::string> keys;
    const auto &arms = doc.contains("samples_ms") ? doc["samples_ms"] : doc;
    if (arms.is_object())
      for (auto &[k, v] : arms.items())
        keys.push_back(k);
    return inputError(s.file,
                      fmt::format("a samples file: name the arm as {}:ARM{}", s.file,
                                  keys.empty() ? "" : " (arms: " + llvm::join(keys, ", ") + ")"));
  }
  if (!list->is_array() || list->empty())
    return inputError(s.file, fmt::format("{} samples: expected a non-empty JSON array of times "
                                          "in ms",
                                          side));
  for (size_t i = 0; i < list->size(); ++i) {
    const auto &v = (*list)[i];
    if (!v.is_number()) {
      if (v.is_null()) {
        invalid = fmt::format("{} sample {} is null (NaN)", side, i);
        return s;
      }
      return inputError(s.file, fmt::format("{} sample {} is {}, not a number", side, i, v.dump()));
    }
    double x = v.get<double>();
    if (!std::isfinite(x) || x <= 0) {
      invalid = fmt::format("{} sample {} is {} (a time must be finite and above 0)", side, i, x);
      return s;
    }
    s.values.push_back(x);
  }
  return s;
}

// ---- artifacts --------------------------------------------------------------------

struct Arm {
  ArmArtifacts info;
  std::unique_ptr<ir::Module> module;
  std::optional<analysis::LoopPipeline> pipeline;
  std::optional<asmfile::AuditReport> audit;
  std::optional<asmfile::ProbedKernel> probed;
  std::string archConflict; // --arch of another vendor than the arm's artifacts
};

llvm::Expected<Arm> loadArm(const std::string &path, const std::string &kernel,
                            const std::string &arch, const char *side) {
  Arm arm;
  std::string dir = path;
  std::string stem;
  if (!llvm::sys::fs::is_directory(path)) {
    if (!llvm::sys::fs::exists(path))
      return inputError(path, fmt::format("{} artifacts: no such file or directory", side));
    dir = llvm::sys::path::parent_path(path).str();
    if (dir.empty())
      dir = ".";
    stem = llvm::sys::path::stem(path).str();
  }
  arm.info.dir = path;
  std::vector<std::string> files;
  std::error_code ec;
  // Every entry but directories: an artifact that is a FIFO or a device is
  // named by the reader that refuses it, not passed over in silence.
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (!llvm::sys::fs::is_directory(it->path()))
      files.push_back(it->path());
  if (ec)
    return inputError(dir, fmt::format("{} artifacts: {}", side, ec.message()));
  std::sort(files.begin(), files.end());
  auto pick = [&](std::initializer_list<const char *> exts) -> std::string {
    for (const char *e : exts) {
      std::vector<std::string> found;
      for (auto &f : files)
        if (llvm::StringRef(f).ends_with(e) && (stem.empty() || llvm::sys::path::stem(f) == stem))
          found.push_back(f);
      if (found.empty())
        continue;
      if (!kernel.empty())
        for (auto &f : found)
          if (llvm::sys::path::stem(f).contains(kernel))
            return f;
      if (found.size() > 1)
        arm.info.notes.push_back(fmt::format("{} {} files in {}; read {} (name one with --kernel "
                                             "or give the file)",
                                             found.size(), e, dir, found.front()));
      return found.front();
    }
    return "";
  };
  arm.info.ttgir = pick({".ttgir"});
  arm.info.listing = pick({".amdgcn", ".sass", ".ptx"});
  if (arm.info.ttgir.empty() && arm.info.listing.empty())
    return inputError(dir,
                      fmt::format("{} artifacts: no .ttgir, .amdgcn, .sass or .ptx here", side));
  if (!arm.info.ttgir.empty()) {
    auto m = ir::loadModuleFile(arm.info.ttgir);
    if (!m)
      return m.takeError();
    arm.module = std::move(*m);
    arm.pipeline = analysis::hotLoopPipeline(*arm.module);
    if (!arm.module->facts.arch().empty())
      arm.info.arch = arm.module->facts.arch();
  }
  if (!arm.info.listing.empty()) {
    auto buf = readInputFile(arm.info.listing);
    if (!buf)
      return buf.takeError();
    asmfile::AuditOptions o;
    if (!kernel.empty())
      o.kernel = kernel;
    else if (arm.pipeline && !arm.pipeline->function.empty())
      o.kernel = arm.pipeline->function;
    auto a = asmfile::audit(arm.info.listing, (*buf)->getBuffer(), o);
    if (!a) {
      // The kernel named by the dump may be spelled otherwise in the listing.
      llvm::consumeError(a.takeError());
      o.kernel.reset();
      if (!kernel.empty())
        o.kernel = kernel;
      a = asmfile::audit(arm.info.listing, (*buf)->getBuffer(), o);
      if (!a)
        return a.takeError();
    }
    arm.audit = std::move(*a);
    arm.info.kernel = arm.audit->kernel.name;
    if (!arm.info.arch && arm.audit->arch)
      arm.info.arch = arm.audit->arch;
  } else {
    arm.info.notes.push_back("no .amdgcn/.sass/.ptx listing: the assembly rules are untested "
                             "(for a .cubin, keep cuobjdump --dump-sass beside it)");
  }
  if (arm.info.kernel.empty() && arm.pipeline)
    arm.info.kernel = arm.pipeline->function;
  asmfile::ProbeOptions po;
  if (!arch.empty())
    po.arch = arch;
  po.jobs = 1;
  std::vector<std::string> probeFiles;
  for (auto &f : files) {
    std::string s = llvm::sys::path::stem(f).str();
    if ((stem.empty() || s == stem) && asmfile::artifactKindOf(f))
      probeFiles.push_back(f);
  }
  auto pr = asmfile::probe(probeFiles, po);
  if (pr) {
    // A metadata .json or binary of the arm's kernel (the stem of its dump
    // or listing) that cannot be read: the rules that need its figures would
    // otherwise pass over it in silence. Other JSON beside it (timings) is
    // not the kernel's.
    std::set<std::string> own;
    for (const std::string &f : {arm.info.ttgir, arm.info.listing})
      if (!f.empty())
        own.insert(llvm::sys::path::stem(f).str());
    for (const std::string &e : pr->errors)
      for (const std::string &f : probeFiles)
        if (own.count(llvm::sys::path::stem(f).str()) && llvm::StringRef(e).starts_with(f + ":")) {
          // `FILE[:LINE:COL]: error: WHY` again, the arm named before WHY.
          size_t at = e.find(": error: ");
          std::string where = at == std::string::npos ? f : e.substr(0, at);
          std::string why = at == std::string::npos ? e : e.substr(at + 9);
          return inputError(where, fmt::format("{} artifacts: {}", side, why));
        }
  }
  if (pr) {
    for (auto &k : pr->kernels)
      if (k.kernel == arm.info.kernel || pr->kernels.size() == 1) {
        arm.probed = k;
        break;
      }
  } else {
    llvm::consumeError(pr.takeError());
  }
  if (!arch.empty()) {
    if (arm.info.arch) {
      const std::string &named =
          !arm.info.ttgir.empty() && arm.module && !arm.module->facts.arch().empty()
              ? arm.info.ttgir
              : arm.info.listing;
      if (auto c = hw::vendorConflict(named, *arm.info.arch,
                                      named == arm.info.ttgir ? "dump" : "listing", arch))
        arm.archConflict = *c;
    }
    if (arm.archConflict.empty() && arm.probed)
      arm.archConflict = arm.probed->archConflict;
    arm.info.arch = arch;
  }
  return arm;
}

// ---- rules --------------------------------------------------------------------------

const asmfile::Census *loopOrWhole(const Arm &a) {
  if (!a.audit)
    return nullptr;
  return a.audit->hotLoop ? &*a.audit->hotLoop : &a.audit->whole;
}

std::string widths(const std::map<unsigned, size_t> &m) {
  if (m.empty())
    return "none";
  std::vector<std::string> parts;
  for (auto it = m.rbegin(); it != m.rend(); ++it)
    parts.push_back(fmt::format("{}b x{}", it->first, it->second));
  return llvm::join(parts, ", ");
}

size_t copiesOf(const asmfile::Census &c) {
  size_t n = 0;
  for (auto &[w, k] : c.asyncCopies)
    n += k;
  return n;
}

size_t tmaOf(const asmfile::Census &c) {
  auto it = c.classes.find("tma");
  return it == c.classes.end() ? 0 : it->second;
}

std::string copiesText(const asmfile::Census &c) {
  return fmt::format("{} async cop{} to shared memory, {} TMA op{}", copiesOf(c),
                     copiesOf(c) == 1 ? "y" : "ies", tmaOf(c), tmaOf(c) == 1 ? "" : "s");
}

std::string pipelineFacts(const analysis::LoopPipeline &p) {
  return llvm::join(p.evidence(), "; ");
}

Suspect lostPipeline(const Arm &c, const Arm &a) {
  Suspect s{SuspectKind::LostPipeline, SuspectStatus::Untested, {}, {}};
  if (c.pipeline && a.pipeline) {
    bool cp = c.pipeline->pipelined(), ap = a.pipeline->pipelined();
    s.evidence.push_back("champion: " + pipelineFacts(*c.pipeline));
    s.evidence.push_back("anchor: " + pipelineFacts(*a.pipeline));
    if (const auto *cc = loopOrWhole(c))
      if (const auto *ac = loopOrWhole(a))
        s.evidence.push_back(fmt::format("hot loop of the assembly: champion {}, anchor {}",
                                         copiesText(*cc), copiesText(*ac)));
    if (cp && !ap) {
      s.status = SuspectStatus::Suspected;
    } else {
      s.status = SuspectStatus::Cleared;
      s.evidence.insert(s.evidence.begin(), !cp ? "the champion's loop is not pipelined: no "
                                                  "pipeline to lose"
                                                : "the anchor's loop is pipelined too");
    }
    return s;
  }
  // Without both dumps, the assembly alone: async copies in the champion's
  // hot loop and none in the anchor's.
  const auto *cc = loopOrWhole(c);
  const auto *ac = loopOrWhole(a);
  auto asyncOf = [](const asmfile::Census *x) { return copiesOf(*x) + tmaOf(*x); };
  if (cc && ac && asyncOf(cc) > 0 && asyncOf(ac) == 0) {
    s.status = SuspectStatus::Suspected;
    s.evidence.push_back(fmt::format("hot loop async copies: champion {}, anchor 0 (no .ttgir "
                                     "on both sides: read from the assembly only)",
                                     asyncOf(cc)));
    return s;
  }
  s.status = SuspectStatus::Untested;
  s.why = "needs the .ttgir of both kernels (the assembly shows no async copy to compare)";
  return s;
}

/// Mean bits per access of a width histogram.
double meanBits(const std::map<unsigned, size_t> &m) {
  double bits = 0, n = 0;
  for (auto &[w, c] : m) {
    bits += double(w) * double(c);
    n += double(c);
  }
  return n > 0 ? bits / n : 0;
}

std::map<unsigned, size_t> merged(const std::map<unsigned, size_t> &x,
                                  const std::map<unsigned, size_t> &y) {
  std::map<unsigned, size_t> out = x;
  for (auto &[w, c] : y)
    out[w] += c;
  return out;
}

Suspect lostVectorization(const Arm &c, const Arm &a) {
  Suspect s{SuspectKind::LostVectorization, SuspectStatus::Untested, {}, {}};
  const auto *cc = loopOrWhole(c);
  const auto *ac = loopOrWhole(a);
  if (!cc || !ac) {
    s.why = "needs an .amdgcn, .sass or .ptx listing of both kernels";
    return s;
  }
  struct Family {
    const char *name;
    std::map<unsigned, size_t> champion, anchor;
  };
  // A global read is a load to registers or an async copy to shared memory:
  // a pipelined champion reads through copies where the anchor loads.
  std::vector<Family> families = {
      {"global reads", merged(cc->loads, cc->asyncCopies), merged(ac->loads, ac->asyncCopies)},
      {"global writes", cc->stores, ac->stores},
      {"shared reads", cc->sharedReads, ac->sharedReads},
      {"shared writes", cc->sharedWrites, ac->sharedWrites}};
  bool narrowed = false;
  for (auto &f : families) {
    if (f.champion.empty() && f.anchor.empty())
      continue;
    if (f.champion.empty() || f.anchor.empty()) {
      s.evidence.push_back(fmt::format("{}: champion {}, anchor {} (only one side has them: not "
                                       "compared)",
                                       f.name, widths(f.champion), widths(f.anchor)));
      continue;
    }
    double cm = meanBits(f.champion), am = meanBits(f.anchor);
    unsigned cmax = f.champion.rbegin()->first, amax = f.anchor.rbegin()->first;
    bool narrower = am < cm * 0.95 || amax < cmax;
    narrowed = narrowed || narrower;
    s.evidence.push_back(fmt::format("{}: champion {} (mean {:.0f}b), anchor {} (mean {:.0f}b){}",
                                     f.name, widths(f.champion), cm, widths(f.anchor), am,
                                     narrower ? ": narrowed" : ""));
  }
  s.status = narrowed ? SuspectStatus::Suspected : SuspectStatus::Cleared;
  if (!narrowed)
    s.evidence.insert(s.evidence.begin(), "no access family is narrower in the anchor");
  return s;
}

Suspect lostLayout(const Arm &c, const Arm &a, const std::string &arch) {
  Suspect s{SuspectKind::LostLayout, SuspectStatus::Untested, {}, {}};
  if (!c.module || !a.module) {
    s.why = "needs the .ttgir of both kernels";
    return s;
  }
  auto v = analysis::verify(*c.module, *a.module, gluon::GluonApi::V3_6, arch);
  if (v.verdict == Verdict::NotComparable) {
    s.why = "verify: " + v.notComparableReason;
    return s;
  }
  if (v.verdict == Verdict::Fail) {
    s.status = SuspectStatus::Suspected;
    s.evidence.push_back(fmt::format("verify FAIL: {} layout use{} of the champion missing in the "
                                     "anchor, {} extra",
                                     v.missing.size(), v.missing.size() == 1 ? "" : "s",
                                     v.extra.size()));
    for (size_t i = 0; i < v.missing.size() && i < 4; ++i) {
      auto &d = v.missing[i];
      s.evidence.push_back(fmt::format(
          "missing {} at {} ({}){}", d.use.attr, fmt::join(d.use.shape, "x"), d.use.memory,
          d.nearest ? "; nearest in the anchor differs in " + d.nearest->differs : std::string()));
    }
    return s;
  }
  s.status = SuspectStatus::Cleared;
  s.evidence.push_back(fmt::format(
      "verify {}: the anchor carries the champion's layouts{}", verdictName(v.verdict),
      v.reconciled.empty() ? std::string()
                           : fmt::format(" ({} reconciled difference{})", v.reconciled.size(),
                                         v.reconciled.size() == 1 ? "" : "s")));
  return s;
}

std::optional<int64_t> limiterAllows(const asmfile::ProbedKernel &k, const char *name,
                                     std::string *detail = nullptr) {
  if (!k.occupancy)
    return std::nullopt;
  for (auto &l : k.occupancy->limits)
    if (l.name == name) {
      if (detail)
        *detail = l.detail;
      return l.known ? l.allows : std::nullopt;
    }
  return std::nullopt;
}

/// Σ|Δ opcode count| over the larger loop's instruction count.
double multisetDistance(const asmfile::Census &x, const asmfile::Census &y) {
  std::set<std::string> keys;
  for (auto &[k, n] : x.opcodes)
    keys.insert(k);
  for (auto &[k, n] : y.opcodes)
    keys.insert(k);
  double diff = 0;
  for (auto &k : keys) {
    double a = x.opcodes.count(k) ? double(x.opcodes.at(k)) : 0;
    double b = y.opcodes.count(k) ? double(y.opcodes.at(k)) : 0;
    diff += std::fabs(a - b);
  }
  double n = double(std::max(x.instructions, y.instructions));
  return n > 0 ? diff / n : 0;
}

Suspect lostRA(const Arm &c, const Arm &a) {
  Suspect s{SuspectKind::LostRA, SuspectStatus::Untested, {}, {}};
  bool tested = false;
  std::vector<std::string> reasons;
  if (c.probed && a.probed) {
    tested = true;
    auto cs = c.probed->spills, as = a.probed->spills;
    if (cs && as) {
      s.evidence.push_back(fmt::format("spills: champion {}, anchor {}", *cs, *as));
      if (*as > *cs)
        reasons.push_back("spills appeared");
    }
    auto cr = c.probed->get("registers"), ar = a.probed->get("registers");
    if (cr && ar)
      s.evidence.push_back(fmt::format("registers: champion {}, anchor {}", *cr, *ar));
    std::string cd, ad;
    auto cl = limiterAllows(*c.probed, "registers", &cd),
         al = limiterAllows(*a.probed, "registers", &ad);
    if (cl && al) {
      s.evidence.push_back(fmt::format("occupancy by registers: champion {} ({}), anchor {} ({})",
                                       *cl, cd, *al, ad));
      if (*al < *cl)
        reasons.push_back("registers crossed an occupancy step");
    }
  }
  const auto *cc = loopOrWhole(c);
  const auto *ac = loopOrWhole(a);
  if (cc && ac) {
    tested = true;
    auto &csa = cc->sharedAddress, &asa = ac->sharedAddress;
    s.evidence.push_back(fmt::format("shared-read addresses rematerialized just above the read: "
                                     "champion {}, anchor {}",
                                     csa.rematerialized, asa.rematerialized));
    if (double(asa.rematerialized) >
        std::max(1.5 * double(csa.rematerialized), double(csa.rematerialized) + 3))
      reasons.push_back("address rematerialization before shared reads rose");
    double dist = multisetDistance(*cc, *ac);
    s.evidence.push_back(fmt::format("distinct shared-read address registers: champion {}, anchor "
                                     "{}; instruction multisets differ by {:.1f}%",
                                     csa.distinctRegisters, asa.distinctRegisters, dist * 100));
    if (dist <= 0.05 && double(asa.distinctRegisters) < 0.75 * double(csa.distinctRegisters))
      reasons.push_back("distinct address registers collapsed with the instruction multiset "
                        "unchanged");
  }
  if (!tested) {
    s.why = "needs both kernels' register figures (metadata, .amdgcn or .cubin) or listings";
    return s;
  }
  s.status = reasons.empty() ? SuspectStatus::Cleared : SuspectStatus::Suspected;
  if (!reasons.empty())
    s.evidence.insert(s.evidence.begin(), llvm::join(reasons, "; "));
  return s;
}

Suspect lostSchedule(const Arm &c, const Arm &a) {
  Suspect s{SuspectKind::LostSchedule, SuspectStatus::Untested, {}, {}};
  const auto *cc = loopOrWhole(c);
  const auto *ac = loopOrWhole(a);
  if (!cc || !ac) {
    s.why = "needs an .amdgcn, .sass or .ptx listing of both kernels";
    return s;
  }
  double dist = multisetDistance(*cc, *ac);
  bool waitsDiffer = cc->waits.values != ac->waits.values;
  bool barriersDiffer = cc->barriers != ac->barriers;
  bool prioDiffer = cc->setprio != ac->setprio;
  s.evidence.push_back(fmt::format("instruction multisets differ by {:.1f}% ({} vs {} "
                                   "instructions)",
                                   dist * 100, cc->instructions, ac->instructions));
  s.evidence.push_back(fmt::format("waits: champion {} ({} drains), anchor {} ({} drains); "
                                   "barriers {} vs {}; s_setprio {} vs {}",
                                   cc->waits.count, cc->waits.drains, ac->waits.count,
                                   ac->waits.drains, cc->barriers, ac->barriers, cc->setprio,
                                   ac->setprio));
  if (dist <= 0.05 && (waitsDiffer || barriersDiffer || prioDiffer)) {
    s.status = SuspectStatus::Suspected;
    s.evidence.insert(s.evidence.begin(), "same instructions, different waits/barriers/priority");
  } else {
    s.status = SuspectStatus::Cleared;
    s.evidence.insert(s.evidence.begin(),
                      dist > 0.05 ? "the instructions differ, not only their schedule"
                                  : "same instructions and the same waits, barriers and priority");
  }
  return s;
}

Suspect ldsBudget(const Arm &c, const Arm &a) {
  Suspect s{SuspectKind::LdsBudget, SuspectStatus::Untested, {}, {}};
  if (!c.probed || !a.probed) {
    s.why = "needs both kernels' shared-memory figures (the metadata .json)";
    return s;
  }
  std::string cd, ad;
  auto cl = limiterAllows(*c.probed, "shared", &cd), al = limiterAllows(*a.probed, "shared", &ad);
  auto cb = c.probed->get("shared_bytes"), ab = a.probed->get("shared_bytes");
  if (!cl || !al) {
    s.why = fmt::format("the shared-memory limiter is unknown ({}{}{})", cl ? "" : "champion",
                        !cl && !al ? " and " : "", al ? "" : "anchor");
    if (!c.probed->declined.empty() || !a.probed->declined.empty())
      s.why += ": " + (c.probed->declined.empty() ? a.probed->declined : c.probed->declined);
    return s;
  }
  s.evidence.push_back(fmt::format("shared bytes: champion {}, anchor {}",
                                   cb ? std::to_string(*cb) : "unknown",
                                   ab ? std::to_string(*ab) : "unknown"));
  s.evidence.push_back(fmt::format("occupancy by shared memory: champion {} ({}), anchor {} ({})",
                                   *cl, cd, *al, ad));
  bool binds =
      a.probed->occupancy && llvm::StringRef(a.probed->occupancy->binding).contains("shared");
  if ((*al < *cl && binds) || *al == 0) {
    s.status = SuspectStatus::Suspected;
    s.evidence.insert(s.evidence.begin(), *al == 0 ? "the anchor's shared memory exceeds capacity"
                                                   : "the anchor's shared memory crosses an "
                                                     "occupancy step the champion's does not");
  } else {
    s.status = SuspectStatus::Cleared;
  }
  return s;
}

} // namespace

llvm::Expected<ParityReport> parityGate(const ParityOptions &o) {
  ParityReport r;
  r.minRatio = o.minRatio;
  // Times.
  std::optional<Samples> cs, as;
  auto side = [&](const TimingInput &t, const char *name, std::optional<Samples> &out,
                  double &ms) -> llvm::Error {
    if (!t.samples.empty()) {
      auto s = readSamples(t.samples, name, r.invalidReason);
      if (!s)
        return s.takeError();
      if (!r.invalidReason.empty())
        return llvm::Error::success();
      out = std::move(*s);
      auto st = armStats(name, out->values);
      ms = st.median;
      (std::string(name) == "champion" ? r.championStats : r.anchorStats) = st;
      return llvm::Error::success();
    }
    if (!t.ms)
      return llvm::make_error<InputError>(
          "", 0, 0, fmt::format("no {} time: give --{}-ms or --{}-samples", name, name, name));
    if (!std::isfinite(*t.ms) || *t.ms <= 0) {
      r.invalidReason =
          fmt::format("{} time is {} (a time must be finite and above 0)", name, *t.ms);
      return llvm::Error::success();
    }
    ms = *t.ms;
    return llvm::Error::success();
  };
  if (auto e = side(o.champion, "champion", cs, r.championMs))
    return e;
  if (r.invalidReason.empty())
    if (auto e = side(o.anchor, "anchor", as, r.anchorMs))
      return e;
  if (!r.invalidReason.empty()) {
    r.verdict = Verdict::InvalidInput;
    return r;
  }
  r.ratio = r.championMs / r.anchorMs;
  if (!std::isfinite(r.ratio) || r.ratio <= 0) {
    r.invalidReason = fmt::format("the times {} ms and {} ms are too far apart for a finite ratio",
                                  r.championMs, r.anchorMs);
    r.verdict = Verdict::InvalidInput;
    return r;
  }
  if (cs && as) {
    r.paired = cs->interleaved && as->interleaved && cs->file == as->file &&
               cs->values.size() == as->values.size();
    if (cs->values.size() < 3 || as->values.size() < 3) {
      r.notes.push_back("fewer than 3 samples on a side: the spread is not estimated");
    } else {
      r.interval = compareMedians("champion", cs->values, "anchor", as->values, r.paired,
                                  o.resamples, o.seed, o.confidence);
      r.resolvedDifferent = r.interval->excludesOne;
    }
  } else if (cs || as) {
    r.notes.push_back("samples on one side only: the ratio is of the median and the single time");
  }
  if (r.interval) {
    if (r.interval->lo >= o.minRatio)
      r.verdict = Verdict::Cleared;
    else if (r.interval->hi < o.minRatio)
      r.verdict = Verdict::NotCleared;
    else
      r.verdict = Verdict::NotResolved;
  } else {
    r.verdict = r.ratio >= o.minRatio ? Verdict::Cleared : Verdict::NotCleared;
  }
  if (r.ratio > 1)
    r.notes.push_back("the anchor is faster than the champion: attribute that too before "
                      "claiming a win");

  // Attribution.
  if (o.championDir.empty() || o.anchorDir.empty()) {
    if (!o.championDir.empty() || !o.anchorDir.empty())
      r.notes.push_back("artifacts of one side only: nothing is attributed");
    for (SuspectKind k :
         {SuspectKind::LostPipeline, SuspectKind::LostVectorization, SuspectKind::LostLayout,
          SuspectKind::LostRA, SuspectKind::LostSchedule, SuspectKind::LdsBudget})
      r.suspects.push_back(Suspect{
          k, SuspectStatus::Untested, {}, "no artifacts given (--champion DIR --anchor DIR)"});
    return r;
  }
  auto c = loadArm(o.championDir, o.kernel, o.arch, "champion");
  if (!c)
    return c.takeError();
  auto a = loadArm(o.anchorDir, o.kernel, o.arch, "anchor");
  if (!a)
    return a.takeError();
  if (!c->archConflict.empty() || !a->archConflict.empty()) {
    r.archConflict = !c->archConflict.empty() ? c->archConflict : a->archConflict;
    return r;
  }
  if (c->info.arch && a->info.arch && *c->info.arch != *a->info.arch)
    r.notes.push_back(fmt::format("the champion is built for {} and the anchor for {}",
                                  *c->info.arch, *a->info.arch));
  if (c->audit && a->audit && (!c->audit->hotLoop || !a->audit->hotLoop))
    r.notes.push_back("a side has no loop: the assembly rules read whole bodies");
  r.suspects.push_back(lostPipeline(*c, *a));
  r.suspects.push_back(lostVectorization(*c, *a));
  r.suspects.push_back(lostLayout(*c, *a, o.arch));
  r.suspects.push_back(lostRA(*c, *a));
  r.suspects.push_back(lostSchedule(*c, *a));
  r.suspects.push_back(ldsBudget(*c, *a));
  r.championArtifacts = c->info;
  r.anchorArtifacts = a->info;
  return r;
}

} // namespace tilexform::gate
