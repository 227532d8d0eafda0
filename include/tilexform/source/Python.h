// A Python 3 parser for kernel source trees: a tokenizer (indentation,
// implicit and explicit line joining, every string prefix and triple quotes)
// and a recursive-descent parser for the whole statement and expression
// grammar, producing a small syntax tree with line and column on every node.
// It parses; it does not evaluate. Syntax errors carry file:line:col.
#pragma once

#include <llvm/Support/Error.h>

#include <deque>
#include <string>
#include <vector>

namespace tilexform::source {

enum class NodeKind {
  // statements
  Module,
  FunctionDef,   // text = name; params; decorators; body; kids[0] = return annotation or null
  ClassDef,      // text = name; kids = bases and keywords; decorators; body
  For,           // kids = {target, iter}; body; orelse
  While,         // kids = {test}; body; orelse
  If,            // kids = {test}; body; orelse (an elif is an If alone in orelse)
  With,          // kids = context expressions (then "as" targets); body
  Try,           // body; handlers (ExceptHandler); orelse; finalbody
  ExceptHandler, // kids = {type} or {}; text = name; body
  Match,         // kids = {subject}; handlers (MatchCase)
  MatchCase,     // kids = {pattern, guard or null}; body
  Assign,        // kids = targets..., value
  AugAssign,     // kids = {target, value}; text = operator
  AnnAssign,     // kids = {target, annotation, value or null}
  ExprStmt,      // kids = {value}
  Return,        // kids = {value} or {}
  Import,        // kids = Alias
  ImportFrom,    // text = module (with leading dots); kids = Alias
  Alias,         // text = dotted name; alias = as-name
  Global,        // names
  Nonlocal,      // names
  Pass,
  Break,
  Continue,
  Raise, // kids = {exc, cause} (either may be null)
  Assert,
  Del,
  TypeAlias,
  // expressions
  Name,      // text = identifier
  Constant,  // text = literal as written (number, None, True, False, ...)
  Str,       // text = the literal(s) as written; value = contents when plain
  Attribute, // kids = {value}; text = attribute
  Call,      // kids = {func, args...}; an argument is an expression, Starred, or Keyword
  Keyword,   // text = name ("" for **kwargs); kids = {value}
  Subscript, // kids = {value, index}
  Slice,     // kids = {lower, upper, step} (each may be null)
  BinOp,     // kids = {left, right}; text = operator
  UnaryOp,   // kids = {operand}; text = operator
  BoolOp,    // kids = operands; text = "and"/"or"
  Compare,   // kids = operands; ops = operators
  IfExp,     // kids = {body, test, orelse}
  Lambda,    // params; kids = {body}
  Tuple,
  List,
  Set,
  Dict,          // kids = key, value, key, value ... (key null for **mapping)
  Comprehension, // text = "list"/"set"/"dict"/"gen"; kids = {element(s)..., CompFor...}
  CompFor,       // kids = {target, iter, conditions...}
  Starred,       // kids = {value}; text = "*" or "**"
  NamedExpr,     // kids = {target, value}
  Await,
  Yield, // text = "yield" or "yield from"; kids = {value} or {}
  Ellipsis,
  Param, // text = name; alias = "*", "**" or ""; kids = {annotation or null, default or null}
};

struct Node {
  NodeKind kind = NodeKind::Pass;
  unsigned line = 0, col = 0;
  unsigned endLine = 0; // last line of a statement
  std::string text, alias, value;
  std::vector<Node *> kids, body, orelse, finalbody, handlers, decorators, params;
  std::vector<std::string> names, ops;
};

/// A parsed module; owns its nodes.
class PyModule {
public:
  Node *root = nullptr;
  std::string file;
  Node *make(NodeKind kind, unsigned line, unsigned col) {
    nodes_.emplace_back();
    Node *n = &nodes_.back();
    n->kind = kind;
    n->line = line;
    n->col = col;
    return n;
  }

private:
  std::deque<Node> nodes_;
};

/// The parser's budget per source: past either, the source is refused
/// ("too large to parse") before its syntax tree outgrows memory: a node
/// and what survey keeps of it take about 400 bytes, so 1M nodes (a few MB
/// of dense code, far beyond any hand-written module) stay under 500 MB.
constexpr size_t kMaxPythonTokens = size_t(4) << 20;
constexpr size_t kMaxPythonNodes = size_t(1) << 20;

/// Parses Python 3 source. An error names file:line:col and the problem.
llvm::Expected<std::unique_ptr<PyModule>> parsePython(llvm::StringRef source,
                                                      const std::string &file);

/// "a.b.c" for a Name/Attribute chain; "" for anything else.
std::string dottedName(const Node *n);

} // namespace tilexform::source
