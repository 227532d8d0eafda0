// A kernel's launch specialisation as its dump records it: each argument's
// type and the facts Triton's JIT specialised it on (tt.divisibility on
// integers and pointers, tt.pointer_range on AMD pointers, the older
// tt.equal_to), and the comparison of two kernels' signatures. Two kernels
// with the same layouts but another specialisation are not the same kernel:
// the compiler simplifies masks and addresses on what it was told.
#pragma once

#include "tilexform/ir/Module.h"

#include <string>
#include <vector>

namespace tilexform::analysis {

struct ArgumentFacts {
  unsigned index = 0;
  std::string name; // the parameter's name ("x", "T"), or "arg3"
  std::string type; // "!tt.ptr<f16>", "i32"
  /// What the JIT specialised it on, in words: "divisible by 16",
  /// "pointer range 32", "equal to 1", or "not specialised" (an integer or
  /// pointer without any), "" for other types.
  std::string specialisation;
};

/// The arguments of the module's first function (empty when it has none).
std::vector<ArgumentFacts> signatureOf(const ir::Module &m);

struct ArgumentDifference {
  std::string name;
  std::string plain, anchor; // "i32, divisible by 16"; "absent" on one side
};

struct SignatureComparison {
  bool compared = false; // both modules have a function
  std::vector<ArgumentDifference> differences;
  bool same() const { return compared && differences.empty(); }
  /// One line: "T: plain i32, not specialised; anchor i32, divisible by 16".
  std::string summary() const;
};

/// Pairs arguments by name (by position where a dump names them argN) and
/// lists each whose type or specialisation differs.
SignatureComparison compareSignatures(const std::vector<ArgumentFacts> &plain,
                                      const std::vector<ArgumentFacts> &anchor);

} // namespace tilexform::analysis
