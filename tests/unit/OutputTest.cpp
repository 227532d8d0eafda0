#include "tilexform/cli/Output.h"

#include <gtest/gtest.h>

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
