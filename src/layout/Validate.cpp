#include "tilexform/layout/Validate.h"
#include "tilexform/layout/Kind.h"

#include "KindSupport.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <fmt/format.h>

namespace tilexform::layout {

namespace detail {

bool allPow2(const std::vector<unsigned> &v) {
  return std::all_of(v.begin(), v.end(), [](unsigned x) { return isPow2(x); });
}

bool isPermutation(const std::vector<unsigned> &order, size_t rank) {
  if (order.size() != rank)
    return false;
  std::vector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

/// The first non-empty message.
std::string firstError(std::initializer_list<std::string> checks) {
  for (auto &c : checks)
    if (!c.empty())
      return c;
  return "";
}

std::string checkCounts(const char *what, const std::vector<unsigned> &v, size_t rank) {
  if (v.size() != rank)
    return fmt::format("{} has {} entries for a rank-{} layout", what, v.size(), rank);
  if (!allPow2(v))
    return fmt::format("{} entries must be powers of two", what);
  return "";
}

std::string checkCga(const CGALayout &cga, size_t rank) {
  for (auto &b : cga.bases) {
    if (b.size() != rank)
      return "CGALayout bases must have one entry per dim";
    for (auto x : b)
      if (x < 0 || (x != 0 && !isPow2(x)))
        return "CGALayout bases must be zero or powers of two";
  }
  return "";
}

std::string checkSwizzle(unsigned vec, unsigned perPhase, unsigned maxPhase,
                         const std::vector<unsigned> &order, const CGALayout &cga) {
  size_t r = order.size();
  if (r == 0 || vec == 0 || perPhase == 0 || maxPhase == 0)
    return "shared layout needs vec, perPhase, maxPhase (>= 1) and order";
  if (!isPermutation(order, r))
    return "shared order must be a permutation of the dims";
  if (!isPow2(vec) || !isPow2(perPhase) || !isPow2(maxPhase))
    return "vec, perPhase and maxPhase must be powers of two";
  return checkCga(cga, r);
}

} // namespace detail

std::string validateEncoding(const Encoding &enc) {
  if (const KindInfo *kind = kindOf(enc))
    return kind->validate(enc);
  return ""; // kept by its text: nothing of it is checked
}

std::string validateBasesRank(const std::vector<const Bases *> &all, unsigned &rank) {
  rank = 0;
  for (auto *b : all)
    if (b && !b->empty()) {
      rank = unsigned((*b)[0].size());
      break;
    }
  for (auto *b : all)
    if (b)
      for (auto &v : *b)
        if (v.size() != rank)
          return "all bases must have the same length";
  return "";
}

} // namespace tilexform::layout
