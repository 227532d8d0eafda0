// What the kinds' files share: Triton's small layout utilities on named
// dims and the printed CGA part.
#pragma once

#include "tilexform/layout/Encoding.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace tilexform::layout::detail {

[[noreturn]] void fail(const std::string &msg);
bool isPow2(int64_t v);
/// [rank-1, ..., 0], with the two minor dims swapped unless row-major.
std::vector<unsigned> matrixOrder(unsigned rank, bool rowMajor);
std::vector<std::string> permuteNames(const std::vector<std::string> &names,
                                      const std::vector<unsigned> &order);
std::vector<int32_t> toI32(const std::vector<unsigned> &v);
/// `, CGALayout = [[...]]` in an attribute, empty for one CTA.
std::string cgaSuffix(const CGALayout &cga);
bool anyNotOne(const std::vector<unsigned> &v);

// The validation rules' shared checks (Validate.cpp).
bool allPow2(const std::vector<unsigned> &v);
bool isPermutation(const std::vector<unsigned> &order, size_t rank);
/// The first non-empty message.
std::string firstError(std::initializer_list<std::string> checks);
/// `what` has one power-of-two entry per dim.
std::string checkCounts(const char *what, const std::vector<unsigned> &v, size_t rank);
std::string checkCga(const CGALayout &cga, size_t rank);

} // namespace tilexform::layout::detail
