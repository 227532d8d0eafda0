// Small text helpers shared by the printers (attribute text, Gluon
// expressions, reports), so every list prints one way.
#pragma once

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace tilexform {

/// Calls `f(line, lineNo)` for each line of `text` (1-based numbers, a
/// trailing '\r' dropped), as the line-oriented readers of artifacts do.
template <class F> void forEachLine(llvm::StringRef text, F &&f) {
  unsigned lineNo = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    ++lineNo;
    f(line.rtrim('\r'), lineNo);
    text = rest;
  }
}

/// std::visit over several lambdas.
template <class... Ts> struct Overloaded : Ts... { using Ts::operator()...; };
template <class... Ts> Overloaded(Ts...) -> Overloaded<Ts...>;

/// `[1, 8]`
template <typename T> std::string listText(const std::vector<T> &v) {
  // By hand: every layout's canonical text is made of these lists.
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      out += ", ";
    if constexpr (std::is_integral_v<T>)
      out += std::to_string(v[i]);
    else
      out += v[i];
  }
  out += ']';
  return out;
}

/// `[[0, 1], [2, 0]]`
inline std::string basesText(const std::vector<std::vector<int32_t>> &bases) {
  std::vector<std::string> parts;
  for (auto &b : bases)
    parts.push_back(listText(b));
  return listText(parts);
}

/// `128x64`
inline std::string shapeText(const std::vector<int64_t> &shape) {
  return fmt::format("{}", fmt::join(shape, "x"));
}

} // namespace tilexform
