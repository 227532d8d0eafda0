// dot_op: an operand of a dot whose result has the parent layout
// (src/layout/kinds/DotOperand.cpp).
#pragma once

#include <memory>

namespace tilexform::layout {

struct Encoding;
using EncodingPtr = std::shared_ptr<const Encoding>;

struct DotOperandEncoding {
  unsigned opIdx = 0;
  EncodingPtr parent;
  unsigned kWidth = 0;
  bool operator==(const DotOperandEncoding &o) const;
};

} // namespace tilexform::layout
