// Binary artifacts, read with LLVM's Object and MsgPack libraries:
//  - .hsaco: the AMDGPU code object. Register counts, spills and scratch come
//    from the NT_AMDGPU_METADATA note (MessagePack); the registers the
//    hardware allocates come from each kernel descriptor (<name>.kd).
//  - .cubin: the CUDA binary. Register count and frame size come from the
//    EIATTR records of .nv.info, the block size from .nv.info.<name>, static
//    shared memory from .nv.shared.<name>.
#include "tilexform/asm/Artifacts.h"
#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Target.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/BinaryFormat/MsgPackDocument.h>
#include <llvm/BinaryFormat/MsgPackReader.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/Endian.h>

#include <map>

namespace tilexform::asmfile {

namespace {

using ELFT = llvm::object::ELF64LE;
using ElfFile = llvm::object::ELF64LEFile;
using Shdr = ELFT::Shdr;

Figure fig(int64_t v, const std::string &file, std::string field) {
  return Figure{v, file, std::move(field)};
}

/// The largest count or size an artifact may state: far above any GPU's
/// (a block of 1024 threads, 228 KiB of shared memory), far below what
/// the occupancy models' arithmetic can carry.
constexpr uint64_t kMaxFigure = uint64_t(1) << 40;

/// A figure read from a binary field; one past kMaxFigure makes the file
/// refused (a wrapped count would give warps and occupancy that mean nothing).
llvm::Expected<Figure> boundedFig(uint64_t v, const std::string &file, std::string field) {
  if (v > kMaxFigure)
    return artifactError(file, 0, 0,
                         field + " is " + std::to_string(v) + ", out of range (at most 2^40)");
  return fig(int64_t(v), file, std::move(field));
}

llvm::Error corrupt(const std::string &file, const std::string &what, llvm::Error cause) {
  std::string why = llvm::toString(std::move(cause));
  return artifactError(file, 0, 0, what + ": " + why);
}

llvm::Expected<ElfFile> openElf(const std::string &file, llvm::StringRef bytes, unsigned machine,
                                const char *what) {
  if (bytes.size() < 4 || !bytes.starts_with("\x7f"
                                             "ELF"))
    return artifactError(file, 0, 0, std::string("not an ELF file (expected ") + what + ")");
  if (bytes.size() < sizeof(ELFT::Ehdr) || bytes[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64)
    return artifactError(file, 0, 0, "truncated ELF header or not a 64-bit ELF file");
  auto ef = ElfFile::create(bytes);
  if (!ef)
    return corrupt(file, "unreadable ELF file", ef.takeError());
  if (ef->getHeader().e_machine != machine)
    return artifactError(file, 0, 0,
                         "ELF file for machine " + std::to_string(ef->getHeader().e_machine) +
                             ", not " + what);
  // Every later step walks the section table: check it once, up front, so a
  // damaged file is refused as a whole rather than half-read.
  auto sections = ef->sections();
  if (!sections)
    return corrupt(file, "corrupt ELF section table", sections.takeError());
  for (const Shdr &sec : *sections) {
    if (auto name = ef->getSectionName(sec); !name)
      return corrupt(file, "corrupt ELF section table", name.takeError());
    if (sec.sh_type != llvm::ELF::SHT_NOBITS &&
        (sec.sh_size > bytes.size() || sec.sh_offset > bytes.size() - sec.sh_size))
      return artifactError(file, 0, 0,
                           "corrupt ELF section table: a section ends past the end of the file "
                           "(truncated file?)");
  }
  return ef;
}

struct SymbolEntry {
  std::string name;
  const ELFT::Sym *sym;
};

/// Symbol names by symbol-table index.
llvm::Expected<std::vector<SymbolEntry>> symbolTable(const ElfFile &ef, const std::string &file) {
  std::vector<SymbolEntry> out;
  auto sections = ef.sections();
  if (!sections)
    return sections.takeError();
  for (const Shdr &sec : *sections) {
    if (sec.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto syms = ef.symbols(&sec);
    if (!syms)
      return corrupt(file, "corrupt symbol table", syms.takeError());
    auto strtab = ef.getStringTableForSymtab(sec);
    if (!strtab)
      return corrupt(file, "corrupt symbol table", strtab.takeError());
    for (const auto &sym : *syms) {
      auto name = sym.getName(*strtab);
      out.push_back({name ? name->str() : std::string(), &sym});
      if (!name)
        llvm::consumeError(name.takeError());
    }
    break;
  }
  return out;
}

/// A checked ELF file with its section and symbol tables.
struct OpenedElf {
  ElfFile ef;
  ElfFile::Elf_Shdr_Range sections;
  std::vector<SymbolEntry> symbols;
};

llvm::Expected<OpenedElf> openWithTables(const std::string &file, llvm::StringRef bytes,
                                         unsigned machine, const char *what) {
  auto ef = openElf(file, bytes, machine, what);
  if (!ef)
    return ef.takeError();
  auto syms = symbolTable(*ef, file);
  if (!syms)
    return syms.takeError();
  auto sections = ef->sections();
  if (!sections)
    return sections.takeError();
  return OpenedElf{*ef, *sections, std::move(*syms)};
}

// ------------------------------------------------------------------ hsaco --

std::optional<std::string> amdgpuArchFromFlags(unsigned flags) {
  using namespace llvm::ELF;
  static const std::pair<unsigned, const char *> table[] = {
      {EF_AMDGPU_MACH_AMDGCN_GFX908, "gfx908"},   {EF_AMDGPU_MACH_AMDGCN_GFX90A, "gfx90a"},
      {EF_AMDGPU_MACH_AMDGCN_GFX942, "gfx942"},   {EF_AMDGPU_MACH_AMDGCN_GFX950, "gfx950"},
      {EF_AMDGPU_MACH_AMDGCN_GFX1030, "gfx1030"}, {EF_AMDGPU_MACH_AMDGCN_GFX1100, "gfx1100"},
      {EF_AMDGPU_MACH_AMDGCN_GFX1101, "gfx1101"}, {EF_AMDGPU_MACH_AMDGCN_GFX1102, "gfx1102"},
      {EF_AMDGPU_MACH_AMDGCN_GFX1151, "gfx1151"}, {EF_AMDGPU_MACH_AMDGCN_GFX1200, "gfx1200"},
      {EF_AMDGPU_MACH_AMDGCN_GFX1201, "gfx1201"}, {EF_AMDGPU_MACH_AMDGCN_GFX1250, "gfx1250"},
  };
  unsigned mach = flags & EF_AMDGPU_MACH;
  for (auto &[value, name] : table)
    if (value == mach)
      return std::string(name);
  return std::nullopt;
}

const llvm::msgpack::DocNode *mapGet(const llvm::msgpack::DocNode &node, llvm::StringRef key) {
  if (!node.isMap())
    return nullptr;
  for (const auto &[k, v] : const_cast<llvm::msgpack::DocNode &>(node).getMap())
    if (k.isString() && k.getString() == key)
      return &v;
  return nullptr;
}

/// A count or size from the metadata; values outside [0, 2^40] are not
/// figures (and would overflow the models' arithmetic).
std::optional<int64_t> intOf(const llvm::msgpack::DocNode *node) {
  constexpr int64_t kMax = int64_t(1) << 40;
  if (!node)
    return std::nullopt;
  if (node->getKind() == llvm::msgpack::Type::UInt && node->getUInt() <= uint64_t(kMax))
    return static_cast<int64_t>(node->getUInt());
  if (node->getKind() == llvm::msgpack::Type::Int && node->getInt() >= 0 && node->getInt() <= kMax)
    return node->getInt();
  return std::nullopt;
}

/// Whether a MessagePack blob may be handed to msgpack::Document: it must
/// read to its end, and every map key must be a scalar (the document orders
/// keys and has no order for arrays, maps or extensions). Checked with the
/// low-level reader, iteratively.
llvm::Error checkMsgPack(llvm::StringRef blob, const std::string &file) {
  using llvm::msgpack::Type;
  struct Level {
    size_t remaining;
    bool map;
    size_t index;
  };
  llvm::msgpack::Reader reader(blob);
  std::vector<Level> stack;
  size_t objects = 0;
  auto bad = [&](const std::string &why) {
    return artifactError(file, 0, 0, "the AMDGPU metadata note is not valid MessagePack: " + why);
  };
  while (true) {
    while (!stack.empty() && stack.back().remaining == 0)
      stack.pop_back();
    if (objects > 0 && stack.empty())
      return llvm::Error::success();
    llvm::msgpack::Object obj;
    auto more = reader.read(obj);
    if (!more)
      return bad(llvm::toString(more.takeError()));
    if (!*more)
      return bad("it ends inside an array or map");
    ++objects;
    bool key = false;
    if (!stack.empty()) {
      Level &level = stack.back();
      key = level.map && level.index % 2 == 0;
      ++level.index;
      --level.remaining;
    }
    if (key && (obj.Kind == Type::Array || obj.Kind == Type::Map || obj.Kind == Type::Extension))
      return bad("a map key is not a scalar");
    if (obj.Kind == Type::Array || obj.Kind == Type::Map) {
      // Every element takes at least one byte.
      if (obj.Length > blob.size())
        return bad("an array or map is longer than the note");
      size_t elements = obj.Kind == Type::Map ? obj.Length * 2 : obj.Length;
      if (elements) {
        if (stack.size() >= 64)
          return bad("nested too deeply");
        stack.push_back({elements, obj.Kind == Type::Map, 0});
      }
    }
  }
}

/// The NT_AMDGPU_METADATA note's kernels, as facts.
llvm::Error readAmdgpuNote(const ElfFile &ef, const std::string &file,
                           std::vector<KernelFacts> &kernels, std::optional<std::string> &target) {
  auto sections = ef.sections();
  if (!sections)
    return sections.takeError();
  bool found = false;
  for (const Shdr &sec : *sections) {
    if (sec.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error err = llvm::Error::success();
    for (const auto &note : ef.notes(sec, err)) {
      if (note.getName() != "AMDGPU" || note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      llvm::StringRef blob = note.getDescAsStringRef(4);
      if (auto err = checkMsgPack(blob, file))
        return err;
      llvm::msgpack::Document doc;
      if (!doc.readFromBlob(blob, /*Multi=*/false))
        return artifactError(file, 0, 0, "the AMDGPU metadata note is not valid MessagePack");
      found = true;
      auto &root = doc.getRoot();
      if (auto *t = mapGet(root, "amdhsa.target"); t && t->isString())
        target = hw::archName(t->getString());
      auto *list = mapGet(root, "amdhsa.kernels");
      if (!list || !list->isArray())
        continue;
      for (auto &entry : const_cast<llvm::msgpack::DocNode *>(list)->getArray()) {
        auto *name = mapGet(entry, ".name");
        if (!name || !name->isString())
          continue;
        KernelFacts k;
        k.kernel = name->getString().str();
        k.file = file;
        k.kind = ArtifactKind::Hsaco;
        auto take = [&](OptFigure &slot, const char *key) {
          if (auto v = intOf(mapGet(entry, key)))
            slot = fig(*v, file, key);
        };
        take(k.totalVgprs, ".vgpr_count");
        take(k.totalSgprs, ".sgpr_count");
        take(k.agprs, ".agpr_count");
        take(k.vgprSpills, ".vgpr_spill_count");
        take(k.sgprSpills, ".sgpr_spill_count");
        take(k.scratchBytes, ".private_segment_fixed_size");
        take(k.maxFlatWorkgroupSize, ".max_flat_workgroup_size");
        take(k.warpSize, ".wavefront_size");
        kernels.push_back(std::move(k));
      }
    }
    if (err)
      return corrupt(file, "corrupt ELF note", std::move(err));
  }
  if (!found)
    return artifactError(file, 0, 0, "no AMDGPU metadata note (NT_AMDGPU_METADATA) in this file");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<KernelFacts>> readHsaco(const std::string &file, llvm::StringRef bytes) {
  auto elf = openWithTables(file, bytes, llvm::ELF::EM_AMDGPU, "an AMDGPU code object");
  if (!elf)
    return elf.takeError();
  std::vector<KernelFacts> kernels;
  std::optional<std::string> target;
  if (auto err = readAmdgpuNote(elf->ef, file, kernels, target))
    return err;
  std::optional<std::string> flagsArch = amdgpuArchFromFlags(elf->ef.getHeader().e_flags);
  // The kernel descriptor (64 bytes at <name>.kd) holds what the hardware
  // allocates: COMPUTE_PGM_RSRC1 bits 5:0 are the VGPR blocks and bits 9:6 the
  // SGPR blocks, in the arch's granules (data/hw kd_vgpr_granule and
  // kd_sgpr_granule; read only where both are known). When waves_per_eu pads
  // the allocation this differs from .vgpr_count.
  const auto &sections = elf->sections;
  std::string arch = target ? *target : flagsArch.value_or("");
  auto vgprBlock = hw::figure(arch, "kd_vgpr_granule");
  auto sgprBlock = hw::figure(arch, "kd_sgpr_granule");
  for (auto &k : kernels) {
    if (target || flagsArch) {
      k.arch = target ? target : flagsArch;
      k.archFrom = target ? "amdhsa.target" : "e_flags";
    }
    const ELFT::Sym *kd = nullptr;
    for (auto &entry : elf->symbols)
      if (entry.name == k.kernel + ".kd")
        kd = entry.sym;
    if (!kd) {
      k.notes.push_back("no kernel descriptor symbol " + k.kernel + ".kd");
    } else if (kd->st_shndx == 0 || kd->st_shndx >= sections.size()) {
      k.notes.push_back("kernel descriptor " + k.kernel + ".kd is not in a section");
    } else {
      const Shdr &sec = sections[kd->st_shndx];
      uint64_t delta = kd->st_value - sec.sh_addr;
      uint64_t off = sec.sh_offset + delta;
      if (kd->st_value < sec.sh_addr || delta > bytes.size() || off < sec.sh_offset ||
          bytes.size() < 64 || off > bytes.size() - 64) {
        return artifactError(file, 0, 0,
                             "kernel descriptor " + k.kernel + ".kd lies outside the file");
      }
      const char *p = bytes.data() + off;
      uint32_t rsrc1 = llvm::support::endian::read32le(p + 48);
      if (vgprBlock && sgprBlock) {
        k.vgprsForOccupancy =
            fig(((rsrc1 & 0x3f) + 1) * vgprBlock->value, file,
                k.kernel + ".kd COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT");
        k.sgprsForOccupancy =
            fig((((rsrc1 >> 6) & 0xf) + 1) * sgprBlock->value, file,
                k.kernel + ".kd COMPUTE_PGM_RSRC1.GRANULATED_WAVEFRONT_SGPR_COUNT");
      }
    }
    completeAmdFacts(k);
  }
  if (kernels.empty())
    return artifactError(file, 0, 0, "the AMDGPU metadata lists no kernels");
  return kernels;
}

// ------------------------------------------------------------------ cubin --

namespace {

// EIATTR attribute codes of .nv.info records (as nvdisasm names them).
enum : uint8_t {
  kEiattrReqntid = 0x10,
  kEiattrFrameSize = 0x11,
  kEiattrMinStackSize = 0x12,
  kEiattrRegcount = 0x2f,
};
// Record formats: no value, a byte, a half word (each a 4-byte record), or a
// sized payload.
enum : uint8_t { kEifmtNval = 1, kEifmtBval = 2, kEifmtHval = 3, kEifmtSval = 4 };

struct NvInfoRecord {
  uint8_t attr = 0;
  uint32_t value = 0;      // Bval/Hval
  llvm::StringRef payload; // Sval
};

llvm::Expected<std::vector<NvInfoRecord>> parseNvInfo(llvm::StringRef data, const std::string &file,
                                                      llvm::StringRef section) {
  std::vector<NvInfoRecord> out;
  size_t i = 0;
  while (i + 2 <= data.size()) {
    uint8_t format = data[i], attr = data[i + 1];
    NvInfoRecord r;
    r.attr = attr;
    if (format == kEifmtNval || format == kEifmtBval || format == kEifmtHval) {
      // Records stay 4-byte aligned: even a no-value record takes 4 bytes.
      if (i + 4 > data.size())
        break;
      r.value = llvm::support::endian::read16le(data.data() + i + 2);
      i += 4;
    } else if (format == kEifmtSval) {
      if (i + 4 > data.size())
        break;
      uint16_t size = llvm::support::endian::read16le(data.data() + i + 2);
      if (i + 4 + size > data.size())
        return artifactError(file, 0, 0,
                             "corrupt " + section.str() + ": a record runs past the section");
      r.payload = data.substr(i + 4, size);
      i += 4 + size;
    } else {
      return artifactError(file, 0, 0,
                           "corrupt " + section.str() + ": unknown record format " +
                               std::to_string(format));
    }
    out.push_back(r);
  }
  return out;
}

std::optional<std::string> cudaArchFromHeader(const ELFT::Ehdr &h) {
  using namespace llvm::ELF;
  unsigned flags = h.e_flags;
  unsigned sm = h.e_ident[EI_ABIVERSION] >= 8 ? (flags & EF_CUDA_SM_MASK) >> EF_CUDA_SM_OFFSET
                                              : flags & EF_CUDA_SM;
  if (!sm)
    return std::nullopt;
  return "sm_" + std::to_string(sm);
}

} // namespace

llvm::Expected<std::vector<KernelFacts>> readCubin(const std::string &file, llvm::StringRef bytes) {
  auto elf = openWithTables(file, bytes, llvm::ELF::EM_CUDA, "a CUDA binary");
  if (!elf)
    return elf.takeError();
  const ElfFile &ef = elf->ef;
  const auto &syms = elf->symbols;
  std::optional<std::string> arch = cudaArchFromHeader(ef.getHeader());

  std::vector<KernelFacts> kernels;
  std::map<std::string, size_t> byName;
  auto kernelFor = [&](const std::string &name) -> KernelFacts & {
    auto it = byName.find(name);
    if (it != byName.end())
      return kernels[it->second];
    byName[name] = kernels.size();
    KernelFacts k;
    k.kernel = name;
    k.file = file;
    k.kind = ArtifactKind::Cubin;
    k.arch = arch;
    if (arch)
      k.archFrom = "e_flags";
    kernels.push_back(std::move(k));
    return kernels.back();
  };
  // Kernels are the functions with their own .text.<name> section.
  for (const Shdr &sec : elf->sections) {
    llvm::StringRef name = llvm::cantFail(ef.getSectionName(sec));
    if (name.consume_front(".text.") && !name.empty())
      kernelFor(name.str());
  }
  auto symbolName = [&](uint32_t index) -> std::string {
    return index < syms.size() ? syms[index].name : std::string();
  };
  for (const Shdr &sec : elf->sections) {
    llvm::StringRef name = llvm::cantFail(ef.getSectionName(sec));
    if (name.starts_with(".nv.shared.") && sec.sh_type == llvm::ELF::SHT_NOBITS) {
      llvm::StringRef fn = name.drop_front(strlen(".nv.shared."));
      if (byName.count(fn.str())) {
        auto bytes = boundedFig(sec.sh_size, file, name.str() + " size");
        if (!bytes)
          return bytes.takeError();
        kernelFor(fn.str()).staticSharedBytes = *bytes;
      }
      continue;
    }
    if (!name.starts_with(".nv.info"))
      continue;
    auto contents = ef.getSectionContents(sec);
    if (!contents)
      return corrupt(file, "unreadable " + name.str(), contents.takeError());
    llvm::StringRef data(reinterpret_cast<const char *>(contents->data()), contents->size());
    auto records = parseNvInfo(data, file, name);
    if (!records)
      return records.takeError();
    llvm::StringRef fn = name.consume_front(".nv.info.") ? name : llvm::StringRef();
    for (const auto &r : *records) {
      if (fn.empty()) {
        // Global .nv.info: {symbol index, value} pairs.
        if (r.payload.size() < 8)
          continue;
        uint32_t symIndex = llvm::support::endian::read32le(r.payload.data());
        uint32_t value = llvm::support::endian::read32le(r.payload.data() + 4);
        std::string kname = symbolName(symIndex);
        if (!byName.count(kname))
          continue;
        auto &k = kernelFor(kname);
        if (r.attr == kEiattrRegcount)
          k.registers = fig(value, file, "EIATTR_REGCOUNT");
        else if (r.attr == kEiattrFrameSize)
          k.localBytes = fig(value, file, "EIATTR_FRAME_SIZE");
        else if (r.attr == kEiattrMinStackSize && !k.localBytes)
          k.localBytes = fig(value, file, "EIATTR_MIN_STACK_SIZE");
      } else if (byName.count(fn.str())) {
        auto &k = kernelFor(fn.str());
        if (r.attr == kEiattrReqntid && r.payload.size() >= 12) {
          // Three 32-bit extents: their product can pass 2^64.
          uint64_t threads = 1;
          bool overflow = false;
          for (int d = 0; d < 3; ++d) {
            uint64_t extent = llvm::support::endian::read32le(r.payload.data() + 4 * d);
            overflow = overflow || __builtin_mul_overflow(threads, extent, &threads);
          }
          if (overflow || threads > kMaxFigure)
            return artifactError(file, 0, 0,
                                 "EIATTR_REQNTID of " + fn.str() +
                                     ": the block's thread count is out of range (at most 2^40)");
          k.maxThreads = fig(int64_t(threads), file, "EIATTR_REQNTID");
          k.numWarps = fig(int64_t((threads + 31) / 32), file, "EIATTR_REQNTID / 32");
        }
      }
    }
  }
  if (kernels.empty())
    return artifactError(file, 0, 0, "no kernel (.text.<name> section) in this CUDA binary");
  for (auto &k : kernels)
    if (!k.registers)
      k.notes.push_back("no EIATTR_REGCOUNT record for " + k.kernel);
  return kernels;
}

} // namespace tilexform::asmfile
