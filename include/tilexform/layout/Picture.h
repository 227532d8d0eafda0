// A layout as a picture: the tensor as a grid of cells, one per element, each
// with every hardware location that holds it (block, warp, lane, register;
// or the shared-memory offset and its bank), and the SVG drawn from it.
//
// The cells are the same facts `layout --table` and `--view` print, taken
// from the linear layout; the drawing adds nothing to them but colour and
// place, so a test can read the picture back and compare it with the table.
#pragma once

#include "tilexform/layout/LinearLayout.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace tilexform::layout {

/// One place an element lives: a register of a lane of a warp (distributed
/// layouts) or an offset in shared memory (`offset` >= 0).
struct PictureOwner {
  int32_t block = 0, warp = 0, lane = 0, reg = 0;
  int32_t offset = -1;
  bool operator==(const PictureOwner &) const = default;
  auto operator<=>(const PictureOwner &) const = default;
};

struct PictureCell {
  std::vector<int32_t> element;     // coordinates, dim0 first
  std::vector<PictureOwner> owners; // in (block, warp, lane, register) order; replicas follow
};

/// A 1-D tensor wraps at this many elements per row; higher ranks put the
/// last dim across and every other dim down.
inline constexpr int64_t kPictureRowWrap = 64;
/// Past this many elements a picture is refused (a 256x256 tensor; the file
/// would be tens of megabytes and no one could read it).
inline constexpr int64_t kPictureMaxElements = int64_t(1) << 16;
/// Up to this many elements every cell carries its label (64x64).
inline constexpr int64_t kPictureMaxLabelled = 64 * 64;
/// Shared memory is drawn with 32 banks of 4 bytes.
inline constexpr int32_t kPictureBanks = 32;

struct LayoutPicture {
  bool shared = false;
  std::vector<int64_t> shape; // the tensor's
  int64_t rows = 0, cols = 0; // the grid
  int32_t blocks = 1, warps = 1, lanes = 1, registers = 1, offsets = 0;
  unsigned elementBits = 0;       // shared: the element width the banks are counted in
  std::vector<PictureCell> cells; // rows * cols, row-major (the element order)

  /// The thread id `--view` prints: lane + warp * lanes.
  int64_t thread(const PictureOwner &o) const { return int64_t(o.warp) * lanes + o.lane; }
  /// The 4-byte bank of a shared offset.
  int32_t bank(const PictureOwner &o) const;
  /// The cell's text as `--view` prints it (`T37:3`, replicas joined by `|`;
  /// shared: `o12 b6`).
  std::string label(const PictureCell &cell) const;
};

/// The picture of a linear layout (register/lane/warp/block or offset/block
/// to dim0..). `elementBits` counts banks for a shared layout (16 when 0).
/// Fails when the tensor has more than kPictureMaxElements elements.
llvm::Expected<LayoutPicture> pictureOf(const LinearLayout &ll, unsigned elementBits = 0);

/// Indices of the cells whose owners differ between two pictures of one
/// shape (every cell when the shapes differ).
std::set<int64_t> differingCells(const LayoutPicture &a, const LayoutPicture &b);

/// What an SVG shows besides the cells.
struct SvgOptions {
  std::string title;             // the layout's text
  std::string subtitle;          // the Gluon constructor
  std::set<int64_t> highlighted; // cells outlined as differing
  std::string idPrefix;          // keeps ids unique when several SVGs share a page
  bool standalone = true;        // an XML declaration and xmlns (a file of its own)
};

/// The picture as SVG: a title, a legend (warp colours, or banks), and the
/// grid with one `<rect class="cell">` per element carrying its element and
/// owners as data attributes; labels past kPictureMaxLabelled elements are
/// left out and the colours kept. Deterministic bytes.
std::string renderSvg(const LayoutPicture &picture, const SvgOptions &options);

/// The fill of a warp (distributed) or bank (shared): a fixed colour-blind
/// safe palette (Okabe and Ito's eight), lighter for warps 8..15, and so on.
std::string pictureColor(int32_t index);

/// Text escaped for XML character data and attribute values.
std::string xmlEscape(const std::string &text);

} // namespace tilexform::layout
