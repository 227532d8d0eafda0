// Instruction listings: the kernels of an assembly or disassembly text, each
// as a sequence of instructions with their line, opcode, operands, guard and
// branch target. Read from AMDGCN assembler text (.amdgcn/.s), `llvm-objdump
// -d` of a code object, SASS (`cuobjdump --dump-sass` and `nvdisasm` text)
// and PTX. What the instructions mean is the audit's business (asm/Audit.h).
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::asmfile {

/// The instruction set a listing is written in.
enum class Isa { Amdgcn, Sass, Ptx };
const char *isaName(Isa isa);

struct Instruction {
  unsigned line = 0;               // 1-based line in the file
  std::string opcode;              // as written, with modifiers: "global_load_dwordx4", "LDG.E.128"
  std::string operands;            // the rest, comments and the trailing ';' removed
  std::string guard;               // "@P1", "@!P0", "@%p3"; empty when unguarded
  std::optional<uint64_t> address; // SASS /*0a40*/, objdump's byte address
  /// A branch's destination as an index into the kernel's instructions
  /// (none for a fall-through op, an indirect jump or a target outside).
  std::optional<size_t> target;
  std::string targetText; // the destination as written: ".LBB0_3", "0x2670", "$L__BB0_2"
};

struct KernelListing {
  std::string name;
  Isa isa = Isa::Amdgcn;
  std::optional<std::string> arch; // normalised ("gfx942", "sm_90") when the text says
  /// A kernel the host launches (AMD's .amdhsa_kernel, PTX's .entry); false
  /// for a device function a kernel calls (a noinline helper).
  bool entry = true;
  unsigned startLine = 0, endLine = 0;
  std::vector<Instruction> instructions;
  /// Labels by the index of the instruction that follows them.
  std::vector<std::pair<std::string, size_t>> labels;
  /// The name a reader gives instruction `index` as a branch target: its
  /// label, else its address ("0x2670", "matmul+0x208"), else "line N".
  std::string labelAt(size_t index) const;
};

/// Reads every kernel of a listing. `isa` is taken from the file name's
/// extension by the caller (.amdgcn/.s/.hsaco.txt → Amdgcn, .sass → Sass,
/// .ptx → Ptx) or sniffed from the text when none. A text with no kernel
/// (or binary data) is an input error naming the file.
llvm::Expected<std::vector<KernelListing>>
readListing(const std::string &file, llvm::StringRef text, std::optional<Isa> isa);

/// The instruction set a file name implies; none for other extensions.
std::optional<Isa> isaOfPath(const std::string &path);

} // namespace tilexform::asmfile
