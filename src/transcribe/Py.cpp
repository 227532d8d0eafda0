#include "tilexform/transcribe/Py.h"

#include "tilexform/support/PythonText.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>

namespace tilexform::transcribe::py {

namespace {

Expr make(Kind kind, std::string text, std::vector<Expr> items = {},
          std::vector<Keyword> keywords = {}) {
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->text = std::move(text);
  n->items = std::move(items);
  n->keywords = std::move(keywords);
  return Expr(std::move(n));
}

void printTo(const Expr &e, std::string &out);

void printJoined(const std::vector<Expr> &items, size_t from, std::string &out) {
  for (size_t i = from; i < items.size(); ++i) {
    if (i > from)
      out += ", ";
    printTo(items[i], out);
  }
}

/// `e` where Python needs it wrapped: parenthesised when `wrap`.
void printWrapped(const Expr &e, bool wrap, std::string &out) {
  if (wrap)
    out += '(';
  printTo(e, out);
  if (wrap)
    out += ')';
}

/// The value before `.attr`, `(...)` or `[...]`: a number is no receiver
/// to Python (`1024.to(...)` does not parse; `-1.to(...)` binds the minus
/// last), nor is an expression of any operator.
void printReceiver(const Expr &e, std::string &out) {
  printWrapped(e, e.precedence() < kAtom || e.isNumber(), out);
}

void printTo(const Expr &e, std::string &out) {
  const Node &n = e.node();
  switch (n.kind) {
  case Kind::Name:
  case Kind::Literal:
    out += n.text;
    return;
  case Kind::String:
    out += pyStringLiteral(n.text);
    return;
  case Kind::Call: {
    printReceiver(n.items[0], out);
    out += '(';
    printJoined(n.items, 1, out);
    for (size_t i = 0; i < n.keywords.size(); ++i) {
      if (i > 0 || n.items.size() > 1)
        out += ", ";
      out += n.keywords[i].name;
      out += '=';
      printTo(n.keywords[i].value, out);
    }
    out += ')';
    return;
  }
  case Kind::Attribute:
    printReceiver(n.items[0], out);
    out += '.';
    out += n.text;
    return;
  case Kind::Subscript:
    printReceiver(n.items[0], out);
    out += '[';
    printJoined(n.items, 1, out);
    out += ']';
    return;
  case Kind::Binary: {
    Prec p = binaryPrecedence(n.text);
    Prec lhs = n.items[0].precedence(), rhs = n.items[1].precedence();
    // Python's binary operators group from the left; comparisons chain.
    printWrapped(n.items[0], lhs < p || (p == kCompare && lhs == kCompare), out);
    out += ' ';
    out += n.text;
    out += ' ';
    printWrapped(n.items[1], rhs <= p, out);
    return;
  }
  case Kind::Unary:
    out += n.text;
    printWrapped(n.items[0], n.items[0].precedence() < e.precedence(), out);
    return;
  case Kind::Paren:
    printWrapped(n.items[0], true, out);
    return;
  case Kind::List:
    out += '[';
    printJoined(n.items, 0, out);
    out += ']';
    return;
  case Kind::Tuple:
    out += '(';
    if (n.trailingComma) {
      for (size_t i = 0; i < n.items.size(); ++i) {
        if (i > 0)
          out += ' ';
        printTo(n.items[i], out);
        out += ',';
      }
    } else {
      printJoined(n.items, 0, out);
    }
    out += ')';
    return;
  case Kind::Dict:
    out += '{';
    for (size_t i = 0; i + 1 < n.items.size(); i += 2) {
      if (i > 0)
        out += ", ";
      printTo(n.items[i], out);
      out += ": ";
      printTo(n.items[i + 1], out);
    }
    out += '}';
    return;
  }
}

} // namespace

Prec binaryPrecedence(const std::string &op) {
  return llvm::StringSwitch<Prec>(op)
      .Cases("<", "<=", ">", ">=", "==", "!=", kCompare)
      .Case("|", kBitOr)
      .Case("^", kBitXor)
      .Case("&", kBitAnd)
      .Cases("<<", ">>", kShift)
      .Cases("+", "-", kAdd)
      .Cases("*", "/", "//", "%", kMul)
      .Case("**", kUnary)
      .Default(kLowest);
}

Prec Expr::precedence() const {
  switch (node_->kind) {
  case Kind::Literal:
    return !node_->text.empty() && node_->text[0] == '-' ? kUnary : kAtom;
  case Kind::Binary:
    return binaryPrecedence(node_->text);
  case Kind::Unary:
    return node_->text == "not " ? kLowest : kUnary;
  default:
    return kAtom;
  }
}

bool Expr::isIdentifier() const {
  if (node_->kind != Kind::Name || node_->text.empty())
    return false;
  llvm::StringRef t = node_->text;
  return (llvm::isAlpha(t[0]) || t[0] == '_') &&
         llvm::all_of(t, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

bool Expr::isNumber() const {
  if (node_->kind != Kind::Literal || node_->text.empty())
    return false;
  char c = node_->text[0];
  return llvm::isDigit(c) || c == '.' || c == '-';
}

bool Expr::isNone() const { return node_->kind == Kind::Literal && node_->text == "None"; }

Expr name(std::string id) { return make(Kind::Name, std::move(id)); }
Expr literal(std::string text) { return make(Kind::Literal, std::move(text)); }
Expr literal(long long value) { return make(Kind::Literal, std::to_string(value)); }
Expr none() { return literal("None"); }
Expr boolean(bool value) { return literal(value ? "True" : "False"); }
Expr string(std::string value) { return make(Kind::String, std::move(value)); }

Expr call(Expr callee, std::vector<Expr> args, std::vector<Keyword> keywords) {
  args.insert(args.begin(), std::move(callee));
  return make(Kind::Call, "", std::move(args), std::move(keywords));
}

Expr call(const std::string &callee, std::vector<Expr> args, std::vector<Keyword> keywords) {
  return call(name(callee), std::move(args), std::move(keywords));
}

Expr attribute(Expr value, std::string attr) {
  return make(Kind::Attribute, std::move(attr), {std::move(value)});
}

Expr method(Expr value, const std::string &method, std::vector<Expr> args,
            std::vector<Keyword> keywords) {
  return call(attribute(std::move(value), method), std::move(args), std::move(keywords));
}

Expr subscript(Expr value, std::vector<Expr> index) {
  index.insert(index.begin(), std::move(value));
  return make(Kind::Subscript, "", std::move(index));
}

Expr binary(const std::string &op, Expr lhs, Expr rhs) {
  return make(Kind::Binary, op, {std::move(lhs), std::move(rhs)});
}

Expr unary(const std::string &op, Expr operand) {
  return make(Kind::Unary, op == "not" ? "not " : op, {std::move(operand)});
}

Expr paren(Expr inner) { return make(Kind::Paren, "", {std::move(inner)}); }
Expr list(std::vector<Expr> items) { return make(Kind::List, "", std::move(items)); }

Expr tuple(std::vector<Expr> items, bool trailingComma) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Tuple;
  n->items = std::move(items);
  n->trailingComma = trailingComma;
  return Expr(std::move(n));
}

Expr dict(std::vector<std::pair<Expr, Expr>> entries) {
  std::vector<Expr> items;
  for (auto &[k, v] : entries) {
    items.push_back(std::move(k));
    items.push_back(std::move(v));
  }
  return make(Kind::Dict, "", std::move(items));
}

std::string print(const Expr &e) {
  std::string out;
  printTo(e, out);
  return out;
}

} // namespace tilexform::transcribe::py
