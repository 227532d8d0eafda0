// Text from an input on its way into generated Python
// (support/PythonText.h), and the check every generated module passes
// before it is written (source/GeneratedModule.h).
#include "tilexform/support/PythonText.h"
#include "tilexform/source/GeneratedModule.h"

#include <gtest/gtest.h>

#include <string>

using namespace tilexform;

namespace {

TEST(PythonText, LiteralEscapesWhatEndsALineOrTheString) {
  EXPECT_EQ(pyStringLiteral("libdevice"), "\"libdevice\"");
  EXPECT_EQ(pyStringLiteral("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(pyStringLiteral("a\rb\nc\td"), "\"a\\rb\\nc\\td\"");
  EXPECT_EQ(pyStringLiteral(std::string("\0\x0b\x0c\x1c\x1d\x1e\x7f", 7)),
            "\"\\x00\\x0b\\x0c\\x1c\\x1d\\x1e\\x7f\"");
  // NEL, the line and paragraph separators, a non-character, an emoji.
  EXPECT_EQ(pyStringLiteral("\xc2\x85\xe2\x80\xa8\xe2\x80\xa9\xef\xbf\xbf\xf0\x9f\x98\x80"),
            "\"\\x85\\u2028\\u2029\\uffff\\U0001f600\"");
  // Bytes that are no UTF-8: a lone continuation byte, an overlong '/', a
  // surrogate, a truncated sequence.
  EXPECT_EQ(pyStringLiteral("\x80\xc0\xaf\xed\xa0\x80\xe2\x80"),
            "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
  // MLIR's escapes are text by the time they arrive: a backslash is one.
  EXPECT_EQ(pyStringLiteral("\\22\\09"), "\"\\\\22\\\\09\"");
}

TEST(PythonText, CommentStaysOneLineOfUtf8) {
  EXPECT_EQ(pyCommentText("acc += tl.dot(a, b)  # α"), "acc += tl.dot(a, b)  # α");
  EXPECT_EQ(pyCommentText("vadd\rimport os\r#"), "vadd\\rimport os\\r#");
  EXPECT_EQ(pyCommentText("a\nb\x0b\x0c\x1c\x1d\x1e"
                          "c"),
            "a\\nb\\x0b\\x0c\\x1c\\x1d\\x1ec");
  EXPECT_EQ(pyCommentText("x\xc2\x85y\xe2\x80\xa8z\xe2\x80\xa9"), "x\\x85y\\u2028z\\u2029");
  EXPECT_EQ(pyCommentText(std::string("nul\0tab\t", 8)), "nul\\x00tab\t");
  EXPECT_EQ(pyCommentText("latin-1 \xe9t\xe9"), "latin-1 \\xe9t\\xe9");
  // Bidi overrides and isolates, zero-width space, BOM, a tag character.
  EXPECT_EQ(pyCommentText("a\xe2\x80\xae"
                          "b\xe2\x81\xa6"
                          "c\xe2\x80\x8b"
                          "d\xef\xbb\xbf"
                          "e\xf3\xa0\x80\x81"),
            "a\\u202eb\\u2066c\\u200bd\\ufeffe\\U000e0001");
  for (const char *text : {"\r", "\xc2\x85", "\xe2\x80\xa8", "\xff", "\x1e"})
    EXPECT_EQ(unsafePythonTextAt(pyCommentText(text)), llvm::StringRef::npos) << text;
}

TEST(PythonText, VisibleTextKeepsLineFeedsOnlyWhenAsked) {
  EXPECT_EQ(visibleText("plain text, α"), "plain text, α");
  EXPECT_EQ(visibleText("a\nb\rc\xe2\x80\xa8"
                        "d"),
            "a\\nb\\rc\\u2028d");
  EXPECT_EQ(visibleText("a\nb\x1b[2Jc\xe2\x80\xae", /*keepLineFeeds=*/true),
            "a\nb\\x1b[2Jc\\u202e");
  EXPECT_EQ(visibleText("tab\tkept\x7f"), "tab\tkept\\x7f");
}

TEST(PythonText, VisibleJsonIsTheSameDocument) {
  // Inside a string, the escapes JSON knows; the rest is untouched.
  EXPECT_EQ(visibleJson("{\"a\": \"x\xe2\x80\xa8y\xc2\x85z\x7f\"}\n"),
            "{\"a\": \"x\\u2028y\\u0085z\\u007f\"}\n");
  EXPECT_EQ(visibleJson("[\"\xf3\xa0\x80\x81\", \"\xce\xb1\"]"),
            "[\"\\udb40\\udc01\", \"\xce\xb1\"]");
  EXPECT_EQ(visibleJson("{}"), "{}");
}

TEST(PythonText, UnsafeTextFound) {
  EXPECT_EQ(unsafePythonTextAt("ok\nfine # é\n"), llvm::StringRef::npos);
  EXPECT_EQ(unsafePythonTextAt("ab\rc"), 2u);
  EXPECT_EQ(unsafePythonTextAt(std::string("a\0", 2)), 1u);
  EXPECT_EQ(unsafePythonTextAt("a\xe2\x80\xa9"), 1u);
  EXPECT_EQ(unsafePythonTextAt("a\xff"), 1u);
  EXPECT_EQ(unsafePythonTextAt("\x0c"), 0u);
}

const char *kModule = R"(# header
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

# #blocked
LOAD_LAYOUT = gl.constexpr(gl.BlockedLayout([1], [32], [4], [0]))


@gluon.jit(do_not_specialize=["n"])
def vadd(x, n):
    v = gl.load(x + gl.arange(0, 128, layout=LOAD_LAYOUT))
    gl.static_assert(False, "tilexform: no Gluon spelling")


NUM_WARPS = 4


def launch(grid, x, n):
    """Runs the anchor."""
    return vadd[grid](x, n, num_warps=NUM_WARPS)
)";

std::string check(const std::string &text) {
  if (auto err = source::checkGeneratedModule(text))
    return llvm::toString(std::move(err));
  return "";
}

TEST(GeneratedModule, WhatTheEmittersWritePasses) { EXPECT_EQ(check(kModule), ""); }

TEST(GeneratedModule, AnythingElseIsRefused) {
  std::string m = kModule;
  auto with = [&](const std::string &from, const std::string &to) {
    std::string out = m;
    size_t at = out.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return out.replace(at, from.size(), to);
  };
  // A comment broken by a bare carriage return: a statement at the top.
  EXPECT_NE(check(with("# header", "# vadd\r__import__('os').system('id')\r#")), "");
  EXPECT_NE(check(with("# header", "# a\xe2\x80\xa8 b")), "");
  // A string closed early: code in the body.
  EXPECT_NE(check(with("\"tilexform: no Gluon spelling\"",
                       "\"\"); __import__(\"os\").system(\"id\"); (\"\"")),
            "");
  EXPECT_NE(check(with("    v = gl.load", "    import os\n    v = gl.load")), "");
  EXPECT_NE(check(with("NUM_WARPS = 4", "NUM_WARPS = 4\nprint(1)")), "");
  EXPECT_NE(check(with("NUM_WARPS = 4", "NUM_WARPS = compute()")), "");
  EXPECT_NE(check(with("from triton.experimental import gluon", "import os")), "");
  EXPECT_NE(check(with("@gluon.jit(do_not_specialize=[\"n\"])", "@evil")), "");
  EXPECT_NE(check(with("def launch", "def other")), "");
  EXPECT_NE(check(with("LOAD_LAYOUT = gl.constexpr(", "LOAD_LAYOUT = open(")), "");
  EXPECT_NE(check(with("def vadd(x, n):", "def vadd(x, n:")), "");
  EXPECT_NE(check(with("x + gl.arange", "x.__class__ + gl.arange")), "");
  // A dump named so that the module's second line declares another
  // encoding: Python would decode every line after it differently.
  EXPECT_NE(check("# x\n# source dump: coding:utf-7 +AAo-\n" + m), "");
  EXPECT_EQ(check("# x\n# -*- coding: utf-8 -*-\n" + m), "");
}

} // namespace
