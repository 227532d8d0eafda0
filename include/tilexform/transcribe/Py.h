// The Python the transcriber writes, as a tree: an expression is built from
// nodes that know their own precedence, and one printer turns it into text.
// Parentheses are decided when printing, from the nodes, never by reading
// back text already written; string literals are escaped by the printer
// alone (a string's value is kept raw in its node).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tilexform::transcribe::py {

/// Python's binding strength of an expression's top-level operator, weakest
/// first: `kLowest` for what binds looser than a comparison (`not x`),
/// `kAtom` for names, literals, calls, attributes and subscripts.
enum Prec { kLowest = 0, kCompare, kBitOr, kBitXor, kBitAnd, kShift, kAdd, kMul, kUnary, kAtom };

/// The precedence of a binary operator's spelling (`+`, `//`, `<=`, ...).
Prec binaryPrecedence(const std::string &op);

struct Node;

/// One Python expression: an immutable tree, cheap to copy.
class Expr {
public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}

  /// Whether this is an expression (a default-constructed one is not).
  explicit operator bool() const { return node_ != nullptr; }
  Prec precedence() const;
  /// A plain identifier (`acc`, not `gl.float32`).
  bool isIdentifier() const;
  /// A literal number, negative ones included (`1024`, `-1.5`).
  bool isNumber() const;
  /// Whether it is `None`.
  bool isNone() const;
  const Node &node() const { return *node_; }

private:
  std::shared_ptr<const Node> node_;
};

struct Keyword {
  std::string name;
  Expr value;
};

enum class Kind {
  Name,      // an identifier or a dotted name: `acc`, `gl.float32`
  Literal,   // a number or constant as Python writes it: `1024`, `-1.5`, `True`, `None`
  String,    // a string literal; `text` is its value
  Call,      // items[0](items[1:], keywords)
  Attribute, // items[0].text
  Subscript, // items[0][items[1:]]
  Binary,    // items[0] text items[1]
  Unary,     // text items[0]  (`-`, `~`, `not `)
  Paren,     // (items[0]): parentheses the writer wants kept
  List,      // [items]
  Tuple,     // (items) with `trailingComma` after each item when set
  Dict,      // {items[0]: items[1], items[2]: items[3], ...}
};

struct Node {
  Kind kind;
  std::string text;
  std::vector<Expr> items;
  std::vector<Keyword> keywords;
  bool trailingComma = false;
};

Expr name(std::string id);
/// A literal as Python writes it: a number (`-1` binds as a unary minus),
/// `True`, `None`, `float('inf')`.
Expr literal(std::string text);
Expr literal(long long value);
Expr none();
Expr boolean(bool value);
/// A string literal of `value` (any bytes: the printer escapes them).
Expr string(std::string value);
Expr call(Expr callee, std::vector<Expr> args = {}, std::vector<Keyword> keywords = {});
Expr call(const std::string &callee, std::vector<Expr> args = {},
          std::vector<Keyword> keywords = {});
Expr attribute(Expr value, std::string attr);
/// `value.method(args, keywords)`.
Expr method(Expr value, const std::string &method, std::vector<Expr> args = {},
            std::vector<Keyword> keywords = {});
Expr subscript(Expr value, std::vector<Expr> index);
Expr binary(const std::string &op, Expr lhs, Expr rhs);
/// `-x`, `~x`; `not` is written `not x`.
Expr unary(const std::string &op, Expr operand);
Expr paren(Expr inner);
Expr list(std::vector<Expr> items);
template <typename T> Expr intList(const std::vector<T> &values) {
  std::vector<Expr> items;
  for (const T &v : values)
    items.push_back(literal(static_cast<long long>(v)));
  return list(std::move(items));
}
/// `(a, b)`; with `trailingComma` every item is followed by a comma (`(a,)`,
/// `(a, b,)`).
Expr tuple(std::vector<Expr> items, bool trailingComma = false);
Expr dict(std::vector<std::pair<Expr, Expr>> entries);

/// The expression as Python source.
std::string print(const Expr &e);

} // namespace tilexform::transcribe::py
