#include "tilexform/layout/View.h"

#include <algorithm>

namespace tilexform::layout {

namespace {

std::vector<int64_t> delinearize(int64_t idx, const std::vector<int64_t> &shape) {
  std::vector<int64_t> out(shape.size());
  for (int i = int(shape.size()) - 1; i >= 0; --i) {
    out[i] = idx % shape[i];
    idx /= shape[i];
  }
  return out;
}

/// Spaces that right-align `value` to the width of `max` (Triton pads to
/// the digits of the count, not of the largest index).
int padding(int64_t value, int64_t max) {
  return int(std::to_string(max).size()) - int(std::to_string(value).size());
}

std::string padded(int64_t value, int64_t max) {
  return std::string(std::max(0, padding(value, max)), ' ') + std::to_string(value);
}

int32_t inSize(const LinearLayout &ll, const std::string &name) {
  auto ins = ll.inDimNames();
  return std::find(ins.begin(), ins.end(), name) == ins.end() ? 1 : ll.inDimSize(name);
}

std::vector<int64_t> outShape(const LinearLayout &ll) {
  std::vector<int64_t> shape;
  for (auto &n : ll.outDimNames())
    shape.push_back(ll.outDimSize(n));
  return shape;
}

/// The tensor as nested brackets, one innermost row per line.
std::string grid(const std::vector<std::string> &cells, const std::vector<int64_t> &shape,
                 const char *separator) {
  std::string out;
  int rank = int(shape.size());
  bool newLine = true;
  int64_t size = int64_t(cells.size());
  for (int64_t i = 0; i < size; ++i) {
    auto idx = delinearize(i, shape);
    int open = 0;
    for (int j = rank - 1; j >= 0 && idx[j] == 0; --j) {
      out += '[';
      ++open;
    }
    if (newLine) {
      out.append(size_t(rank - open), ' ');
      newLine = false;
    }
    out += cells[size_t(i)];
    auto next = delinearize(i + 1, shape);
    for (int j = rank - 1; j >= 0 && next[j] == 0; --j)
      out += ']';
    if (next.back() == 0) {
      out += '\n';
      newLine = true;
    } else {
      out += separator;
    }
  }
  return out;
}

} // namespace

std::string distributedView(const LinearLayout &ll, bool hwView) {
  auto shape = outShape(ll);
  int64_t size = 1;
  for (int64_t d : shape)
    size *= d;
  int32_t lanes = inSize(ll, "lane"), warps = inSize(ll, "warp"), blocks = inSize(ll, "block"),
          regs = inSize(ll, "register");
  std::vector<std::string> cells(static_cast<size_t>(size));
  std::vector<std::string> threadCells;
  auto outs = ll.outDimNames();
  for (int32_t b = 0; b < blocks; ++b)
    for (int32_t w = 0; w < warps; ++w)
      for (int32_t t = 0; t < lanes; ++t)
        for (int32_t r = 0; r < regs; ++r) {
          auto coords = ll.apply({{"block", b}, {"warp", w}, {"lane", t}, {"register", r}});
          int64_t linear = 0, stride = 1;
          for (int i = int(coords.size()) - 1; i >= 0; --i) {
            linear += coords[size_t(i)].second * stride;
            stride *= shape[size_t(i)];
          }
          std::string &cell = cells[size_t(linear)];
          if (!cell.empty())
            cell += '|';
          int64_t thread = int64_t(t) + int64_t(w) * lanes;
          int pad = padding(b, blocks) + padding(thread, int64_t(warps) * lanes) + padding(r, regs);
          cell.append(size_t(std::max(0, pad)), ' ');
          if (blocks > 1)
            cell += "B" + std::to_string(b) + ":";
          cell += "T" + std::to_string(thread) + ":" + std::to_string(r);
          if (hwView) {
            std::string info = "(";
            for (size_t i = 0; i < coords.size(); ++i)
              info += (i ? "," : "") + padded(coords[i].second, shape[i]);
            threadCells.push_back(info + ")");
          }
        }
  if (!hwView)
    return grid(cells, shape, ", ");
  std::string out;
  for (int32_t b = 0; b < blocks; ++b) {
    if (blocks > 1)
      out += "Block" + std::to_string(b) + ":\n";
    for (int32_t w = 0; w < warps; ++w) {
      out += "Warp" + std::to_string(w) + ":\n";
      for (int32_t r = 0; r < regs; ++r) {
        for (int32_t t = 0; t < lanes; ++t) {
          size_t at = ((size_t(b) * warps + w) * lanes + t) * regs + r;
          out += threadCells[at];
          if (t < lanes - 1)
            out += ", ";
        }
        out += '\n';
      }
    }
  }
  return out;
}

std::string sharedView(const LinearLayout &ll, bool hwView) {
  auto shape = outShape(ll);
  int64_t size = 1;
  for (int64_t d : shape)
    size *= d;
  int32_t blocks = inSize(ll, "block");
  int64_t perBlock = size / blocks;
  std::vector<std::string> cells(static_cast<size_t>(size));
  std::vector<std::string> offsetCells;
  size_t idx = 0;
  for (int32_t b = 0; b < blocks; ++b)
    for (int64_t o = 0; o < perBlock; ++o, ++idx) {
      auto coords = ll.apply({{"block", b}, {"offset", int32_t(o)}});
      std::string hw = "(", &cell = cells[idx];
      if (!cell.empty())
        cell += '|';
      cell += '(';
      for (size_t i = 0; i < coords.size(); ++i) {
        std::string v = padded(coords[i].second, shape[i]);
        hw += (i ? "," : "") + v;
        cell += (i ? ":" : "") + v;
      }
      cell += ')';
      offsetCells.push_back(hw + ")");
    }
  if (!hwView)
    return grid(cells, shape, ",");
  std::string out;
  idx = 0;
  for (int32_t b = 0; b < blocks; ++b) {
    out += "Block: " + std::to_string(b) + ":\n";
    for (int64_t o = 0; o < perBlock; ++o)
      out += "Offset: " + std::to_string(o) + " -> " + offsetCells[idx++] + "\n";
  }
  return out;
}

std::string layoutView(const LinearLayout &ll, bool hwView) {
  auto ins = ll.inDimNames();
  bool shared = std::find(ins.begin(), ins.end(), "offset") != ins.end();
  return shared ? sharedView(ll, hwView) : distributedView(ll, hwView);
}

} // namespace tilexform::layout
