// What tilexform knows about each op, in one table (OpSchemas.def): its
// operand segments with the keywords that introduce them, the rule that
// gives its result types from what the printer wrote, its structural facts
// (function, loop) and its older names. Analyses ask an op for
// `operand("mask")` instead of counting `%`.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tilexform::ir {

/// How an op's result types follow from its written signature.
enum class ResultRule : uint8_t {
  None,             // no results
  Same,             // `: T` names the result type (one type per result)
  Outputs,          // the types after `->` / `to` (`A -> B`, `(A, B) -> C`)
  OutputsSplat,     // as Outputs; every result has the one written type (tt.split)
  OutputsThenToken, // Outputs, then an `!ttg.async.token` when one more result is named
  First,            // the first written type (`tt.addptr : P, O`)
  Last,             // the last written type (`arith.select : i1, T`)
  CompareI1,        // i1 with the shape and encoding of the operand type
  Pointee,          // the pointee of a (tensor of) pointer type (`tt.load`)
  Token,            // `!ttg.async.token`, never written
  Constant,         // the value attribute's type (`arith.constant`)
  ArrowList,        // the `-> (T...)` list before any `:` (`scf.for`, `scf.if`)
  ElementOf,        // the element type of the written type (`tt.unsplat`)
  Structural,       // not known: Outputs of a functional type, else none
};

/// How a region's entry-block arguments get their types when the op does
/// not write them.
enum class RegionArgs : uint8_t {
  Written,   // `(%a: T)` or `^bb0(%a: T)`
  ForLoop,   // induction variable (the `:` type, else index), then the result types
  WhileLoop, // the signature's input types
};

enum OpFlags : uint16_t {
  OpFlagNone = 0,
  OpFlagFunction = 1 << 0,     // a function: symbol, argument list, body
  OpFlagLoop = 1 << 1,         // a loop (scf.for, scf.while)
  OpFlagStrippedDesc = 1 << 2, // a stripped `<...>` type here is a tensor descriptor
  OpFlagTerminator = 1 << 3,
  OpFlagDot = 1 << 4,          // a matrix multiply (tt.dot, wgmma, tcgen05)
  OpFlagGlobalLoad = 1 << 5,   // reads global memory into registers
  OpFlagAsyncCopy = 1 << 6,    // copies global memory into shared memory
  OpFlagGlobalStore = 1 << 7,  // writes global memory
  OpFlagMemdescView = 1 << 8,  // its result is a view of its source buffer
  OpFlagDataMovement = 1 << 9, // moves or converts data without computing on it
};

/// One operand segment: `name`, optional, variadic, introduced by a keyword
/// (`mask %m`, `stride = %s`) or written in square brackets (`%p[%off]`).
/// The table's text is static: the names point into it.
struct OperandSegment {
  llvm::StringRef name;
  llvm::StringRef keyword; // "" positional, "[" bracketed, else the keyword
  bool optional = false;
  bool variadic = false;
};

struct OpSchema {
  llvm::StringRef name; // canonical
  std::vector<OperandSegment> segments;
  ResultRule results = ResultRule::Structural;
  RegionArgs regionArgs = RegionArgs::Written;
  uint16_t flags = OpFlagNone;
  std::vector<llvm::StringRef> legacyNames;

  bool is(OpFlags f) const { return (flags & f) != 0; }
  /// Index of a segment by name, or -1.
  int segmentIndex(llvm::StringRef name) const;
};

/// The schema of an op by canonical or legacy name, or null.
const OpSchema *lookupOpSchema(llvm::StringRef name);
/// Every schema in the table, in its order.
const std::vector<OpSchema> &allOpSchemas();

} // namespace tilexform::ir
