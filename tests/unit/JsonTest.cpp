// The one JSON-reading service: nesting bounded before nlohmann parses,
// syntax errors with line and column.
#include "tilexform/support/Json.h"
#include "tilexform/support/InputError.h"

#include <gtest/gtest.h>

#include <string>

using namespace tilexform;

namespace {

std::string errorOf(llvm::Expected<nlohmann::json> r) {
  EXPECT_FALSE(bool(r));
  return r ? std::string() : errorLine(r.takeError());
}

} // namespace

TEST(Json, NestingAtTheLimitParses) {
  std::string text = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  auto r = parseJson(text, "deep.json");
  ASSERT_TRUE(bool(r)) << errorLine(r.takeError());
  EXPECT_TRUE(r->is_array());
}

TEST(Json, NestingBeyondTheLimitIsRefusedBeforeParsing) {
  // 100,000 levels crashed nlohmann's recursive parser; refused at the
  // bracket one past the limit, with its position.
  std::string text = "{\"a\":\n" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_EQ(errorOf(parseJson(text, "deep.json")),
            "deep.json:2:256: error: JSON nested deeper than 256 levels");
  std::string objects;
  for (int i = 0; i < 300; ++i)
    objects += "{\"k\":";
  objects += "1" + std::string(300, '}');
  EXPECT_EQ(errorOf(parseJson(objects, "objects.json")),
            "objects.json:1:1281: error: JSON nested deeper than 256 levels");
}

TEST(Json, BracketsInsideStringsDoNotCount) {
  std::string text = "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"]";
  auto r = parseJson(text, "strings.json");
  ASSERT_TRUE(bool(r)) << errorLine(r.takeError());
  EXPECT_EQ((*r)[0].get<std::string>().size(), 2001u);
}

TEST(Json, SyntaxErrorsNameLineAndColumn) {
  std::string e = errorOf(parseJson("{\n  \"a\": [1, 2,,]\n}", "bad.json"));
  EXPECT_EQ(e.rfind("bad.json:2:14: error: not valid JSON: syntax error", 0), 0u) << e;
  std::string truncated = errorOf(parseJson("{\"samples_ms\": [1,", "cut.json"));
  EXPECT_EQ(truncated.rfind("cut.json:1:19: error: not valid JSON:", 0), 0u) << truncated;
  std::string empty = errorOf(parseJson("", "empty.json"));
  EXPECT_EQ(empty.rfind("empty.json:1:1: error: not valid JSON:", 0), 0u) << empty;
}

TEST(Json, NumbersBeyondADoubleAreInputErrors) {
  std::string e = errorOf(parseJson("[1e999]", "huge.json"));
  EXPECT_NE(e.find("huge.json: error: not usable JSON: number overflow"), std::string::npos) << e;
}
