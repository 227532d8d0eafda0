// What tilexform knows about each op, in one table (OpSchemas.def): its
// operand segments with the keywords that introduce them, the attributes it
// reads with their types and where the op's own syntax writes them, the rule
// that gives its result types from what the printer wrote, its structural
// facts (function, loop) and its older names. Analyses ask an op for
// `operand("mask")` or `enumAttr("predicate")` instead of counting `%` or
// re-reading its text.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>
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
  Structural,       // not known: Outputs of a functional type, else one written type per result
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

/// The type of an attribute the table names.
enum class AttrType : uint8_t {
  Enum, // an I32EnumAttr or I64EnumAttr: a keyword in the op's syntax, its number in a dictionary
  Integer,  // an integer (`count = 1 : i32`)
  Integers, // a list of integers (`array<i32: 0, 32>`)
  String,   // a string naming one of its keywords (`sym_visibility = "private"`)
  Unit,     // set or not (`allow_reorder`)
  Literal,  // any attribute, written with its type (`arith.constant 3 : i32`)
};

/// Where an op's own syntax writes an attribute. The generic form and the
/// attribute dictionary always carry it under its name; the reader puts what
/// the syntax wrote there too, as the dictionary would hold it (an enum's
/// number, an `array<i32: ...>`), so both forms read the same.
enum class AttrPlace : uint8_t {
  Dictionary, // nowhere else
  Word,       // a bare word right after the op name (`arith.cmpi slt, ...`), by index
  Keyword,    // after `keyword =` (`cacheModifier = ca`)
  Integer,    // an integer after the operands, before the type (`ttng.init_barrier %b, 1`)
  Brackets,   // the integers in the op's square brackets (`%src[0, 32]`)
  Bare,       // its own name, as a word before the type (`tt.reshape %x allow_reorder`)
  Literal,    // everything after the op name up to its location (`arith.constant 3 : i32`)
};

/// One attribute the table knows: `name:type@place`, `!` when required.
struct AttrSpec {
  llvm::StringRef name;
  AttrType type = AttrType::Integer;
  AttrPlace place = AttrPlace::Dictionary;
  unsigned word = 0;                  // Word: which word after the name
  llvm::StringRef keyword;            // Keyword: the syntax's keyword
  std::vector<llvm::StringRef> cases; // Enum, String: keywords (an Enum's numbered from `first`)
  int64_t first = 0;
  unsigned bits = 32; // Enum: the width of its integer (arith's predicates are I64EnumAttr)
  bool required = false;

  /// An enum's keyword for its number, or "" when it has none.
  llvm::StringRef caseName(int64_t number) const;
  /// An enum's number for its keyword.
  std::optional<int64_t> caseNumber(llvm::StringRef keyword) const;
  /// `a, b or c`: the keywords, for messages.
  std::string caseList() const;
};

struct OpSchema {
  llvm::StringRef name; // canonical
  std::vector<OperandSegment> segments;
  std::vector<AttrSpec> attrs;
  ResultRule results = ResultRule::Structural;
  RegionArgs regionArgs = RegionArgs::Written;
  uint16_t flags = OpFlagNone;
  std::vector<llvm::StringRef> legacyNames;

  bool is(OpFlags f) const { return (flags & f) != 0; }
  /// Index of a segment by name, or -1.
  int segmentIndex(llvm::StringRef name) const;
  /// The attribute of that name, or null.
  const AttrSpec *attr(llvm::StringRef name) const;
};

/// The schema of an op by canonical or legacy name, or null.
const OpSchema *lookupOpSchema(llvm::StringRef name);
/// Every schema in the table, in its order.
const std::vector<OpSchema> &allOpSchemas();
/// Attribute entries of OpSchemas.def the table could not read (a unit test
/// holds this at none).
const std::vector<std::string> &unreadableAttrEntries();

} // namespace tilexform::ir
