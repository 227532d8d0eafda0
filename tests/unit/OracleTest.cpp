// Every record of Triton 3.6's own answers (Gluon constructor and linear
// layout per tensor/memdesc type) must agree with tilexform's.
#include "TestUtil.h"

#include "tilexform/gluon/Gluon.h"

#include <nlohmann/json.hpp>

#include <fstream>

using namespace tilexform;

namespace {

TEST(Oracle, EveryRecordAgrees) {
  std::ifstream in(test::sourceDir() + "/tests/data/oracle_layouts.jsonl");
  ASSERT_TRUE(in.good()) << "missing tests/data/oracle_layouts.jsonl";
  auto ctx = ir::makeContext();
  std::string line;
  int checked = 0, failures = 0;
  while (std::getline(in, line)) {
    auto rec = nlohmann::json::parse(line);
    if (!rec.contains("attr") || !rec["gluon"].is_string())
      continue;
    ++checked;
    std::string attr = rec["attr"];
    auto report = [&](const std::string &what) {
      if (++failures <= 20)
        ADD_FAILURE() << what << "\n  type: " << attr;
    };
    auto type = ir::parseTypeText(ctx.get(), attr);
    if (!type) {
      report("does not parse: " + llvm::toString(type.takeError()));
      continue;
    }
    auto enc = ir::encodingOf(*type);
    if (!enc) {
      report("no layout");
      continue;
    }
    auto emitted = gluon::emitGluon(*enc);
    if (!emitted.expr) {
      report("no Gluon constructor: " + emitted.reason);
      continue;
    }
    auto ours = gluon::parseGluon(*emitted.expr);
    auto theirs = gluon::parseGluon(rec["gluon"].get<std::string>());
    if (!ours || !theirs) {
      report("constructor does not parse back");
      if (!ours)
        llvm::consumeError(ours.takeError());
      if (!theirs)
        llvm::consumeError(theirs.takeError());
      continue;
    }
    if (!(**ours == **theirs)) {
      report("constructor differs:\n  want " + rec["gluon"].get<std::string>() + "\n  got  " +
             *emitted.expr);
      continue;
    }
    if (!rec["linear"].is_string())
      continue;
    auto want = gluon::parseGluon(rec["linear"].get<std::string>());
    if (!want) {
      report("oracle linear layout does not parse: " + llvm::toString(want.takeError()));
      continue;
    }
    auto *wantLinear = (*want)->as<layout::LinearEncoding>();
    ASSERT_TRUE(wantLinear);
    auto gotOrErr = layout::linearLayoutAt(*enc, ir::layoutShapeOf(*type));
    if (!gotOrErr) {
      report("no linear layout: " + llvm::toString(gotOrErr.takeError()));
      continue;
    }
    const layout::LinearLayout &got = *gotOrErr;
    for (const char *dim : {"register", "lane", "warp", "block"})
      if (got.basesOf(dim) != wantLinear->ll.basesOf(dim)) {
        report(std::string("linear layout differs in ") + dim + "\n" + got.toString());
        break;
      }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(checked, 3000);
  std::printf("oracle: %d records checked, %d disagree\n", checked, failures);
}

} // namespace
