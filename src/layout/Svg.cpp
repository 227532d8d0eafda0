// A layout picture as SVG: integer geometry, a fixed palette and attributes
// in a fixed order, so the same picture is always the same bytes.
#include "tilexform/layout/Picture.h"

#include <fmt/format.h>

#include <algorithm>

namespace tilexform::layout {

namespace {

// Okabe and Ito's colour-blind safe palette (black left out: labels are black).
constexpr const char *kPalette[] = {"#E69F00", "#56B4E9", "#009E73", "#F0E442",
                                    "#0072B2", "#D55E00", "#CC79A7", "#BBBBBB"};
constexpr int kPaletteSize = 8;

constexpr int kMargin = 12, kTitleLine = 16, kTitleChars = 120, kHeader = 28;
constexpr int kLabelledW = 52, kLabelledH = 20, kPlainW = 8, kPlainH = 8;

std::vector<std::string> wrapped(const std::string &text) {
  // Lines of kTitleChars bytes, never cut inside a UTF-8 sequence (a cut
  // one would be two invalid halves).
  std::vector<std::string> lines;
  for (size_t i = 0; i < text.size();) {
    size_t end = std::min(text.size(), i + kTitleChars);
    size_t cut = end;
    while (cut > i && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
      --cut;
    if (cut == i)
      cut = end;
    lines.push_back(text.substr(i, cut - i));
    i = cut;
  }
  return lines;
}

std::string ownerText(const LayoutPicture &p, const PictureOwner &o) {
  if (p.shared)
    return fmt::format("B{}:O{}", o.block, o.offset);
  return fmt::format("B{}:W{}:T{}:R{}", o.block, o.warp, o.lane, o.reg);
}

std::string elementText(const PictureCell &c) {
  return fmt::format("{}", fmt::join(c.element, ","));
}

} // namespace

namespace {

/// The length of the well-formed UTF-8 sequence at `s[i]` and its code
/// point, or 0 when the bytes there are not one (a stray continuation
/// byte, an overlong form, a surrogate, past U+10FFFF, or cut short).
size_t utf8Sequence(const std::string &s, size_t i, uint32_t &cp) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b = at(i);
  size_t len = b >= 0xC2 && b <= 0xDF   ? 2
               : b >= 0xE0 && b <= 0xEF ? 3
               : b >= 0xF0 && b <= 0xF4 ? 4
                                        : 0;
  if (len == 0 || i + len > s.size())
    return 0;
  unsigned char lo = 0x80, hi = 0xBF; // the second byte's range
  if (b == 0xE0)
    lo = 0xA0;
  else if (b == 0xED)
    hi = 0x9F; // U+D800..U+DFFF are surrogates, not characters
  else if (b == 0xF0)
    lo = 0x90;
  else if (b == 0xF4)
    hi = 0x8F;
  if (at(i + 1) < lo || at(i + 1) > hi)
    return 0;
  for (size_t k = 2; k < len; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xBF)
      return 0;
  cp = len == 2 ? b & 0x1F : len == 3 ? b & 0x0F : b & 0x07;
  for (size_t k = 1; k < len; ++k)
    cp = (cp << 6) | (at(i + k) & 0x3F);
  return len;
}

/// Whether a code point may stand in XML 1.0 and HTML text: not a control
/// other than tab, line feed and carriage return (C0, DEL, C1), not a
/// noncharacter (U+FDD0..U+FDEF, U+xxFFFE and U+xxFFFF).
bool allowedInMarkup(uint32_t cp) {
  if (cp < 0x20)
    return cp == '\t' || cp == '\n' || cp == '\r';
  if (cp >= 0x7F && cp <= 0x9F)
    return false;
  if (cp >= 0xFDD0 && cp <= 0xFDEF)
    return false;
  return (cp & 0xFFFE) != 0xFFFE;
}

} // namespace

std::string xmlEscape(const std::string &text) {
  // What cannot stand in the page becomes U+FFFD, the replacement character:
  // the page stays well-formed whatever bytes the input held.
  constexpr const char *kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    switch (c) {
    case '&':
      out += "&amp;";
      ++i;
      continue;
    case '<':
      out += "&lt;";
      ++i;
      continue;
    case '>':
      out += "&gt;";
      ++i;
      continue;
    case '"':
      out += "&quot;";
      ++i;
      continue;
    default:
      break;
    }
    uint32_t cp = static_cast<unsigned char>(c);
    size_t len = cp < 0x80 ? 1 : utf8Sequence(text, i, cp);
    if (len == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (allowedInMarkup(cp))
      out.append(text, i, len);
    else
      out += kReplacement;
    i += len;
  }
  return out;
}

std::string pictureColor(int32_t index) {
  if (index < 0)
    return "#FFFFFF";
  const char *base = kPalette[index % kPaletteSize];
  int tint = (index / kPaletteSize) % 4; // 0: the colour, 1..3: mixed towards white
  if (tint == 0)
    return base;
  auto channel = [&](int at) {
    int v = std::stoi(std::string(base + at, 2), nullptr, 16);
    return v + (255 - v) * tint / 4;
  };
  return fmt::format("#{:02X}{:02X}{:02X}", channel(1), channel(3), channel(5));
}

std::string renderSvg(const LayoutPicture &p, const SvgOptions &options) {
  int64_t elements = int64_t(p.cells.size());
  bool labels = elements <= kPictureMaxLabelled;
  int cw = labels ? kLabelledW : kPlainW, ch = labels ? kLabelledH : kPlainH;
  const std::string &id = options.idPrefix;

  std::vector<std::string> title = wrapped(options.title), subtitle = wrapped(options.subtitle);
  int64_t keys = p.shared ? kPictureBanks : int64_t(p.warps);
  int legendCols = 8;
  int64_t legendRows = (keys + legendCols - 1) / legendCols;
  int64_t textLines = int64_t(title.size() + subtitle.size()) + 1; // + the summary line
  int64_t gridTop = kMargin + textLines * kTitleLine + 8 + legendRows * 18 + 8 + kHeader;
  int64_t gridLeft = kMargin + 40;
  int64_t width =
      std::max<int64_t>(gridLeft + p.cols * cw + kMargin, kMargin * 2 + int64_t(kTitleChars) * 7);
  int64_t height = gridTop + p.rows * ch + kMargin;

  std::string out;
  out.reserve(size_t(elements) * (labels ? 220 : 150) + 4096);
  if (options.standalone)
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"layout-picture\" "
                     "width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
                     "aria-labelledby=\"{2}title\" data-shape=\"{3}\" data-kind=\"{4}\" "
                     "data-elements=\"{5}\" data-labelled=\"{6}\">\n",
                     width, height, id, fmt::join(p.shape, "x"),
                     p.shared ? "shared" : "distributed", elements, labels ? "true" : "false");
  out += fmt::format("<title id=\"{}title\">{}</title>\n", id, xmlEscape(options.title));
  out += "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#FFFFFF\"/>\n";
  out += "<g font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" fill=\"#000000\">\n";
  int64_t y = kMargin + 12;
  for (auto &line : title) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\">{}</text>\n",
                       kMargin, y, xmlEscape(line));
    y += kTitleLine;
  }
  for (auto &line : subtitle) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>\n", kMargin, y,
                       xmlEscape(line));
    y += kTitleLine;
  }
  std::string summary =
      p.shared
          ? fmt::format("shape {}: {} offsets x {} blocks; bank = (offset x {} bits / 32) "
                        "mod {}; a bank repeated in a row is a conflict",
                        fmt::join(p.shape, "x"), p.offsets, p.blocks,
                        p.elementBits ? p.elementBits : 16, kPictureBanks)
          : fmt::format("shape {}: {} registers x {} lanes x {} warps x {} blocks; "
                        "cell T<thread>:<register>, thread = warp x {} + lane; colour: warp",
                        fmt::join(p.shape, "x"), p.registers, p.lanes, p.warps, p.blocks, p.lanes);
  if (!labels)
    summary += fmt::format("; labels left out past {} elements", kPictureMaxLabelled);
  if (p.shape.size() == 1 && p.shape[0] > kPictureRowWrap)
    summary += fmt::format("; {} elements per row", kPictureRowWrap);
  else if (p.shape.size() > 2)
    summary += "; rows are every dim but the last";
  out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", kMargin, y,
                     xmlEscape(summary));
  y += 8;

  // The legend: one swatch per warp (or bank).
  out += "<g class=\"legend\" font-size=\"10\">\n";
  for (int64_t k = 0; k < keys; ++k) {
    int64_t lx = kMargin + (k % legendCols) * 90, ly = y + (k / legendCols) * 18;
    out += fmt::format("<rect class=\"swatch\" data-{}=\"{}\" x=\"{}\" y=\"{}\" width=\"14\" "
                       "height=\"14\" fill=\"{}\" stroke=\"#000000\"/><text x=\"{}\" y=\"{}\">"
                       "{} {}</text>\n",
                       p.shared ? "bank" : "warp", k, lx, ly, pictureColor(int32_t(k)), lx + 18,
                       ly + 11, p.shared ? "bank" : "warp", k);
  }
  out += "</g>\n";

  // Column and row indices: every one with labels, else every eighth.
  int64_t step = labels ? 1 : 8;
  out += "<g class=\"axes\" font-size=\"9\" fill=\"#444444\">\n";
  for (int64_t c = 0; c < p.cols; c += step)
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       gridLeft + c * cw + cw / 2, gridTop - 6, c);
  for (int64_t r = 0; r < p.rows; r += step)
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", gridLeft - 4,
                       gridTop + r * ch + ch / 2 + 3, p.shape.size() == 1 ? r * p.cols : r);
  out += "</g>\n";

  out += "<g class=\"cells\" stroke=\"#FFFFFF\" stroke-width=\"1\">\n";
  for (int64_t i = 0; i < elements; ++i) {
    const PictureCell &c = p.cells[size_t(i)];
    int64_t x = gridLeft + (i % p.cols) * cw, yy = gridTop + (i / p.cols) * ch;
    std::string owners;
    for (auto &o : c.owners) {
      if (!owners.empty())
        owners += ' ';
      owners += ownerText(p, o);
    }
    int32_t key = c.owners.empty() ? -1 : p.shared ? p.bank(c.owners[0]) : c.owners[0].warp;
    bool differs = options.highlighted.count(i) != 0;
    out += fmt::format("<rect class=\"cell{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                       "fill=\"{}\"{} data-element=\"{}\" data-owners=\"{}\"",
                       differs ? " differs" : "", x, yy, cw, ch, pictureColor(key),
                       differs ? " stroke=\"#000000\" stroke-width=\"3\"" : "", elementText(c),
                       owners);
    if (!c.owners.empty()) {
      auto &o = c.owners[0];
      if (p.shared)
        out += fmt::format(" data-offset=\"{}\" data-bank=\"{}\"", o.offset, p.bank(o));
      else
        out += fmt::format(" data-warp=\"{}\" data-lane=\"{}\" data-register=\"{}\"", o.warp,
                           o.lane, o.reg);
    }
    if (labels)
      out += fmt::format("><title>[{}] {}</title></rect>\n", elementText(c), xmlEscape(p.label(c)));
    else
      out += "/>\n";
  }
  out += "</g>\n";

  if (labels) {
    out += "<g class=\"labels\" font-size=\"8\" text-anchor=\"middle\" pointer-events=\"none\">\n";
    for (int64_t i = 0; i < elements; ++i) {
      const PictureCell &c = p.cells[size_t(i)];
      std::string text = p.label(c);
      // Replicas: the first holder and how many more (all of them in the title).
      if (c.owners.size() > 1) {
        PictureCell first{c.element, {c.owners[0]}};
        text = p.label(first) + fmt::format(" +{}", c.owners.size() - 1);
      }
      out +=
          fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", gridLeft + (i % p.cols) * cw + cw / 2,
                      gridTop + (i / p.cols) * ch + ch / 2 + 3, xmlEscape(text));
    }
    out += "</g>\n";
  }
  out += "</g>\n</svg>\n";
  return out;
}

} // namespace tilexform::layout
