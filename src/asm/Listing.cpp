// Instruction listings of AMDGCN (assembler text and llvm-objdump), SASS
// (cuobjdump and nvdisasm) and PTX, read line by line into kernels.
#include "tilexform/asm/Listing.h"
#include "tilexform/asm/Artifacts.h"
#include "tilexform/hw/Target.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/Text.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <map>
#include <set>

namespace tilexform::asmfile {

const char *isaName(Isa isa) {
  switch (isa) {
  case Isa::Amdgcn:
    return "amdgcn";
  case Isa::Sass:
    return "sass";
  case Isa::Ptx:
    return "ptx";
  }
  return "?";
}

std::optional<Isa> isaOfPath(const std::string &path) {
  llvm::StringRef p(path);
  if (p.ends_with(".amdgcn") || p.ends_with(".s") || p.ends_with(".S") || p.ends_with(".asm") ||
      p.ends_with(".dis"))
    return Isa::Amdgcn;
  if (p.ends_with(".sass"))
    return Isa::Sass;
  if (p.ends_with(".ptx"))
    return Isa::Ptx;
  return std::nullopt;
}

std::string KernelListing::labelAt(size_t index) const {
  for (auto &[name, at] : labels)
    if (at == index)
      return name;
  if (index < instructions.size()) {
    const Instruction &in = instructions[index];
    if (in.address)
      return isa == Isa::Sass ? fmt::format("0x{:x}", *in.address)
                              : fmt::format("{}+0x{:x}", name, *in.address);
    return fmt::format("line {}", in.line);
  }
  return "end";
}

namespace {

bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$'; }

/// `name:` at the start of `t` (t already trimmed on the left); the name.
std::optional<llvm::StringRef> labelOf(llvm::StringRef t) {
  size_t i = 0;
  while (i < t.size() && isIdentChar(t[i]))
    ++i;
  if (i == 0 || i >= t.size() || t[i] != ':')
    return std::nullopt;
  llvm::StringRef rest = t.drop_front(i + 1).ltrim();
  if (!rest.empty() && !rest.starts_with(";") && !rest.starts_with("//") &&
      !rest.starts_with("/*") && !rest.starts_with("#"))
    return std::nullopt;
  return t.take_front(i);
}

/// The address of objdump's `<sym+0x1c>` (or `<sym>`), from the symbols'
/// addresses; none when unknown.
std::optional<uint64_t> objdumpTarget(llvm::StringRef comment,
                                      const std::map<std::string, uint64_t> &symbols) {
  size_t lt = comment.rfind('<');
  size_t gt = comment.rfind('>');
  if (lt == llvm::StringRef::npos || gt == llvm::StringRef::npos || gt < lt)
    return std::nullopt;
  llvm::StringRef ref = comment.slice(lt + 1, gt);
  auto [sym, off] = ref.split('+');
  auto it = symbols.find(sym.str());
  if (it == symbols.end())
    return std::nullopt;
  uint64_t o = 0;
  if (!off.empty() && off.getAsInteger(0, o))
    return std::nullopt;
  return it->second + o;
}

/// Fills every instruction's `target` from its `targetText` (a label) or
/// the address recorded for it.
void resolveTargets(KernelListing &k, std::vector<std::optional<uint64_t>> &addressTargets) {
  std::map<std::string, size_t> byLabel;
  for (auto &[name, at] : k.labels)
    byLabel.emplace(name, at);
  std::map<uint64_t, size_t> byAddress;
  for (size_t i = 0; i < k.instructions.size(); ++i)
    if (k.instructions[i].address)
      byAddress.emplace(*k.instructions[i].address, i);
  for (size_t i = 0; i < k.instructions.size(); ++i) {
    Instruction &in = k.instructions[i];
    if (i < addressTargets.size() && addressTargets[i]) {
      auto it = byAddress.find(*addressTargets[i]);
      if (it != byAddress.end())
        in.target = it->second;
      continue;
    }
    if (in.targetText.empty())
      continue;
    auto it = byLabel.find(in.targetText);
    if (it != byLabel.end() && it->second < k.instructions.size())
      in.target = it->second;
  }
}

// ---- AMDGCN ------------------------------------------------------------------

// A listing that ends inside a function: its census would count half a
// kernel and say nothing. Named at the last line, with where it began.
llvm::Error truncatedListing(const std::string &file, llvm::StringRef text,
                             const KernelListing &k) {
  TextPosition end = positionOf(text, text.rtrim().size());
  return llvm::make_error<InputError>(
      file, end.line, end.col,
      fmt::format("the listing ends inside function '{}' (begun at line {}): truncated?", k.name,
                  k.startLine));
}

bool isAmdBranch(llvm::StringRef op) { return op == "s_branch" || op.starts_with("s_cbranch_"); }

llvm::Expected<std::vector<KernelListing>> readAmd(const std::string &file, llvm::StringRef text) {
  // Functions named by directives, so that a plain label is not a kernel.
  std::set<std::string> functions, entries;
  std::optional<std::string> arch;
  bool objdump = false;
  std::map<std::string, uint64_t> symbols;
  forEachLine(text, [&](llvm::StringRef line, unsigned) {
    llvm::StringRef t = line.trim();
    if (t.consume_front(".type")) {
      auto [name, kind] = t.trim().split(',');
      if (kind.contains("function"))
        functions.insert(name.trim().str());
    } else if (t.consume_front(".amdhsa_kernel ")) {
      functions.insert(t.trim().str());
      entries.insert(t.trim().str());
    } else if (t.starts_with(".amdgcn_target") || t.starts_with(".amdhsa_code_object_version")) {
      if (auto a = hw::archName(t))
        arch = a;
    } else if (t.contains("file format elf64-amdgpu")) {
      objdump = true;
    }
    // objdump: "0000000000001700 <matmul>:"
    size_t lt = t.find(" <");
    if (lt != llvm::StringRef::npos && t.ends_with(">:") && lt >= 8 &&
        llvm::all_of(t.take_front(lt), llvm::isHexDigit)) {
      uint64_t address = 0;
      if (!t.take_front(lt).getAsInteger(16, address))
        symbols[t.slice(lt + 2, t.size() - 2).str()] = address;
    }
  });
  if (!symbols.empty())
    objdump = true;

  std::vector<KernelListing> kernels;
  std::vector<std::vector<std::optional<uint64_t>>> addressTargets;
  KernelListing *cur = nullptr;
  bool ended = false; // past .Lfunc_end of the current kernel
  auto open = [&](std::string name, unsigned lineNo) {
    kernels.emplace_back();
    addressTargets.emplace_back();
    cur = &kernels.back();
    cur->name = std::move(name);
    cur->isa = Isa::Amdgcn;
    // With kernel descriptors, a function without one is a device function.
    cur->entry = entries.empty() || entries.count(cur->name) != 0;
    cur->arch = arch;
    cur->startLine = lineNo;
    cur->endLine = lineNo;
    ended = false;
  };
  forEachLine(text, [&](llvm::StringRef line, unsigned lineNo) {
    llvm::StringRef t = line.trim();
    if (t.empty())
      return;
    if (objdump) {
      size_t lt = t.find(" <");
      if (lt != llvm::StringRef::npos && t.ends_with(">:") &&
          llvm::all_of(t.take_front(lt), llvm::isHexDigit)) {
        open(t.slice(lt + 2, t.size() - 2).str(), lineNo);
        return;
      }
    }
    bool indented = line.size() > 0 && (line[0] == ' ' || line[0] == '\t');
    if (!indented) {
      if (auto label = labelOf(t)) {
        std::string name = label->str();
        if (!objdump && !name.starts_with(".") &&
            (functions.empty() ? true : functions.count(name) != 0)) {
          open(name, lineNo);
          return;
        }
        if (cur && !ended) {
          if (llvm::StringRef(name).starts_with(".Lfunc_end"))
            ended = true;
          else
            cur->labels.emplace_back(name, cur->instructions.size());
        }
        return;
      }
    }
    if (!cur || ended)
      return;
    if (t.starts_with(";") || t.starts_with("//") || t.starts_with(".") || t.starts_with("#"))
      return;
    // An instruction: mnemonic, operands, then a ';' or '//' comment.
    llvm::StringRef comment;
    size_t slash = t.find("//");
    size_t semi = t.find(';');
    size_t cut = std::min(slash, semi);
    if (cut != llvm::StringRef::npos) {
      comment = t.drop_front(cut);
      t = t.take_front(cut).rtrim();
    }
    if (t.empty() || !(llvm::isAlpha(t[0]) || t[0] == '_'))
      return;
    Instruction in;
    in.line = lineNo;
    size_t sp = t.find_first_of(" \t");
    in.opcode = t.take_front(sp).str();
    in.operands = sp == llvm::StringRef::npos ? "" : t.drop_front(sp).trim().str();
    std::optional<uint64_t> addressTarget;
    if (objdump && comment.starts_with("//")) {
      llvm::StringRef c = comment.drop_front(2).trim();
      size_t colon = c.find(':');
      uint64_t address = 0;
      if (colon != llvm::StringRef::npos && !c.take_front(colon).getAsInteger(16, address))
        in.address = address;
      if (isAmdBranch(in.opcode))
        addressTarget = objdumpTarget(c, symbols);
    }
    if (isAmdBranch(in.opcode)) {
      llvm::StringRef target = llvm::StringRef(in.operands).split(',').first.trim();
      in.targetText = target.str();
    }
    cur->instructions.push_back(std::move(in));
    addressTargets.back().push_back(addressTarget);
    cur->endLine = lineNo;
  });
  for (size_t i = 0; i < kernels.size(); ++i) {
    auto &ins = kernels[i].instructions;
    // objdump gives the section's trailing padding to the last symbol.
    while (!ins.empty() && ins.back().opcode == "s_code_end")
      ins.pop_back();
    if (!ins.empty())
      kernels[i].endLine = ins.back().line;
    if (objdump)
      for (auto &in : ins)
        if (in.address && symbols.count(kernels[i].name))
          in.address = *in.address - symbols[kernels[i].name];
    if (objdump)
      for (auto &t : addressTargets[i])
        if (t && symbols.count(kernels[i].name))
          t = *t - symbols[kernels[i].name];
    resolveTargets(kernels[i], addressTargets[i]);
  }
  // The compiler's listing closes each function with `.Lfunc_end`; the last
  // one open at the end of the text, its last instruction no end of a
  // program, is a listing cut short.
  if (!objdump && !ended && !kernels.empty() && !kernels.back().instructions.empty()) {
    const std::string &last = kernels.back().instructions.back().opcode;
    if (last != "s_endpgm" && last != "s_setpc_b64")
      return truncatedListing(file, text, kernels.back());
  }
  std::erase_if(kernels, [](const KernelListing &k) { return k.instructions.empty(); });
  return kernels;
}

// ---- SASS --------------------------------------------------------------------

bool isSassBranch(llvm::StringRef op) {
  llvm::StringRef base = op.split('.').first;
  return base == "BRA" || base == "JMP" || base == "BRX" || base == "JMX" || base == "CALL" ||
         base == "RET" || base == "EXIT" || base == "BREAK";
}

llvm::Expected<std::vector<KernelListing>> readSassListing(const std::string &file,
                                                           llvm::StringRef text) {
  std::vector<KernelListing> kernels;
  std::vector<std::vector<std::optional<uint64_t>>> addressTargets;
  std::optional<std::string> arch;
  KernelListing *cur = nullptr;
  auto open = [&](std::string name, unsigned lineNo) {
    kernels.emplace_back();
    addressTargets.emplace_back();
    cur = &kernels.back();
    cur->name = std::move(name);
    cur->isa = Isa::Sass;
    cur->arch = arch;
    cur->startLine = lineNo;
    cur->endLine = lineNo;
  };
  forEachLine(text, [&](llvm::StringRef line, unsigned lineNo) {
    llvm::StringRef t = line.trim();
    if (t.empty())
      return;
    if (t.starts_with("code for sm_") || t.starts_with(".target")) {
      if (auto a = hw::archName(t.drop_front(t.find("sm_"))))
        arch = a;
      return;
    }
    if (t.starts_with(".headerflags") && !arch) {
      // nvdisasm: @"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)"
      size_t at = t.find("EF_CUDA_SM");
      if (at != llvm::StringRef::npos) {
        llvm::StringRef digits = t.drop_front(at + 10).take_while(llvm::isDigit);
        arch = hw::archName(("sm_" + digits).str());
      }
      return;
    }
    if (t.consume_front("Function : ")) {
      open(t.trim().str(), lineNo);
      return;
    }
    if (t.starts_with(".text.") && t.ends_with(":")) {
      open(t.drop_front(6).drop_back().str(), lineNo);
      return;
    }
    if (!t.starts_with("/*")) {
      if (auto label = labelOf(t); label && cur)
        cur->labels.emplace_back(label->str(), cur->instructions.size());
      return;
    }
    // "/*0a40*/  @!P0 BRA 0x2ea0 ;  /* 0x... */" ; an encoding-only line has
    // no text between the address and the encoding.
    size_t close = t.find("*/");
    if (close == llvm::StringRef::npos || !cur)
      return;
    llvm::StringRef addressText = t.slice(2, close).trim();
    uint64_t address = 0;
    if (addressText.getAsInteger(16, address))
      return;
    llvm::StringRef body = t.drop_front(close + 2).trim();
    size_t end = body.find(';');
    if (end == llvm::StringRef::npos)
      return;
    body = body.take_front(end).trim();
    if (body.empty())
      return;
    Instruction in;
    in.line = lineNo;
    in.address = address;
    if (body.starts_with("@")) {
      size_t sp = body.find_first_of(" \t");
      in.guard = body.take_front(sp).str();
      body = body.drop_front(sp).trim();
    }
    size_t sp = body.find_first_of(" \t");
    in.opcode = body.take_front(sp).str();
    in.operands = sp == llvm::StringRef::npos ? "" : body.drop_front(sp).trim().str();
    std::optional<uint64_t> addressTarget;
    if (isSassBranch(in.opcode)) {
      llvm::StringRef last = llvm::StringRef(in.operands).rsplit(',').second.trim();
      if (last.empty())
        last = llvm::StringRef(in.operands).trim();
      if (last.consume_front("`(") && last.consume_back(")")) {
        in.targetText = last.str();
      } else {
        uint64_t to = 0;
        if (!last.empty() && !last.getAsInteger(0, to)) {
          addressTarget = to;
          in.targetText = fmt::format("0x{:x}", to);
        }
      }
    }
    cur->instructions.push_back(std::move(in));
    addressTargets.back().push_back(addressTarget);
    cur->endLine = lineNo;
  });
  for (size_t i = 0; i < kernels.size(); ++i)
    resolveTargets(kernels[i], addressTargets[i]);
  // cuobjdump and nvdisasm end a function with EXIT or the BRA to itself
  // (then NOP padding): anything else last is a listing cut short.
  if (!kernels.empty() && !kernels.back().instructions.empty()) {
    auto &ins = kernels.back().instructions;
    auto last = std::find_if(ins.rbegin(), ins.rend(), [](const Instruction &in) {
      return llvm::StringRef(in.opcode).split('.').first != "NOP";
    });
    llvm::StringRef base =
        last == ins.rend() ? llvm::StringRef() : llvm::StringRef(last->opcode).split('.').first;
    if (base != "EXIT" && base != "BRA" && base != "RET" && base != "JMP" && base != "BRX" &&
        base != "JMX")
      return truncatedListing(file, text, kernels.back());
  }
  std::erase_if(kernels, [](const KernelListing &k) { return k.instructions.empty(); });
  return kernels;
}

// ---- PTX ---------------------------------------------------------------------

llvm::Expected<std::vector<KernelListing>> readPtxListing(const std::string &file,
                                                          llvm::StringRef text) {
  std::vector<KernelListing> kernels;
  std::optional<std::string> arch;
  KernelListing *cur = nullptr;
  int depth = 0;
  bool pendingEntry = false;
  forEachLine(text, [&](llvm::StringRef line, unsigned lineNo) {
    llvm::StringRef t = line.trim();
    size_t comment = t.find("//");
    if (comment != llvm::StringRef::npos)
      t = t.take_front(comment).rtrim();
    if (t.empty())
      return;
    if (t.starts_with(".target")) {
      if (auto a = hw::archName(t.drop_front(7).trim().split(',').first))
        arch = a;
      return;
    }
    size_t entry = t.find(".entry ");
    bool isEntry = entry != llvm::StringRef::npos;
    if (!isEntry)
      entry = t.find(".func ");
    if (depth == 0 && entry != llvm::StringRef::npos) {
      llvm::StringRef rest = t.drop_front(entry).split(' ').second.trim();
      if (rest.starts_with("(")) // .func (.reg .b32 r) name(
        rest = rest.drop_until([](char c) { return c == ')'; }).drop_front().trim();
      std::string name = rest.take_while([](char c) { return isIdentChar(c); }).str();
      kernels.emplace_back();
      cur = &kernels.back();
      cur->name = name;
      cur->isa = Isa::Ptx;
      cur->entry = isEntry;
      cur->arch = arch;
      cur->startLine = lineNo;
      cur->endLine = lineNo;
      pendingEntry = true;
    }
    // Statements of this line, split at ';' ("{" and "}" open and close
    // blocks: the body, and inline-asm scopes inside it).
    llvm::StringRef rest = t;
    while (!rest.empty()) {
      rest = rest.ltrim();
      if (rest.empty())
        break;
      if (rest[0] == '{') {
        ++depth;
        pendingEntry = false;
        rest = rest.drop_front();
        continue;
      }
      if (rest[0] == '}') {
        if (depth > 0 && --depth == 0 && cur) {
          cur->endLine = lineNo;
          cur = nullptr;
        }
        rest = rest.drop_front();
        continue;
      }
      // Braces after an opcode group operands ({%r1, %r2}); only a brace
      // that starts a statement opens or closes a block.
      size_t stop =
          rest.starts_with(".") || pendingEntry ? rest.find_first_of(";{}") : rest.find(';');
      llvm::StringRef stmt = rest.take_front(stop).trim();
      rest = stop == llvm::StringRef::npos ? llvm::StringRef() : rest.drop_front(stop);
      if (!rest.empty() && rest[0] == ';')
        rest = rest.drop_front();
      if (!cur || depth == 0 || pendingEntry || stmt.empty() || stmt.starts_with("."))
        continue;
      if (auto label = labelOf(stmt)) {
        cur->labels.emplace_back(label->str(), cur->instructions.size());
        continue;
      }
      if (stmt.starts_with(".") || stmt.starts_with("$") || stmt.starts_with("("))
        continue;
      Instruction in;
      in.line = lineNo;
      if (stmt.starts_with("@")) {
        size_t sp = stmt.find_first_of(" \t");
        in.guard = stmt.take_front(sp).str();
        stmt = stmt.drop_front(sp).trim();
      }
      size_t sp = stmt.find_first_of(" \t");
      in.opcode = stmt.take_front(sp).str();
      in.operands = sp == llvm::StringRef::npos ? "" : stmt.drop_front(sp).trim().str();
      if (in.opcode == "bra" || llvm::StringRef(in.opcode).starts_with("bra."))
        in.targetText = llvm::StringRef(in.operands).trim().str();
      cur->instructions.push_back(std::move(in));
      cur->endLine = lineNo;
    }
  });
  // A body still open at the end of the text: the listing was cut short.
  if (cur && depth > 0 && !cur->instructions.empty())
    return truncatedListing(file, text, *cur);
  for (auto &k : kernels) {
    std::vector<std::optional<uint64_t>> none;
    resolveTargets(k, none);
  }
  std::erase_if(kernels, [](const KernelListing &k) { return k.instructions.empty(); });
  return kernels;
}

Isa sniff(llvm::StringRef text) {
  llvm::StringRef head = text.take_front(1 << 16);
  if (head.contains("Function : ") || head.contains("/*0000*/") ||
      (head.contains(".text.") && head.contains("/*00")))
    return Isa::Sass;
  if (head.contains(".entry ") && (head.contains(".version") || head.contains(".target")))
    return Isa::Ptx;
  return Isa::Amdgcn;
}

} // namespace

llvm::Expected<std::vector<KernelListing>>
readListing(const std::string &file, llvm::StringRef text, std::optional<Isa> isa) {
  size_t nul = text.find('\0');
  if (nul != llvm::StringRef::npos) {
    TextPosition at = positionOf(text, nul);
    return artifactError(file, at.line, at.col,
                         "binary data in what should be an assembly listing (for a code object, "
                         "give its llvm-objdump -d or cuobjdump -sass text)");
  }
  Isa which = isa ? *isa : sniff(text);
  llvm::Expected<std::vector<KernelListing>> kernels =
      which == Isa::Sass  ? readSassListing(file, text)
      : which == Isa::Ptx ? readPtxListing(file, text)
                          : readAmd(file, text);
  if (!kernels)
    return kernels.takeError();
  if (kernels->empty())
    return artifactError(
        file, 1, 1, fmt::format("no kernel with instructions in this {} listing", isaName(which)));
  return kernels;
}

} // namespace tilexform::asmfile
