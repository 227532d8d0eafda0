// The hot-loop audit: what a kernel's instructions are (classes, opcodes,
// memory widths, matrix ops, waits, barriers, scheduling hints, shared-read
// address rematerialization), for its hottest loop and for the whole body,
// on AMDGCN, SASS and PTX alike; and the difference between two kernels.
#pragma once

#include "tilexform/asm/Listing.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::asmfile {

/// What an instruction does, by its opcode. One name table (instrClassName).
enum class InstrClass {
  Matrix,         // MFMA/WMMA, HMMA/IMMA, HGMMA/QGMMA (wgmma), UTC*MMA (tcgen05)
  GlobalLoad,     // global/buffer/flat loads, LDG, ld.global
  GlobalStore,    // global/buffer/flat stores, STG, st.global
  SharedRead,     // ds_read/ds_load, LDS/LDSM, ld.shared/ldmatrix
  SharedWrite,    // ds_write/ds_store, STS/STSM, st.shared/stmatrix
  AsyncCopy,      // global → shared without registers: buffer_load ... lds, LDGSTS, cp.async
  Tma,            // UTMALDG/UTMASTG/UBLKCP, cp.async.bulk
  Scratch,        // scratch (spill) traffic: scratch_load/store, LDL/STL, ld.local/st.local
  Atomic,         // atomics and reductions to memory
  Wait,           // s_waitcnt*, s_wait_*, DEPBAR, WARPSYNC, cp.async.wait_group, mbarrier waits
  Barrier,        // s_barrier, BAR.*, bar.sync/barrier.sync
  Mbarrier,       // mbarrier arrive/expect/init (SYNCS.*, mbarrier.*)
  Fence,          // MEMBAR/FENCE, fence.*, membar.*
  Shuffle,        // ds_bpermute/ds_swizzle, SHFL, shfl
  Transcendental, // v_exp/v_log/v_rcp/v_sqrt..., MUFU, ex2/lg2/rcp/rsqrt/sqrt/sin/cos/tanh
  Vector,         // other per-lane ALU (v_*, R-register SASS, PTX arithmetic)
  Scalar,         // s_* scalar ALU, SASS uniform datapath (U*)
  Branch,         // branches, calls, returns, reconvergence
  Nop,            // s_nop, NOP
  Schedule,       // s_setprio, s_sched_barrier, s_sched_group_barrier, wgmma.fence
  Other,
};
constexpr unsigned kInstrClassCount = unsigned(InstrClass::Other) + 1;
const char *instrClassName(InstrClass c);

/// The class of one instruction of an instruction set.
InstrClass classify(Isa isa, const Instruction &in);

/// The bits one lane moves in a memory instruction (128 for
/// global_load_dwordx4, LDG.E.128, ld.global.v4.b32, cp.async ..., 16);
/// none when it is not a memory access or the width is not written.
std::optional<unsigned> accessBits(Isa isa, const Instruction &in);

/// Memory waits: how many, how many drain every counter they name (vmcnt(0),
/// DEPBAR.LE SB0, 0x0, cp.async.wait_group 0) and how many leave work in
/// flight; ALU-dependency waits (s_wait_alu, s_delay_alu, s_waitcnt_depctr)
/// and other synchronisation waits (WARPSYNC, mbarrier polls) apart.
struct WaitStats {
  size_t count = 0, drains = 0, relaxed = 0, alu = 0, other = 0;
  /// Unrecognised wait spellings, counted as drains (an audit gap to report).
  size_t unparsed = 0;
  /// Each wait's normalised form ("vmcnt(0) lgkmcnt(0)", "DEPBAR.LE SB0, 0x1") → count.
  std::map<std::string, size_t> values;
};

/// Shared-memory reads by address register: how many distinct registers
/// address them, and how many read an address computed in one of the two
/// instructions just above (rematerialized rather than kept live).
struct SharedAddressStats {
  size_t reads = 0, distinctRegisters = 0, maxPerRegister = 0, rematerialized = 0;
};

struct Census {
  unsigned startLine = 0, endLine = 0;
  size_t first = 0, last = 0; // instruction index range [first, last]
  size_t instructions = 0;
  std::map<std::string, size_t> classes; // class name → count (every class seen)
  std::map<std::string, size_t> opcodes; // opcode → count
  // width in bits → count
  std::map<unsigned, size_t> loads, stores, sharedReads, sharedWrites, asyncCopies;
  size_t matrix = 0, barriers = 0, setprio = 0, nops = 0, nopWaitStates = 0;
  WaitStats waits;
  SharedAddressStats sharedAddress;
  std::vector<InstrClass> sequence; // per instruction, in order
};

/// Census of instructions [first, last] of a kernel.
Census census(const KernelListing &k, size_t first, size_t last);

struct Loop {
  size_t head = 0, latch = 0; // first instruction and the back-edge branch
  std::string label;
  size_t matrix = 0;
  size_t depth = 0;       // loops enclosing it
  bool innermost = false; // encloses no other (non-spin) loop
  bool spin = false;      // a wait-and-retry loop: no memory or ALU work but waits
};

/// Loops from branch back-edges (a branch to an instruction at or before
/// it), outermost first; a branch to itself (SASS's trailing `BRA` to self)
/// is no loop.
std::vector<Loop> findLoops(const KernelListing &k);

struct AuditOptions {
  std::optional<std::string> kernel; // exact or unique substring
  std::optional<std::string> loop;   // force the hot loop by its label
  std::optional<std::string> arch;   // overrides what the listing says
};

struct AuditReport {
  std::string file;
  KernelListing kernel;
  std::vector<std::string> otherKernels;
  /// The listing's device functions (noinline helpers a kernel calls), when
  /// the audited function is a kernel; not in its census.
  std::vector<std::string> deviceFunctions;
  std::optional<std::string> arch;
  std::vector<Loop> loops;
  std::optional<size_t> hot; // index into loops
  std::string why;           // how the hot loop was chosen (or why there is none)
  std::optional<Census> hotLoop;
  Census whole;
};

/// Reads the listing in `file` (its text in `text`) and audits one kernel.
/// Several kernels and no (or an ambiguous) `kernel` option is a usage
/// error listing the candidates; an unknown `loop` label likewise.
llvm::Expected<AuditReport> audit(const std::string &file, llvm::StringRef text,
                                  const AuditOptions &options);

/// The error audit() returns for a choice the user must make (kernel or
/// loop): the CLI maps it to a usage exit code.
bool isChoiceError(const llvm::Error &err);

// ---- diff -----------------------------------------------------------------------

struct AlignedStep {
  char op = '=';              // '=' same opcode, '-' only in A, '+' only in B
  std::optional<size_t> a, b; // instruction indices in each kernel
};

struct CountDelta {
  std::string key;
  int64_t a = 0, b = 0;
};

struct AuditDiff {
  std::vector<CountDelta> classes, opcodes, loads, stores, sharedReads, sharedWrites, asyncCopies,
      waits;
  /// The hot loops aligned by opcode (Myers' shortest edit script); empty
  /// when either side has no hot loop.
  std::vector<AlignedStep> alignment;
  size_t same = 0, removed = 0, added = 0;
  bool comparedLoops = false; // false: whole bodies were compared
  /// The sequences were too different for the shortest script within the
  /// work budget: the alignment is prefix, suffix and everything between.
  bool approximate = false;
  /// Both sides do the same work — every matrix, memory, vector,
  /// transcendental and synchronising instruction the same number of times —
  /// and differ only in order, waits, nops, scalar bookkeeping and schedule
  /// hints: a difference of schedule, not of code.
  bool scheduleOnly = false;
};

AuditDiff diffAudits(const AuditReport &a, const AuditReport &b);

} // namespace tilexform::asmfile
