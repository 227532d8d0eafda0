// The hot-loop audit: instruction classes and widths per instruction set,
// loops from back-edges, the hot loop, and the census of a range.
#include "tilexform/asm/Audit.h"
#include "tilexform/asm/Artifacts.h"
#include "tilexform/support/InputError.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>

#include <algorithm>
#include <set>

namespace tilexform::asmfile {

const char *instrClassName(InstrClass c) {
  switch (c) {
  case InstrClass::Matrix:
    return "matrix";
  case InstrClass::GlobalLoad:
    return "global_load";
  case InstrClass::GlobalStore:
    return "global_store";
  case InstrClass::SharedRead:
    return "shared_read";
  case InstrClass::SharedWrite:
    return "shared_write";
  case InstrClass::AsyncCopy:
    return "async_copy";
  case InstrClass::Tma:
    return "tma";
  case InstrClass::Scratch:
    return "scratch";
  case InstrClass::Atomic:
    return "atomic";
  case InstrClass::Wait:
    return "wait";
  case InstrClass::Barrier:
    return "barrier";
  case InstrClass::Mbarrier:
    return "mbarrier";
  case InstrClass::Fence:
    return "fence";
  case InstrClass::Shuffle:
    return "shuffle";
  case InstrClass::Transcendental:
    return "transcendental";
  case InstrClass::Vector:
    return "vector";
  case InstrClass::Scalar:
    return "scalar";
  case InstrClass::Branch:
    return "branch";
  case InstrClass::Nop:
    return "nop";
  case InstrClass::Schedule:
    return "schedule";
  case InstrClass::Other:
    return "other";
  }
  return "other";
}

namespace {

using llvm::StringRef;

bool hasToken(StringRef operands, StringRef token) {
  llvm::SmallVector<StringRef> parts;
  operands.split(parts, ' ', -1, false);
  for (StringRef p : parts)
    if (p.trim(", ") == token)
      return true;
  return false;
}

InstrClass classifyAmd(const Instruction &in) {
  StringRef op = in.opcode;
  if (op.starts_with("v_mfma") || op.starts_with("v_smfmac") || op.starts_with("v_wmma") ||
      op.starts_with("v_swmmac"))
    return InstrClass::Matrix;
  bool load =
      op.starts_with("global_load") || op.starts_with("buffer_load") || op.starts_with("flat_load");
  if (load && (op.contains("_lds") || hasToken(in.operands, "lds")))
    return InstrClass::AsyncCopy;
  if (op.contains("atomic"))
    return InstrClass::Atomic;
  if (op.starts_with("scratch_"))
    return InstrClass::Scratch;
  if (load)
    return InstrClass::GlobalLoad;
  if (op.starts_with("global_store") || op.starts_with("buffer_store") ||
      op.starts_with("flat_store"))
    return InstrClass::GlobalStore;
  if (op.starts_with("buffer_wbinvl") || op.starts_with("buffer_inv") ||
      op.starts_with("buffer_gl") || op.starts_with("buffer_wbl2"))
    return InstrClass::Fence;
  if (op.starts_with("ds_read") || op.starts_with("ds_load"))
    return InstrClass::SharedRead;
  if (op.starts_with("ds_write") || op.starts_with("ds_store"))
    return InstrClass::SharedWrite;
  if (op.starts_with("ds_bpermute") || op.starts_with("ds_permute") || op.starts_with("ds_swizzle"))
    return InstrClass::Shuffle;
  if (op.starts_with("ds_"))
    return InstrClass::Atomic; // ds_add_u32, ds_max_f32, ...: read-modify-write on LDS
  if (op.starts_with("s_waitcnt") || op.starts_with("s_wait_") || op == "s_delay_alu")
    return InstrClass::Wait;
  if (op.starts_with("s_barrier"))
    return InstrClass::Barrier;
  if (op == "s_nop")
    return InstrClass::Nop;
  if (op == "s_setprio" || op.starts_with("s_sched_") || op == "s_sleep")
    return InstrClass::Schedule;
  if (op == "s_branch" || op.starts_with("s_cbranch") || op.starts_with("s_setpc") ||
      op.starts_with("s_swappc") || op == "s_endpgm" || op.starts_with("s_call") || op == "s_trap")
    return InstrClass::Branch;
  if (op.starts_with("v_exp") || op.starts_with("v_log") || op.starts_with("v_rcp") ||
      op.starts_with("v_rsq") || op.starts_with("v_sqrt") || op.starts_with("v_sin") ||
      op.starts_with("v_cos"))
    return InstrClass::Transcendental;
  if (op.starts_with("v_"))
    return InstrClass::Vector;
  if (op.starts_with("s_"))
    return InstrClass::Scalar;
  return InstrClass::Other;
}

InstrClass classifySass(const Instruction &in) {
  StringRef op = in.opcode;
  StringRef base = op.split('.').first;
  if (base.ends_with("MMA") && base != "UTCBAR")
    return InstrClass::Matrix; // HMMA IMMA DMMA HGMMA QGMMA IGMMA BGMMA UTCHMMA UTCQMMA ...
  if (base == "LDGSTS" || base == "LDGDEPBAR")
    return InstrClass::AsyncCopy;
  if (base.starts_with("UTMA") || base.starts_with("UBLK"))
    return InstrClass::Tma;
  if (base == "LDG" || base == "LD")
    return InstrClass::GlobalLoad;
  if (base == "STG" || base == "ST")
    return InstrClass::GlobalStore;
  if (base == "LDS" || base == "LDSM")
    return InstrClass::SharedRead;
  if (base == "STS" || base == "STSM")
    return InstrClass::SharedWrite;
  if (base == "LDL" || base == "STL")
    return InstrClass::Scratch;
  if (base == "ATOM" || base == "ATOMG" || base == "ATOMS" || base == "RED" || base == "REDG" ||
      base == "REDS")
    return InstrClass::Atomic;
  if (base == "DEPBAR" || base == "WARPSYNC" || op.starts_with("WARPGROUP.DEPBAR") ||
      op.starts_with("SYNCS.PHASECHK"))
    return InstrClass::Wait;
  if (base == "WARPGROUP")
    return InstrClass::Schedule; // WARPGROUP.ARRIVE: wgmma.fence
  if (base == "BAR")
    return InstrClass::Barrier;
  if (base == "SYNCS" || base == "UTCBAR")
    return InstrClass::Mbarrier;
  if (base == "MEMBAR" || base == "FENCE" || base == "CCTL" || base == "ERRBAR")
    return InstrClass::Fence;
  if (base == "SHFL" || base == "VOTE" || base == "VOTEU" || base == "REDUX" || base == "MATCH")
    return InstrClass::Shuffle;
  if (base == "MUFU")
    return InstrClass::Transcendental;
  if (base == "NOP")
    return InstrClass::Nop;
  if (base == "YIELD")
    return InstrClass::Schedule;
  if (base == "BRA" || base == "BRX" || base == "JMP" || base == "JMX" || base == "CALL" ||
      base == "RET" || base == "EXIT" || base == "BSSY" || base == "BSYNC" || base == "BREAK" ||
      base == "BPT" || base == "KILL" || base == "BMOV")
    return InstrClass::Branch;
  if (base.starts_with("U") || base == "S2UR" || base == "R2UR")
    return InstrClass::Scalar;
  return InstrClass::Vector;
}

InstrClass classifyPtx(const Instruction &in) {
  StringRef op = in.opcode;
  auto [head, tail] = op.split('.');
  if (head == "mma" || op.starts_with("wgmma.mma_async") || op.starts_with("tcgen05.mma"))
    return InstrClass::Matrix;
  if (op.starts_with("wgmma.wait_group") || op.starts_with("tcgen05.wait"))
    return InstrClass::Wait;
  if (head == "wgmma")
    return InstrClass::Schedule; // wgmma.fence, wgmma.commit_group
  if (op.starts_with("tcgen05.commit"))
    return InstrClass::Mbarrier;
  if (op.starts_with("cp.async.bulk.wait_group"))
    return InstrClass::Wait;
  if (op.starts_with("cp.async.bulk") || op.starts_with("cp.reduce.async.bulk"))
    return InstrClass::Tma;
  if (op.starts_with("cp.async.wait"))
    return InstrClass::Wait;
  if (op.starts_with("cp.async.mbarrier"))
    return InstrClass::Mbarrier;
  if (op.starts_with("cp.async"))
    return InstrClass::AsyncCopy;
  if (head == "ldmatrix")
    return InstrClass::SharedRead;
  if (head == "stmatrix")
    return InstrClass::SharedWrite;
  if (head == "ld" || head == "ldu") {
    if (tail.starts_with("param"))
      return InstrClass::Other;
    if (tail.starts_with("local"))
      return InstrClass::Scratch;
    if (tail.starts_with("shared"))
      return InstrClass::SharedRead;
    return InstrClass::GlobalLoad;
  }
  if (head == "st") {
    if (tail.starts_with("local"))
      return InstrClass::Scratch;
    if (tail.starts_with("shared"))
      return InstrClass::SharedWrite;
    if (tail.starts_with("param"))
      return InstrClass::Other;
    return InstrClass::GlobalStore;
  }
  if (head == "atom" || head == "red")
    return InstrClass::Atomic;
  if (op.starts_with("mbarrier.try_wait") || op.starts_with("mbarrier.test_wait"))
    return InstrClass::Wait;
  if (head == "mbarrier")
    return InstrClass::Mbarrier;
  if (op.starts_with("bar.warp.sync"))
    return InstrClass::Wait;
  if (head == "bar" || head == "barrier")
    return InstrClass::Barrier;
  if (head == "fence" || head == "membar")
    return InstrClass::Fence;
  if (head == "shfl" || head == "vote" || head == "redux" || head == "match")
    return InstrClass::Shuffle;
  if (head == "ex2" || head == "lg2" || head == "rcp" || head == "rsqrt" || head == "sqrt" ||
      head == "sin" || head == "cos" || head == "tanh")
    return InstrClass::Transcendental;
  if (head == "bra" || head == "ret" || head == "exit" || head == "call" || head == "brx" ||
      head == "trap")
    return InstrClass::Branch;
  if (head == "nanosleep")
    return InstrClass::Schedule;
  return InstrClass::Vector;
}

std::optional<unsigned> amdWidthToken(StringRef t) {
  return llvm::StringSwitch<std::optional<unsigned>>(t)
      .Case("dwordx4", 128)
      .Case("dwordx3", 96)
      .Case("dwordx2", 64)
      .Case("dword", 32)
      .Cases({"short", "ushort", "sshort"}, 16)
      .Cases({"ubyte", "sbyte", "byte"}, 8)
      .Case("b128", 128)
      .Case("b96", 96)
      .Case("b64", 64)
      .Case("b32", 32)
      .Cases({"b16", "u16", "i16"}, 16)
      .Cases({"b8", "u8", "i8"}, 8)
      .Default(std::nullopt);
}

std::optional<unsigned> amdBits(StringRef op) {
  llvm::SmallVector<StringRef> parts;
  op.split(parts, '_');
  unsigned times = 1;
  bool afterVerb = false;
  for (StringRef p : parts) {
    if (!afterVerb) {
      if (p == "load" || p == "store" || p == "read" || p == "write") {
        afterVerb = true;
      } else if (p.starts_with("read2") || p.starts_with("write2") || p.starts_with("load2") ||
                 p.starts_with("store2")) {
        afterVerb = true;
        times = 2;
      }
      continue;
    }
    if (auto w = amdWidthToken(p))
      return *w * times;
  }
  return std::nullopt;
}

std::optional<unsigned> sassBits(StringRef op) {
  llvm::SmallVector<StringRef> parts;
  op.split(parts, '.');
  if (parts.empty())
    return std::nullopt;
  if (parts[0] == "LDSM" || parts[0] == "STSM") {
    for (size_t i = 1; i < parts.size(); ++i)
      if (parts[i].starts_with("M") && i + 1 < parts.size()) {
        unsigned n = 0;
        if (!parts[i + 1].getAsInteger(10, n) && (n == 1 || n == 2 || n == 4))
          return 32 * n;
      }
    return 32;
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    StringRef p = parts[i];
    if (p == "128")
      return 128;
    if (p == "64")
      return 64;
    if (p == "U16" || p == "S16" || p == "16")
      return 16;
    if (p == "U8" || p == "S8" || p == "8")
      return 8;
  }
  return 32;
}

std::optional<unsigned> ptxTypeBits(StringRef t) {
  if (t == "f16x2" || t == "bf16x2")
    return 32;
  if (t.size() < 2)
    return std::nullopt;
  StringRef digits = t;
  if (digits.consume_front("bf") || digits.consume_front("b") || digits.consume_front("u") ||
      digits.consume_front("s") || digits.consume_front("f")) {
    unsigned bits = 0;
    if (!digits.getAsInteger(10, bits) && bits >= 8 && bits <= 128)
      return bits;
  }
  return std::nullopt;
}

std::optional<unsigned> ptxBits(const Instruction &in, InstrClass cls) {
  StringRef op = in.opcode;
  llvm::SmallVector<StringRef> parts;
  op.split(parts, '.');
  if (cls == InstrClass::AsyncCopy) {
    // cp.async.cg.shared.global [dst], [src], 16[, src-size]
    llvm::SmallVector<StringRef> ops;
    StringRef(in.operands).split(ops, ',');
    if (ops.size() >= 3) {
      unsigned bytes = 0;
      if (!ops[2].trim().getAsInteger(0, bytes) && bytes > 0 && bytes <= 16)
        return bytes * 8;
    }
    return std::nullopt;
  }
  if (parts[0] == "ldmatrix" || parts[0] == "stmatrix") {
    for (StringRef p : parts)
      if (p == "x1" || p == "x2" || p == "x4")
        return 32 * unsigned(p[1] - '0');
    return std::nullopt;
  }
  unsigned vec = 1;
  std::optional<unsigned> elem;
  for (StringRef p : parts) {
    if (p == "v2" || p == "v4" || p == "v8")
      vec = unsigned(p[1] - '0');
    if (auto b = ptxTypeBits(p))
      elem = b;
  }
  if (!elem)
    return std::nullopt;
  return vec * *elem;
}

bool isMemoryClass(InstrClass c) {
  switch (c) {
  case InstrClass::GlobalLoad:
  case InstrClass::GlobalStore:
  case InstrClass::SharedRead:
  case InstrClass::SharedWrite:
  case InstrClass::AsyncCopy:
  case InstrClass::Scratch:
  case InstrClass::Atomic:
    return true;
  default:
    return false;
  }
}

std::optional<int64_t> parseNumber(StringRef s) {
  s = s.trim();
  int64_t v = 0;
  if (s.getAsInteger(0, v))
    return std::nullopt;
  return v;
}

enum class WaitKind { Drain, Relaxed, Alu, Other, Unparsed };

/// The normalised form of one wait and what kind it is.
std::pair<std::string, WaitKind> classifyWait(Isa isa, const Instruction &in) {
  StringRef op = in.opcode;
  StringRef ops = StringRef(in.operands).trim();
  if (isa == Isa::Amdgcn) {
    if (op == "s_waitcnt_depctr" || op == "s_wait_alu" || op == "s_delay_alu")
      return {(op + " " + ops).str(), WaitKind::Alu};
    if (op == "s_waitcnt") {
      // vmcnt(0) expcnt(1) lgkmcnt(0), possibly '&'-joined; or a raw number.
      std::string norm;
      bool any = false, allZero = true;
      StringRef rest = ops;
      while (true) {
        size_t open = rest.find('(');
        if (open == StringRef::npos)
          break;
        size_t close = rest.find(')', open);
        if (close == StringRef::npos)
          break;
        StringRef name = rest.take_front(open).trim(" &,");
        auto v = parseNumber(rest.slice(open + 1, close));
        if (!v)
          return {(op + " " + ops).str(), WaitKind::Unparsed};
        if (!norm.empty())
          norm += " ";
        norm += fmt::format("{}({})", name.str(), *v);
        any = true;
        allZero = allZero && *v == 0;
        rest = rest.drop_front(close + 1);
      }
      if (!any) {
        if (auto v = parseNumber(ops); v && *v == 0)
          return {"0", WaitKind::Drain};
        return {(op + " " + ops).str(), WaitKind::Unparsed};
      }
      return {norm, allZero ? WaitKind::Drain : WaitKind::Relaxed};
    }
    // s_waitcnt_vscnt null, 0x0 (gfx10/11); s_wait_loadcnt 0x0,
    // s_wait_loadcnt_dscnt 0x0 (gfx12).
    StringRef counter = op;
    if (!counter.consume_front("s_waitcnt_"))
      counter.consume_front("s_wait_");
    StringRef value = ops.rsplit(',').second.trim();
    if (value.empty())
      value = ops;
    auto v = parseNumber(value);
    if (!v)
      return {(op + " " + ops).str(), WaitKind::Other};
    return {fmt::format("{}({})", counter.str(), *v),
            *v == 0 ? WaitKind::Drain : WaitKind::Relaxed};
  }
  if (isa == Isa::Sass) {
    std::string norm = (op + (ops.empty() ? "" : " ") + ops).str();
    if (op == "WARPSYNC" || op.starts_with("WARPSYNC.") || op.starts_with("SYNCS."))
      return {norm, WaitKind::Other};
    if (ops.contains('{'))
      return {norm, WaitKind::Drain}; // DEPBAR {3,2}: wait on these scoreboards
    auto v = parseNumber(ops.rsplit(',').second);
    if (!v)
      return {norm, WaitKind::Unparsed};
    return {norm, *v == 0 ? WaitKind::Drain : WaitKind::Relaxed};
  }
  // PTX
  std::string norm = (op + (ops.empty() ? "" : " ") + ops).str();
  if (op.starts_with("mbarrier.") || op.starts_with("bar.warp.sync"))
    return {norm, WaitKind::Other};
  if (op.starts_with("cp.async.wait_all") || op.starts_with("tcgen05.wait"))
    return {norm, WaitKind::Drain};
  auto v = parseNumber(ops);
  if (!v)
    return {norm, WaitKind::Unparsed};
  return {norm, *v == 0 ? WaitKind::Drain : WaitKind::Relaxed};
}

/// A register operand as (bank, first, last): "v12" → (v,12,12),
/// "v[4:7]" → (v,4,7), "R2" → (R,2,2), "UR4" → (UR,4,4), "%r5" → (%r,5,5).
struct Reg {
  std::string bank;
  unsigned lo = 0, hi = 0;
  bool overlaps(const Reg &o) const { return bank == o.bank && lo <= o.hi && o.lo <= hi; }
};

std::optional<Reg> parseReg(StringRef t) {
  t = t.trim(" {}");
  t = t.split('.').first; // R2.64, R4.reuse
  size_t i = 0;
  while (i < t.size() && (llvm::isAlpha(t[i]) || t[i] == '%'))
    ++i;
  if (i == 0)
    return std::nullopt;
  Reg r;
  r.bank = t.take_front(i).str();
  StringRef rest = t.drop_front(i);
  if (rest.consume_front("[")) {
    auto [lo, hi] = rest.rtrim(']').split(':');
    if (lo.getAsInteger(10, r.lo))
      return std::nullopt;
    r.hi = r.lo;
    if (!hi.empty() && hi.getAsInteger(10, r.hi))
      return std::nullopt;
    return r;
  }
  if (rest.empty() || rest.getAsInteger(10, r.lo))
    return std::nullopt;
  r.hi = r.lo;
  return r;
}

/// The register that addresses a shared read.
std::optional<Reg> sharedAddress(Isa isa, const Instruction &in) {
  StringRef ops = in.operands;
  if (isa == Isa::Amdgcn) {
    llvm::SmallVector<StringRef> parts;
    ops.split(parts, ',');
    if (parts.size() < 2)
      return std::nullopt;
    return parseReg(parts[1].trim().split(' ').first);
  }
  size_t open = ops.find('[');
  if (open == StringRef::npos)
    return std::nullopt;
  StringRef inside = ops.drop_front(open + 1);
  size_t end = inside.find_first_of("+]- ");
  return parseReg(inside.take_front(end));
}

/// The register an instruction writes first (its first operand), for ops
/// that write one.
std::optional<Reg> destination(Isa isa, const Instruction &in, InstrClass cls) {
  switch (cls) {
  case InstrClass::GlobalStore:
  case InstrClass::SharedWrite:
  case InstrClass::Branch:
  case InstrClass::Wait:
  case InstrClass::Barrier:
  case InstrClass::Nop:
  case InstrClass::Fence:
  case InstrClass::Schedule:
    return std::nullopt;
  default:
    break;
  }
  if (isa == Isa::Amdgcn && !StringRef(in.opcode).starts_with("v_"))
    return std::nullopt;
  StringRef ops = in.operands;
  return parseReg(ops.split(',').first);
}

Census makeCensus(const KernelListing &k, size_t first, size_t last) {
  Census c;
  c.first = first;
  c.last = last;
  c.startLine = k.instructions[first].line;
  c.endLine = k.instructions[last].line;
  std::vector<InstrClass> classes;
  std::map<std::string, size_t> perRegister;
  for (size_t i = first; i <= last; ++i) {
    const Instruction &in = k.instructions[i];
    InstrClass cls = classify(k.isa, in);
    c.sequence.push_back(cls);
    ++c.instructions;
    ++c.classes[instrClassName(cls)];
    ++c.opcodes[in.opcode];
    if (cls == InstrClass::Matrix)
      ++c.matrix;
    if (cls == InstrClass::Barrier)
      ++c.barriers;
    if (in.opcode == "s_setprio")
      ++c.setprio;
    if (cls == InstrClass::Nop) {
      ++c.nops;
      if (k.isa == Isa::Amdgcn) {
        auto n = parseNumber(in.operands);
        c.nopWaitStates += size_t(n && *n >= 0 && *n < 1024 ? *n + 1 : 1);
      }
    }
    if (cls == InstrClass::Wait) {
      auto [norm, kind] = classifyWait(k.isa, in);
      ++c.waits.values[norm];
      switch (kind) {
      case WaitKind::Drain:
        ++c.waits.count;
        ++c.waits.drains;
        break;
      case WaitKind::Relaxed:
        ++c.waits.count;
        ++c.waits.relaxed;
        break;
      case WaitKind::Alu:
        ++c.waits.alu;
        break;
      case WaitKind::Other:
        ++c.waits.other;
        break;
      case WaitKind::Unparsed:
        ++c.waits.count;
        ++c.waits.drains;
        ++c.waits.unparsed;
        break;
      }
    }
    if (auto bits = accessBits(k.isa, in)) {
      switch (cls) {
      case InstrClass::GlobalLoad:
        ++c.loads[*bits];
        break;
      case InstrClass::GlobalStore:
        ++c.stores[*bits];
        break;
      case InstrClass::SharedRead:
        ++c.sharedReads[*bits];
        break;
      case InstrClass::SharedWrite:
        ++c.sharedWrites[*bits];
        break;
      case InstrClass::AsyncCopy:
        ++c.asyncCopies[*bits];
        break;
      default:
        break;
      }
    }
    if (cls == InstrClass::SharedRead) {
      ++c.sharedAddress.reads;
      if (auto addr = sharedAddress(k.isa, in)) {
        ++perRegister[fmt::format("{}{}", addr->bank, addr->lo)];
        for (size_t back = 1; back <= 2 && i >= first + back; ++back) {
          const Instruction &prev = k.instructions[i - back];
          auto def = destination(k.isa, prev, classify(k.isa, prev));
          if (def && def->overlaps(*addr)) {
            ++c.sharedAddress.rematerialized;
            break;
          }
        }
      }
    }
  }
  c.sharedAddress.distinctRegisters = perRegister.size();
  for (auto &[reg, n] : perRegister)
    c.sharedAddress.maxPerRegister = std::max(c.sharedAddress.maxPerRegister, n);
  return c;
}

class ChoiceError : public llvm::ErrorInfo<ChoiceError, InputError> {
public:
  static char ID;
  using llvm::ErrorInfo<ChoiceError, InputError>::ErrorInfo;
};
char ChoiceError::ID = 0;

llvm::Error choiceError(const std::string &file, const std::string &message) {
  return llvm::make_error<ChoiceError>(file, 0, 0, message);
}

} // namespace

InstrClass classify(Isa isa, const Instruction &in) {
  switch (isa) {
  case Isa::Amdgcn:
    return classifyAmd(in);
  case Isa::Sass:
    return classifySass(in);
  case Isa::Ptx:
    return classifyPtx(in);
  }
  return InstrClass::Other;
}

std::optional<unsigned> accessBits(Isa isa, const Instruction &in) {
  InstrClass cls = classify(isa, in);
  if (!isMemoryClass(cls) || cls == InstrClass::Atomic)
    return std::nullopt;
  switch (isa) {
  case Isa::Amdgcn:
    return amdBits(in.opcode);
  case Isa::Sass:
    if (StringRef(in.opcode).starts_with("LDGDEPBAR"))
      return std::nullopt;
    return sassBits(in.opcode);
  case Isa::Ptx:
    return ptxBits(in, cls);
  }
  return std::nullopt;
}

Census census(const KernelListing &k, size_t first, size_t last) {
  return makeCensus(k, first, last);
}

/// Marks each loop of `loops` (sorted outermost first: by head, then the
/// longer span) that encloses another loop i for which `counts(i)` holds, and
/// sets each loop's depth, in one pass with a stack of the enclosing spans.
template <class Counts>
void nestLoops(std::vector<Loop> &loops, Counts counts, std::vector<bool> &enclosesOther) {
  enclosesOther.assign(loops.size(), false);
  std::vector<size_t> stack;
  for (size_t i = 0; i < loops.size(); ++i) {
    while (!stack.empty() && loops[stack.back()].latch < loops[i].latch)
      stack.pop_back();
    loops[i].depth = stack.size();
    // Innermost enclosing span first; below a marked one all are marked
    // (they enclosed it when it was marked, and the stack below it has not
    // changed since).
    if (counts(i))
      for (auto j = stack.rbegin(); j != stack.rend() && !enclosesOther[*j]; ++j)
        enclosesOther[*j] = true;
    stack.push_back(i);
  }
}

std::vector<Loop> findLoops(const KernelListing &k) {
  const size_t n = k.instructions.size();
  std::vector<InstrClass> cls(n);
  for (size_t i = 0; i < n; ++i)
    cls[i] = classify(k.isa, k.instructions[i]);
  std::map<size_t, size_t> latchOf; // head → furthest back-edge
  for (size_t i = 0; i < n; ++i) {
    const Instruction &in = k.instructions[i];
    if (!in.target || *in.target >= i || cls[i] != InstrClass::Branch)
      continue;
    auto [it, fresh] = latchOf.emplace(*in.target, i);
    if (!fresh)
      it->second = std::max(it->second, i);
  }
  // Prefix counts, so that each loop's census of kinds is O(1).
  std::vector<size_t> matrix(n + 1), memory(n + 1), waits(n + 1);
  for (size_t i = 0; i < n; ++i) {
    matrix[i + 1] = matrix[i] + (cls[i] == InstrClass::Matrix);
    memory[i + 1] = memory[i] + (isMemoryClass(cls[i]) || cls[i] == InstrClass::Tma);
    waits[i + 1] = waits[i] + (cls[i] == InstrClass::Wait);
  }
  std::map<size_t, std::string> labelOf;
  for (auto &[name, at] : k.labels)
    labelOf.emplace(at, name);
  std::vector<Loop> loops;
  for (auto &[head, latch] : latchOf) {
    Loop l;
    l.head = head;
    l.latch = latch;
    auto lab = labelOf.find(head);
    l.label = lab != labelOf.end() ? lab->second : k.labelAt(head);
    l.matrix = matrix[latch + 1] - matrix[head];
    bool mem = memory[latch + 1] - memory[head] > 0;
    bool wait = waits[latch + 1] - waits[head] > 0;
    l.spin = latch - head + 1 <= 8 && l.matrix == 0 && !mem && wait;
    loops.push_back(l);
  }
  // Outermost first: by head, then the longer span first.
  std::sort(loops.begin(), loops.end(), [](const Loop &a, const Loop &b) {
    return a.head != b.head ? a.head < b.head : a.latch > b.latch;
  });
  std::vector<bool> enclosesLoop;
  nestLoops(
      loops, [&](size_t i) { return !loops[i].spin; }, enclosesLoop);
  for (size_t i = 0; i < loops.size(); ++i)
    loops[i].innermost = !enclosesLoop[i];
  return loops;
}

bool isChoiceError(const llvm::Error &err) { return err.isA<ChoiceError>(); }

llvm::Expected<AuditReport> audit(const std::string &file, llvm::StringRef text,
                                  const AuditOptions &o) {
  auto kernels = readListing(file, text, isaOfPath(file));
  if (!kernels)
    return kernels.takeError();
  std::vector<std::string> names;
  for (auto &k : *kernels)
    names.push_back(k.name);
  const KernelListing *chosen = nullptr;
  if (o.kernel) {
    for (auto &k : *kernels)
      if (k.name == *o.kernel)
        chosen = &k;
    if (!chosen) {
      std::vector<const KernelListing *> matches;
      for (auto &k : *kernels)
        if (llvm::StringRef(k.name).contains(*o.kernel))
          matches.push_back(&k);
      if (matches.size() == 1)
        chosen = matches[0];
      else
        return choiceError(file, fmt::format("{} kernel '{}' in this listing; kernels: {}",
                                             matches.empty() ? "no" : "more than one", *o.kernel,
                                             llvm::join(names, ", ")));
    }
  } else if (kernels->size() == 1) {
    chosen = &kernels->front();
  } else if (std::count_if(kernels->begin(), kernels->end(),
                           [](const KernelListing &k) { return k.entry; }) == 1) {
    // One kernel and the device functions it calls (noinline helpers).
    chosen = &*std::find_if(kernels->begin(), kernels->end(),
                            [](const KernelListing &k) { return k.entry; });
  } else {
    return choiceError(file, fmt::format("{} kernels in this listing; choose one with --kernel: {}",
                                         kernels->size(), llvm::join(names, ", ")));
  }
  AuditReport r;
  r.file = file;
  r.kernel = *chosen;
  for (auto &k : *kernels)
    if (k.name != chosen->name)
      (chosen->entry && !k.entry ? r.deviceFunctions : r.otherKernels).push_back(k.name);
  r.arch = o.arch ? o.arch : chosen->arch;
  r.loops = findLoops(r.kernel);
  r.whole = makeCensus(r.kernel, 0, r.kernel.instructions.size() - 1);

  if (o.loop) {
    std::string want = *o.loop;
    for (size_t i = 0; i < r.loops.size(); ++i) {
      const Loop &l = r.loops[i];
      llvm::StringRef digits(want);
      digits.consume_front("0x");
      uint64_t address = 0;
      bool isAddress = !digits.getAsInteger(16, address);
      auto at = r.kernel.instructions[l.head].address;
      bool match = l.label == want || (isAddress && at && *at == address);
      if (match) {
        r.hot = i;
        break;
      }
    }
    if (!r.hot) {
      std::vector<std::string> labels;
      for (auto &l : r.loops)
        labels.push_back(l.label);
      return choiceError(file,
                         fmt::format("no loop at '{}' in kernel {}; loops: {}", want, r.kernel.name,
                                     labels.empty() ? "none" : llvm::join(labels, ", ")));
    }
    r.why = "chosen with --loop";
  } else if (!r.loops.empty()) {
    std::vector<size_t> cands;
    size_t spins = 0;
    for (size_t i = 0; i < r.loops.size(); ++i) {
      if (r.loops[i].spin)
        ++spins;
      else
        cands.push_back(i);
    }
    if (cands.empty())
      for (size_t i = 0; i < r.loops.size(); ++i)
        cands.push_back(i);
    size_t most = 0;
    for (size_t i : cands)
      most = std::max(most, r.loops[i].matrix);
    std::erase_if(cands, [&](size_t i) { return r.loops[i].matrix != most; });
    // Innermost among those left: contains no other candidate.
    std::vector<bool> isCand(r.loops.size(), false);
    for (size_t i : cands)
      isCand[i] = true;
    std::vector<bool> enclosesCand;
    nestLoops(
        r.loops, [&](size_t i) { return bool(isCand[i]); }, enclosesCand);
    std::vector<size_t> inner;
    for (size_t i : cands)
      if (!enclosesCand[i])
        inner.push_back(i);
    size_t best = inner.front();
    for (size_t i : inner)
      if (r.loops[i].latch - r.loops[i].head < r.loops[best].latch - r.loops[best].head)
        best = i;
    r.hot = best;
    std::vector<std::string> parts;
    if (most > 0)
      parts.push_back(fmt::format("the most matrix instructions ({})", most));
    else
      parts.push_back("no loop has matrix instructions");
    parts.push_back(inner.size() > 1
                        ? fmt::format("the shortest of {} innermost such loops", inner.size())
                        : "the innermost such loop");
    if (spins)
      parts.push_back(fmt::format("{} spin-wait loop{} skipped", spins, spins == 1 ? "" : "s"));
    r.why = fmt::format("{} loop{} in the kernel; this one has {}", r.loops.size(),
                        r.loops.size() == 1 ? "" : "s", llvm::join(parts, "; "));
  } else {
    r.why = "no loop in this kernel (no backward branch): the census is of the whole body";
  }
  if (r.hot)
    r.hotLoop = makeCensus(r.kernel, r.loops[*r.hot].head, r.loops[*r.hot].latch);
  return r;
}

} // namespace tilexform::asmfile
