#include "tilexform/cli/Output.h"
#include "tilexform/cli/JsonWriter.h"
#include "tilexform/support/PythonText.h"

#include <gtest/gtest.h>

#include <cmath>

using tilexform::cli::Json;
using tilexform::cli::printJson;
using tilexform::cli::printJsonWithArrays;
using tilexform::cli::renderArrayElement;
using tilexform::cli::RenderedArray;
using tilexform::cli::setJsonLines;

namespace {

std::string captured(const std::function<void()> &print) {
  testing::internal::CaptureStdout();
  print();
  return testing::internal::GetCapturedStdout();
}

/// Streams `doc`'s trailing `keys` as rendered arrays and prints the whole
/// tree: both must give the same bytes.
void expectSameBytes(const Json &doc, const std::vector<std::string> &keys) {
  Json head = doc;
  std::vector<RenderedArray> arrays;
  for (auto &k : keys) {
    RenderedArray a{k, {}};
    for (auto &e : doc.at(k))
      a.elements.push_back(renderArrayElement(e));
    head.erase(k);
    arrays.push_back(std::move(a));
  }
  EXPECT_EQ(captured([&] { printJsonWithArrays(head, arrays); }), captured([&] { printJson(doc); }))
      << doc.dump();
}

} // namespace

TEST(Output, StreamedArraysGiveTheTreesBytes) {
  Json nested =
      Json::parse(R"({"a": 1, "s": "x\ny", "k": [{"n": [1, [2, {}], []], "o": {"p": null}},
                                 "two", 3, [], {}], "f": []})",
                  nullptr, true, false);
  Json onlyArrays = Json::parse(R"({"k": [{"q": "é"}], "f": [1]})");
  Json empty = Json::parse(R"({"k": []})");
  for (bool lines : {false, true}) {
    setJsonLines(lines);
    expectSameBytes(nested, {"k", "f"});
    expectSameBytes(nested, {"f"});
    expectSameBytes(onlyArrays, {"k", "f"});
    expectSameBytes(empty, {"k"});
    expectSameBytes(nested, {});
  }
  setJsonLines(false);
}

// The writer gives nlohmann's own bytes, on one line and indented, for every
// kind of value and for every string that needs escaping or is not ASCII,
// but for the characters visibleJson writes as escapes (DEL, NEL, U+2028,
// bidi controls): the same document.
TEST(Output, WriterGivesNlohmannsBytes) {
  std::vector<Json> docs;
  docs.push_back(Json::parse(R"({"a": 1, "b": -7, "c": 18446744073709551615, "d": 1.5, "e": 2.0,
    "f": 1e-300, "g": true, "h": false, "i": null, "j": [], "k": {}, "l": [[], {}, [1, [2]]],
    "m": {"n": {"o": [{"p": "q"}]}}, "r": "", "s": "plain text", "t": 0.1, "u": -0.0})"));
  Json strings = Json::array();
  for (std::string s : std::vector<std::string>{
           "quote \" here", "back\\slash", "tab\there", "nl\nhere", "cr\r", "\b\f",
           std::string("nul\0byte", 8), "\x01\x1f\x7f", "caf\xc3\xa9", "\xe2\x82\xac",
           "bad \xff utf8", "cut \xc3", "\xf0\x9f\x98\x80 emoji", "nel\xc2\x85 ls\xe2\x80\xa8",
           "rlo\xe2\x80\xae"})
    strings.push_back(s);
  docs.push_back(strings);
  Json keyed;
  keyed["k\"ey"] = 1;
  keyed["caf\xc3\xa9"] = Json::array({std::nan(""), 1e308 * 10, 3.14159});
  docs.push_back(keyed);
  docs.push_back(Json(42));
  docs.push_back(Json("top"));
  for (const Json &doc : docs)
    for (bool oneLine : {false, true})
      EXPECT_EQ(tilexform::cli::dumpJson(doc, oneLine),
                tilexform::visibleJson(
                    doc.dump(oneLine ? -1 : 2, ' ', false, Json::error_handler_t::replace)))
          << doc.dump(-1, ' ', false, Json::error_handler_t::replace);
}
