// linear and generic_linear: a distributed layout given by its bases,
// `#ttg.linear<{register = ..., lane = ..., warp = ..., block = ...}>` and
// `gl.DistributedLinearLayout(...)`.
#include "tilexform/layout/Kind.h"

#include "../KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>

namespace tilexform::layout::kinds {

using namespace detail;

namespace {

EncodingPtr parseBases(AttrFields &f, bool generic) {
  Bases regs, lanes, warps, blocks;
  bool ok = true;
  bool have[4] = {false, false, false, false};
  for (const std::string &k : f.keys()) {
    if (k == "register")
      regs = f.basesList(k, ok), have[0] = true;
    else if (k == "lane")
      lanes = f.basesList(k, ok), have[1] = true;
    else if (k == "warp")
      warps = f.basesList(k, ok), have[2] = true;
    else if (k == "block")
      blocks = f.basesList(k, ok), have[3] = true;
    else {
      f.error("unexpected key: " + k);
      return nullptr;
    }
    if (!ok)
      return nullptr;
  }
  const char *names[] = {"register", "lane", "warp", "block"};
  for (int i = 0; i < 4; ++i)
    if (!have[i]) {
      f.error(std::string("Expected basis of '") + names[i] + "' not found");
      return nullptr;
    }
  unsigned rank = 0;
  if (!f.basesRank({&regs, &lanes, &warps, &blocks}, rank))
    return nullptr;
  LinearEncoding e;
  e.generic = generic;
  // Surjectivity is the kind's rule (validateEncoding), one message for
  // both spellings.
  auto ll = namedLinear(
      f, {{"register", regs}, {"lane", lanes}, {"warp", warps}, {"block", blocks}}, rank, false);
  if (!ll)
    return nullptr;
  e.ll = std::move(*ll);
  return makeEncoding(e);
}

EncodingPtr parseLinear(AttrFields &f) { return parseBases(f, false); }
EncodingPtr parseGenericLinear(AttrFields &f) { return parseBases(f, true); }

std::string print(const Encoding &enc, const AttrPrinter &) {
  const auto &e = *enc.as<LinearEncoding>();
  std::vector<std::string> parts;
  for (auto &[name, bases] : e.ll.bases())
    parts.push_back(name + " = " + basesText(bases));
  return fmt::format("#ttg.{}<{{{}}}>", e.generic ? "generic_linear" : "linear",
                     fmt::join(parts, ", "));
}

EncodingPtr parseGluon(const GluonArgs &a) {
  LinearEncoding e;
  e.ll = basesOverShape(a,
                        {{"register", a.bases("reg_bases")},
                         {"lane", a.bases("lane_bases")},
                         {"warp", a.bases("warp_bases")},
                         {"block", a.bases("block_bases")}},
                        a.ints("shape"));
  return makeEncoding(e);
}

std::optional<std::string> emitGluon(const Encoding &enc, GluonSpelling &g) {
  const auto &e = *enc.as<LinearEncoding>();
  if (e.generic) {
    g.decline("#ttg.generic_linear has no Gluon constructor in "
              "Triton 3.6 (DistributedLinearLayout builds only "
              "permutation layouts there)");
    return std::nullopt;
  }
  std::vector<unsigned> shape;
  for (auto &[n, s] : e.ll.outDims())
    shape.push_back(unsigned(s));
  return fmt::format("gl.DistributedLinearLayout(reg_bases={}, lane_bases={}, "
                     "warp_bases={}, block_bases={}, shape={})",
                     basesText(e.ll.basesOf("register")), basesText(e.ll.basesOf("lane")),
                     basesText(e.ll.basesOf("warp")), basesText(e.ll.basesOf("block")),
                     listText(shape));
}

std::string validate(const Encoding &enc) {
  const auto &e = *enc.as<LinearEncoding>();
  if (e.ll.outDims().empty())
    return "Empty Layout not supported";
  if (!e.ll.isSurjective())
    return "linear layout is not surjective";
  return "";
}

// The dims in the order the registers first step along them, then the
// rest minor-first.
std::vector<unsigned> linearRegisterOrder(const LinearLayout &ll) {
  unsigned rank = unsigned(ll.numOutDims());
  std::vector<unsigned> order;
  for (auto &b : ll.basesOf("register"))
    for (unsigned d = 0; d < rank; ++d)
      if (b[d] != 0 && std::find(order.begin(), order.end(), d) == order.end())
        order.push_back(d);
  for (unsigned d : matrixOrder(rank, true))
    if (std::find(order.begin(), order.end(), d) == order.end())
      order.push_back(d);
  return order;
}

llvm::Expected<LinearLayout> linear(const Encoding &enc, const std::vector<int64_t> &shape) {
  const auto &e = *enc.as<LinearEncoding>();
  unsigned rank = unsigned(e.ll.numOutDims());
  if (rank != shape.size())
    return misfit(
        fmt::format("linear layout has rank {} but the shape has rank {}", rank, shape.size()));
  auto names = standardOutDimNames(int(rank));
  auto repNames = permuteNames(names, linearRegisterOrder(e.ll));
  auto l = e.ll.transposeOuts(repNames);
  auto labeled = labeledShape(shape);
  l = ensureLayoutNotSmallerThan(l, labeled);
  l = ensureLayoutNotLargerThan(l, labeled, /*broadcastRegisters=*/false);
  return l.transposeOuts(names);
}

unsigned rank(const Encoding &enc) { return unsigned(enc.as<LinearEncoding>()->ll.numOutDims()); }

unsigned warps(const Encoding &enc) {
  return 1u << enc.as<LinearEncoding>()->ll.inDimSizeLog2("warp");
}

bool isGeneric(const Encoding &enc) { return enc.as<LinearEncoding>()->generic; }
bool isPlain(const Encoding &enc) { return !isGeneric(enc); }

} // namespace

KindInfo linearKind() {
  return {.mnemonic = "linear",
          .gluonClass = "DistributedLinearLayout",
          .gluonFields = {"reg_bases", "lane_bases", "warp_bases", "block_bases", "shape"},
          .variant = variantIndexOf<LinearEncoding>(),
          .accepts = isPlain,
          .parseAttr = parseLinear,
          .print = print,
          .parseGluon = parseGluon,
          .emitGluon = emitGluon,
          .validate = validate,
          .linear = linear,
          .rank = rank,
          .warps = warps};
}

// Triton's generic form of the same layout: no Gluon class.
KindInfo genericLinearKind() {
  return {.mnemonic = "generic_linear",
          .variant = variantIndexOf<LinearEncoding>(),
          .accepts = isGeneric,
          .parseAttr = parseGenericLinear,
          .print = print,
          .emitGluon = emitGluon,
          .validate = validate,
          .linear = linear,
          .rank = rank,
          .warps = warps};
}

} // namespace tilexform::layout::kinds
