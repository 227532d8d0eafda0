// slice: a distributed layout with one dim of its parent removed
// (src/layout/kinds/Slice.cpp).
#pragma once

#include <memory>

namespace tilexform::layout {

struct Encoding;
using EncodingPtr = std::shared_ptr<const Encoding>;

struct SliceEncoding {
  unsigned dim = 0;
  EncodingPtr parent;
  bool operator==(const SliceEncoding &o) const;
};

} // namespace tilexform::layout
