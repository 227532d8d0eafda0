// The op table (OpSchemas.def): lookup by canonical and legacy name, the
// operand segments each line spells (`name`, `name?`, `name*`, `kw:name`,
// `[:name`), the result rules, and what the reader makes of them.
#include "TestUtil.h"

#include "tilexform/ir/Dialects.h"
#include "tilexform/ir/OpSchema.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSet.h>

#include <fmt/format.h>

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

TEST(OpSchema, EveryAttributeEntryIsRead) {
  EXPECT_TRUE(ir::unreadableAttrEntries().empty())
      << "unreadable: " << llvm::join(ir::unreadableAttrEntries(), " ");
  const ir::OpSchema *rmw = ir::lookupOpSchema("tt.atomic_rmw");
  ASSERT_NE(rmw, nullptr);
  const ir::AttrSpec *op = rmw->attr("atomic_rmw_op");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->type, ir::AttrType::Enum);
  EXPECT_EQ(op->place, ir::AttrPlace::Word);
  EXPECT_TRUE(op->required);
  // Triton's RMWOp numbers its cases from 1.
  EXPECT_EQ(op->caseName(1), "and");
  EXPECT_EQ(op->caseName(10), "exch");
  EXPECT_EQ(op->caseName(0), "");
  EXPECT_EQ(op->caseNumber("fadd"), 5);
  const ir::AttrSpec *scope = rmw->attr("scope");
  ASSERT_NE(scope, nullptr);
  EXPECT_EQ(scope->word, 2u);
  EXPECT_FALSE(scope->required);
  EXPECT_EQ(scope->caseList(), "gpu, cta or sys");
  const ir::AttrSpec *cache = ir::lookupOpSchema("tt.load")->attr("cache");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->place, ir::AttrPlace::Keyword);
  EXPECT_EQ(cache->keyword, "cacheModifier");
}

namespace {

/// One function body in a module, read.
llvm::Expected<std::unique_ptr<ir::Module>> body(const std::string &ops) {
  return ir::loadModuleText(
      "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
      "order = [0]}>\n#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order "
      "= [1, 0]}>\n#smem = #ttg.shared_memory\nmodule attributes {\"ttg.num-warps\" = 4 : i32, "
      "ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n  tt.func public @k(%x: "
      "!tt.ptr<f32>, %a: i32, %b: i32) {\n" +
          ops + "    tt.return\n  }\n}\n",
      "t.ttgir");
}

} // namespace

TEST(OpSchema, BothFormsReadTheSameAttributes) {
  // What an op's own syntax writes and what the generic form's dictionary
  // holds read the same: the enum's keyword, the integer, the list, the
  // constant's value.
  auto custom = body(R"(    %c = arith.cmpi ult, %a, %b : i32
    %f = arith.constant 1.5 : f32
    %t = arith.constant true
    %d = arith.constant dense<-2> : tensor<128xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %v = tt.splat %f : f32 -> tensor<128xf32, #blocked>
    %r = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    %l = tt.load %p cacheModifier = cg evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>, #blocked>
    %i = tt.get_program_id y : i32
    %s = ttg.local_alloc : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    %u = ttg.memdesc_subslice %s[0, 32] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 64x64>
)");
  ASSERT_TRUE(bool(custom)) << llvm::toString(custom.takeError());
  auto generic = body(R"(    %c = "arith.cmpi"(%a, %b) <{predicate = 6 : i64}> : (i32, i32) -> i1
    %f = "arith.constant"() <{value = 1.500000e+00 : f32}> : () -> f32
    %t = "arith.constant"() <{value = true}> : () -> i1
    %d = "arith.constant"() <{value = dense<-2> : tensor<128xi32, #blocked>}> : () -> tensor<128xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %v = tt.splat %f : f32 -> tensor<128xf32, #blocked>
    %r = "tt.atomic_rmw"(%p, %v) <{atomic_rmw_op = 5 : i32, scope = 1 : i32, sem = 4 : i32}> : (tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    %l = "tt.load"(%p) <{cache = 3 : i32, evict = 3 : i32, isVolatile = false}> : (tensor<128x!tt.ptr<f32>, #blocked>) -> tensor<128xf32, #blocked>
    %i = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %s = ttg.local_alloc : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    %u = "ttg.memdesc_subslice"(%s) <{offsets = array<i32: 0, 32>}> : (!ttg.memdesc<64x64xf32, #shared, #smem, mutable>) -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 64x64>
)");
  ASSERT_TRUE(bool(generic)) << llvm::toString(generic.takeError());
  for (const ir::Module *m : {custom->get(), generic->get()}) {
    SCOPED_TRACE(m == custom->get() ? "custom form" : "generic form");
    EXPECT_EQ(firstOp(*m, "arith.cmpi")->enumAttr("predicate"), "ult");
    // arith's predicates are I64EnumAttr, Triton's enums I32EnumAttr: the
    // dictionary holds each at its width, as mlir-opt verifies it.
    EXPECT_EQ(ir::attrText(firstOp(*m, "arith.cmpi")->attr("predicate")), "6 : i64");
    EXPECT_EQ(ir::attrText(firstOp(*m, "tt.atomic_rmw")->attr("sem")), "4 : i32");
    const ir::Operation *rmw = firstOp(*m, "tt.atomic_rmw");
    EXPECT_EQ(rmw->enumAttr("atomic_rmw_op"), "fadd");
    EXPECT_EQ(rmw->enumAttr("sem"), "acq_rel");
    EXPECT_EQ(rmw->enumAttr("scope"), "gpu");
    EXPECT_EQ(rmw->intAttr("atomic_rmw_op"), 5);
    const ir::Operation *load = firstOp(*m, "tt.load");
    EXPECT_EQ(load->enumAttr("cache"), "cg");
    EXPECT_EQ(load->enumAttr("evict"), "evict_last");
    EXPECT_EQ(firstOp(*m, "tt.get_program_id")->intAttr("axis"), 1);
    // One integer reads as a list of one.
    EXPECT_EQ(firstOp(*m, "tt.get_program_id")->intsAttr("axis"), (std::vector<int64_t>{1}));
    EXPECT_EQ(firstOp(*m, "ttg.memdesc_subslice")->intsAttr("offsets"),
              (std::vector<int64_t>{0, 32}));
    std::vector<std::string> constants;
    m->walk([&](ir::Operation *op) {
      if (op->name == "arith.constant")
        constants.push_back(ir::attrText(op->attr("value")));
    });
    // The alias is resolved: the value's type carries the layout itself.
    EXPECT_EQ(constants, (std::vector<std::string>{
                             "1.500000e+00 : f32", "true",
                             "dense<-2> : tensor<128xi32, #ttg.blocked<{sizePerThread = [1], "
                             "threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>"}))
        << llvm::join(constants, " | ");
  }
}

TEST(OpSchema, TheReaderRefusesWhatAnAttributesTypeDoesNotAllow) {
  struct Case {
    const char *ops;
    unsigned line, col;
    const char *message;
  };
  // Line 6 is the first line of the body.
  const Case cases[] = {
      {"    %c = arith.cmpi less, %a, %b : i32\n", 6, 21,
       "unknown arith.cmpi's predicate 'less' (expected eq, ne, slt, sle, sgt, sge, ult, ule, "
       "ugt or uge)"},
      {"    %c = arith.cmpi %a, %b : i32\n", 6, 10,
       "arith.cmpi without its predicate (eq, ne, slt, sle, sgt, sge, ult, ule, ugt or uge)"},
      {"    %c = \"arith.cmpi\"(%a, %b) <{predicate = 12 : i64}> : (i32, i32) -> i1\n", 6, 10,
       "arith.cmpi's predicate = 12 : i64 is not one of eq, ne, slt, sle, sgt, sge, ult, ule, ugt "
       "or uge"},
      {"    %i = tt.get_program_id w : i32\n", 6, 28,
       "unknown tt.get_program_id's axis 'w' (expected x, y or z)"},
      {"    %s = ttg.local_alloc : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>\n"
       "    %u = ttg.memdesc_subslice %s[0, %a] : !ttg.memdesc<64x64xf32, #shared, #smem, "
       "mutable> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 64x64>\n",
       7, 37, "ttg.memdesc_subslice's offsets are integers; got '%a'"},
      {"    %c = arith.constant : i32\n", 6, 10, "arith.constant without its value"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.ops);
    auto mod = body(c.ops);
    ASSERT_FALSE(bool(mod));
    std::string err = llvm::toString(mod.takeError());
    EXPECT_EQ(err, fmt::format("t.ttgir:{}:{}: {}", c.line, c.col, c.message));
  }
}
