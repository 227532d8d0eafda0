// A loaded TTGIR/TTIR dump: the op tree with SSA def-use, every attribute and
// type parsed into MLIR (tilexform's dialects for Triton's), layout aliases,
// and source locations.
//
// Ops are read by a structural parser over MLIR's tokens (ir/Lexer.h), not by
// per-op parsers: where an op ends follows MLIR's grammar, never line breaks.
// What tilexform knows of each op (named operand segments, result-type rule,
// older names) comes from one table (ir/OpSchema.h). An op not in the table
// is kept with its operands, results, attributes, regions and types as
// written, and reported as unknown; it never aborts the load.
#pragma once

#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/OpSchema.h"
#include "tilexform/support/InputError.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <mlir/IR/BuiltinAttributes.h>

#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilexform::ir {

struct Operation;
struct Block;
struct Region;

/// Where something is written in the dump (1-based).
struct TextPos {
  unsigned line = 0, col = 0;
};

/// One frame of a call-site chain: where an inlined function was called.
struct CallSite {
  std::string file;
  unsigned line = 0, col = 0;
  std::string name; // the caller's NameLoc there, e.g. "v"
};

/// The callers of a location, innermost first: an immutable list whose tails
/// are shared. Ops inlined through the same calls hold the same frames, so a
/// dump's locations take memory in proportion to its distinct frames, never
/// to ops times chain length. Copying a chain copies a pointer.
class CallerChain {
  struct Node {
    std::shared_ptr<const CallSite> site;
    std::shared_ptr<const Node> next;
    size_t size = 0; // frames from this one to the outermost
  };

public:
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = CallSite;
    using difference_type = std::ptrdiff_t;
    using pointer = const CallSite *;
    using reference = const CallSite &;
    iterator() = default;
    explicit iterator(const Node *n) : node_(n) {}
    reference operator*() const { return *node_->site; }
    pointer operator->() const { return node_->site.get(); }
    iterator &operator++() {
      node_ = node_->next.get();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator &o) const { return node_ == o.node_; }
    bool operator!=(const iterator &o) const { return node_ != o.node_; }

  private:
    const Node *node_ = nullptr;
  };

  CallerChain() = default;
  iterator begin() const { return iterator(head_.get()); }
  iterator end() const { return iterator(); }
  size_t size() const { return head_ ? head_->size : 0; }
  bool empty() const { return !head_; }
  /// The i-th caller, innermost first (walks the list: O(i)).
  const CallSite &operator[](size_t i) const;
  /// The frames outermost first (the kernel's line first), for walking
  /// from the kernel inwards.
  std::vector<const CallSite *> outermostFirst() const;
  /// `site` in front of `rest`, sharing `rest`.
  static CallerChain prepend(std::shared_ptr<const CallSite> site, const CallerChain &rest);
  /// The frames of `inner`, then those of `outer`: `outer` is shared,
  /// `inner`'s frames are relinked (their sites shared, not copied).
  static CallerChain concat(const CallerChain &inner, const CallerChain &outer);

private:
  std::shared_ptr<const Node> head_;
};

/// A resolved `loc(...)`: the innermost file position and the names it carries
/// (Triton names a location after the source variable). An op of an inlined
/// function (`callsite(callee at caller)`) keeps the chain of its callers.
struct SourceLoc {
  std::string file;
  unsigned line = 0, col = 0;
  std::string name; // the outermost NameLoc: the name the value had last, e.g. "acc"
  /// The innermost NameLoc: the name it was given first (a kernel
  /// parameter's own name, where the body renames the value: `right = N`).
  std::string firstName;
  /// Where the function it is in was called from, innermost caller first:
  /// the last is the kernel's own line.
  CallerChain callers;
  bool known() const { return line != 0 || !name.empty(); }
};

struct Value {
  std::string name; // "%acc_12" or "%9#2"
  mlir::Type type;  // null when the reader could not tell
  Operation *definingOp = nullptr;
  unsigned resultIndex = 0;
  Block *ownerBlock = nullptr;     // for block arguments
  mlir::DictionaryAttr attributes; // argument attributes (`{tt.divisibility = 16 : i32}`)
  /// A function argument's parameter name from its location (the first name
  /// Triton gave it); empty when the dump has none.
  std::string paramName;
  std::vector<std::pair<Operation *, unsigned>> uses;
};

struct Block {
  std::string label; // "^bb0" or empty for an entry block
  std::vector<Value *> arguments;
  std::vector<std::unique_ptr<Operation>> ops;
  Region *parent = nullptr;
};

struct Region {
  std::vector<std::unique_ptr<Block>> blocks;
  Operation *parent = nullptr;
  std::string label; // e.g. "default", "partition0", "else"
};

struct Operation {
  std::string name;        // canonical, e.g. "ttg.convert_layout"
  std::string writtenName; // as in the file, e.g. "triton_gpu.convert_layout"
  bool known = true;       // false: not in the op-schema table (newer Triton)
  const OpSchema *schema = nullptr;
  std::vector<Value *> results;
  std::vector<Value *> operands;
  /// Per schema segment: first operand index and count (empty when unknown).
  std::vector<std::pair<uint32_t, uint32_t>> segments;
  std::vector<mlir::Type> signatureTypes; // every type after ':' in order
  mlir::DictionaryAttr attributes;        // attr-dict and properties merged
  std::string symbol;                     // "@matmul" for functions
  std::vector<std::unique_ptr<Region>> regions;
  Block *parentBlock = nullptr;
  TextPos pos;
  SourceLoc loc;
  /// The op's own text (without its regions), whitespace collapsed, for
  /// reports: worked out when asked for, from where it is in the source.
  std::string text() const;
  /// Byte ranges of the source that the op's own text is made of.
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 1> textRuns;
  llvm::StringRef source; // the whole text it was read from (owned by the module)

  Operation *parentOp() const;
  /// The operand of a named segment (`mask`, `other`, `stride`), or null
  /// when the op has no such segment or it is absent.
  Value *operand(llvm::StringRef segment) const;
  /// Every operand of a named segment, in order.
  std::vector<Value *> operandGroup(llvm::StringRef segment) const;
  bool isFunction() const { return schema && schema->is(OpFlagFunction); }
  bool isLoop() const { return schema && schema->is(OpFlagLoop); }
  /// The name of the function an op is in (without `@`), or "".
  std::string enclosingFunction() const;
  /// How many loops enclose an op.
  int loopDepth() const;
  mlir::Attribute attr(llvm::StringRef name) const;
  std::optional<int64_t> intAttr(llvm::StringRef name) const;
  /// Whether a unit attribute is set (`allow_reorder`, `efficient_layout`,
  /// `fastMath`): written bare before its type, which the reader records as
  /// the attribute, or as an attribute that may also say false.
  bool hasKeyword(llvm::StringRef word) const;
  /// An enum attribute the op's schema names, as its keyword (`slt`,
  /// `acq_rel`, `ca`), whichever form the op was written in; "" when absent.
  std::string enumAttr(llvm::StringRef name) const;
  /// A list of integers (`array<i32: 0, 32>`, `dense<[0, 32]>`, `[0, 32]`,
  /// a splat `dense<16> : tensor<2xi32>` as each element, or one integer
  /// `16 : i32`); empty when absent.
  std::vector<int64_t> intsAttr(llvm::StringRef name) const;
  /// The block labels a terminator branches to, in order (`^bb1`).
  std::vector<std::string> successors;
};

struct LayoutAlias {
  std::string name;       // "#blocked1"
  std::string definition; // text after '=' as written
  mlir::Attribute attr;
  TextPos pos;
};

struct ModuleFacts {
  std::string target; // "hip:gfx942", "cuda:90"
  std::optional<int64_t> numWarps, threadsPerWarp, numCtas, shared;
  std::string arch() const;   // "gfx942", "sm_90"
  std::string vendor() const; // "amd", "nvidia", ""
};

class Module {
public:
  std::string path;
  std::unique_ptr<llvm::MemoryBuffer> buffer; // the text read
  /// The text read; operations' own text points into it.
  llvm::StringRef source() const { return buffer ? buffer->getBuffer() : llvm::StringRef(); }
  std::unique_ptr<mlir::MLIRContext> context;
  ModuleFacts facts;
  mlir::DictionaryAttr moduleAttributes;
  std::vector<LayoutAlias> aliases;
  std::unique_ptr<Operation> root; // builtin.module
  std::vector<std::unique_ptr<Value>> values;

  /// Pre-order walk over every op.
  template <typename Fn> void walk(Fn &&fn) const { walkOp(root.get(), fn); }
  /// The first function the module defines (a dump's kernel), null when it
  /// defines none (a file of layout aliases).
  const Operation *firstFunction() const;
  /// Pre-order walk over `op` and every op nested in it.
  template <typename Fn> static void walkFrom(const Operation &op, Fn &&fn) { walkOp(&op, fn); }

  /// The alias name an attribute was defined under, if any.
  std::string aliasFor(mlir::Attribute attr) const;

private:
  // Pre-order with an explicit stack: no recursion, whatever the nesting.
  template <typename Op, typename Fn> static void walkOp(Op *root, Fn &fn) {
    std::vector<Op *> stack;
    if (root)
      stack.push_back(root);
    while (!stack.empty()) {
      Op *op = stack.back();
      stack.pop_back();
      fn(op);
      for (auto r = op->regions.rbegin(); r != op->regions.rend(); ++r)
        for (auto b = (*r)->blocks.rbegin(); b != (*r)->blocks.rend(); ++b)
          for (auto o = (*b)->ops.rbegin(); o != (*b)->ops.rend(); ++o)
            stack.push_back(o->get());
    }
  }
};

/// An input error with its position; rendered as `file:line:col: message`.
using tilexform::InputError;

/// Loads a dump from a file, or from text (with `path` used in messages).
llvm::Expected<std::unique_ptr<Module>> loadModuleFile(const std::string &path);
llvm::Expected<std::unique_ptr<Module>> loadModuleText(llvm::StringRef text,
                                                       const std::string &path);
/// The same for a buffer already read (the module keeps it).
llvm::Expected<std::unique_ptr<Module>> loadModuleBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                                         const std::string &path);

/// Parses one attribute or type written in Triton's syntax (older spellings
/// accepted). Errors carry the column within `text`.
llvm::Expected<mlir::Attribute> parseAttributeText(mlir::MLIRContext *ctx, const std::string &text);
llvm::Expected<mlir::Type> parseTypeText(mlir::MLIRContext *ctx, const std::string &text);

/// Whether tilexform knows an op name (canonical spelling).
bool isKnownOp(mlir::MLIRContext *ctx, llvm::StringRef name);
/// Canonical spelling of an op or attribute prefix (`triton_gpu.x` -> `ttg.x`).
std::string canonicalName(llvm::StringRef name);
/// An op name as written, made canonical, with the op's schema where the
/// table knows it (null otherwise): one lookup.
struct ResolvedOpName {
  std::string name;
  const OpSchema *schema = nullptr;
};
ResolvedOpName resolveOpName(llvm::StringRef written);

} // namespace tilexform::ir
