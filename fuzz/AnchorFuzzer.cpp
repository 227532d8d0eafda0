// libFuzzer entry point for what transcribe and recover --out write: the
// modules people import. The input either is a dump, or, far more often,
// puts fuzzed text in every place a dump's text reaches a module — the
// kernel's symbol, the target, a location's file name, a NameLoc, an
// extern_elementwise's library and symbol, an unknown op's name, the dump's
// file name — raw or as MLIR's escapes. Every module written must be what
// the emitters write, checked here by a line reader of its own (no line
// break but \n, valid UTF-8, and at the top level only comments, imports
// from triton, layout constants, NUM_WARPS, decorators and functions), and
// tilexform's own check (source/GeneratedModule.h) must never have to
// refuse one: a refusal means text reached the module unescaped.
#include "FuzzSupport.h"

#include "tilexform/analysis/Recover.h"
#include "tilexform/gluon/Gluon.h"
#include "tilexform/ir/Module.h"
#include "tilexform/source/GeneratedModule.h"
#include "tilexform/transcribe/Transcribe.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/ConvertUTF.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// A small kernel with one slot per place input text reaches a module.
constexpr const char *kTemplate =
    R"(#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#loc = loc("@FILE@":7:0)
#loc1 = loc("@FILE@":8:22)
#loc2 = loc("@NAME@"(#loc1))
#loc3 = loc(callsite(#loc1 at #loc))
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "@TARGET@", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @"@KERNEL@"(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("@NAME@"(#loc)), %n: i32 loc("n"(#loc))) attributes {noinline = false} {
    %c1024_i32 = arith.constant 1024 : i32 loc(#loc2)
    %i = tt.get_program_id x : i32 loc(#loc2)
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked> loc(#loc3)
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc2)
    %q = tt.addptr %p, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked> loc(#loc2)
    %v = tt.load %q : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc1)
    %e = tt.extern_elementwise %v {libname = "@LIB@", libpath = "@PATH@", pure = true, symbol = "@SYMBOL@"} : (tensor<1024xf32, #blocked>) -> tensor<1024xf32, #blocked> loc(#loc2)
    %u = "@OP@"(%e) : (tensor<1024xf32, #blocked>) -> tensor<1024xf32, #blocked> loc(#loc1)
    tt.store %q, %u : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc3)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
)";

const char *const kSlots[] = {"@FILE@", "@NAME@", "@TARGET@", "@KERNEL@",
                              "@LIB@",  "@PATH@", "@SYMBOL@", "@OP@"};

// `text` inside an MLIR string: raw (but a quote, a backslash and a line
// feed, which MLIR's lexer does not take raw), or every byte outside
// printable ASCII as MLIR's `\XX`.
std::string mlirString(const std::string &text, bool escapeAll) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\' || c == '\n' || (escapeAll && (c < 0x20 || c >= 0x7F))) {
      char hex[4];
      std::snprintf(hex, sizeof hex, "\\%02X", c);
      out += hex;
    } else {
      out += char(c);
    }
  }
  return out;
}

void fail(const char *what, const std::string &module) {
  std::fprintf(stderr, "anchor fuzzer: %s\n--- module ---\n%s\n", what, module.c_str());
  std::abort();
}

// The fuzzer's own reading of a module, independent of the one in
// source/GeneratedModule.cpp.
void checkModule(const std::string &text) {
  static const char *const kBreaks[] = {"\r",   "\v",       "\f",           "\x1c",        "\x1d",
                                        "\x1e", "\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9"};
  llvm::StringRef t(text);
  if (t.contains('\0'))
    fail("a NUL in the module", text);
  for (const char *b : kBreaks)
    if (t.contains(b))
      fail("a line break other than \\n in the module", text);
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
  if (!llvm::isLegalUTF8String(&begin, begin + text.size()))
    fail("the module is not UTF-8", text);
  // The encoding Python reads from the first two lines is UTF-8's.
  auto [first, afterFirst] = t.split('\n');
  llvm::StringRef second = afterFirst.split('\n').first;
  if (first.contains("coding") || second != "# -*- coding: utf-8 -*-")
    fail("the module's first two lines are not the header's", text);
  bool inFunction = false;
  while (!t.empty()) {
    auto [line, rest] = t.split('\n');
    t = rest;
    if (line.empty())
      continue;
    if (line[0] == ' ') {
      if (!inFunction)
        fail("an indented line outside a function", text);
      continue;
    }
    inFunction = false;
    if (line.starts_with("#") || line.starts_with("from triton") ||
        line.starts_with("import triton") || line.starts_with("@gluon.jit") || line == "@builtin" ||
        line.starts_with("NUM_WARPS = "))
      continue;
    if (line.starts_with("def ")) {
      inFunction = true;
      continue;
    }
    size_t eq = line.find(" = gl.constexpr(");
    llvm::StringRef name = line.take_front(eq);
    bool identifier = eq != llvm::StringRef::npos && !name.empty() && !llvm::isDigit(name[0]) &&
                      name.find_if_not([](char c) { return llvm::isAlnum(c) || c == '_'; }) ==
                          llvm::StringRef::npos;
    if (!identifier)
      fail("a top-level line the emitters do not write", text);
  }
}

template <typename T> void expectSafe(llvm::Expected<T> &result) {
  if (result)
    return;
  llvm::Error err = result.takeError();
  if (err.isA<tilexform::source::UnsafeModuleError>()) {
    std::string message = llvm::toString(std::move(err));
    fail("tilexform refused a module it wrote (text reached it unescaped)", message);
  }
  llvm::consumeError(std::move(err));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  FuzzedDataProvider in(data, size);
  std::string dump, sourceName = "fuzz.ttgir";
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {
    dump = in.ConsumeRemainingBytesAsString();
  } else {
    dump = kTemplate;
    bool escapeAll = in.ConsumeBool();
    for (const char *slot : kSlots) {
      std::string text = mlirString(in.ConsumeRandomLengthString(64), escapeAll);
      // Search on after each replacement: the text may hold a slot's name.
      for (size_t at = 0; (at = dump.find(slot, at)) != std::string::npos; at += text.size())
        dump.replace(at, std::strlen(slot), text);
    }
    sourceName = in.ConsumeRandomLengthString(64);
  }
  auto m = tilexform::ir::loadModuleText(dump, "fuzz.ttgir");
  if (!m) {
    llvm::consumeError(m.takeError());
    return 0;
  }
  auto report = tilexform::analysis::recover(**m, tilexform::gluon::GluonApi::V3_6);
  auto module = tilexform::analysis::anchorModule(report, sourceName);
  expectSafe(module);
  if (module)
    checkModule(*module);
  tilexform::fuzz::transcribeEveryWay(
      **m, report, sourceName, [](llvm::Expected<tilexform::transcribe::TranscribeReport> t) {
        expectSafe(t);
        if (t && !t->python.empty())
          checkModule(t->python);
      });
  return 0;
}
