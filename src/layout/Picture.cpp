// The picture model: every element of a layout's tensor with the hardware
// locations that hold it, read from the linear layout in the order
// `layout --view` and `--table` walk it.
#include "tilexform/layout/Picture.h"

#include <fmt/format.h>

#include <algorithm>

namespace tilexform::layout {

namespace {

int32_t inSize(const LinearLayout &ll, const std::string &name) {
  return ll.hasInDim(name) ? ll.inDimSize(name) : 1;
}

llvm::Error pictureError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", message.c_str());
}

} // namespace

int32_t LayoutPicture::bank(const PictureOwner &o) const {
  unsigned bits = elementBits ? elementBits : 16;
  return int32_t((int64_t(o.offset) * bits / 32) % kPictureBanks);
}

std::string LayoutPicture::label(const PictureCell &cell) const {
  if (cell.owners.empty())
    return "-";
  std::string out;
  for (auto &o : cell.owners) {
    if (!out.empty())
      out += '|';
    if (blocks > 1)
      out += fmt::format("B{}:", o.block);
    if (shared)
      out += fmt::format("o{} b{}", o.offset, bank(o));
    else
      out += fmt::format("T{}:{}", thread(o), o.reg);
  }
  return out;
}

llvm::Expected<LayoutPicture> pictureOf(const LinearLayout &ll, unsigned elementBits) {
  LayoutPicture p;
  p.shared = ll.hasInDim("offset");
  p.elementBits = elementBits;
  int64_t elements = 1;
  for (auto &[name, size] : ll.outDims()) {
    p.shape.push_back(size);
    elements *= size;
    if (elements > kPictureMaxElements)
      return pictureError(fmt::format("the tensor has more than {} elements, too many to draw; "
                                      "draw a smaller shape",
                                      kPictureMaxElements));
  }
  p.blocks = inSize(ll, "block");
  if (p.shared) {
    p.offsets = inSize(ll, "offset");
  } else {
    p.warps = inSize(ll, "warp");
    p.lanes = inSize(ll, "lane");
    p.registers = inSize(ll, "register");
  }
  // A broadcast layout holds each element many times: bound the walk too.
  // Each count is below 2^31; their product may pass 2^63, so it is checked.
  int64_t locations = 1;
  bool tooMany = false;
  const int64_t counts[] = {p.blocks, p.shared ? p.offsets : p.warps, p.shared ? 1 : p.lanes,
                            p.shared ? 1 : p.registers};
  for (int64_t n : counts)
    tooMany = tooMany || __builtin_mul_overflow(locations, n, &locations) ||
              locations > kPictureMaxElements * 1024;
  if (tooMany)
    return pictureError(fmt::format("the layout has more than {} hardware locations, too many "
                                    "to draw",
                                    kPictureMaxElements * 1024));

  p.cols = p.shape.size() == 1 ? std::min<int64_t>(p.shape[0], kPictureRowWrap)
           : p.shape.empty()   ? 1
                               : p.shape.back();
  p.cols = std::max<int64_t>(p.cols, 1);
  p.rows = (elements + p.cols - 1) / p.cols;
  p.cells.resize(size_t(elements));
  for (int64_t i = 0; i < elements; ++i) {
    auto &e = p.cells[size_t(i)].element;
    e.resize(p.shape.size());
    int64_t rem = i;
    for (int d = int(p.shape.size()) - 1; d >= 0; --d) {
      e[size_t(d)] = int32_t(rem % p.shape[size_t(d)]);
      rem /= p.shape[size_t(d)];
    }
  }
  auto place = [&](const std::vector<std::pair<std::string, int32_t>> &coords,
                   const PictureOwner &o) {
    int64_t linear = 0;
    for (size_t d = 0; d < coords.size(); ++d)
      linear = linear * p.shape[d] + coords[d].second;
    p.cells[size_t(linear)].owners.push_back(o);
  };
  for (int32_t b = 0; b < p.blocks; ++b) {
    if (p.shared) {
      for (int32_t off = 0; off < p.offsets; ++off)
        place(ll.apply({{"block", b}, {"offset", off}}), PictureOwner{b, 0, 0, 0, off});
      continue;
    }
    for (int32_t w = 0; w < p.warps; ++w)
      for (int32_t t = 0; t < p.lanes; ++t)
        for (int32_t r = 0; r < p.registers; ++r)
          place(ll.apply({{"block", b}, {"warp", w}, {"lane", t}, {"register", r}}),
                PictureOwner{b, w, t, r, -1});
  }
  return p;
}

std::set<int64_t> differingCells(const LayoutPicture &a, const LayoutPicture &b) {
  std::set<int64_t> out;
  bool sameShape = a.shape == b.shape && a.shared == b.shared;
  for (size_t i = 0; i < a.cells.size(); ++i) {
    if (!sameShape) {
      out.insert(int64_t(i));
      continue;
    }
    auto x = a.cells[i].owners, y = b.cells[i].owners;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    if (x != y)
      out.insert(int64_t(i));
  }
  return out;
}

} // namespace tilexform::layout
