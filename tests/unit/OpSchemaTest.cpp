// The op table (OpSchemas.def): lookup by canonical and legacy name, the
// operand segments each line spells (`name`, `name?`, `name*`, `kw:name`,
// `[:name`), the result rules, and what the reader makes of them.
#include "TestUtil.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/OpSchema.h"

#include <llvm/ADT/StringSet.h>

using namespace tilexform;
using ir::OperandSegment;

namespace {

/// A segment as "keyword|name|flags" (flags: ? optional, * variadic), so a
/// whole line compares in one assertion.
std::vector<std::string> segmentsOf(llvm::StringRef op) {
  const ir::OpSchema *s = ir::lookupOpSchema(op);
  EXPECT_NE(s, nullptr) << op.str();
  std::vector<std::string> out;
  if (!s)
    return out;
  for (const OperandSegment &seg : s->segments)
    out.push_back(seg.keyword.str() + "|" + seg.name.str() + "|" +
                  (seg.variadic   ? "*"
                   : seg.optional ? "?"
                                  : ""));
  return out;
}

const ir::Operation *firstOp(const ir::Module &mod, llvm::StringRef name) {
  const ir::Operation *found = nullptr;
  mod.walk([&](ir::Operation *op) {
    if (!found && op->name == name)
      found = op;
  });
  return found;
}

} // namespace

TEST(OpSchema, LookupByCanonicalName) {
  const ir::OpSchema *load = ir::lookupOpSchema("tt.load");
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->name, "tt.load");
  EXPECT_EQ(load->results, ir::ResultRule::Pointee);
  EXPECT_EQ(load->regionArgs, ir::RegionArgs::Written);
  EXPECT_TRUE(load->is(ir::OpFlagGlobalLoad));
  EXPECT_FALSE(load->is(ir::OpFlagGlobalStore));
  EXPECT_TRUE(load->legacyNames.empty());

  const ir::OpSchema *func = ir::lookupOpSchema("tt.func");
  ASSERT_NE(func, nullptr);
  EXPECT_TRUE(func->is(ir::OpFlagFunction));
  EXPECT_TRUE(func->segments.empty());

  const ir::OpSchema *forOp = ir::lookupOpSchema("scf.for");
  ASSERT_NE(forOp, nullptr);
  EXPECT_TRUE(forOp->is(ir::OpFlagLoop));
  EXPECT_EQ(forOp->regionArgs, ir::RegionArgs::ForLoop);
  EXPECT_EQ(ir::lookupOpSchema("scf.while")->regionArgs, ir::RegionArgs::WhileLoop);

  // Several flags on one line.
  const ir::OpSchema *index = ir::lookupOpSchema("ttg.memdesc_index");
  ASSERT_NE(index, nullptr);
  EXPECT_TRUE(index->is(ir::OpFlagMemdescView));
  EXPECT_TRUE(index->is(ir::OpFlagDataMovement));
  EXPECT_FALSE(index->is(ir::OpFlagDot));
}

TEST(OpSchema, LookupByLegacyName) {
  // An older name reaches the same entry, which keeps its canonical name.
  const ir::OpSchema *view = ir::lookupOpSchema("tt.view");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view, ir::lookupOpSchema("tt.reshape"));
  EXPECT_EQ(view->name, "tt.reshape");
  ASSERT_EQ(view->legacyNames.size(), 1u);
  EXPECT_EQ(view->legacyNames[0], "tt.view");

  const ir::OpSchema *copy = ir::lookupOpSchema("tt.async_copy_global_to_local");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->name, "ttg.async_copy_global_to_local");

  const ir::OpSchema *tensormap = ir::lookupOpSchema("tt.experimental_tensormap_create");
  ASSERT_NE(tensormap, nullptr);
  EXPECT_EQ(tensormap->name, "ttng.tensormap_create");
  EXPECT_EQ(ir::lookupOpSchema("tt.experimental_descriptor_load"),
            ir::lookupOpSchema("tt.descriptor_load"));
}

TEST(OpSchema, AnUnknownOpHasNoSchema) {
  EXPECT_EQ(ir::lookupOpSchema("tt.no_such_op"), nullptr);
  EXPECT_EQ(ir::lookupOpSchema(""), nullptr);
  // Names are exact: no prefix and no case folding.
  EXPECT_EQ(ir::lookupOpSchema("tt.loa"), nullptr);
  EXPECT_EQ(ir::lookupOpSchema("TT.LOAD"), nullptr);
  // A dialect prefix rename is the reader's (canonicalName), not the table's.
  EXPECT_EQ(ir::lookupOpSchema("triton_gpu.convert_layout"), nullptr);
  EXPECT_EQ(ir::canonicalName("triton_gpu.convert_layout"), "ttg.convert_layout");
}

TEST(OpSchema, EveryNameIsOnceInTheTable) {
  llvm::StringSet<> seen;
  for (const ir::OpSchema &s : ir::allOpSchemas()) {
    EXPECT_TRUE(seen.insert(s.name).second) << s.name.str();
    for (llvm::StringRef legacy : s.legacyNames)
      EXPECT_TRUE(seen.insert(legacy).second) << legacy.str();
    EXPECT_EQ(ir::lookupOpSchema(s.name), &s) << s.name.str();
  }
  EXPECT_GT(ir::allOpSchemas().size(), 100u);
}

TEST(OpSchema, OperandSegments) {
  // `name` one operand, `name?` optional.
  EXPECT_EQ(segmentsOf("tt.load"), (std::vector<std::string>{"|ptr|", "|mask|?", "|other|?"}));
  // `name*` variadic (and so optional).
  EXPECT_EQ(segmentsOf("tt.return"), (std::vector<std::string>{"|srcs|*"}));
  const ir::OpSchema *ret = ir::lookupOpSchema("tt.return");
  EXPECT_TRUE(ret->segments[0].optional);
  EXPECT_TRUE(ret->segments[0].variadic);
  // `kw:name` after a keyword, optional or not.
  EXPECT_EQ(segmentsOf("tt.dot_scaled"),
            (std::vector<std::string>{"|a|", "scale|a_scale|?", "|b|", "scale|b_scale|?", "|c|"}));
  EXPECT_EQ(segmentsOf("amdg.scaled_upcast_fp8"),
            (std::vector<std::string>{"|input|", "scale|scale|"}));
  EXPECT_EQ(segmentsOf("ttg.async_commit_group"),
            (std::vector<std::string>{"tokens|inputTokens|*"}));
  // `[:name` in square brackets, with the other forms on one line.
  EXPECT_EQ(segmentsOf("amdg.buffer_load_to_local"),
            (std::vector<std::string>{"|ptr|", "[|offsets|", "mask|mask|?", "other|other|?",
                                      "stride|stride|?", "into|dest|"}));
  EXPECT_EQ(segmentsOf("ttng.tc_gen5_mma"),
            (std::vector<std::string>{"|a|", "|b|", "|d|", "[|acc_dep|?", "|useD|", "|pred|",
                                      "|barriers|*", "[|barrier_preds|*"}));
  EXPECT_TRUE(segmentsOf("tt.get_program_id").empty());
}

TEST(OpSchema, SegmentIndex) {
  const ir::OpSchema *load = ir::lookupOpSchema("tt.load");
  EXPECT_EQ(load->segmentIndex("ptr"), 0);
  EXPECT_EQ(load->segmentIndex("mask"), 1);
  EXPECT_EQ(load->segmentIndex("other"), 2);
  EXPECT_EQ(load->segmentIndex("stride"), -1);
  // The keyword is no name: `scale:a_scale` is found as a_scale.
  const ir::OpSchema *scaled = ir::lookupOpSchema("tt.dot_scaled");
  EXPECT_EQ(scaled->segmentIndex("a_scale"), 1);
  EXPECT_EQ(scaled->segmentIndex("scale"), -1);
}

TEST(OpSchema, ResultRules) {
  auto rule = [](llvm::StringRef op) { return ir::lookupOpSchema(op)->results; };
  EXPECT_EQ(rule("tt.store"), ir::ResultRule::None);
  EXPECT_EQ(rule("tt.get_program_id"), ir::ResultRule::Same);
  EXPECT_EQ(rule("ttg.convert_layout"), ir::ResultRule::Outputs);
  EXPECT_EQ(rule("tt.split"), ir::ResultRule::OutputsSplat);
  EXPECT_EQ(rule("ttng.tmem_load"), ir::ResultRule::OutputsThenToken);
  EXPECT_EQ(rule("tt.addptr"), ir::ResultRule::First);
  EXPECT_EQ(rule("arith.select"), ir::ResultRule::Last);
  EXPECT_EQ(rule("arith.cmpi"), ir::ResultRule::CompareI1);
  EXPECT_EQ(rule("tt.load"), ir::ResultRule::Pointee);
  EXPECT_EQ(rule("ttg.async_commit_group"), ir::ResultRule::Token);
  EXPECT_EQ(rule("arith.constant"), ir::ResultRule::Constant);
  EXPECT_EQ(rule("scf.for"), ir::ResultRule::ArrowList);
  EXPECT_EQ(rule("tt.unsplat"), ir::ResultRule::ElementOf);
}

TEST(OpSchema, TheReaderFollowsTheTable) {
  // Operands are found by segment name and result types by each line's rule,
  // from text that writes only some of them.
  auto mod = ir::loadModuleText(
      R"(#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {
    %c = arith.constant 0 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %s : tensor<128xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %q, %m : tensor<128x!tt.ptr<f32>, #blocked>
    %w = arith.select %m, %v, %v : tensor<128xi1, #blocked>, tensor<128xf32, #blocked>
    tt.store %q, %w, %m : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
)",
      "t.ttgir");
  ASSERT_TRUE(bool(mod)) << llvm::toString(mod.takeError());
  const ir::Module &m = **mod;
  // Types print with their layout spelled out.
  const std::string blocked = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
                              "warpsPerCTA = [4], order = [0]}>";

  const ir::Operation *load = firstOp(m, "tt.load");
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->schema, ir::lookupOpSchema("tt.load"));
  ASSERT_NE(load->operand("ptr"), nullptr);
  EXPECT_EQ(load->operand("ptr")->name, "%q");
  ASSERT_NE(load->operand("mask"), nullptr);
  EXPECT_EQ(load->operand("mask")->name, "%m");
  EXPECT_EQ(load->operand("other"), nullptr); // optional, absent
  EXPECT_EQ(load->operand("no_such_segment"), nullptr);
  // Pointee: the loaded tensor holds what the pointers point to.
  ASSERT_EQ(load->results.size(), 1u);
  EXPECT_EQ(ir::typeText(load->results[0]->type), "tensor<128xf32, " + blocked + ">");

  const ir::Operation *cmp = firstOp(m, "arith.cmpi");
  ASSERT_NE(cmp, nullptr);
  EXPECT_EQ(cmp->operand("lhs")->name, "%r");
  EXPECT_EQ(cmp->operand("rhs")->name, "%s");
  // CompareI1: i1 at the operand's shape and layout.
  EXPECT_EQ(ir::typeText(cmp->results[0]->type), "tensor<128xi1, " + blocked + ">");

  const ir::Operation *addptr = firstOp(m, "tt.addptr");
  ASSERT_NE(addptr, nullptr);
  EXPECT_EQ(addptr->operand("offset")->name, "%r");
  // First: the first written type.
  EXPECT_EQ(ir::typeText(addptr->results[0]->type), "tensor<128x!tt.ptr<f32>, " + blocked + ">");

  const ir::Operation *select = firstOp(m, "arith.select");
  ASSERT_NE(select, nullptr);
  EXPECT_EQ(select->operand("condition")->name, "%m");
  // Last: the last written type.
  EXPECT_EQ(ir::typeText(select->results[0]->type), "tensor<128xf32, " + blocked + ">");

  const ir::Operation *constant = firstOp(m, "arith.constant");
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(ir::typeText(constant->results[0]->type), "i32");

  const ir::Operation *store = firstOp(m, "tt.store");
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->results.empty());
  EXPECT_EQ(store->operand("value")->name, "%w");
  EXPECT_EQ(store->operand("mask")->name, "%m");
}

TEST(OpSchema, TheReaderKeepsAnUnknownOp) {
  // An op the table lacks (a newer Triton's) is read, marked unknown, with
  // no schema and so no named operands.
  auto mod = ir::loadModuleText(
      R"(module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%n: i32) {
    %v = tt.future_op %n : i32 -> i32
    tt.return
  }
}
)",
      "t.ttgir");
  ASSERT_TRUE(bool(mod)) << llvm::toString(mod.takeError());
  const ir::Operation *op = firstOp(**mod, "tt.future_op");
  ASSERT_NE(op, nullptr);
  EXPECT_FALSE(op->known);
  EXPECT_EQ(op->schema, nullptr);
  EXPECT_EQ(op->operand("src"), nullptr);
  EXPECT_EQ(op->pos.line, 3u);
}
