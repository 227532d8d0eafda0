#include "tilexform/asm/Probe.h"
#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Target.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/InputKind.h"
#include "tilexform/support/Parallel.h"
#include "tilexform/support/SourceFiles.h"

#include <llvm/Support/Path.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <set>

namespace tilexform::asmfile {

namespace {

namespace fs = std::filesystem;

struct Candidate {
  std::string path;
  ArtifactKind kind;
  bool explicitlyNamed = false;
  bool kindFromName = true; // false: a named file whose extension says nothing
};

constexpr const char *kProbeReads =
    "probe reads .amdgcn, .hsaco, .cubin, .ptx, .sass or a metadata .json";

bool isListing(ArtifactKind k) {
  return k == ArtifactKind::Amdgcn || k == ArtifactKind::Ptx || k == ArtifactKind::Sass;
}

struct FileResult {
  std::vector<KernelFacts> facts;
  std::optional<std::string> error;
  bool skipped = false;
};

bool skippedDirectory(const fs::path &p) {
  std::string name = p.filename().string();
  return name == "__pycache__" || llvm::StringRef(name).starts_with("tmp.") ||
         (name.size() > 1 && name[0] == '.');
}

llvm::Error collect(const std::string &path, std::vector<Candidate> &out) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    return artifactError(path, 0, 0, describeSystemError(ec && ec.value() ? ec.value() : ENOENT));
  if (!fs::is_directory(st)) {
    // A name that says nothing (kernel.bin, a .py): the content decides.
    auto kind = artifactKindOf(path);
    out.push_back({path, kind.value_or(ArtifactKind::Amdgcn), true, kind.has_value()});
    return llvm::Error::success();
  }
  std::vector<Candidate> found;
  // Directory links are not followed (the iterator's default), and a file
  // link is read only when it resolves inside the tree: a link to a file
  // elsewhere (`/etc/shadow`) is never opened, nor quoted in an error.
  const std::string realRoot = resolvedPath(path);
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const auto &entry = *it;
    std::error_code typeEc;
    if (entry.is_directory(typeEc)) {
      if (skippedDirectory(entry.path()))
        it.disable_recursion_pending();
      continue;
    }
    std::string name = entry.path().filename().string();
    if (llvm::StringRef(name).starts_with("__grp__"))
      continue;
    auto kind = artifactKindOf(name);
    if (!kind)
      continue;
    if (entry.is_symlink(typeEc)) {
      std::string target = resolvedPath(entry.path().string());
      if (target.empty() || !isBelowDirectory(target, realRoot))
        continue;
    }
    found.push_back({entry.path().string(), *kind, false});
  }
  std::sort(found.begin(), found.end(),
            [](const Candidate &a, const Candidate &b) { return a.path < b.path; });
  out.insert(out.end(), found.begin(), found.end());
  return llvm::Error::success();
}

FileResult readOne(const Candidate &c) {
  FileResult r;
  auto buffer = readInputFile(c.path);
  if (!buffer) {
    r.error = errorLine(buffer.takeError());
    return r;
  }
  llvm::StringRef contents = (*buffer)->getBuffer();
  // Content first, the name second: a .cubin that holds Python is named for
  // what it is, and so is a dump given to probe.
  InputKind sniffed = sniffInputKind(contents, c.path);
  ArtifactKind kind = c.kind;
  if (auto shown = artifactKindOf(sniffed)) {
    if (!c.kindFromName || !isListing(kind) || !isListing(*shown))
      kind = *shown;
  } else if (!c.kindFromName || (sniffed != InputKind::Unknown && sniffed != InputKind::Binary)) {
    if (sniffed == InputKind::Unknown)
      r.error = errorLine(
          artifactError(c.path, 0, 0, fmt::format("not a kernel artifact ({})", kProbeReads)));
    else
      r.error = errorLine(wrongInputKindError(c.path, sniffed, kProbeReads));
    return r;
  }
  auto facts = readArtifact(kind, c.path, contents);
  if (!facts) {
    std::string message = errorLine(facts.takeError());
    // A tree holds other JSON too (timings, configs): skip it unless named.
    if (kind == ArtifactKind::MetadataJson && !c.explicitlyNamed) {
      r.skipped = true;
      return r;
    }
    r.error = message;
    return r;
  }
  r.facts = std::move(*facts);
  return r;
}

int rank(ArtifactKind kind, std::initializer_list<ArtifactKind> order) {
  int i = 0;
  for (ArtifactKind k : order) {
    if (k == kind)
      return i;
    ++i;
  }
  return i;
}

/// Takes the first figure present, in the order of artifact kinds given.
void pick(ProbedKernel &out, const std::vector<const KernelFacts *> &facts, const char *key,
          OptFigure KernelFacts::*member, std::initializer_list<ArtifactKind> order) {
  const Figure *best = nullptr;
  int bestRank = 0;
  for (const KernelFacts *f : facts) {
    const OptFigure &v = f->*member;
    if (!v)
      continue;
    int r = rank(f->kind, order);
    if (!best || r < bestRank) {
      best = &*v;
      bestRank = r;
    }
  }
  if (best)
    out.figures[key] = *best;
}

using AK = ArtifactKind;

ProbedKernel join(const std::string &name, const std::vector<const KernelFacts *> &facts,
                  const ProbeOptions &options) {
  ProbedKernel k;
  k.kernel = name;
  std::set<std::string> files;
  for (const KernelFacts *f : facts) {
    files.insert(f->file);
    for (auto &n : f->notes)
      k.notes.push_back(llvm::sys::path::filename(f->file).str() + ": " + n);
  }
  k.files.assign(files.begin(), files.end());

  // Arch: the metadata names the compile target; binaries next; text last.
  const KernelFacts *archSource = nullptr;
  for (AK kind : {AK::MetadataJson, AK::Hsaco, AK::Cubin, AK::Amdgcn, AK::Ptx, AK::Sass})
    for (const KernelFacts *f : facts)
      if (!archSource && f->kind == kind && f->arch)
        archSource = f;
  if (options.arch) {
    k.arch = options.arch;
    k.archFrom = "--arch";
    // An override reads the kernel as another chip of its own vendor; an
    // NVIDIA binary is never given AMD figures. A listing or binary that
    // names no arch still tells its vendor by its kind.
    if (auto option = hw::parseTarget(*options.arch)) {
      for (const KernelFacts *f : facts) {
        if (!k.archConflict.empty())
          break;
        const std::string &shown = f->file;
        const char *what = f->kind == AK::Cubin || f->kind == AK::Hsaco ? "binary"
                           : f->kind == AK::MetadataJson                ? "kernel's metadata"
                                                                        : "listing";
        if (f->arch) {
          if (auto c = hw::vendorConflict(shown, *f->arch, what, *options.arch))
            k.archConflict = *c;
          continue;
        }
        std::optional<hw::Vendor> vendor;
        if (f->kind == AK::Cubin || f->kind == AK::Ptx || f->kind == AK::Sass)
          vendor = hw::Vendor::Nvidia;
        else if (f->kind == AK::Hsaco || f->kind == AK::Amdgcn)
          vendor = hw::Vendor::Amd;
        if (vendor)
          if (auto c = hw::vendorConflict(shown, *vendor == hw::Vendor::Amd ? "AMD" : "NVIDIA",
                                          *vendor, what, *option))
            k.archConflict = *c;
      }
    }
  } else if (archSource) {
    k.arch = archSource->arch;
    k.archFrom = llvm::sys::path::filename(archSource->file).str() + " (" +
                 archSource->archFrom.value_or("?") + ")";
  }
  for (const KernelFacts *f : facts)
    if (archSource && f->arch && *f->arch != *archSource->arch)
      k.notes.push_back("arch disagrees: " + llvm::sys::path::filename(f->file).str() + " says " +
                        *f->arch + ", " + llvm::sys::path::filename(archSource->file).str() +
                        " says " + *archSource->arch);

  pick(k, facts, "num_warps", &KernelFacts::numWarps,
       {AK::MetadataJson, AK::Cubin, AK::Hsaco, AK::Amdgcn, AK::Ptx});
  pick(k, facts, "shared_bytes", &KernelFacts::sharedBytes, {AK::MetadataJson});
  pick(k, facts, "tmem_columns", &KernelFacts::tmemColumns, {AK::MetadataJson});
  pick(k, facts, "waves_per_eu", &KernelFacts::wavesPerEu, {AK::MetadataJson});
  // NVIDIA: the cubin is the register truth; the JSON's n_regs is the driver's
  // figure from a run, used when no cubin is at hand.
  pick(k, facts, "registers", &KernelFacts::registers, {AK::Cubin});
  if (!k.figures.count("registers"))
    pick(k, facts, "registers", &KernelFacts::jsonRegisters, {AK::MetadataJson});
  pick(k, facts, "local_bytes", &KernelFacts::localBytes, {AK::Cubin});
  pick(k, facts, "static_shared_bytes", &KernelFacts::staticSharedBytes, {AK::Cubin});
  pick(k, facts, "spill_instructions", &KernelFacts::spillInstructions, {AK::Sass});
  // AMD: the assembly's descriptor comments first, then the code object.
  bool amd = false;
  for (const KernelFacts *f : facts)
    amd |= f->kind == AK::Amdgcn || f->kind == AK::Hsaco;
  if (amd) {
    pick(k, facts, "registers", &KernelFacts::vgprsForOccupancy, {AK::Amdgcn, AK::Hsaco});
    pick(k, facts, "sgprs", &KernelFacts::sgprsForOccupancy, {AK::Amdgcn, AK::Hsaco});
  }
  pick(k, facts, "agprs", &KernelFacts::agprs, {AK::Amdgcn, AK::Hsaco});
  pick(k, facts, "arch_vgprs", &KernelFacts::archVgprs, {AK::Amdgcn, AK::Hsaco});
  pick(k, facts, "total_vgprs", &KernelFacts::totalVgprs, {AK::Amdgcn, AK::Hsaco});
  pick(k, facts, "total_sgprs", &KernelFacts::totalSgprs, {AK::Amdgcn, AK::Hsaco});
  pick(k, facts, "vgpr_spills", &KernelFacts::vgprSpills, {AK::Amdgcn, AK::Hsaco});
  pick(k, facts, "sgpr_spills", &KernelFacts::sgprSpills, {AK::Amdgcn, AK::Hsaco});
  pick(k, facts, "scratch_bytes", &KernelFacts::scratchBytes, {AK::Amdgcn, AK::Hsaco});
  pick(k, facts, "compiler_occupancy", &KernelFacts::compilerOccupancy, {AK::Amdgcn});

  // Cross-checks between files of the same kernel.
  auto figureOf = [&](AK kind, OptFigure KernelFacts::*member) -> OptFigure {
    for (const KernelFacts *f : facts)
      if (f->kind == kind && f->*member)
        return f->*member;
    return std::nullopt;
  };
  if (auto cubinRegs = figureOf(AK::Cubin, &KernelFacts::registers))
    if (auto jsonRegs = figureOf(AK::MetadataJson, &KernelFacts::jsonRegisters))
      if (cubinRegs->value != jsonRegs->value)
        k.notes.push_back("registers disagree: cubin " + std::to_string(cubinRegs->value) +
                          ", metadata n_regs " + std::to_string(jsonRegs->value));
  if (auto jsonWarps = figureOf(AK::MetadataJson, &KernelFacts::numWarps))
    for (AK kind : {AK::Cubin, AK::Hsaco, AK::Amdgcn})
      if (auto other = figureOf(kind, &KernelFacts::numWarps);
          other && other->value != jsonWarps->value)
        k.notes.push_back("num_warps disagree: metadata " + std::to_string(jsonWarps->value) +
                          ", " + artifactKindName(kind) + " " + std::to_string(other->value));
  // The descriptor holds whole blocks (data/hw kd_vgpr_granule): the
  // listing's count rounded up to one agrees.
  auto descriptorBlocks = [&](int64_t vgprs) -> int64_t {
    for (const KernelFacts *f : facts)
      if (f->kind == AK::Hsaco && f->arch)
        if (auto block = hw::figure(*f->arch, "kd_vgpr_granule"); block && block->value > 0)
          return (vgprs + block->value - 1) / block->value * block->value;
    return vgprs;
  };
  if (auto text = figureOf(AK::Amdgcn, &KernelFacts::vgprsForOccupancy))
    if (auto bin = figureOf(AK::Hsaco, &KernelFacts::vgprsForOccupancy))
      if (descriptorBlocks(text->value) != bin->value && text->value != bin->value)
        k.notes.push_back("VGPRs disagree: amdgcn " + std::to_string(text->value) +
                          ", hsaco descriptor " + std::to_string(bin->value));

  if (auto v = k.get("vgpr_spills"); v || k.get("sgpr_spills"))
    k.spills = v.value_or(0) + k.get("sgpr_spills").value_or(0);
  else if (auto local = k.get("local_bytes"))
    k.spills = *local / 4;
  else
    for (const KernelFacts *f : facts)
      if (f->jsonSpills)
        k.spills = f->jsonSpills->value;

  if (!k.arch) {
    k.declined = "arch unknown: no artifact names its target (pass --arch)";
    return k;
  }
  hw::OccupancyInput in;
  in.arch = *k.arch;
  in.numWarps = k.get("num_warps").value_or(0);
  in.registers = k.get("registers");
  in.sgprs = k.get("sgprs");
  in.sharedBytes = k.get("shared_bytes");
  in.binarySharedBytes = k.get("static_shared_bytes");
  in.tmemColumns = k.get("tmem_columns");
  auto occ = hw::computeOccupancy(in);
  if (!occ) {
    k.declined = llvm::toString(occ.takeError());
    return k;
  }
  if (auto llvmOcc = k.get("compiler_occupancy");
      llvmOcc && occ->wavesPerSimd && *llvmOcc != *occ->wavesPerSimd)
    k.notes.push_back("LLVM's '; Occupancy: " + std::to_string(*llvmOcc) +
                      "' differs from the register-limited " + std::to_string(*occ->wavesPerSimd) +
                      " waves/SIMD");
  k.occupancy = std::move(*occ);
  return k;
}

} // namespace

llvm::Expected<ProbeReport> probe(const std::vector<std::string> &paths,
                                  const ProbeOptions &options) {
  std::vector<Candidate> candidates;
  for (const auto &p : paths)
    if (auto err = collect(p, candidates))
      return err;
  // The same file named twice (or inside a named directory) is read once.
  std::set<std::string> seen;
  std::vector<Candidate> unique;
  for (auto &c : candidates) {
    std::error_code ec;
    auto canon = fs::weakly_canonical(c.path, ec).string();
    if (seen.insert(ec ? c.path : canon).second)
      unique.push_back(c);
  }

  // Files grouped by (directory, stem), in the order kernels are reported;
  // the groups are read a slice at a time, so only a slice's facts are ever
  // held.
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
  for (size_t i = 0; i < unique.size(); ++i)
    groups[{llvm::sys::path::parent_path(unique[i].path).str(),
            llvm::sys::path::stem(unique[i].path).str()}]
        .push_back(i);

  ProbeReport report;
  std::vector<std::pair<size_t, std::string>> errors; // by candidate, to list in path order
  const size_t slice = 2048;
  size_t done = 0;
  for (auto first = groups.begin(); first != groups.end();) {
    auto last = first;
    std::vector<size_t> files;
    while (last != groups.end() && (files.empty() || files.size() < slice)) {
      files.insert(files.end(), last->second.begin(), last->second.end());
      ++last;
    }
    std::vector<FileResult> results(files.size()); // results[j] is files[j]'s
    parallelForWithProgress(files.size(), options.jobs, options.progress,
                            [&](size_t j) { results[j] = readOne(unique[files[j]]); },
                            {done, unique.size()});
    done += files.size();

    size_t j = 0;
    for (auto g = first; g != last; ++g) {
      std::vector<const KernelFacts *> facts;
      for (size_t i : g->second) {
        auto &r = results[j++];
        if (r.skipped) {
          ++report.filesSkipped;
          continue;
        }
        if (r.error) {
          errors.emplace_back(i, *r.error);
          continue;
        }
        ++report.filesRead;
        for (auto &f : r.facts)
          facts.push_back(&f);
      }
      if (facts.empty())
        continue;
      std::vector<std::string> names;
      for (const KernelFacts *f : facts)
        if (f->kind != AK::MetadataJson &&
            std::find(names.begin(), names.end(), f->kernel) == names.end())
          names.push_back(f->kernel);
      std::map<std::string, std::vector<const KernelFacts *>> byName;
      for (const KernelFacts *f : facts) {
        std::string name = f->kernel;
        if (f->kind == AK::MetadataJson && names.size() == 1 &&
            std::find(names.begin(), names.end(), name) == names.end())
          name = names.front();
        byName[name].push_back(f);
      }
      for (auto &[name, kfacts] : byName) {
        ProbedKernel k = join(name, kfacts, options);
        k.directory = g->first.first;
        k.stem = g->first.second;
        ++report.kernelCount;
        if (options.onKernel)
          options.onKernel(std::move(k));
        else
          report.kernels.push_back(std::move(k));
      }
    }
    first = last;
  }
  std::sort(errors.begin(), errors.end());
  for (auto &e : errors)
    report.errors.push_back(std::move(e.second));
  return report;
}

} // namespace tilexform::asmfile
