// MLIR's lexical grammar over a whole buffer: newlines are whitespace, every
// token knows where it starts, strings and comments are whole tokens, and
// `->` is one token so `<`/`>` can be balanced as brackets.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tilexform::ir {

enum class TokenKind : uint8_t {
  BareId,       // tt.load, tensor, to, x64xf16
  PercentId,    // %acc, %0, %9#2 (a result number is part of the token)
  CaretId,      // ^bb0
  HashId,       // #blocked, #ttg.blocked, #loc3
  BangId,       // !tt.ptr, !ty
  AtId,         // @matmul, @"name"
  String,       // "..." with escapes
  Integer,      // 42, 0x7F
  Float,        // 1.0, 2.5e-3
  LParen,       // (
  RParen,       // )
  LSquare,      // [
  RSquare,      // ]
  LBrace,       // {
  RBrace,       // }
  Less,         // <
  Greater,      // >
  Comma,        // ,
  Colon,        // :
  Equal,        // =
  Arrow,        // ->
  FileMetadata, // {-# ... #-}
  Other,        // any other punctuation (`*`, `?`, `|`, `+`, `-`, ...)
  Eof,
};

struct Token {
  TokenKind kind;
  uint32_t offset; // byte offset of the first character
  uint32_t length;

  llvm::StringRef spelling(llvm::StringRef buffer) const { return buffer.substr(offset, length); }
  uint32_t end() const { return offset + length; }
  bool is(TokenKind k) const { return kind == k; }
  bool isOpening() const {
    return kind == TokenKind::LParen || kind == TokenKind::LSquare || kind == TokenKind::LBrace ||
           kind == TokenKind::Less;
  }
  bool isClosing() const {
    return kind == TokenKind::RParen || kind == TokenKind::RSquare || kind == TokenKind::RBrace ||
           kind == TokenKind::Greater;
  }
};

/// The tokens of a buffer, ending with one Eof token. A lexical error (an
/// unterminated string, a stray byte) stops lexing: `error` is set and
/// `errorOffset` names where.
struct TokenStream {
  std::vector<Token> tokens;
  std::string error;
  uint32_t errorOffset = 0;
};

TokenStream lex(llvm::StringRef buffer);

} // namespace tilexform::ir
