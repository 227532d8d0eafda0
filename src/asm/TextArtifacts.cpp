// Text artifacts: AMDGCN assembly, PTX, SASS and Triton's metadata JSON.
#include "tilexform/asm/Artifacts.h"
#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Target.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/Json.h"
#include "tilexform/support/Text.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <nlohmann/json.hpp>

#include <map>

namespace tilexform::asmfile {

namespace {

/// A NUL byte means this is not a text file at all.
llvm::Error requireText(const std::string &file, llvm::StringRef text, const char *what) {
  size_t nul = text.find('\0');
  if (nul == llvm::StringRef::npos)
    return llvm::Error::success();
  TextPosition at = positionOf(text, nul);
  return artifactError(file, at.line, at.col, std::string("binary data in what should be ") + what);
}

/// Counts and sizes are non-negative and far below 2^40; anything else is
/// not a figure (and would overflow the arithmetic of the models).
constexpr int64_t kMaxFigure = int64_t(1) << 40;

std::optional<int64_t> parseInt(llvm::StringRef s) {
  s = s.trim();
  int64_t v = 0;
  if (s.consumeInteger(0, v) || !s.trim().empty() || v < 0 || v > kMaxFigure)
    return std::nullopt;
  return v;
}

Figure fig(int64_t v, const std::string &file, std::string field) {
  return Figure{v, file, std::move(field)};
}

KernelFacts &kernelNamed(std::vector<KernelFacts> &ks, std::map<std::string, size_t> &index,
                         const std::string &name, const std::string &file, ArtifactKind kind) {
  auto it = index.find(name);
  if (it != index.end())
    return ks[it->second];
  index[name] = ks.size();
  KernelFacts k;
  k.kernel = name;
  k.file = file;
  k.kind = kind;
  ks.push_back(std::move(k));
  return ks.back();
}

} // namespace

llvm::Error artifactError(const std::string &file, unsigned line, unsigned col,
                          const std::string &message) {
  return llvm::make_error<InputError>(file, line, line ? (col ? col : 1) : 0, message);
}

const char *artifactKindName(ArtifactKind kind) {
  switch (kind) {
  case ArtifactKind::Amdgcn:
    return "amdgcn";
  case ArtifactKind::Hsaco:
    return "hsaco";
  case ArtifactKind::Cubin:
    return "cubin";
  case ArtifactKind::Ptx:
    return "ptx";
  case ArtifactKind::Sass:
    return "sass";
  case ArtifactKind::MetadataJson:
    return "json";
  }
  return "?";
}

std::optional<ArtifactKind> artifactKindOf(InputKind kind) {
  switch (kind) {
  case InputKind::CudaElf:
    return ArtifactKind::Cubin;
  case InputKind::AmdgpuElf:
    return ArtifactKind::Hsaco;
  case InputKind::Json:
    return ArtifactKind::MetadataJson;
  case InputKind::Ptx:
    return ArtifactKind::Ptx;
  case InputKind::Amdgcn:
    return ArtifactKind::Amdgcn;
  case InputKind::Sass:
    return ArtifactKind::Sass;
  default:
    return std::nullopt;
  }
}

std::optional<ArtifactKind> artifactKindOf(const std::string &path) {
  return artifactKindOf(inputKindOfName(path));
}

// ---------------------------------------------------------------- AMDGCN --

llvm::Expected<std::vector<KernelFacts>> readAmdgcn(const std::string &file, llvm::StringRef text) {
  if (auto err = requireText(file, text, "AMDGCN assembly"))
    return err;
  std::vector<KernelFacts> kernels;
  std::map<std::string, size_t> index;
  std::optional<std::string> target;
  std::string targetField;
  std::string descriptorOf; // inside .amdhsa_kernel NAME
  unsigned descriptorLine = 0;
  std::string infoOf; // inside a "; Kernel info:" block
  bool inMetadata = false;
  std::string metaKernel; // YAML entry being read
  size_t metaKeyIndent = 0;
  std::map<std::string, int64_t> metaFields;
  std::vector<std::pair<std::string, std::map<std::string, int64_t>>> metaEntries;
  auto flushMeta = [&] {
    if (!metaKernel.empty() || !metaFields.empty())
      metaEntries.emplace_back(metaKernel, metaFields);
    metaKernel.clear();
    metaFields.clear();
  };

  forEachLine(text, [&](llvm::StringRef line, unsigned lineNo) {
    llvm::StringRef t = line.trim();
    if (inMetadata) {
      if (t == ".end_amdgpu_metadata") {
        flushMeta();
        inMetadata = false;
        return;
      }
      size_t indent = line.find_first_not_of(' ');
      if (indent == llvm::StringRef::npos)
        return;
      llvm::StringRef body = line.substr(indent);
      if (body.starts_with("amdhsa.target:")) {
        if (!target) {
          target = hw::archName(body.drop_front(strlen("amdhsa.target:")));
          targetField = "amdhsa.target";
        }
        return;
      }
      if (body.starts_with("- .") && indent <= 2) { // a new kernel entry
        flushMeta();
        metaKeyIndent = indent + 2;
        body = body.drop_front(2);
        indent += 2;
      }
      if (indent != metaKeyIndent || !body.starts_with("."))
        return;
      auto [key, value] = body.split(':');
      value = value.trim();
      if (key == ".name")
        metaKernel = value.str();
      else if (auto v = parseInt(value))
        metaFields[key.str()] = *v;
      return;
    }
    if (t.starts_with(".amdgcn_target")) {
      if (auto a = hw::archName(t.drop_front(strlen(".amdgcn_target")))) {
        target = a;
        targetField = ".amdgcn_target";
      }
      return;
    }
    if (t == ".amdgpu_metadata") {
      inMetadata = true;
      return;
    }
    if (t.starts_with(".amdhsa_kernel ")) {
      descriptorOf = t.drop_front(strlen(".amdhsa_kernel ")).trim().str();
      descriptorLine = lineNo;
      kernelNamed(kernels, index, descriptorOf, file, ArtifactKind::Amdgcn);
      return;
    }
    if (t == ".end_amdhsa_kernel") {
      infoOf = descriptorOf;
      descriptorOf.clear();
      return;
    }
    if (!descriptorOf.empty() && t.starts_with(".amdhsa_")) {
      auto &k = kernelNamed(kernels, index, descriptorOf, file, ArtifactKind::Amdgcn);
      llvm::StringRef key, value;
      std::tie(key, value) = t.split(' ');
      auto v = parseInt(value);
      if (!v)
        return;
      if (key == ".amdhsa_next_free_vgpr" && !k.vgprsForOccupancy)
        k.vgprsForOccupancy = fig(*v, file, key.str());
      else if (key == ".amdhsa_next_free_sgpr")
        k.totalSgprs = k.totalSgprs ? k.totalSgprs : fig(*v, file, key.str());
      else if (key == ".amdhsa_private_segment_fixed_size")
        k.scratchBytes = fig(*v, file, key.str());
      else if (key == ".amdhsa_wavefront_size32")
        k.warpSize = fig(*v ? 32 : 64, file, key.str());
      return;
    }
    if (t.starts_with(".set ")) {
      // .set NAME.num_agpr, 64
      llvm::StringRef rest = t.drop_front(5);
      auto [sym, value] = rest.split(',');
      size_t dot = sym.rfind('.');
      if (dot == llvm::StringRef::npos || !index.count(sym.take_front(dot).str()))
        return;
      auto v = parseInt(value);
      if (!v)
        return;
      auto &k = kernelNamed(kernels, index, sym.take_front(dot).str(), file, ArtifactKind::Amdgcn);
      llvm::StringRef field = sym.substr(dot + 1);
      if (field == "num_vgpr" && !k.archVgprs)
        k.archVgprs = fig(*v, file, ".set " + sym.str());
      else if (field == "num_agpr" && !k.agprs)
        k.agprs = fig(*v, file, ".set " + sym.str());
      return;
    }
    if (t == "; Kernel info:") {
      if (infoOf.empty() && !kernels.empty())
        infoOf = kernels.back().kernel;
      return;
    }
    if (!infoOf.empty()) {
      if (!t.starts_with(";")) {
        if (!t.empty() && !t.starts_with("."))
          infoOf.clear();
        return;
      }
      llvm::StringRef body = t.drop_front(1).trim();
      auto [key, value] = body.split(':');
      key = key.trim();
      auto v = parseInt(value.trim().split(' ').first);
      if (!v)
        return; // symbolic expressions from newer LLVM: fall back to the YAML
      auto &k = kernelNamed(kernels, index, infoOf, file, ArtifactKind::Amdgcn);
      std::string field = "; " + key.str();
      if (key == "NumVGPRsForWavesPerEU")
        k.vgprsForOccupancy = fig(*v, file, field);
      else if (key == "NumSGPRsForWavesPerEU")
        k.sgprsForOccupancy = fig(*v, file, field);
      else if (key == "NumVgprs")
        k.archVgprs = fig(*v, file, field);
      else if (key == "NumAgprs")
        k.agprs = fig(*v, file, field);
      else if (key == "TotalNumVgprs")
        k.totalVgprs = fig(*v, file, field);
      else if (key == "TotalNumSgprs")
        k.totalSgprs = fig(*v, file, field);
      else if (key == "ScratchSize")
        k.scratchBytes = fig(*v, file, field);
      else if (key == "Occupancy")
        k.compilerOccupancy = fig(*v, file, field);
    }
  });
  if (inMetadata)
    return artifactError(file, 0, 0, "the .amdgpu_metadata block is not closed (truncated file?)");
  if (!descriptorOf.empty())
    return artifactError(file, descriptorLine, 1,
                         "kernel descriptor of '" + descriptorOf +
                             "' is not closed (truncated file?)");
  for (auto &[name, fields] : metaEntries) {
    if (name.empty() || !index.count(name))
      continue;
    auto &k = kernels[index[name]];
    auto take = [&](OptFigure &slot, const char *key, bool override) {
      auto it = fields.find(key);
      if (it != fields.end() && (override || !slot))
        slot = fig(it->second, file, key);
    };
    take(k.totalVgprs, ".vgpr_count", false);
    take(k.totalSgprs, ".sgpr_count", false);
    take(k.agprs, ".agpr_count", false);
    take(k.vgprSpills, ".vgpr_spill_count", true);
    take(k.sgprSpills, ".sgpr_spill_count", true);
    take(k.scratchBytes, ".private_segment_fixed_size", false);
    take(k.maxFlatWorkgroupSize, ".max_flat_workgroup_size", true);
    take(k.warpSize, ".wavefront_size", false);
  }
  if (kernels.empty())
    return artifactError(file, 1, 1, "no kernel descriptor (.amdhsa_kernel) in this file");
  for (auto &k : kernels) {
    if (target) {
      k.arch = target;
      k.archFrom = targetField;
    }
    completeAmdFacts(k);
  }
  return kernels;
}

void completeAmdFacts(KernelFacts &k) {
  if (!k.vgprsForOccupancy && k.totalVgprs)
    k.vgprsForOccupancy = k.totalVgprs;
  if (!k.sgprsForOccupancy && k.totalSgprs)
    k.sgprsForOccupancy = k.totalSgprs;
  if (k.maxFlatWorkgroupSize) {
    // The wavefront size the listing gives, else the arch's (data/hw).
    std::optional<unsigned> archWave = k.arch ? hw::warpSize(*k.arch) : std::nullopt;
    int64_t wave = k.warpSize && k.warpSize->value > 0 ? k.warpSize->value : archWave.value_or(64);
    k.numWarps = fig((k.maxFlatWorkgroupSize->value + wave - 1) / wave, k.file,
                     ".max_flat_workgroup_size / wavefront size");
  }
}

// ------------------------------------------------------------------- PTX --

llvm::Expected<std::vector<KernelFacts>> readPtx(const std::string &file, llvm::StringRef text) {
  if (auto err = requireText(file, text, "PTX"))
    return err;
  std::vector<KernelFacts> kernels;
  std::optional<std::string> target;
  forEachLine(text, [&](llvm::StringRef line, unsigned) {
    llvm::StringRef t = line.trim();
    if (t.starts_with(".target ")) {
      target = hw::archName(t.drop_front(8).split(',').first);
      return;
    }
    size_t entry = t.find(".entry ");
    if (entry != llvm::StringRef::npos && !t.starts_with("//")) {
      llvm::StringRef name = t.substr(entry + 7).trim();
      name = name.take_until([](char c) { return c == '(' || c == ' ' || c == '\t'; });
      KernelFacts k;
      k.kernel = name.str();
      k.file = file;
      k.kind = ArtifactKind::Ptx;
      kernels.push_back(std::move(k));
      return;
    }
    if (kernels.empty())
      return;
    auto &k = kernels.back();
    if (t.starts_with(".reqntid ")) {
      if (auto v = parseInt(t.drop_front(9).split(',').first))
        k.numWarps = fig((*v + 31) / 32, file, ".reqntid / 32");
    } else if (t.starts_with(".maxntid ")) {
      if (auto v = parseInt(t.drop_front(9).split(',').first))
        k.maxThreads = fig(*v, file, ".maxntid");
    }
  });
  if (kernels.empty())
    return artifactError(file, 1, 1, "no .entry in this file (not PTX?)");
  for (auto &k : kernels) {
    k.arch = target;
    if (target)
      k.archFrom = ".target";
    k.notes.push_back("PTX registers are virtual: no register count is read from PTX (the cubin or "
                      "the metadata gives it)");
  }
  return kernels;
}

// ------------------------------------------------------------------ SASS --

llvm::Expected<std::vector<KernelFacts>> readSass(const std::string &file, llvm::StringRef text) {
  if (auto err = requireText(file, text, "SASS"))
    return err;
  std::vector<KernelFacts> kernels;
  std::optional<std::string> target;
  forEachLine(text, [&](llvm::StringRef line, unsigned) {
    llvm::StringRef t = line.trim();
    if (t.starts_with("code for ")) {
      target = hw::archName(t.drop_front(9));
      return;
    }
    if (t.starts_with("Function : ")) {
      KernelFacts k;
      k.kernel = t.drop_front(11).trim().str();
      k.file = file;
      k.kind = ArtifactKind::Sass;
      k.arch = target;
      if (target)
        k.archFrom = "code for";
      k.spillInstructions = fig(0, file, "STL/LDL instructions");
      kernels.push_back(std::move(k));
      return;
    }
    if (kernels.empty())
      return;
    // "/*0c20*/  @P0 STL [R1+0x10], R4 ;" or Triton's "--:-:1:-:2\tSTL ..."
    llvm::StringRef ins = t;
    if (ins.starts_with("/*")) {
      size_t end = ins.find("*/");
      if (end == llvm::StringRef::npos)
        return;
      ins = ins.drop_front(end + 2).trim();
    } else if (size_t tab = ins.find('\t'); tab != llvm::StringRef::npos) {
      ins = ins.drop_front(tab + 1).trim();
    }
    if (ins.starts_with("@"))
      ins = ins.drop_until([](char c) { return c == ' '; }).trim();
    llvm::StringRef op = ins.take_until([](char c) { return c == ' ' || c == '.' || c == ';'; });
    if (op == "STL" || op == "LDL")
      ++kernels.back().spillInstructions->value;
  });
  if (kernels.empty())
    return artifactError(file, 1, 1, "no 'Function :' header in this file (not SASS?)");
  return kernels;
}

// ---------------------------------------------------------- metadata JSON --

llvm::Expected<std::vector<KernelFacts>> readMetadataJson(const std::string &file,
                                                          llvm::StringRef text) {
  auto parsed = parseJson(text, file);
  if (!parsed)
    return parsed.takeError();
  nlohmann::json j = std::move(*parsed);
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string() ||
      (!j.contains("num_warps") && !j.contains("shared")))
    return artifactError(file, 1, 1,
                         "not a Triton kernel metadata file (needs \"name\" and \"num_warps\")");
  KernelFacts k;
  k.kernel = j["name"].get<std::string>();
  k.file = file;
  k.kind = ArtifactKind::MetadataJson;
  auto num = [&](const char *key) -> OptFigure {
    if (!j.contains(key))
      return std::nullopt;
    const auto &v = j[key];
    if (v.is_number_unsigned() && v.get<uint64_t>() <= uint64_t(kMaxFigure))
      return fig(static_cast<int64_t>(v.get<uint64_t>()), file, key);
    if (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() >= 0 &&
        v.get<int64_t>() <= kMaxFigure)
      return fig(v.get<int64_t>(), file, key);
    if (v.is_number_float() && v.get<double>() >= 0 && v.get<double>() <= double(kMaxFigure))
      return fig(static_cast<int64_t>(v.get<double>()), file, key);
    return std::nullopt;
  };
  k.numWarps = num("num_warps");
  k.sharedBytes = num("shared");
  k.tmemColumns = num("tmem_size");
  k.wavesPerEu = num("waves_per_eu");
  k.warpSize = num("warp_size");
  k.jsonRegisters = num("n_regs");
  k.jsonSpills = num("n_spills");
  // "target": {"backend", "arch", "warp_size"} or the repr string
  // "GPUTarget(backend='hip', arch='gfx942', warp_size=64)"; "arch": "sm90".
  if (j.contains("target")) {
    const auto &t = j["target"];
    if (t.is_object() && t.contains("arch")) {
      if (t["arch"].is_number_integer())
        k.arch = hw::archName(std::to_string(t["arch"].get<int64_t>()));
      else if (t["arch"].is_string())
        k.arch = hw::archName(t["arch"].get<std::string>());
      if (!k.warpSize && t.contains("warp_size") && t["warp_size"].is_number_integer())
        k.warpSize = fig(t["warp_size"].get<int64_t>(), file, "target.warp_size");
    } else if (t.is_string()) {
      llvm::StringRef s(t.get_ref<const std::string &>());
      size_t a = s.find("arch=");
      if (a != llvm::StringRef::npos)
        k.arch =
            hw::archName(s.substr(a + 5).take_until([](char c) { return c == ','; }).trim("'\" )"));
    }
    if (k.arch)
      k.archFrom = "target";
  }
  if (!k.arch && j.contains("arch") && j["arch"].is_string()) {
    k.arch = hw::archName(j["arch"].get<std::string>());
    if (k.arch)
      k.archFrom = "arch";
  }
  return std::vector<KernelFacts>{std::move(k)};
}

llvm::Expected<std::vector<KernelFacts>> readArtifact(ArtifactKind kind, const std::string &file,
                                                      llvm::StringRef contents) {
  switch (kind) {
  case ArtifactKind::Amdgcn:
    return readAmdgcn(file, contents);
  case ArtifactKind::Hsaco:
    return readHsaco(file, contents);
  case ArtifactKind::Cubin:
    return readCubin(file, contents);
  case ArtifactKind::Ptx:
    return readPtx(file, contents);
  case ArtifactKind::Sass:
    return readSass(file, contents);
  case ArtifactKind::MetadataJson:
    return readMetadataJson(file, contents);
  }
  return artifactError(file, 0, 0, "unknown artifact kind");
}

} // namespace tilexform::asmfile
