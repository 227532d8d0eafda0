// The lexer follows MLIR's lexical grammar (mlir/lib/AsmParser/Lexer.cpp):
// identifiers with their sigils, strings with escapes, numbers, punctuation;
// whitespace and `//` comments between tokens, newlines included.
#include "tilexform/ir/Lexer.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace tilexform::ir {

namespace {

// ASCII only, as MLIR's lexer: no locale, no library call per byte; one
// table lookup per byte in the loops that take most of the time.
enum : uint8_t {
  kLetter = 1,
  kDigit = 2,
  kBareId = 4, // letter, digit, `_`, `$`, `.`
  kSuffix = 8, // suffix-id ::= (digit+ | ((letter|id-punct) (letter|id-punct|digit)*))
  kSpace = 16,
  kHex = 32,
};

constexpr std::array<uint8_t, 256> makeClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    uint8_t k = 0;
    if (letter)
      k |= kLetter;
    if (digit)
      k |= kDigit;
    if (letter || digit || c == '_' || c == '$' || c == '.')
      k |= kBareId;
    if (letter || digit || c == '$' || c == '.' || c == '_' || c == '-')
      k |= kSuffix;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
      k |= kSpace;
    if (digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
      k |= kHex;
    t[size_t(c)] = k;
  }
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = makeClasses();

bool is(char c, uint8_t k) { return kClasses[static_cast<unsigned char>(c)] & k; }
bool isLetter(char c) { return is(c, kLetter); }
bool isDigit(char c) { return is(c, kDigit); }
bool isHex(char c) { return is(c, kHex); }
bool isBareIdChar(char c) { return is(c, kBareId); }
bool isSuffixChar(char c) { return is(c, kSuffix); }

} // namespace

TokenStream lex(llvm::StringRef buf) {
  TokenStream out;
  out.tokens.reserve(buf.size() / 4 + 1);
  const size_t n = buf.size();
  size_t i = 0;
  auto push = [&](TokenKind k, size_t start, size_t end) {
    out.tokens.push_back({k, uint32_t(start), uint32_t(end - start)});
  };
  auto fail = [&](size_t at, std::string msg) {
    out.error = std::move(msg);
    out.errorOffset = uint32_t(at);
  };
  // The end of a suffix-id starting at `j`, or `j` when there is none.
  auto suffixEnd = [&](size_t j) {
    if (j < n && isDigit(buf[j])) {
      while (j < n && isDigit(buf[j]))
        ++j;
      return j;
    }
    while (j < n && isSuffixChar(buf[j]))
      ++j;
    return j;
  };
  // The index after a string opening at `j`, or npos when unterminated.
  auto stringEnd = [&](size_t j) -> size_t {
    for (++j; j < n; ++j) {
      char c = buf[j];
      if (c == '"')
        return j + 1;
      if (c == '\n')
        return llvm::StringRef::npos;
      if (c == '\\')
        ++j;
    }
    return llvm::StringRef::npos;
  };

  while (i < n) {
    char c = buf[i];
    if (is(c, kSpace)) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && buf[i + 1] == '/') {
      while (i < n && buf[i] != '\n')
        ++i;
      continue;
    }
    size_t start = i;
    if (isLetter(c) || c == '_') {
      while (i < n && isBareIdChar(buf[i]))
        ++i;
      push(TokenKind::BareId, start, i);
      continue;
    }
    if (isDigit(c)) {
      if (c == '0' && i + 2 < n && buf[i + 1] == 'x' && isHex(buf[i + 2])) {
        i += 2;
        while (i < n && isHex(buf[i]))
          ++i;
        push(TokenKind::Integer, start, i);
        continue;
      }
      while (i < n && isDigit(buf[i]))
        ++i;
      if (i < n && buf[i] == '.') {
        ++i;
        while (i < n && isDigit(buf[i]))
          ++i;
        if (i < n && (buf[i] == 'e' || buf[i] == 'E')) {
          size_t e = i + 1;
          if (e < n && (buf[e] == '+' || buf[e] == '-'))
            ++e;
          if (e < n && isDigit(buf[e])) {
            i = e;
            while (i < n && isDigit(buf[i]))
              ++i;
          }
        }
        push(TokenKind::Float, start, i);
        continue;
      }
      push(TokenKind::Integer, start, i);
      continue;
    }
    switch (c) {
    case '%': {
      size_t e = suffixEnd(i + 1);
      if (e == i + 1) {
        fail(i, "expected a value name after '%'");
        return out;
      }
      // A result-number use, `%x#2`, is one token.
      if (e + 1 < n && buf[e] == '#' && isDigit(buf[e + 1])) {
        e += 1;
        while (e < n && isDigit(buf[e]))
          ++e;
      }
      push(TokenKind::PercentId, start, e);
      i = e;
      continue;
    }
    case '^':
    case '#':
    case '!': {
      size_t e = suffixEnd(i + 1);
      if (e == i + 1) {
        // A lone sigil: MLIR refuses it where it parses the op; an op
        // tilexform does not know may still be kept around it.
        push(TokenKind::Other, start, ++i);
        continue;
      }
      push(c == '^'   ? TokenKind::CaretId
           : c == '#' ? TokenKind::HashId
                      : TokenKind::BangId,
           start, e);
      i = e;
      continue;
    }
    case '@': {
      if (i + 1 < n && buf[i + 1] == '"') {
        size_t e = stringEnd(i + 1);
        if (e == llvm::StringRef::npos) {
          fail(i + 1, "unterminated string");
          return out;
        }
        push(TokenKind::AtId, start, e);
        i = e;
        continue;
      }
      size_t e = suffixEnd(i + 1);
      if (e == i + 1) {
        fail(i, "expected a symbol name after '@'");
        return out;
      }
      push(TokenKind::AtId, start, e);
      i = e;
      continue;
    }
    case '"': {
      size_t e = stringEnd(i);
      if (e == llvm::StringRef::npos) {
        fail(i, "unterminated string");
        return out;
      }
      push(TokenKind::String, start, e);
      i = e;
      continue;
    }
    case '{':
      if (i + 2 < n && buf[i + 1] == '-' && buf[i + 2] == '#') {
        size_t e = buf.find("#-}", i + 3);
        if (e == llvm::StringRef::npos) {
          fail(i, "'{-#' is never closed by '#-}'");
          return out;
        }
        push(TokenKind::FileMetadata, start, e + 3);
        i = e + 3;
        continue;
      }
      push(TokenKind::LBrace, start, ++i);
      continue;
    case '}':
      push(TokenKind::RBrace, start, ++i);
      continue;
    case '(':
      push(TokenKind::LParen, start, ++i);
      continue;
    case ')':
      push(TokenKind::RParen, start, ++i);
      continue;
    case '[':
      push(TokenKind::LSquare, start, ++i);
      continue;
    case ']':
      push(TokenKind::RSquare, start, ++i);
      continue;
    case '<':
      push(TokenKind::Less, start, ++i);
      continue;
    case '>':
      push(TokenKind::Greater, start, ++i);
      continue;
    case ',':
      push(TokenKind::Comma, start, ++i);
      continue;
    case ':':
      push(TokenKind::Colon, start, ++i);
      continue;
    case '=':
      push(TokenKind::Equal, start, ++i);
      continue;
    case '-':
      if (i + 1 < n && buf[i + 1] == '>') {
        i += 2;
        push(TokenKind::Arrow, start, i);
        continue;
      }
      push(TokenKind::Other, start, ++i);
      continue;
    default:
      if (static_cast<unsigned char>(c) >= 0x80) {
        // One UTF-8 sequence outside a string: a token MLIR would refuse.
        ++i;
        while (i < n && (static_cast<unsigned char>(buf[i]) & 0xC0) == 0x80)
          ++i;
        push(TokenKind::Other, start, i);
        continue;
      }
      push(TokenKind::Other, start, ++i);
      continue;
    }
  }
  push(TokenKind::Eof, n, n);
  return out;
}

} // namespace tilexform::ir
