#include "tilexform/support/TextPosition.h"

#include <gtest/gtest.h>

#include <string>

using namespace tilexform;

namespace {

TEST(TextPosition, BytesAndCharacters) {
  // "é" is two bytes: the byte column counts both, the character column one.
  std::string text = "ab\n\xc3\xa9x\nlast";
  TextPosition start = positionOf(text, 0);
  EXPECT_EQ(start.line, 1u);
  EXPECT_EQ(start.col, 1u);
  TextPosition x = positionOf(text, 5);
  EXPECT_EQ(x.line, 2u);
  EXPECT_EQ(x.col, 3u);
  TextPosition xc = positionOf(text, 5, ColumnUnit::Characters);
  EXPECT_EQ(xc.line, 2u);
  EXPECT_EQ(xc.col, 2u);
  TextPosition end = positionOf(text, text.size());
  EXPECT_EQ(end.line, 3u);
  EXPECT_EQ(end.col, 5u);
}

TEST(TextPosition, LineTableAgreesWithScanAndInverts) {
  std::string text = "module {\n  %0 = op\n\n}\n";
  LineTable lines(text);
  for (size_t off = 0; off <= text.size(); ++off) {
    TextPosition a = positionOf(text, off), b = lines.position(off);
    EXPECT_EQ(a.line, b.line) << "offset " << off;
    EXPECT_EQ(a.col, b.col) << "offset " << off;
    EXPECT_EQ(offsetOf(text, a.line, a.col), off) << "offset " << off;
  }
}

} // namespace
