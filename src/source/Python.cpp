#include "tilexform/source/Python.h"

#include "tilexform/support/InputError.h"

#include <fmt/format.h>
#include <llvm/ADT/StringSwitch.h>

#include <cstring>
#include <memory>

namespace tilexform::source {

namespace {

enum class Tok { Name, Number, String, Op, Newline, Indent, Dedent, End };

struct Token {
  Tok type = Tok::End;
  llvm::StringRef text;
  unsigned line = 0, col = 0;
  bool fstring = false;
};

struct SyntaxError {
  unsigned line, col;
  std::string message;
};

/// A source past the parser's budget (kMaxPythonTokens, kMaxPythonNodes):
/// refused whole, so memory stays bounded whatever the file holds.
struct TooLarge {
  std::string message;
};

// ------------------------------------------------------------- tokenizer --

class Lexer {
public:
  explicit Lexer(llvm::StringRef src) : src_(src) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    // A UTF-8 byte order mark is allowed at the start.
    if (src_.starts_with("\xEF\xBB\xBF"))
      pos_ = 3;
    atLineStart_ = true;
    while (pos_ < src_.size()) {
      if (atLineStart_ && depth_.empty()) {
        if (!lineStart())
          continue;
      }
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\f') {
        advance(1);
      } else if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n' && src_[pos_] != '\r')
          advance(1);
      } else if (c == '\\') {
        size_t nl = pos_ + 1;
        if (nl < src_.size() && src_[nl] == '\r')
          ++nl;
        if (nl < src_.size() && src_[nl] == '\n') {
          advance(nl + 1 - pos_);
          newline();
        } else if (nl >= src_.size()) {
          throw SyntaxError{line_, col_, "unexpected end of file after line continuation"};
        } else {
          throw SyntaxError{line_, col_, "unexpected character after line continuation"};
        }
      } else if (c == '\n' || c == '\r') {
        if (depth_.empty())
          emit(Tok::Newline, pos_, 0);
        if (c == '\r' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '\n')
          advance(1);
        advance(1);
        newline();
        if (depth_.empty())
          atLineStart_ = true;
      } else if (isIdentStart(c)) {
        lexNameOrString();
      } else if (isDigit(c) || (c == '.' && pos_ + 1 < src_.size() && isDigit(src_[pos_ + 1]))) {
        lexNumber();
      } else if (c == '"' || c == '\'') {
        lexString(pos_, false);
      } else {
        lexOperator();
      }
    }
    if (!depth_.empty())
      throw SyntaxError{depth_.back().line, depth_.back().col,
                        std::string("'") + depth_.back().open + "' was never closed"};
    if (!tokens_.empty() && tokens_.back().type != Tok::Newline &&
        tokens_.back().type != Tok::Dedent && tokens_.back().type != Tok::Indent)
      emit(Tok::Newline, pos_, 0);
    while (indents_.size() > 1) {
      indents_.pop_back();
      emit(Tok::Dedent, pos_, 0);
    }
    emit(Tok::End, pos_, 0);
    return std::move(tokens_);
  }

private:
  struct Open {
    char open;
    unsigned line, col;
  };

  static bool isDigit(char c) { return c >= '0' && c <= '9'; }
  static bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
  }
  static bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

  void advance(size_t n) {
    pos_ += n;
    col_ += n;
  }
  void newline() {
    ++line_;
    col_ = 1;
  }
  void emit(Tok type, size_t start, size_t len, bool fstring = false) {
    Token t;
    t.type = type;
    t.text = src_.substr(start, len);
    t.line = tokLine_ ? tokLine_ : line_;
    t.col = tokLine_ ? tokCol_ : col_ - (pos_ - start);
    t.fstring = fstring;
    tokLine_ = 0;
    if (tokens_.size() >= kMaxPythonTokens)
      throw TooLarge{fmt::format("more than {} tokens", kMaxPythonTokens)};
    tokens_.push_back(t);
  }

  /// Measures indentation; false when the line is blank or a comment (then
  /// it is consumed and produces no tokens).
  bool lineStart() {
    size_t p = pos_;
    unsigned width = 0;
    while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t' || src_[p] == '\f')) {
      if (src_[p] == '\t')
        width = (width / 8 + 1) * 8;
      else if (src_[p] == '\f')
        width = 0;
      else
        ++width;
      ++p;
    }
    if (p >= src_.size()) {
      advance(p - pos_);
      return false;
    }
    char c = src_[p];
    if (c == '#' || c == '\n' || c == '\r' || c == '\\') {
      // Blank or comment-only lines do not change indentation. (A lone
      // backslash line continues onto the next.)
      if (c == '\\') {
        atLineStart_ = false;
        advance(p - pos_);
        return true;
      }
      while (p < src_.size() && src_[p] != '\n' && src_[p] != '\r')
        ++p;
      if (p < src_.size() && src_[p] == '\r' && p + 1 < src_.size() && src_[p + 1] == '\n')
        ++p;
      if (p < src_.size())
        ++p;
      pos_ = p;
      newline();
      return false;
    }
    advance(p - pos_);
    atLineStart_ = false;
    if (width > indents_.back()) {
      indents_.push_back(width);
      emit(Tok::Indent, pos_, 0);
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        emit(Tok::Dedent, pos_, 0);
      }
      if (width != indents_.back())
        throw SyntaxError{line_, col_, "unindent does not match any outer indentation level"};
    }
    return true;
  }

  void lexNameOrString() {
    size_t start = pos_;
    size_t p = pos_;
    while (p < src_.size() && isIdentChar(src_[p]))
      ++p;
    llvm::StringRef word = src_.slice(start, p);
    if (p < src_.size() && (src_[p] == '"' || src_[p] == '\'') && word.size() <= 2) {
      std::string lower = word.lower();
      bool prefix = llvm::StringSwitch<bool>(lower)
                        .Cases({"r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt"}, true)
                        .Default(false);
      if (prefix) {
        bool f = lower.find('f') != std::string::npos || lower.find('t') != std::string::npos;
        bool raw = lower.find('r') != std::string::npos;
        advance(p - pos_);
        lexString(start, f, raw);
        return;
      }
    }
    advance(p - pos_);
    emit(Tok::Name, start, p - start);
  }

  void lexNumber() {
    size_t start = pos_;
    size_t p = pos_;
    bool hex = src_.substr(p).starts_with_insensitive("0x");
    while (p < src_.size()) {
      char c = src_[p];
      if (isIdentChar(c) || c == '.') {
        ++p;
        if (!hex && (c == 'e' || c == 'E') && p < src_.size() && (src_[p] == '+' || src_[p] == '-'))
          ++p;
      } else {
        break;
      }
    }
    advance(p - start);
    emit(Tok::Number, start, p - start);
  }

  /// Scans a string literal whose quote starts at pos_; `start` is where the
  /// prefix began.
  void lexString(size_t start, bool fstring, bool raw = false) {
    unsigned line = line_, col = col_ - (pos_ - start);
    scanString(fstring, raw);
    tokLine_ = line;
    tokCol_ = col;
    emit(Tok::String, start, pos_ - start, fstring);
  }

  void scanString(bool fstring, bool raw, unsigned nesting = 0) {
    if (nesting > 32)
      throw SyntaxError{line_, col_, "strings nested too deeply in an f-string"};
    char q = src_[pos_];
    bool triple = pos_ + 2 < src_.size() && src_[pos_ + 1] == q && src_[pos_ + 2] == q;
    unsigned line = line_, col = col_;
    advance(triple ? 3 : 1);
    int braces = 0;
    while (true) {
      if (pos_ >= src_.size())
        throw SyntaxError{line, col,
                          triple ? "unterminated triple-quoted string" : "unterminated string"};
      char c = src_[pos_];
      if (c == '\\') {
        advance(1);
        if (pos_ >= src_.size())
          continue;
        char next = src_[pos_];
        if (next == '\n' || next == '\r') {
          if (next == '\r' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '\n')
            advance(1);
          advance(1);
          newline();
        } else if (!raw && fstring && next == 'N' && pos_ + 1 < src_.size() &&
                   src_[pos_ + 1] == '{') {
          // \N{NAME} is an escape, not a replacement field.
          while (pos_ < src_.size() && src_[pos_] != '}' && src_[pos_] != '\n')
            advance(1);
          if (pos_ < src_.size() && src_[pos_] == '}')
            advance(1);
        } else if (!raw || next == q || next == '\\') {
          // A raw string keeps its backslashes, but a quote or backslash
          // after one still does not end it.
          advance(1);
        }
        continue;
      }
      if (c == '\n' || c == '\r') {
        if (!triple && braces == 0)
          throw SyntaxError{line, col, "unterminated string"};
        if (c == '\r' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '\n')
          advance(1);
        advance(1);
        newline();
        continue;
      }
      if (fstring) {
        if (c == '{') {
          if (braces == 0 && pos_ + 1 < src_.size() && src_[pos_ + 1] == '{') {
            advance(2);
            continue;
          }
          ++braces;
          advance(1);
          continue;
        }
        if (c == '}' && braces > 0) {
          --braces;
          advance(1);
          continue;
        }
        if (braces > 0 && (c == '"' || c == '\'')) {
          // A string nested in a replacement field (Python 3.12 allows the
          // same quote as the enclosing literal).
          scanString(false, false, nesting + 1);
          continue;
        }
      }
      if (c == q && braces == 0) {
        if (!triple) {
          advance(1);
          return;
        }
        if (pos_ + 2 < src_.size() && src_[pos_ + 1] == q && src_[pos_ + 2] == q) {
          advance(3);
          return;
        }
      }
      advance(1);
    }
  }

  void lexOperator() {
    static const char *three[] = {"**=", "//=", ">>=", "<<=", "..."};
    static const char *two[] = {"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", "+=",
                                "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="};
    llvm::StringRef rest = src_.substr(pos_);
    size_t start = pos_;
    for (const char *op : three)
      if (rest.starts_with(op)) {
        advance(3);
        emit(Tok::Op, start, 3);
        return;
      }
    for (const char *op : two)
      if (rest.starts_with(op)) {
        advance(2);
        emit(Tok::Op, start, 2);
        return;
      }
    char c = src_[pos_];
    if (!std::strchr("+-*/%@&|^~<>()[]{},:.;=!", c) || c == '\0') {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        throw SyntaxError{line_, col_,
                          "invalid character (byte " +
                              std::to_string(static_cast<unsigned char>(c)) + ")"};
      throw SyntaxError{line_, col_, std::string("invalid character '") + c + "'"};
    }
    if (c == '(' || c == '[' || c == '{') {
      depth_.push_back({c, line_, col_});
    } else if (c == ')' || c == ']' || c == '}') {
      char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (depth_.empty())
        throw SyntaxError{line_, col_, std::string("unmatched '") + c + "'"};
      if (depth_.back().open != want)
        throw SyntaxError{line_, col_,
                          std::string("closing '") + c + "' does not match '" + depth_.back().open +
                              "' at line " + std::to_string(depth_.back().line)};
      depth_.pop_back();
    }
    advance(1);
    emit(Tok::Op, start, 1);
  }

  llvm::StringRef src_;
  size_t pos_ = 0;
  unsigned line_ = 1, col_ = 1;
  unsigned tokLine_ = 0, tokCol_ = 0;
  bool atLineStart_ = true;
  std::vector<unsigned> indents_;
  std::vector<Open> depth_;
  std::vector<Token> tokens_;
};

// ---------------------------------------------------------------- parser --

bool isKeyword(llvm::StringRef s) {
  return llvm::StringSwitch<bool>(s)
      .Cases({"False",  "None",   "True",    "and",      "as",       "assert", "async",
              "await",  "break",  "class",   "continue", "def",      "del",    "elif",
              "else",   "except", "finally", "for",      "from",     "global", "if",
              "import", "in",     "is",      "lambda",   "nonlocal", "not",    "or",
              "pass",   "raise",  "return",  "try",      "while",    "with",   "yield"},
             true)
      .Default(false);
}

class Parser {
public:
  Parser(std::vector<Token> tokens, PyModule &module) : toks_(std::move(tokens)), m_(module) {}

  Node *parseModule() {
    Node *root = m_.make(NodeKind::Module, 1, 1);
    while (!at(Tok::End)) {
      if (at(Tok::Newline)) {
        ++i_;
        continue;
      }
      if (at(Tok::Indent))
        fail("unexpected indent");
      parseStatement(root->body);
    }
    return root;
  }

private:
  // ---- token helpers
  const Token &cur() const { return toks_[i_]; }
  const Token &peek(size_t n = 1) const { return toks_[std::min(i_ + n, toks_.size() - 1)]; }
  bool at(Tok t) const { return cur().type == t; }
  bool atOp(llvm::StringRef op) const { return cur().type == Tok::Op && cur().text == op; }
  bool atName(llvm::StringRef n) const { return cur().type == Tok::Name && cur().text == n; }
  bool acceptOp(llvm::StringRef op) {
    if (!atOp(op))
      return false;
    ++i_;
    return true;
  }
  bool acceptName(llvm::StringRef n) {
    if (!atName(n))
      return false;
    ++i_;
    return true;
  }
  [[noreturn]] void fail(const std::string &message) const {
    throw SyntaxError{cur().line, cur().col, message};
  }
  std::string describe(const Token &t) const {
    switch (t.type) {
    case Tok::Newline:
      return "end of line";
    case Tok::Indent:
      return "indent";
    case Tok::Dedent:
      return "dedent";
    case Tok::End:
      return "end of file";
    default:
      return "'" + t.text.str() + "'";
    }
  }
  void expectOp(llvm::StringRef op) {
    if (!acceptOp(op))
      fail("expected '" + op.str() + "', found " + describe(cur()));
  }
  void expectName(llvm::StringRef n) {
    if (!acceptName(n))
      fail("expected '" + n.str() + "', found " + describe(cur()));
  }
  std::string identifier() {
    if (!at(Tok::Name) || isKeyword(cur().text))
      fail("expected a name, found " + describe(cur()));
    return toks_[i_++].text.str();
  }
  Node *make(NodeKind kind, const Token &at) {
    if (++nodes_ > kMaxPythonNodes)
      throw TooLarge{fmt::format("more than {} syntax nodes", kMaxPythonNodes)};
    return m_.make(kind, at.line, at.col);
  }

  struct DepthGuard {
    explicit DepthGuard(Parser &p) : p(p) {
      if (++p.depth_ > 300)
        p.fail("nesting too deep");
    }
    ~DepthGuard() { --p.depth_; }
    Parser &p;
  };

  // ---- statements
  void parseStatement(std::vector<Node *> &out) {
    DepthGuard guard(*this);
    if (at(Tok::Indent))
      fail("unexpected indent");
    const Token &t = cur();
    if (atOp("@")) {
      std::vector<Node *> decorators;
      while (acceptOp("@")) {
        decorators.push_back(parseNamedExpression());
        expectNewline();
      }
      acceptName("async");
      Node *def = atName("def") ? parseFunction() : atName("class") ? parseClass() : nullptr;
      if (!def)
        fail("expected 'def' or 'class' after a decorator");
      def->decorators = std::move(decorators);
      out.push_back(def);
      return;
    }
    if (t.type == Tok::Name) {
      llvm::StringRef w = t.text;
      using Compound = Node *(Parser::*)();
      static const std::pair<const char *, Compound> compounds[] = {
          {"def", &Parser::parseFunction}, {"class", &Parser::parseClass},
          {"if", &Parser::parseIf},        {"while", &Parser::parseWhile},
          {"for", &Parser::parseFor},      {"try", &Parser::parseTry},
          {"with", &Parser::parseWith}};
      for (auto &[keyword, parse] : compounds)
        if (w == keyword) {
          out.push_back((this->*parse)());
          return;
        }
      if (w == "async" && peek().type == Tok::Name &&
          (peek().text == "def" || peek().text == "for" || peek().text == "with")) {
        ++i_;
        parseStatement(out);
        return;
      }
      if (w == "match" && looksLikeMatch()) {
        out.push_back(parseMatch());
        return;
      }
    }
    parseSimpleStatements(out);
  }

  void expectNewline() {
    if (at(Tok::Newline)) {
      ++i_;
      return;
    }
    if (at(Tok::End))
      return;
    fail("expected end of line, found " + describe(cur()));
  }

  /// ':' then an indented block, or simple statements on the same line.
  void parseBlock(std::vector<Node *> &body, Node *owner) {
    expectOp(":");
    if (at(Tok::Newline)) {
      ++i_;
      if (!at(Tok::Indent))
        fail("expected an indented block");
      ++i_;
      while (!at(Tok::Dedent) && !at(Tok::End)) {
        if (at(Tok::Newline)) {
          ++i_;
          continue;
        }
        parseStatement(body);
      }
      if (at(Tok::Dedent))
        ++i_;
    } else {
      parseSimpleStatements(body);
    }
    if (owner)
      owner->endLine = toks_[i_ ? i_ - 1 : 0].line;
  }

  Node *parseFunction() {
    const Token &t = cur();
    expectName("def");
    Node *n = make(NodeKind::FunctionDef, t);
    n->text = identifier();
    if (atOp("["))
      skipBalanced();
    expectOp("(");
    parseParams(n->params, ")");
    expectOp(")");
    n->kids.push_back(acceptOp("->") ? parseExpression() : nullptr);
    parseBlock(n->body, n);
    return n;
  }

  void parseParams(std::vector<Node *> &params, llvm::StringRef close) {
    while (!atOp(close) && !at(Tok::Newline) && !at(Tok::End)) {
      const Token &t = cur();
      if (acceptOp("/")) {
      } else {
        Node *p = make(NodeKind::Param, t);
        if (acceptOp("*"))
          p->alias = "*";
        else if (acceptOp("**"))
          p->alias = "**";
        if (p->alias == "*" && (atOp(",") || atOp(close))) {
          p->text = "";
        } else {
          p->text = identifier();
        }
        Node *annotation = nullptr, *def = nullptr;
        if (close == ")" && acceptOp(":"))
          annotation = atOp("*") ? parseStarExpression() : parseExpression();
        if (acceptOp("="))
          def = parseExpression();
        p->kids = {annotation, def};
        params.push_back(p);
      }
      if (!acceptOp(","))
        break;
    }
  }

  void skipBalanced() {
    int depth = 0;
    do {
      if (atOp("(") || atOp("[") || atOp("{"))
        ++depth;
      else if (atOp(")") || atOp("]") || atOp("}"))
        --depth;
      else if (at(Tok::End))
        fail("unbalanced brackets");
      ++i_;
    } while (depth > 0);
  }

  Node *parseClass() {
    const Token &t = cur();
    expectName("class");
    Node *n = make(NodeKind::ClassDef, t);
    n->text = identifier();
    if (atOp("["))
      skipBalanced();
    if (acceptOp("(")) {
      parseArguments(n->kids, ")");
      expectOp(")");
    }
    parseBlock(n->body, n);
    return n;
  }

  Node *parseIf() {
    // An elif is an If alone in the orelse of the one before; the chain is
    // read iteratively so a long chain costs no stack.
    Node *first = nullptr, *last = nullptr;
    size_t links = 0;
    do {
      if (++links > kMaxChain)
        fail("elif chain too long");
      const Token &t = cur();
      ++i_; // if / elif
      Node *n = make(NodeKind::If, t);
      n->kids.push_back(parseNamedExpression());
      parseBlock(n->body, n);
      if (last)
        last->orelse.push_back(n);
      else
        first = n;
      last = n;
    } while (atName("elif"));
    if (acceptName("else"))
      parseBlock(last->orelse, nullptr);
    return first;
  }

  Node *parseWhile() {
    const Token &t = cur();
    expectName("while");
    Node *n = make(NodeKind::While, t);
    n->kids.push_back(parseNamedExpression());
    parseBlock(n->body, n);
    if (acceptName("else"))
      parseBlock(n->orelse, nullptr);
    return n;
  }

  Node *parseFor() {
    const Token &t = cur();
    expectName("for");
    Node *n = make(NodeKind::For, t);
    n->kids.push_back(parseTargets());
    expectName("in");
    n->kids.push_back(parseStarExpressions());
    parseBlock(n->body, n);
    if (acceptName("else"))
      parseBlock(n->orelse, nullptr);
    return n;
  }

  Node *parseTry() {
    const Token &t = cur();
    expectName("try");
    Node *n = make(NodeKind::Try, t);
    parseBlock(n->body, n);
    while (atName("except")) {
      const Token &e = cur();
      ++i_;
      acceptOp("*");
      Node *h = make(NodeKind::ExceptHandler, e);
      if (!atOp(":")) {
        h->kids.push_back(parseStarExpressions());
        if (acceptName("as"))
          h->text = identifier();
      }
      parseBlock(h->body, h);
      n->handlers.push_back(h);
    }
    if (acceptName("else"))
      parseBlock(n->orelse, nullptr);
    if (acceptName("finally"))
      parseBlock(n->finalbody, nullptr);
    if (n->handlers.empty() && n->finalbody.empty())
      fail("expected 'except' or 'finally' block");
    return n;
  }

  Node *parseWith() {
    const Token &t = cur();
    expectName("with");
    Node *n = make(NodeKind::With, t);
    // "with (a as b, c as d):" — parenthesised items.
    bool parenthesised = false;
    if (atOp("(")) {
      size_t j = i_, depth = 0;
      bool sawAs = false;
      for (; j < toks_.size(); ++j) {
        const Token &k = toks_[j];
        if (k.type == Tok::Op && (k.text == "(" || k.text == "[" || k.text == "{"))
          ++depth;
        else if (k.type == Tok::Op && (k.text == ")" || k.text == "]" || k.text == "}")) {
          if (--depth == 0)
            break;
        } else if (depth == 1 && k.type == Tok::Name && k.text == "as")
          sawAs = true;
      }
      parenthesised =
          sawAs && j + 1 < toks_.size() && toks_[j + 1].type == Tok::Op && toks_[j + 1].text == ":";
    }
    if (parenthesised)
      ++i_;
    std::vector<Node *> targets;
    while (true) {
      n->kids.push_back(parseExpression());
      if (acceptName("as"))
        targets.push_back(parseTarget());
      if (!acceptOp(","))
        break;
      if (parenthesised && atOp(")"))
        break;
    }
    if (parenthesised)
      expectOp(")");
    n->kids.insert(n->kids.end(), targets.begin(), targets.end());
    parseBlock(n->body, n);
    return n;
  }

  bool looksLikeMatch() const {
    // match SUBJECT ':' NEWLINE INDENT 'case'
    size_t j = i_ + 1;
    const Token &next = toks_[std::min(j, toks_.size() - 1)];
    if (next.type == Tok::Newline ||
        (next.type == Tok::Op && next.text != "(" && next.text != "[" && next.text != "{" &&
         next.text != "-" && next.text != "*" && next.text != "..."))
      return false;
    while (j < toks_.size() && toks_[j].type != Tok::Newline && toks_[j].type != Tok::End)
      ++j;
    return j + 2 < toks_.size() && toks_[j - 1].type == Tok::Op && toks_[j - 1].text == ":" &&
           toks_[j + 1].type == Tok::Indent && toks_[j + 2].type == Tok::Name &&
           toks_[j + 2].text == "case";
  }

  Node *parseMatch() {
    const Token &t = cur();
    ++i_;
    Node *n = make(NodeKind::Match, t);
    n->kids.push_back(parseStarExpressions());
    expectOp(":");
    expectNewline();
    if (!at(Tok::Indent))
      fail("expected an indented block of 'case' clauses");
    ++i_;
    while (atName("case")) {
      const Token &c = cur();
      ++i_;
      Node *k = make(NodeKind::MatchCase, c);
      k->kids.push_back(parsePattern());
      k->kids.push_back(acceptName("if") ? parseNamedExpression() : nullptr);
      parseBlock(k->body, k);
      n->handlers.push_back(k);
      while (at(Tok::Newline))
        ++i_;
    }
    if (!at(Tok::Dedent) && !at(Tok::End))
      fail("expected 'case'");
    if (at(Tok::Dedent))
      ++i_;
    return n;
  }

  /// Patterns are read as expressions ("as" captures and "|" alternatives
  /// included); enough to walk them, not to match.
  Node *parsePattern() {
    inPattern_ = true;
    Node *p = parseStarExpressionsNoCond();
    while (acceptName("as"))
      identifier();
    inPattern_ = false;
    return p;
  }
  /// Inside a case pattern, "P as NAME" may appear wherever a pattern does.
  void skipPatternCapture() {
    while (inPattern_ && acceptName("as"))
      identifier();
  }
  Node *parseStarExpressionsNoCond() {
    const Token &t = cur();
    std::vector<Node *> items;
    bool comma = false;
    while (true) {
      items.push_back(atOp("*") ? parseStarExpression() : parseDisjunction());
      while (acceptName("as"))
        identifier();
      if (!acceptOp(","))
        break;
      comma = true;
      if (atOp(":") || atName("if"))
        break;
    }
    if (!comma)
      return items.front();
    Node *tup = make(NodeKind::Tuple, t);
    tup->kids = std::move(items);
    return tup;
  }

  void parseSimpleStatements(std::vector<Node *> &out) {
    while (true) {
      out.push_back(parseSmallStatement());
      if (!acceptOp(";"))
        break;
      if (at(Tok::Newline) || at(Tok::End))
        break;
    }
    expectNewline();
  }

  Node *parseSmallStatement() {
    const Token &t = cur();
    Node *n = nullptr;
    if (t.type == Tok::Name) {
      llvm::StringRef w = t.text;
      if (w == "pass" || w == "break" || w == "continue") {
        ++i_;
        return make(w == "pass"    ? NodeKind::Pass
                    : w == "break" ? NodeKind::Break
                                   : NodeKind::Continue,
                    t);
      }
      if (w == "return") {
        ++i_;
        n = make(NodeKind::Return, t);
        if (!atStatementEnd())
          n->kids.push_back(parseStarExpressions());
        return n;
      }
      if (w == "raise") {
        ++i_;
        n = make(NodeKind::Raise, t);
        Node *exc = atStatementEnd() ? nullptr : parseExpression();
        Node *cause = exc && acceptName("from") ? parseExpression() : nullptr;
        n->kids = {exc, cause};
        return n;
      }
      if (w == "global" || w == "nonlocal") {
        ++i_;
        n = make(w == "global" ? NodeKind::Global : NodeKind::Nonlocal, t);
        do
          n->names.push_back(identifier());
        while (acceptOp(","));
        return n;
      }
      if (w == "del") {
        ++i_;
        n = make(NodeKind::Del, t);
        n->kids.push_back(parseStarExpressions());
        return n;
      }
      if (w == "assert") {
        ++i_;
        n = make(NodeKind::Assert, t);
        n->kids.push_back(parseExpression());
        if (acceptOp(","))
          n->kids.push_back(parseExpression());
        return n;
      }
      if (w == "import")
        return parseImport();
      if (w == "from")
        return parseFromImport();
      if (w == "type" && peek().type == Tok::Name && !isKeyword(peek().text) &&
          peek(2).type == Tok::Op && (peek(2).text == "=" || peek(2).text == "[")) {
        ++i_;
        n = make(NodeKind::TypeAlias, t);
        n->text = identifier();
        if (atOp("["))
          skipBalanced();
        expectOp("=");
        n->kids.push_back(parseExpression());
        return n;
      }
    }
    Node *first = atName("yield") ? parseYield() : parseStarExpressions();
    if (atOp("=")) {
      n = make(NodeKind::Assign, t);
      n->kids.push_back(first);
      while (acceptOp("=")) {
        n->kids.push_back(atName("yield") ? parseYield() : parseStarExpressions());
      }
      return n;
    }
    static const char *aug[] = {
        "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=", "**="};
    for (const char *op : aug)
      if (atOp(op)) {
        ++i_;
        n = make(NodeKind::AugAssign, t);
        n->text = op;
        n->kids = {first, atName("yield") ? parseYield() : parseStarExpressions()};
        return n;
      }
    if (acceptOp(":")) {
      n = make(NodeKind::AnnAssign, t);
      Node *annotation = parseExpression();
      Node *value =
          acceptOp("=") ? (atName("yield") ? parseYield() : parseStarExpressions()) : nullptr;
      n->kids = {first, annotation, value};
      return n;
    }
    n = make(NodeKind::ExprStmt, t);
    n->kids.push_back(first);
    return n;
  }

  bool atStatementEnd() const { return at(Tok::Newline) || at(Tok::End) || atOp(";"); }

  std::string dotted() {
    std::string name = identifier();
    while (acceptOp("."))
      name += "." + identifier();
    return name;
  }

  Node *parseImport() {
    const Token &t = cur();
    expectName("import");
    Node *n = make(NodeKind::Import, t);
    do {
      const Token &a = cur();
      Node *alias = make(NodeKind::Alias, a);
      alias->text = dotted();
      if (acceptName("as"))
        alias->alias = identifier();
      n->kids.push_back(alias);
    } while (acceptOp(","));
    return n;
  }

  Node *parseFromImport() {
    const Token &t = cur();
    expectName("from");
    Node *n = make(NodeKind::ImportFrom, t);
    std::string module;
    while (atOp(".") || atOp("...")) {
      module += cur().text.str();
      ++i_;
    }
    if (!atName("import"))
      module += dotted();
    n->text = module;
    expectName("import");
    bool paren = acceptOp("(");
    if (acceptOp("*")) {
      Node *alias = make(NodeKind::Alias, t);
      alias->text.assign(1, '*');
      n->kids.push_back(alias);
    } else {
      do {
        if (paren && atOp(")"))
          break;
        const Token &a = cur();
        Node *alias = make(NodeKind::Alias, a);
        alias->text = identifier();
        if (acceptName("as"))
          alias->alias = identifier();
        n->kids.push_back(alias);
      } while (acceptOp(","));
    }
    if (paren)
      expectOp(")");
    return n;
  }

  // ---- targets (for-loop and comprehension variables: no "in" comparison)
  Node *parseTarget() {
    if (atOp("*")) {
      const Token &t = cur();
      ++i_;
      Node *s = make(NodeKind::Starred, t);
      s->text.assign(1, '*');
      s->kids.push_back(parseBitOr());
      return s;
    }
    return parseBitOr();
  }
  Node *parseTargets() {
    const Token &t = cur();
    Node *first = parseTarget();
    if (!atOp(","))
      return first;
    Node *tup = make(NodeKind::Tuple, t);
    tup->kids.push_back(first);
    while (acceptOp(",")) {
      if (atName("in") || atOp("="))
        break;
      tup->kids.push_back(parseTarget());
    }
    return tup;
  }

  // ---- expressions
  Node *parseStarExpressions() {
    const Token &t = cur();
    Node *first = parseStarExpression();
    if (!atOp(","))
      return first;
    Node *tup = make(NodeKind::Tuple, t);
    tup->kids.push_back(first);
    while (acceptOp(",")) {
      if (!startsExpression())
        break;
      tup->kids.push_back(parseStarExpression());
    }
    return tup;
  }

  bool startsExpression() const {
    const Token &t = cur();
    switch (t.type) {
    case Tok::Name:
      return !isKeyword(t.text) || t.text == "None" || t.text == "True" || t.text == "False" ||
             t.text == "not" || t.text == "lambda" || t.text == "await" || t.text == "yield";
    case Tok::Number:
    case Tok::String:
      return true;
    case Tok::Op:
      return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" ||
             t.text == "~" || t.text == "*" || t.text == "**" || t.text == "...";
    default:
      return false;
    }
  }

  Node *parseStarExpression() {
    if (atOp("*")) {
      const Token &t = cur();
      ++i_;
      Node *s = make(NodeKind::Starred, t);
      s->text.assign(1, '*');
      s->kids.push_back(parseBitOr());
      return s;
    }
    return parseNamedExpression();
  }

  Node *parseNamedExpression() {
    if (at(Tok::Name) && peek().type == Tok::Op && peek().text == ":=") {
      const Token &t = cur();
      Node *n = make(NodeKind::NamedExpr, t);
      Node *target = make(NodeKind::Name, t);
      target->text = identifier();
      ++i_; // :=
      n->kids = {target, parseExpression()};
      return n;
    }
    return parseExpression();
  }

  Node *parseExpression() {
    DepthGuard guard(*this);
    if (atName("lambda"))
      return parseLambda();
    const Token &t = cur();
    Node *body = parseDisjunction();
    if (atName("if")) {
      // Not a conditional expression inside a comprehension's "if" clause:
      // those are consumed by the comprehension parser before we get here.
      ++i_;
      Node *n = make(NodeKind::IfExp, t);
      Node *test = parseDisjunction();
      expectName("else");
      n->kids = {body, test, parseExpression()};
      return n;
    }
    return body;
  }

  Node *parseLambda() {
    const Token &t = cur();
    expectName("lambda");
    Node *n = make(NodeKind::Lambda, t);
    parseParams(n->params, ":");
    expectOp(":");
    n->kids.push_back(parseExpression());
    return n;
  }

  /// `a or b or ...` / `a and b and ...`: one flat BoolOp.
  Node *parseBoolChain(llvm::StringRef op, Node *(Parser::*next)()) {
    const Token &t = cur();
    Node *first = (this->*next)();
    if (!atName(op))
      return first;
    Node *n = make(NodeKind::BoolOp, t);
    n->text = op.str();
    n->kids.push_back(first);
    while (acceptName(op))
      n->kids.push_back((this->*next)());
    return n;
  }
  Node *parseDisjunction() { return parseBoolChain("or", &Parser::parseConjunction); }
  Node *parseConjunction() { return parseBoolChain("and", &Parser::parseInversion); }

  Node *parseInversion() {
    DepthGuard guard(*this);
    if (atName("not")) {
      const Token &t = cur();
      ++i_;
      Node *n = make(NodeKind::UnaryOp, t);
      n->text = "not";
      n->kids.push_back(parseInversion());
      return n;
    }
    return parseComparison();
  }

  Node *parseComparison() {
    const Token &t = cur();
    Node *first = parseBitOr();
    Node *n = nullptr;
    while (true) {
      std::string op;
      if (atOp("==") || atOp("!=") || atOp("<") || atOp(">") || atOp("<=") || atOp(">=")) {
        op = cur().text.str();
        ++i_;
      } else if (atName("in")) {
        op = "in";
        ++i_;
      } else if (atName("not") && peek().type == Tok::Name && peek().text == "in") {
        op = "not in";
        i_ += 2;
      } else if (atName("is")) {
        ++i_;
        op = acceptName("not") ? "is not" : "is";
      } else {
        break;
      }
      if (!n) {
        n = make(NodeKind::Compare, t);
        n->kids.push_back(first);
      }
      n->ops.push_back(op);
      n->kids.push_back(parseBitOr());
    }
    return n ? n : first;
  }

  /// Left-associative chains (a + b + ...) and trailers (a.b(c)[d]...) nest
  /// without parser recursion; they are bounded so every later walk of the
  /// tree stays within the stack.
  void bumpChain(size_t &n) {
    if (++n > kMaxChain)
      fail("expression too long");
  }

  Node *binary(Node *left, const Token &t, std::string op, Node *right) {
    Node *n = make(NodeKind::BinOp, t);
    n->text = std::move(op);
    n->kids = {left, right};
    return n;
  }

  /// One left-associative precedence level: operands from `next`, joined by
  /// any of `ops`.
  Node *parseLeftAssoc(std::initializer_list<const char *> ops, Node *(Parser::*next)()) {
    const Token &t = cur();
    Node *n = (this->*next)();
    size_t chain = 0;
    while (true) {
      const char *op = nullptr;
      for (const char *o : ops)
        if (atOp(o)) {
          op = o;
          break;
        }
      if (!op)
        return n;
      bumpChain(chain);
      ++i_;
      n = binary(n, t, op, (this->*next)());
    }
  }
  Node *parseBitOr() { return parseLeftAssoc({"|"}, &Parser::parseXor); }
  Node *parseXor() { return parseLeftAssoc({"^"}, &Parser::parseBitAnd); }
  Node *parseBitAnd() { return parseLeftAssoc({"&"}, &Parser::parseShift); }
  Node *parseShift() { return parseLeftAssoc({"<<", ">>"}, &Parser::parseSum); }
  Node *parseSum() { return parseLeftAssoc({"+", "-"}, &Parser::parseTerm); }
  Node *parseTerm() { return parseLeftAssoc({"*", "/", "//", "%", "@"}, &Parser::parseFactor); }
  Node *parseFactor() {
    DepthGuard guard(*this);
    if (atOp("+") || atOp("-") || atOp("~")) {
      const Token &t = cur();
      ++i_;
      Node *n = make(NodeKind::UnaryOp, t);
      n->text = t.text.str();
      n->kids.push_back(parseFactor());
      return n;
    }
    return parsePower();
  }
  Node *parsePower() {
    const Token &t = cur();
    Node *base;
    if (atName("await")) {
      ++i_;
      base = make(NodeKind::Await, t);
      base->kids.push_back(parsePrimary());
    } else {
      base = parsePrimary();
    }
    if (acceptOp("**"))
      return binary(base, t, "**", parseFactor());
    return base;
  }

  Node *parsePrimary() {
    Node *n = parseAtom();
    size_t chain = 0;
    while (true) {
      const Token &t = cur();
      if (atOp(".") || atOp("(") || atOp("["))
        bumpChain(chain);
      if (acceptOp(".")) {
        Node *a = make(NodeKind::Attribute, t);
        a->kids.push_back(n);
        a->text = identifier();
        a->line = n->line;
        a->col = n->col;
        n = a;
      } else if (acceptOp("(")) {
        Node *c = make(NodeKind::Call, t);
        c->line = n->line;
        c->col = n->col;
        c->kids.push_back(n);
        parseArguments(c->kids, ")");
        expectOp(")");
        n = c;
      } else if (acceptOp("[")) {
        Node *s = make(NodeKind::Subscript, t);
        s->line = n->line;
        s->col = n->col;
        s->kids = {n, parseSlices()};
        expectOp("]");
        n = s;
      } else {
        return n;
      }
    }
  }

  /// Call arguments (also class bases): positional, *args, **kwargs,
  /// name=value, and a lone generator expression.
  void parseArguments(std::vector<Node *> &out, llvm::StringRef close) {
    while (!atOp(close)) {
      const Token &t = cur();
      if (acceptOp("*")) {
        Node *s = make(NodeKind::Starred, t);
        s->text.assign(1, '*');
        s->kids.push_back(parseExpression());
        out.push_back(s);
      } else if (acceptOp("**")) {
        Node *k = make(NodeKind::Keyword, t);
        k->kids.push_back(parseExpression());
        out.push_back(k);
      } else if (at(Tok::Name) && peek().type == Tok::Op && peek().text == "=") {
        Node *k = make(NodeKind::Keyword, t);
        k->text = identifier();
        ++i_; // =
        k->kids.push_back(parseExpression());
        out.push_back(k);
      } else {
        Node *e = parseNamedExpression();
        if (atName("for") || (atName("async") && peek().text == "for"))
          e = parseComprehension("gen", {e}, t);
        out.push_back(e);
      }
      if (!acceptOp(","))
        break;
    }
  }

  Node *parseSlices() {
    const Token &t = cur();
    Node *first = parseSlice();
    if (!atOp(","))
      return first;
    Node *tup = make(NodeKind::Tuple, t);
    tup->kids.push_back(first);
    while (acceptOp(",")) {
      if (atOp("]"))
        break;
      tup->kids.push_back(parseSlice());
    }
    return tup;
  }

  Node *parseSlice() {
    const Token &t = cur();
    Node *lower = nullptr;
    if (!atOp(":")) {
      lower = parseStarExpression();
      if (!atOp(":"))
        return lower;
    }
    Node *s = make(NodeKind::Slice, t);
    expectOp(":");
    Node *upper = (atOp(":") || atOp("]") || atOp(",")) ? nullptr : parseExpression();
    Node *step = nullptr;
    if (acceptOp(":") && !atOp("]") && !atOp(","))
      step = parseExpression();
    s->kids = {lower, upper, step};
    return s;
  }

  Node *parseComprehension(const char *kind, std::vector<Node *> elements, const Token &t) {
    Node *c = make(NodeKind::Comprehension, t);
    c->text = kind;
    c->kids = std::move(elements);
    while (atName("for") || (atName("async") && peek().type == Tok::Name && peek().text == "for")) {
      acceptName("async");
      const Token &f = cur();
      expectName("for");
      Node *clause = make(NodeKind::CompFor, f);
      clause->kids.push_back(parseTargets());
      expectName("in");
      clause->kids.push_back(parseDisjunction());
      while (acceptName("if"))
        clause->kids.push_back(parseDisjunction());
      c->kids.push_back(clause);
    }
    return c;
  }

  Node *parseYield() {
    const Token &t = cur();
    expectName("yield");
    Node *n = make(NodeKind::Yield, t);
    n->text = "yield";
    if (acceptName("from")) {
      n->text = "yield from";
      n->kids.push_back(parseExpression());
    } else if (startsExpression()) {
      n->kids.push_back(parseStarExpressions());
    }
    return n;
  }

  Node *parseAtom() {
    DepthGuard guard(*this);
    const Token &t = cur();
    switch (t.type) {
    case Tok::Name: {
      if (t.text == "None" || t.text == "True" || t.text == "False") {
        ++i_;
        Node *n = make(NodeKind::Constant, t);
        n->text = t.text.str();
        return n;
      }
      if (isKeyword(t.text))
        fail("unexpected keyword '" + t.text.str() + "'");
      ++i_;
      Node *n = make(NodeKind::Name, t);
      n->text = t.text.str();
      return n;
    }
    case Tok::Number: {
      ++i_;
      Node *n = make(NodeKind::Constant, t);
      n->text = t.text.str();
      return n;
    }
    case Tok::String: {
      Node *n = make(NodeKind::Str, t);
      n->text = t.text.str();
      bool plain = true;
      while (at(Tok::String)) {
        const Token &s = cur();
        plain &= !s.fstring;
        n->value += stringContents(s.text);
        ++i_;
      }
      if (!plain)
        n->alias = "f";
      return n;
    }
    case Tok::Op:
      break;
    default:
      fail("expected an expression, found " + describe(t));
    }
    if (acceptOp("...")) {
      Node *n = make(NodeKind::Ellipsis, t);
      n->text = "...";
      return n;
    }
    if (acceptOp("(")) {
      if (acceptOp(")"))
        return make(NodeKind::Tuple, t);
      if (atName("yield")) {
        Node *y = parseYield();
        expectOp(")");
        return y;
      }
      Node *first = parseStarExpression();
      skipPatternCapture();
      if (atName("for") || atName("async")) {
        Node *g = parseComprehension("gen", {first}, t);
        expectOp(")");
        return g;
      }
      if (!atOp(",")) {
        expectOp(")");
        return first;
      }
      Node *tup = make(NodeKind::Tuple, t);
      tup->kids.push_back(first);
      while (acceptOp(",")) {
        if (atOp(")"))
          break;
        tup->kids.push_back(parseStarExpression());
        skipPatternCapture();
      }
      expectOp(")");
      return tup;
    }
    if (acceptOp("[")) {
      Node *list = make(NodeKind::List, t);
      if (acceptOp("]"))
        return list;
      Node *first = parseStarExpression();
      skipPatternCapture();
      if (atName("for") || atName("async")) {
        Node *c = parseComprehension("list", {first}, t);
        expectOp("]");
        return c;
      }
      list->kids.push_back(first);
      while (acceptOp(",")) {
        if (atOp("]"))
          break;
        list->kids.push_back(parseStarExpression());
        skipPatternCapture();
      }
      expectOp("]");
      return list;
    }
    if (acceptOp("{")) {
      if (acceptOp("}"))
        return make(NodeKind::Dict, t);
      // dict: key ':' value or '**' mapping; else a set.
      bool isDict = atOp("**");
      Node *firstKey = nullptr;
      if (!isDict) {
        firstKey = parseStarExpression();
        isDict = atOp(":");
      }
      if (!isDict) {
        if (atName("for") || atName("async")) {
          Node *c = parseComprehension("set", {firstKey}, t);
          expectOp("}");
          return c;
        }
        Node *set = make(NodeKind::Set, t);
        set->kids.push_back(firstKey);
        while (acceptOp(",")) {
          if (atOp("}"))
            break;
          set->kids.push_back(parseStarExpression());
        }
        expectOp("}");
        return set;
      }
      Node *dict = make(NodeKind::Dict, t);
      bool first = true;
      while (true) {
        if (acceptOp("**")) {
          dict->kids.push_back(nullptr);
          dict->kids.push_back(parseBitOr());
        } else {
          Node *key = first && firstKey ? firstKey : parseExpression();
          expectOp(":");
          Node *value = parseExpression();
          skipPatternCapture();
          if (first && (atName("for") || atName("async"))) {
            Node *c = parseComprehension("dict", {key, value}, t);
            expectOp("}");
            return c;
          }
          dict->kids.push_back(key);
          dict->kids.push_back(value);
        }
        first = false;
        if (!acceptOp(",") || atOp("}"))
          break;
      }
      expectOp("}");
      return dict;
    }
    fail("expected an expression, found " + describe(t));
  }

  /// The characters between the quotes, escapes left as written.
  static std::string stringContents(llvm::StringRef literal) {
    size_t q = literal.find_first_of("'\"");
    if (q == llvm::StringRef::npos)
      return {};
    llvm::StringRef body = literal.substr(q);
    size_t quote =
        body.size() >= 6 && (body.starts_with("'''") || body.starts_with("\"\"\"")) ? 3 : 1;
    if (body.size() < 2 * quote)
      return {};
    return body.substr(quote, body.size() - 2 * quote).str();
  }

  std::vector<Token> toks_;
  size_t nodes_ = 0;
  PyModule &m_;
  size_t i_ = 0;
  int depth_ = 0;
  bool inPattern_ = false;
  static constexpr size_t kMaxChain = 5000;
};

} // namespace

llvm::Expected<std::unique_ptr<PyModule>> parsePython(llvm::StringRef source,
                                                      const std::string &file) {
  auto module = std::make_unique<PyModule>();
  module->file = file;
  try {
    Lexer lexer(source);
    Parser parser(lexer.run(), *module);
    module->root = parser.parseModule();
  } catch (const SyntaxError &e) {
    return llvm::make_error<InputError>(file, e.line, e.col, "syntax error: " + e.message);
  } catch (const TooLarge &e) {
    return llvm::make_error<InputError>(file, 0, 0, "too large to parse (" + e.message + ")");
  }
  return module;
}

std::string dottedName(const Node *n) {
  std::vector<const std::string *> attributes;
  while (n && n->kind == NodeKind::Attribute) {
    attributes.push_back(&n->text);
    n = n->kids[0];
  }
  if (!n || n->kind != NodeKind::Name)
    return {};
  std::string out = n->text;
  for (auto it = attributes.rbegin(); it != attributes.rend(); ++it)
    out += "." + **it;
  return out;
}

} // namespace tilexform::source
