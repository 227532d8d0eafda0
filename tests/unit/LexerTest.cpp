// The IR lexer: MLIR's lexical grammar over a whole buffer. Newlines are
// whitespace, every token knows where it starts, strings keep their escapes,
// and a lexical error names the byte where it is.
#include "tilexform/ir/Lexer.h"
#include "tilexform/support/TextPosition.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tilexform;
using ir::TokenKind;

namespace {

/// Each token but Eof as "kind:spelling".
std::vector<std::string> spellings(llvm::StringRef text) {
  ir::TokenStream s = ir::lex(text);
  EXPECT_TRUE(s.error.empty()) << s.error;
  std::vector<std::string> out;
  for (const ir::Token &t : s.tokens)
    if (!t.is(TokenKind::Eof))
      out.push_back(std::to_string(int(t.kind)) + ":" + t.spelling(text).str());
  return out;
}

std::string tok(TokenKind k, const char *spelling) {
  return std::to_string(int(k)) + ":" + spelling;
}

} // namespace

TEST(Lexer, NewlinesAreWhitespace) {
  // An op split over lines lexes as the same tokens as on one line.
  llvm::StringRef oneLine = "%v = tt.load %p, %m : tensor<4x!tt.ptr<f32>>";
  llvm::StringRef split = "%v =\n  tt.load %p,\r\n\t%m\n  : tensor<4x!tt.ptr<f32>>\n";
  EXPECT_EQ(spellings(oneLine), spellings(split));
  std::vector<std::string> expected = {
      tok(TokenKind::PercentId, "%v"),   tok(TokenKind::Equal, "="),
      tok(TokenKind::BareId, "tt.load"), tok(TokenKind::PercentId, "%p"),
      tok(TokenKind::Comma, ","),        tok(TokenKind::PercentId, "%m"),
      tok(TokenKind::Colon, ":"),        tok(TokenKind::BareId, "tensor"),
      tok(TokenKind::Less, "<"),         tok(TokenKind::Integer, "4"),
      tok(TokenKind::BareId, "x"),       tok(TokenKind::BangId, "!tt.ptr"),
      tok(TokenKind::Less, "<"),         tok(TokenKind::BareId, "f32"),
      tok(TokenKind::Greater, ">"),      tok(TokenKind::Greater, ">")};
  EXPECT_EQ(spellings(split), expected);
}

TEST(Lexer, EveryTokenKnowsItsLineAndColumn) {
  llvm::StringRef text = "module {\n  // a comment\n  %0 = arith.constant 1 : i32\n}\n";
  ir::TokenStream s = ir::lex(text);
  ASSERT_TRUE(s.error.empty()) << s.error;
  struct Expected {
    const char *spelling;
    unsigned line, col;
  };
  std::vector<Expected> expected = {
      {"module", 1, 1}, {"{", 1, 8},  {"%0", 3, 3},   {"=", 3, 6}, {"arith.constant", 3, 8},
      {"1", 3, 23},     {":", 3, 25}, {"i32", 3, 27}, {"}", 4, 1}};
  ASSERT_EQ(s.tokens.size(), expected.size() + 1);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(s.tokens[i].spelling(text), expected[i].spelling);
    TextPosition p = positionOf(text, s.tokens[i].offset);
    EXPECT_EQ(p.line, expected[i].line) << expected[i].spelling;
    EXPECT_EQ(p.col, expected[i].col) << expected[i].spelling;
  }
  // The comment is no token; Eof sits at the end of the buffer.
  EXPECT_TRUE(s.tokens.back().is(TokenKind::Eof));
  EXPECT_EQ(s.tokens.back().offset, text.size());
  EXPECT_EQ(s.tokens.back().length, 0u);
}

TEST(Lexer, StringsKeepTheirEscapes) {
  llvm::StringRef text = R"(loc("a\"b\\c.py":3) @"odd \"name\"" "x\ny")";
  std::vector<std::string> expected = {tok(TokenKind::BareId, "loc"),
                                       tok(TokenKind::LParen, "("),
                                       tok(TokenKind::String, R"("a\"b\\c.py")"),
                                       tok(TokenKind::Colon, ":"),
                                       tok(TokenKind::Integer, "3"),
                                       tok(TokenKind::RParen, ")"),
                                       tok(TokenKind::AtId, R"(@"odd \"name\"")"),
                                       tok(TokenKind::String, R"("x\ny")")};
  EXPECT_EQ(spellings(text), expected);
}

TEST(Lexer, Numbers) {
  EXPECT_EQ(
      spellings("42 0x7F 0xFF800000 1.0 2.5e-3 3.E+2 7e3 0x"),
      (std::vector<std::string>{tok(TokenKind::Integer, "42"), tok(TokenKind::Integer, "0x7F"),
                                tok(TokenKind::Integer, "0xFF800000"), tok(TokenKind::Float, "1.0"),
                                tok(TokenKind::Float, "2.5e-3"), tok(TokenKind::Float, "3.E+2"),
                                // No `.`: an integer, then the bare id `e3`.
                                tok(TokenKind::Integer, "7"), tok(TokenKind::BareId, "e3"),
                                // `0x` without a hex digit: the integer 0, then `x`.
                                tok(TokenKind::Integer, "0"), tok(TokenKind::BareId, "x")}));
}

TEST(Lexer, SigilsMakeOneToken) {
  EXPECT_EQ(spellings("#blocked #ttg.blocked #loc3 %acc %9#2 %arg-1 ^bb0 !tt.ptr @matmul -> - *"),
            (std::vector<std::string>{
                tok(TokenKind::HashId, "#blocked"), tok(TokenKind::HashId, "#ttg.blocked"),
                tok(TokenKind::HashId, "#loc3"), tok(TokenKind::PercentId, "%acc"),
                // A result number is part of the value token.
                tok(TokenKind::PercentId, "%9#2"), tok(TokenKind::PercentId, "%arg-1"),
                tok(TokenKind::CaretId, "^bb0"), tok(TokenKind::BangId, "!tt.ptr"),
                tok(TokenKind::AtId, "@matmul"), tok(TokenKind::Arrow, "->"),
                tok(TokenKind::Other, "-"), tok(TokenKind::Other, "*")}));
  // A numbered value stops at its digits: `%0x` is `%0` then `x`.
  EXPECT_EQ(spellings("%0x"), (std::vector<std::string>{tok(TokenKind::PercentId, "%0"),
                                                        tok(TokenKind::BareId, "x")}));
  // A lone sigil is kept as punctuation, not an error.
  EXPECT_EQ(spellings("# ^"),
            (std::vector<std::string>{tok(TokenKind::Other, "#"), tok(TokenKind::Other, "^")}));
}

TEST(Lexer, FileMetadataIsOneToken) {
  llvm::StringRef text = "module {\n}\n{-#\n  external_resources: {}\n#-}\n";
  ir::TokenStream s = ir::lex(text);
  ASSERT_TRUE(s.error.empty()) << s.error;
  ASSERT_EQ(s.tokens.size(), 5u);
  EXPECT_TRUE(s.tokens[3].is(TokenKind::FileMetadata));
  EXPECT_EQ(s.tokens[3].spelling(text), "{-#\n  external_resources: {}\n#-}");
}

TEST(Lexer, AnUnterminatedStringNamesWhereItOpens) {
  llvm::StringRef text = "module {\n  %0 = \"tt.op\"() {name = \"abc\n}\n";
  ir::TokenStream s = ir::lex(text);
  EXPECT_EQ(s.error, "unterminated string");
  TextPosition p = positionOf(text, s.errorOffset);
  EXPECT_EQ(p.line, 2u);
  EXPECT_EQ(p.col, 26u);
  EXPECT_EQ(text[s.errorOffset], '"');
  // Lexing stops there: no Eof, the last token is the `=` before the string.
  ASSERT_FALSE(s.tokens.empty());
  EXPECT_EQ(s.tokens.back().spelling(text), "=");

  // A symbol name in quotes names the quote too; so does a string that
  // ends at the end of the buffer.
  llvm::StringRef symbol = "tt.func @\"k";
  ir::TokenStream t = ir::lex(symbol);
  EXPECT_EQ(t.error, "unterminated string");
  EXPECT_EQ(t.errorOffset, 9u);
  EXPECT_EQ(ir::lex("\"abc\\\"").error, "unterminated string");
}

TEST(Lexer, OtherLexicalErrors) {
  ir::TokenStream percent = ir::lex("%0 = %");
  EXPECT_EQ(percent.error, "expected a value name after '%'");
  EXPECT_EQ(percent.errorOffset, 5u);
  ir::TokenStream at = ir::lex("tt.call @ ()");
  EXPECT_EQ(at.error, "expected a symbol name after '@'");
  EXPECT_EQ(at.errorOffset, 8u);
  ir::TokenStream metadata = ir::lex("{-# never closed");
  EXPECT_EQ(metadata.error, "'{-#' is never closed by '#-}'");
  EXPECT_EQ(metadata.errorOffset, 0u);
}

TEST(Lexer, DeeplyNestedInput) {
  // The lexer keeps no stack: nesting far deeper than any dump lexes in one
  // pass, each bracket its own token at its own offset.
  const size_t depth = 100000;
  std::string text = std::string(depth, '<') + "f32" + std::string(depth, '>') + "\n" +
                     std::string(depth, '[') + std::string(depth, ']');
  ir::TokenStream s = ir::lex(text);
  ASSERT_TRUE(s.error.empty()) << s.error;
  ASSERT_EQ(s.tokens.size(), 4 * depth + 2);
  for (size_t i = 0; i < depth; ++i) {
    ASSERT_TRUE(s.tokens[i].is(TokenKind::Less)) << i;
    ASSERT_TRUE(s.tokens[i].isOpening());
    ASSERT_EQ(s.tokens[i].offset, i);
    ASSERT_TRUE(s.tokens[depth + 1 + i].is(TokenKind::Greater)) << i;
    ASSERT_TRUE(s.tokens[depth + 1 + i].isClosing());
  }
  EXPECT_TRUE(s.tokens[depth].is(TokenKind::BareId));
  EXPECT_EQ(s.tokens[depth].spelling(text), "f32");
  const ir::Token &lastClose = s.tokens[4 * depth];
  EXPECT_TRUE(lastClose.is(TokenKind::RSquare));
  TextPosition p = positionOf(text, lastClose.offset);
  EXPECT_EQ(p.line, 2u);
  EXPECT_EQ(p.col, unsigned(2 * depth));
  EXPECT_TRUE(s.tokens.back().is(TokenKind::Eof));
}
