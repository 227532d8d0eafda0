#include "TestUtil.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace tilexform;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> corpusFiles() {
  std::vector<fs::path> files;
  for (auto &e : fs::recursive_directory_iterator(test::corpusDir()))
    if (e.path().extension() == ".ttgir" || e.path().extension() == ".ttir")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string errorText(llvm::Error e) {
  std::string s;
  llvm::handleAllErrors(std::move(e), [&](const llvm::ErrorInfoBase &info) {
    llvm::raw_string_ostream os(s);
    info.log(os);
  });
  return s;
}

TEST(Reader, WholeCorpusLoadsAndAliasesPrintBack) {
  auto files = corpusFiles();
  ASSERT_GT(files.size(), 200u);
  size_t aliases = 0;
  for (auto &f : files) {
    auto m = ir::loadModuleFile(f.string());
    ASSERT_TRUE(bool(m)) << errorText(m.takeError());
    ir::Module &mod = **m;
    for (auto &a : mod.aliases) {
      ++aliases;
      EXPECT_EQ(ir::attrText(a.attr), a.definition) << f << " " << a.name;
    }
    int unknown = 0;
    mod.walk([&](ir::Operation *op) { unknown += !op->known; });
    EXPECT_EQ(unknown, 0) << f;
    if (f.extension() == ".ttgir") {
      EXPECT_FALSE(mod.facts.target.empty()) << f;
      EXPECT_TRUE(mod.facts.numWarps.has_value()) << f;
    }
  }
  EXPECT_GT(aliases, 500u);
}

TEST(Reader, SsaUsesAndTypesAreResolved) {
  auto m = ir::loadModuleFile(test::corpusDir() + "/sm90/matmul_f16_128x128x64_w4_s3.ttgir");
  ASSERT_TRUE(bool(m)) << errorText(m.takeError());
  int dots = 0;
  (*m)->walk([&](ir::Operation *op) {
    if (op->name != "ttng.warp_group_dot" && op->name != "tt.dot")
      return;
    ++dots;
    ASSERT_EQ(op->operands.size() >= 3, true);
    // The accumulator is a loop-carried value: an scf.for region argument.
    EXPECT_TRUE(op->results[0]->type) << op->text();
    EXPECT_EQ(ir::encodingOf(op->results[0]->type)->kind(), "nvidia_mma");
  });
  EXPECT_GT(dots, 0);
  int loops = 0;
  (*m)->walk([&](ir::Operation *op) {
    if (op->name == "scf.for") {
      ++loops;
      ASSERT_FALSE(op->regions.empty());
      EXPECT_FALSE(op->regions[0]->blocks[0]->arguments.empty());
    }
  });
  EXPECT_EQ(loops, 1);
}

TEST(Reader, UnknownOpsAreKeptNotFatal) {
  std::string text = readFile(test::corpusDir() + "/sm90/vadd_b1024_w4.ttgir");
  auto at = text.find("    tt.return");
  ASSERT_NE(at, std::string::npos);
  text.insert(at,
              "    %fut = ttg.some_future_op %8 {mode = \"fast\"} : tensor<1024xf32, #blocked> -> "
              "tensor<1024xf32, #blocked> loc(#loc1)\n"
              "    ttg.another_future_op %fut, [1, 2] <strange> : weird_syntax!\n");
  auto m = ir::loadModuleText(text, "future.ttgir");
  ASSERT_TRUE(bool(m)) << errorText(m.takeError());
  std::vector<std::string> unknown;
  (*m)->walk([&](ir::Operation *op) {
    if (!op->known)
      unknown.push_back(op->name);
  });
  EXPECT_EQ(unknown, (std::vector<std::string>{"ttg.some_future_op", "ttg.another_future_op"}));
}

TEST(Reader, OlderSpellingsGiveTheSameLayouts) {
  std::string text = readFile(test::corpusDir() + "/sm90/softmax_f16_b2048_w8.ttgir");
  std::string old = text;
  auto replaceAll = [](std::string &s, const std::string &from, const std::string &to) {
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
      s.replace(p, from.size(), to);
  };
  replaceAll(old, "#ttg.", "#triton_gpu.");
  replaceAll(old, " ttg.", " triton_gpu.");
  replaceAll(old, "\"ttg.", "\"triton_gpu.");
  replaceAll(old, "order = [0]}>",
             "order = [0], CTAsPerCGA = [1], CTASplitNum = [1], CTAOrder = [0]}>");
  auto a = ir::loadModuleText(text, "new.ttgir");
  auto b = ir::loadModuleText(old, "old.ttgir");
  ASSERT_TRUE(bool(a)) << errorText(a.takeError());
  ASSERT_TRUE(bool(b)) << errorText(b.takeError());
  ASSERT_EQ((*a)->aliases.size(), (*b)->aliases.size());
  for (size_t i = 0; i < (*a)->aliases.size(); ++i)
    EXPECT_EQ(ir::attrText((*a)->aliases[i].attr), ir::attrText((*b)->aliases[i].attr));
  EXPECT_EQ((*b)->facts.numWarps, (*a)->facts.numWarps);
  EXPECT_EQ((*b)->facts.target, (*a)->facts.target);
}

TEST(Reader, LegacyTypes) {
  auto ctx = ir::makeContext();
  auto t = ir::parseTypeText(ctx.get(),
                             "!tt.memdesc<128x64xf16, #triton_gpu.shared<{vec = 8, perPhase = 1, "
                             "maxPhase = 8, order = [1, 0], hasLeadingOffset = true}>, "
                             "#triton_gpu.shared_memory, mutable>");
  ASSERT_TRUE(bool(t)) << errorText(t.takeError());
  EXPECT_EQ(ir::typeText(*t),
            "!ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
            "transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>");
  auto d = ir::parseTypeText(
      ctx.get(), "!tt.tensordesc<tensor<128x64xf16, #ttg.nvmma_shared<{"
                 "swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>>>");
  ASSERT_TRUE(bool(d)) << errorText(d.takeError());
  EXPECT_EQ(ir::encodingOf(*d)->kind(), "nvmma_shared");
}

struct BadInput {
  const char *name;
  std::string text;
  unsigned line, col;
  const char *message;
};

TEST(Reader, BadInputNamesThePlace) {
  std::string good = readFile(test::corpusDir() + "/sm90/vadd_b1024_w4.ttgir");
  std::string malformed = good;
  malformed.replace(malformed.find("order = [0]"), 11, "order = [0");
  std::vector<BadInput> cases = {
      {"empty", "", 1, 1, "empty file"},
      {"binary",
       std::string("\x7f"
                   "ELF\x02\x01\x01\0\0\0",
                   10),
       1, 5, "binary"},
      // The `{` of the function's region, at the end of its line.
      {"truncated", good.substr(0, good.find("tt.return")), 8, 0, "never closed"},
      {"malformed attribute", malformed, 1, 0, ""},
      {"undefined value", "module {\n  tt.func @f() {\n    tt.return %nope : i32\n  }\n}\n", 3, 5,
       "undefined value"},
      {"no op name", "module {\n  %x = \n}\n", 3, 1, "expected an operation name"},
  };
  for (auto &c : cases) {
    auto m = ir::loadModuleText(c.text, "bad.ttgir");
    ASSERT_FALSE(bool(m)) << c.name;
    bool matched = false;
    llvm::handleAllErrors(m.takeError(), [&](const ir::InputError &e) {
      matched = true;
      EXPECT_EQ(e.file, "bad.ttgir");
      EXPECT_EQ(e.line, c.line) << c.name << ": " << e.message;
      if (c.col) {
        EXPECT_EQ(e.col, c.col) << c.name << ": " << e.message;
      }
      EXPECT_NE(e.message.find(c.message), std::string::npos) << c.name << ": " << e.message;
    });
    EXPECT_TRUE(matched) << c.name;
  }
}

TEST(Reader, SourceLocationsGiveVariableNames) {
  auto m = ir::loadModuleFile(test::corpusDir() + "/gfx942/matmul_f16_128x128x64_w4_s2.ttgir");
  ASSERT_TRUE(bool(m)) << errorText(m.takeError());
  bool sawAcc = false;
  (*m)->walk([&](ir::Operation *op) {
    if (op->loc.name == "acc")
      sawAcc = true;
  });
  EXPECT_TRUE(sawAcc);
}

TEST(Reader, EveryLocationFormResolves) {
  const char *text = R"(
#loc = loc("/src/k.py":10:5)
#loc1 = loc("/src/k.py":11:7)
#loc2 = loc("acc"(#loc1))
#loc3 = loc(callsite(#loc2 at #loc))
#loc4 = loc(fused[#loc5, "x"("/src/k.py":12:1)])
#loc5 = loc(unknown)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%n: i32) {
    %a = arith.addi %n, %n : i32 loc(#loc)
    %b = arith.addi %a, %a : i32 loc(#loc2)
    %c = arith.addi %b, %b : i32 loc(#loc3)
    %d = arith.addi %c, %c : i32 loc(#loc4)
    %e = arith.addi %d, %d : i32 loc("/src/k.py":13)
    %f = arith.addi %e, %e : i32 loc("/src/k.py": 14 : 2)
    tt.return loc(unknown)
  }
}
)";
  auto m = ir::loadModuleText(text, "locs.ttgir");
  ASSERT_TRUE(bool(m)) << errorText(m.takeError());
  std::vector<ir::SourceLoc> locs;
  (*m)->walk([&](ir::Operation *op) {
    if (op->name == "arith.addi" || op->name == "tt.return")
      locs.push_back(op->loc);
  });
  ASSERT_EQ(locs.size(), 7u);
  auto at = [](const ir::SourceLoc &l) {
    return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col) + " " + l.name;
  };
  EXPECT_EQ(at(locs[0]), "/src/k.py:10:5 ");
  EXPECT_EQ(at(locs[1]), "/src/k.py:11:7 acc"); // a name around a position
  EXPECT_EQ(at(locs[2]), "/src/k.py:11:7 acc"); // a call site: the callee's
  EXPECT_EQ(at(locs[3]), "/src/k.py:12:1 x");   // fused: the first part that resolves
  EXPECT_EQ(at(locs[4]), "/src/k.py:13:0 ");    // a line without a column
  EXPECT_EQ(at(locs[5]), "/src/k.py:14:2 ");    // blanks between the tokens
  EXPECT_FALSE(locs[6].known());
  // The call site's caller: the kernel's line.
  ASSERT_EQ(locs[2].callers.size(), 1u);
  EXPECT_EQ(locs[2].callers[0].file, "/src/k.py");
  EXPECT_EQ(locs[2].callers[0].line, 10u);
  EXPECT_TRUE(locs[0].callers.empty());
}

// A helper inlined into a helper: every caller, innermost first, each with
// its name; a callee that is itself a call site keeps the chain in order.
TEST(Reader, CallSiteChainsKeepEveryCaller) {
  const char *text = R"(
#loc = loc("k.py":20:4)
#loc1 = loc("lib.py":170:27)
#loc2 = loc("k.py":8:11)
#loc3 = loc("v"(#loc))
#loc4 = loc(callsite(#loc2 at #loc3))
#loc5 = loc(callsite(#loc1 at #loc4))
#loc6 = loc(callsite(unknown at "k.py":30:2))
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%n: i32) {
    %a = arith.addi %n, %n : i32 loc(#loc5)
    %b = arith.addi %a, %a : i32 loc(callsite(callsite("lib.py":1:1 at "k.py":9:3) at "k.py":21:5))
    %c = arith.addi %b, %b : i32 loc(#loc6)
    tt.return
  }
}
)";
  auto m = ir::loadModuleText(text, "chain.ttgir");
  ASSERT_TRUE(bool(m)) << errorText(m.takeError());
  std::vector<ir::SourceLoc> locs;
  (*m)->walk([&](ir::Operation *op) {
    if (op->name == "arith.addi")
      locs.push_back(op->loc);
  });
  ASSERT_EQ(locs.size(), 3u);
  auto frames = [](const ir::SourceLoc &l) {
    std::string s = l.file + ":" + std::to_string(l.line);
    for (auto &c : l.callers)
      s += " < " + c.file + ":" + std::to_string(c.line) + (c.name.empty() ? "" : " " + c.name);
    return s;
  };
  EXPECT_EQ(frames(locs[0]), "lib.py:170 < k.py:8 < k.py:20 v");
  EXPECT_EQ(frames(locs[1]), "lib.py:1 < k.py:9 < k.py:21");
  EXPECT_EQ(frames(locs[2]), ":0 < k.py:30");
}

// A chain of aliases, each one call deeper than the last: ops share the
// frames of the aliases they name; a chain within the bound keeps every
// caller whichever op names it first; one past it is unknown either way.
TEST(Reader, CallSiteChainsAreSharedAndBounded) {
  auto dump = [](int depth, const std::vector<int> &uses) {
    std::string text = "#l0 = loc(\"k.py\":1:1)\n";
    for (int j = 1; j <= depth; ++j)
      text += "#f" + std::to_string(j) + " = loc(\"k.py\":" + std::to_string(j + 1) + ":5)\n#l" +
              std::to_string(j) + " = loc(callsite(#f" + std::to_string(j) + " at #l" +
              std::to_string(j - 1) + "))\n";
    text += "module attributes {\"ttg.num-warps\" = 4 : i32} {\n  tt.func @f(%n: i32) {\n";
    for (size_t k = 0; k < uses.size(); ++k)
      text += "    %v" + std::to_string(k) + " = arith.addi %n, %n : i32 loc(#l" +
              std::to_string(uses[k]) + ")\n";
    return text + "    tt.return\n  }\n}\n";
  };
  auto load = [&](int depth, const std::vector<int> &uses) {
    std::vector<ir::SourceLoc> locs;
    auto m = ir::loadModuleText(dump(depth, uses), "chain.ttgir");
    EXPECT_TRUE(bool(m)) << errorText(m.takeError());
    if (m)
      (*m)->walk([&](ir::Operation *op) {
        if (op->name == "arith.addi")
          locs.push_back(op->loc);
      });
    return locs;
  };
  // 20 calls deep (a real inliner stops far sooner), named shallow-first
  // and deepest-first: the same 20 callers, innermost first.
  for (auto uses : {std::vector<int>{5, 20, 20}, std::vector<int>{20, 5, 20}}) {
    auto locs = load(20, uses);
    ASSERT_EQ(locs.size(), 3u);
    const ir::SourceLoc &deep = uses[0] == 20 ? locs[0] : locs[1];
    EXPECT_EQ(deep.line, 21u);
    ASSERT_EQ(deep.callers.size(), 20u);
    unsigned line = 20;
    for (const ir::CallSite &c : deep.callers)
      EXPECT_EQ(c.line, line--);
    EXPECT_EQ(deep.callers[19].line, 1u);
    EXPECT_EQ(deep.callers.outermostFirst().front()->line, 1u);
    // Two ops at one alias hold the same frames, not copies.
    EXPECT_EQ(&*locs[2].callers.begin(), &*deep.callers.begin());
  }
  // Past the bound: unknown, whether a shallower alias was resolved first
  // or not; the shallower one keeps its chain.
  for (auto uses : {std::vector<int>{10, 200}, std::vector<int>{200, 10}}) {
    auto locs = load(200, uses);
    ASSERT_EQ(locs.size(), 2u);
    const ir::SourceLoc &deep = uses[0] == 200 ? locs[0] : locs[1];
    const ir::SourceLoc &shallow = uses[0] == 200 ? locs[1] : locs[0];
    EXPECT_FALSE(deep.known());
    EXPECT_TRUE(deep.callers.empty());
    EXPECT_EQ(shallow.callers.size(), 10u);
  }
}

} // namespace

namespace {

const ir::Operation *findOp(const ir::Module &m, const std::string &name) {
  const ir::Operation *found = nullptr;
  m.walk([&](ir::Operation *op) {
    if (!found && op->name == name)
      found = op;
  });
  return found;
}

} // namespace

// Operands are named by the op-schema table: keywords (`mask`, `stride =`),
// brackets (`%p[%off]`) and position, never by counting `%`.
TEST(Reader, OperandsByName) {
  const char *text = R"(
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942"} {
  tt.func @f(%p: !tt.ptr<f16>, %off: tensor<256xi32, #b>{tt.divisibility=16:i32},
             %m: tensor<256xi1, #b>, %o: tensor<256xf16, #b>, %s: i32,
             %ptrs: tensor<256x!tt.ptr<f16>, #b>, %buf: !ttg.memdesc<256xf16, #s, #smem, mutable>) {
    %a = amdg.buffer_load %p[%off], %m stride = %s : tensor<256xf16, #b>
    %b = tt.load %ptrs, %m, %o : tensor<256x!tt.ptr<f16>, #b>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %m other %o : tensor<256x!tt.ptr<f16>, #b> -> <256xf16, #s, #smem, mutable>
    %c = ttg.async_commit_group tokens %t, %t
    tt.return
  }
}
)";
  auto m = ir::loadModuleText(text, "named.ttgir");
  ASSERT_TRUE(bool(m)) << errorText(m.takeError());
  const ir::Operation *f = findOp(**m, "tt.func");
  ASSERT_TRUE(f);
  auto &args = f->regions[0]->blocks[0]->arguments;
  ASSERT_EQ(args.size(), 7u);
  ASSERT_TRUE(args[1]->attributes);
  EXPECT_EQ(ir::attrText(args[1]->attributes.get("tt.divisibility")), "16 : i32");

  const ir::Operation *bl = findOp(**m, "amdg.buffer_load");
  ASSERT_TRUE(bl);
  EXPECT_EQ(bl->operand("ptr"), args[0]);
  EXPECT_EQ(bl->operand("offsets"), args[1]);
  EXPECT_EQ(bl->operand("mask"), args[2]);
  EXPECT_EQ(bl->operand("other"), nullptr);
  EXPECT_EQ(bl->operand("stride"), args[4]);

  const ir::Operation *ld = findOp(**m, "tt.load");
  ASSERT_TRUE(ld);
  EXPECT_EQ(ld->operand("mask"), args[2]);
  EXPECT_EQ(ld->operand("other"), args[3]);
  EXPECT_EQ(ir::typeText(ld->results[0]->type), "tensor<256xf16, #ttg.blocked<{sizePerThread = "
                                                "[1], threadsPerWarp = [64], warpsPerCTA = [4], "
                                                "order = [0]}>>");

  const ir::Operation *cp = findOp(**m, "ttg.async_copy_global_to_local");
  ASSERT_TRUE(cp);
  EXPECT_EQ(cp->operand("result"), args[6]);
  EXPECT_EQ(cp->operand("mask"), args[2]);
  EXPECT_EQ(cp->operand("other"), args[3]);
  // The result is the async token the printer never writes, not the memdesc.
  EXPECT_EQ(ir::typeText(cp->results[0]->type), "!ttg.async.token");

  const ir::Operation *cg = findOp(**m, "ttg.async_commit_group");
  ASSERT_TRUE(cg);
  EXPECT_EQ(cg->operandGroup("inputTokens").size(), 2u);
}

// Result types follow each op's rule; an op not in the table is typed from
// its printed form: its functional type's outputs, else one written type
// per result (`rocdl.workitem.id.x : i32`), else none.
TEST(Reader, ResultTypesFollowTheRuleOrThePrintedForm) {
  const char *text = R"(
module {
  tt.func @f(%c: i1, %x: f32, %y: f32) {
    %s = arith.select %c, %x, %y : f32
    %t = arith.select %c, %x, %y : i1, f32
    %lt = arith.cmpf olt, %x, %y : f32
    %u = future.op %x : f32
    %v = future.op2 %x : (f32) -> i64
    %w:2 = future.op3 %x : f32
    %k = arith.constant true
    tt.return
  }
}
)";
  auto m = ir::loadModuleText(text, "types.ttgir");
  ASSERT_TRUE(bool(m)) << errorText(m.takeError());
  std::map<std::string, std::string> types;
  (*m)->walk([&](ir::Operation *op) {
    for (auto *r : op->results)
      types[r->name] = r->type ? ir::typeText(r->type) : "?";
  });
  EXPECT_EQ(types["%s"], "f32");
  EXPECT_EQ(types["%t"], "f32");
  EXPECT_EQ(types["%lt"], "i1");
  EXPECT_EQ(types["%u"], "f32");
  EXPECT_EQ(types["%w#0"], "?");
  EXPECT_EQ(types["%v"], "i64");
  EXPECT_EQ(types["%k"], "i1");
}

// The reader builds `tensor<DIMSxELEM, #alias>` itself; the type must be the
// very one MLIR's parser gives for the text with the alias written out.
TEST(Reader, SimpleTensorTypesAreMlirsOwn) {
  const char *layout = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
                       "warpsPerCTA = [4, 1], order = [1, 0]}>";
  std::string text = std::string("#blocked = ") + layout + R"(
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f16>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %z = arith.constant dense<0.0> : tensor<64x32xf16, #blocked>
    %q = tt.splat %p : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %w = arith.constant dense<1> : tensor<8xi32>
    tt.return
  }
}
)";
  auto m = ir::loadModuleText(text, "t.ttgir");
  ASSERT_TRUE(bool(m)) << errorText(m.takeError());
  mlir::MLIRContext *ctx = (*m)->context.get();
  std::map<std::string, std::string> expected = {
      {"%r", std::string("tensor<64xi32, #ttg.slice<{dim = 1, parent = ") + layout + "}>>"},
      {"%z", std::string("tensor<64x32xf16, ") + layout + ">"},
      {"%q", std::string("tensor<64x32x!tt.ptr<f16>, ") + layout + ">"},
      {"%w", "tensor<8xi32>"}};
  int seen = 0;
  (*m)->walk([&](ir::Operation *op) {
    for (auto *v : op->results) {
      auto it = expected.find(v->name);
      if (it == expected.end())
        continue;
      ++seen;
      auto t = ir::parseTypeText(ctx, it->second);
      ASSERT_TRUE(bool(t)) << errorText(t.takeError());
      EXPECT_EQ(v->type, *t) << v->name;
    }
  });
  EXPECT_EQ(seen, 4);
}

TEST(Reader, SsaRulesAreInputErrors) {
  const std::string head = "#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = "
                           "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
                           "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
                           "  tt.func public @k(%n: i32) {\n";
  const std::string tail = "    tt.return\n  }\n}\n";
  struct Case {
    const char *body, *message;
  } cases[] = {
      {"    %a = arith.addi %b, %n : i32\n    %b = arith.addi %n, %n : i32\n",
       "t.ttgir:4:5: '%b' is used before its definition in the same block"},
      {"    %a = arith.addi %a, %n : i32\n",
       "t.ttgir:4:5: '%a' is used before its definition in the same block"},
      {"    %a = arith.constant 1 : i32\n    %a = arith.constant 2 : i32\n",
       "t.ttgir:5:5: '%a' is defined twice (SSA names have one definition)"},
      {"    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>\n",
       "a tensor of rank 1 with a layout of rank 2"},
  };
  for (auto &c : cases) {
    auto m = ir::loadModuleText(head + c.body + tail, "t.ttgir");
    ASSERT_FALSE(bool(m)) << c.body;
    std::string err = llvm::toString(m.takeError());
    EXPECT_NE(err.find(c.message), std::string::npos) << err;
  }
  // Across blocks a use may come first in the text: that is not refused.
  auto ok = ir::loadModuleText(head + "    cf.br ^bb2\n  ^bb1:\n    %x = arith.addi %y, %n : i32\n"
                                      "    tt.return\n  ^bb2:\n    %y = arith.addi %n, %n : i32\n"
                                      "    cf.br ^bb1\n  }\n}\n",
                               "t.ttgir");
  EXPECT_TRUE(bool(ok)) << (ok ? "" : llvm::toString(ok.takeError()));
}
