// verify's and recover's HTML pages. Everything the page shows is inline
// (CSS, SVG); the Content-Security-Policy forbids every fetch, so a page
// that renders is a page that needed nothing from the network.
#include "tilexform/cli/HtmlReport.h"

#include "tilexform/layout/Picture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace tilexform::cli {

namespace {

using layout::xmlEscape;

constexpr size_t kSitesShown = 8;

constexpr const char *kStyle = R"(
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 1.5em; color: #111; }
code, .mono { font-family: DejaVu Sans Mono, Menlo, Consolas, monospace; font-size: 0.9em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #999; }
h3 { font-size: 1.05em; }
.verdict { padding: 0.1em 0.5em; border: 2px solid #000; font-weight: bold; }
.verdict-PASS, .verdict-RECOVERED, .verdict-EXACT { background: #009E73; color: #fff; }
.verdict-RECONCILED { background: #56B4E9; }
.verdict-FAIL, .verdict-DIFFERS, .verdict-UNRECOVERABLE, .verdict-NUM_WARPS_MISMATCH { background: #D55E00; color: #fff; }
.verdict-NOT_COMPARABLE { background: #F0E442; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #eee; }
td code { word-break: break-all; }
ul.sites { margin: 0; padding-left: 1.2em; }
.pair { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
figure { margin: 0; overflow-x: auto; max-width: 100%; }
figcaption { font-weight: bold; margin-bottom: 0.3em; }
.fix { background: #fff6d5; border-left: 4px solid #E69F00; padding: 0.3em 0.6em; }
.note { color: #444; }
)";

std::string pageStart(const std::string &title) {
  return fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "style-src 'unsafe-inline'\"/>\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
                     "<meta name=\"generator\" content=\"tilexform\"/>\n"
                     "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
                     xmlEscape(title), kStyle);
}

constexpr const char *kPageEnd = "</body>\n</html>\n";

std::string verdictSpan(Verdict v, const char *id = nullptr) {
  std::string name = std::string(verdictName(v));
  return fmt::format("<span class=\"verdict verdict-{0}\"{1} data-verdict=\"{0}\">{0}</span>", name,
                     id ? fmt::format(" id=\"{}\"", id) : "");
}

std::string code(const std::string &text) { return "<code>" + xmlEscape(text) + "</code>"; }

std::string shapeText(const std::vector<int64_t> &shape) {
  return shape.empty() ? "scalar" : fmt::format("{}", fmt::join(shape, "x"));
}

/// The width of an element type as the dump spells it (f16, bf16, f8E4M3FN, i1).
unsigned elementBitsOf(const std::string &type) {
  size_t i = 0;
  while (i < type.size() && std::isalpha(static_cast<unsigned char>(type[i])))
    ++i;
  unsigned bits = 0;
  for (; i < type.size() && std::isdigit(static_cast<unsigned char>(type[i])) && bits < 1024; ++i)
    bits = bits * 10 + unsigned(type[i] - '0');
  return bits;
}

std::string sitesHtml(const std::vector<analysis::UseSite> &sites, size_t total) {
  if (sites.empty())
    return "<span class=\"note\">no use site</span>";
  std::string out = "<ul class=\"sites\">";
  for (size_t i = 0; i < sites.size() && i < kSitesShown; ++i) {
    auto &s = sites[i];
    out += fmt::format("<li>{} {}, line {}", code(s.op), xmlEscape(s.position), s.line);
    if (s.source.line)
      out += fmt::format(", <span class=\"loc mono\">{}:{}</span>", xmlEscape(s.source.file),
                         s.source.line);
    if (!s.source.name.empty())
      out += fmt::format(" ({})", code(s.source.name));
    out += "</li>";
  }
  if (total > kSitesShown)
    out += fmt::format("<li class=\"note\">and {} more</li>", total - kSitesShown);
  return out + "</ul>";
}

struct Drawn {
  std::optional<layout::LayoutPicture> picture;
  std::string why; // when there is no picture
};

/// The pictures of one page: at most kPagePictureBytes of SVG in all, as
/// `layout --svg` bounds one picture. Each layout is drawn in page order
/// until the next picture would pass the bound; from there on every figure
/// says it was left out, and the page says how many were.
constexpr size_t kPagePictureBytes = size_t(32) << 20;

struct PictureBudget {
  size_t used = 0;    // bytes of SVG on the page
  size_t leftOut = 0; // figures not drawn for the bound
  bool full = false;  // no more pictures on this page
};

std::string leftOutWhy() {
  return fmt::format("this page already holds {} MiB of pictures, its bound; "
                     "`tilexform layout --type TYPE --svg FILE` draws this layout alone",
                     kPagePictureBytes >> 20);
}

/// The line that says how many pictures the bound left out ("" when none).
std::string leftOutNote(const PictureBudget &budget, size_t figures) {
  if (!budget.leftOut)
    return "";
  return fmt::format("<p class=\"note\" id=\"pictures-left-out\" data-left-out=\"{}\">"
                     "{} of {} pictures are not drawn: a page holds at most {} MiB of pictures. "
                     "<code>tilexform layout --type TYPE --svg FILE</code> draws any one of them."
                     "</p>\n",
                     budget.leftOut, budget.leftOut, figures, kPagePictureBytes >> 20);
}

Drawn draw(const layout::EncodingPtr &enc, const std::vector<int64_t> &shape, unsigned bits) {
  Drawn d;
  if (!enc) {
    d.why = "no layout";
    return d;
  }
  auto ll = layout::linearLayoutAt(*enc, layout::bufferShape(*enc, shape));
  if (!ll) {
    d.why = llvm::toString(ll.takeError());
    return d;
  }
  auto picture = layout::pictureOf(*ll, bits);
  if (picture)
    d.picture = std::move(*picture);
  else
    d.why = llvm::toString(picture.takeError());
  return d;
}

std::string figure(const std::string &caption, const Drawn &d, const std::string &title,
                   const std::string &subtitle, const std::set<int64_t> &highlighted,
                   const std::string &id, PictureBudget &budget) {
  std::string out =
      fmt::format("<figure id=\"{}\"><figcaption>{}</figcaption>\n", id, xmlEscape(caption));
  std::string why = d.why;
  if (d.picture && !budget.full) {
    layout::SvgOptions o;
    o.title = title;
    o.subtitle = subtitle;
    o.highlighted = highlighted;
    o.idPrefix = id + "-";
    o.standalone = false;
    std::string svg = layout::renderSvg(*d.picture, o);
    if (svg.size() <= kPagePictureBytes - budget.used) {
      budget.used += svg.size();
      return out + svg + "</figure>\n";
    }
    budget.full = true;
  }
  if (budget.full && (d.picture || why == "left out")) {
    ++budget.leftOut;
    why = leftOutWhy();
  }
  out += fmt::format("<p class=\"note\">not drawn: {}</p>\n", xmlEscape(why));
  return out + "</figure>\n";
}

/// A layout's picture, unless the page's pictures are full already (then
/// nothing is worked out for it).
Drawn drawWithin(const PictureBudget &budget, const layout::EncodingPtr &enc,
                 const std::vector<int64_t> &shape, unsigned bits) {
  if (budget.full && enc)
    return Drawn{std::nullopt, "left out"};
  return draw(enc, shape, bits);
}

std::string gluonText(const std::optional<std::string> &g) {
  return g ? code(*g) : std::string("<span class=\"note\">no Gluon constructor</span>");
}

std::string rolesText(const std::vector<std::string> &roles) {
  return roles.empty() ? "elementwise" : xmlEscape(fmt::format("{}", fmt::join(roles, ", ")));
}

unsigned bitsOfSites(const std::vector<analysis::UseSite> &sites) {
  return sites.empty() ? 0 : elementBitsOf(sites.front().elementType);
}

std::string usesTable(const char *id, const std::vector<const analysis::LayoutUse *> &uses,
                      const std::vector<std::string> &notes, const char *noteHeader) {
  if (uses.empty())
    return "<p class=\"note\">none</p>\n";
  std::string out = fmt::format("<table id=\"{}\"><tr><th>layout</th><th>kind</th><th>shape</th>"
                                "<th>memory</th><th>roles</th><th>use sites</th>{}</tr>\n",
                                id, noteHeader ? fmt::format("<th>{}</th>", noteHeader) : "");
  for (size_t i = 0; i < uses.size(); ++i) {
    auto &u = *uses[i];
    out += fmt::format("<tr><td>{}<br/>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}"
                       "</td>{}</tr>\n",
                       code(u.attr), gluonText(u.gluon), xmlEscape(u.kind), shapeText(u.shape),
                       xmlEscape(u.memory), rolesText(u.roles), sitesHtml(u.sites, u.sites.size()),
                       noteHeader ? "<td>" + notes[i] + "</td>" : "");
  }
  return out + "</table>\n";
}

std::string sharedLine(const char *who, const analysis::SharedSummary &s) {
  return fmt::format(
      "<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td></tr>\n", who, s.peakBytes, s.declaredBytes,
      s.capacity ? fmt::format("{} ({})", s.capacity->value, xmlEscape(s.capacity->source))
                 : xmlEscape("unknown: " + s.capacityNote));
}

/// Bytes live over the dump's lines: one bar per allocation and the sum.
std::string sharedTimeline(const analysis::SharedSummary &s) {
  if (s.allocations.empty())
    return "<p class=\"note\">no shared-memory allocation</p>\n";
  unsigned first = s.allocations.front().firstLine, last = first;
  for (auto &a : s.allocations) {
    first = std::min({first, a.firstLine, a.line});
    last = std::max({last, a.lastLine, a.line});
  }
  int64_t span = std::max<int64_t>(int64_t(last) - first, 1);
  constexpr int64_t left = 220, plotW = 760, barH = 16, chartH = 100;
  int64_t bars = int64_t(s.allocations.size());
  int64_t top = 30, barsTop = top + chartH + 30, height = barsTop + bars * (barH + 4) + 30;
  int64_t width = left + plotW + 20;
  auto xOf = [&](int64_t line) { return left + (line - first) * plotW / span; };
  // The live sum between consecutive boundaries.
  std::set<int64_t> edges;
  for (auto &a : s.allocations) {
    edges.insert(a.firstLine);
    edges.insert(int64_t(a.lastLine) + 1);
  }
  int64_t peak = 1;
  std::vector<std::pair<int64_t, int64_t>> steps; // (line, bytes live from it)
  for (int64_t e : edges) {
    int64_t live = 0;
    for (auto &a : s.allocations)
      if (a.firstLine <= e && e <= a.lastLine)
        live += a.bytes;
    steps.emplace_back(e, live);
    peak = std::max(peak, live);
  }
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"shared-timeline\" width=\"{0}\" "
      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"shared memory live over "
      "the dump's lines\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"10\">\n"
      "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#FFFFFF\"/>\n",
      width, height);
  out += fmt::format("<text x=\"{}\" y=\"{}\">bytes live (peak {} B)</text>\n", 4, top + 10, peak);
  std::string points;
  int64_t prevY = top + chartH;
  points += fmt::format("{},{}", xOf(first), prevY);
  for (auto &[line, live] : steps) {
    int64_t x = xOf(std::min<int64_t>(line, last));
    int64_t y = top + chartH - live * chartH / peak;
    points += fmt::format(" {},{} {},{}", x, prevY, x, y);
    prevY = y;
  }
  points += fmt::format(" {},{}", xOf(last), prevY);
  out += fmt::format("<polyline class=\"live\" points=\"{}\" fill=\"none\" stroke=\"#0072B2\" "
                     "stroke-width=\"2\"/>\n",
                     points);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#000000\"/>\n",
                     left, top + chartH, left + plotW);
  for (size_t i = 0; i < s.allocations.size(); ++i) {
    auto &a = s.allocations[i];
    int64_t y = barsTop + int64_t(i) * (barH + 4);
    int64_t x0 = xOf(a.firstLine), x1 = std::max(xOf(a.lastLine), x0 + 2);
    out +=
        fmt::format("<text x=\"4\" y=\"{}\">{} {} B</text>\n", y + 12, xmlEscape(a.name), a.bytes);
    out += fmt::format("<rect class=\"allocation\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                       "fill=\"{}\"><title>{} {} B, lines {}-{}: {}</title></rect>\n",
                       x0, y, x1 - x0, barH, layout::pictureColor(int32_t(i)), xmlEscape(a.name),
                       a.bytes, a.firstLine, a.lastLine, xmlEscape(a.type));
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\">line {}</text><text x=\"{}\" y=\"{}\" "
                     "text-anchor=\"end\">line {}</text>\n",
                     left, height - 8, first, left + plotW, height - 8, last);
  return out + "</svg>\n";
}

} // namespace

std::string verifyHtml(const analysis::VerifyReport &v, const std::string &plainPath,
                       const std::string &anchorPath) {
  std::string out = pageStart(fmt::format("tilexform verify: {}", verdictName(v.verdict)));
  out += fmt::format("<h1>verify {}</h1>\n", verdictSpan(v.verdict, "verdict"));
  out += fmt::format("<table><tr><th>plain</th><td>{}</td></tr><tr><th>anchor</th><td>{}</td></tr>"
                     "</table>\n",
                     code(plainPath), code(anchorPath));
  if (!v.notComparableReason.empty())
    out += fmt::format("<p id=\"not-comparable\">Not comparable: {}</p>\n",
                       xmlEscape(v.notComparableReason));
  out += fmt::format("<table id=\"summary\"><tr><th>differences</th><th>missing in the anchor</th>"
                     "<th>extra in the anchor</th><th>reconciled</th></tr><tr><td>{}</td><td>{}"
                     "</td><td>{}</td><td>{}</td></tr></table>\n",
                     v.differences.size(), v.missing.size(), v.extra.size(), v.reconciled.size());

  out += "<h2 id=\"differences\">Differences</h2>\n";
  PictureBudget budget;
  size_t figures = 0;
  size_t notePlace = out.size();
  if (v.differences.empty())
    out += "<p class=\"note\">none: every layout plain uses, the anchor carries</p>\n";
  for (size_t i = 0; i < v.differences.size(); ++i) {
    auto &d = v.differences[i];
    std::string id = fmt::format("difference-{}", i + 1);
    auto side = [&](const std::optional<analysis::LayoutUse> &u, auto field) {
      return u ? field(*u) : std::string("<span class=\"note\">no counterpart</span>");
    };
    // Both drawn at the shape plain uses it (the anchor's own without plain).
    std::vector<int64_t> shape = d.plain ? d.plain->shape : d.anchor->shape;
    Drawn plain = d.plain
                      ? drawWithin(budget, d.plain->encoding, shape, bitsOfSites(d.plain->sites))
                      : Drawn{};
    Drawn anchor = d.anchor
                       ? drawWithin(budget, d.anchor->encoding, shape, bitsOfSites(d.anchor->sites))
                       : Drawn{};
    if (!d.plain)
      plain.why = "plain has no layout in this place";
    if (!d.anchor)
      anchor.why = "the anchor carries no layout in this place";
    std::set<int64_t> differing;
    bool compared = plain.picture && anchor.picture;
    if (compared)
      differing = layout::differingCells(*plain.picture, *anchor.picture);
    out +=
        fmt::format("<section class=\"difference\" id=\"{}\" data-compared=\"{}\" "
                    "data-differing=\"{}\">\n<h3>Difference {}: {}</h3>\n",
                    id, compared ? "true" : "false", differing.size(), i + 1, xmlEscape(d.differs));
    out += "<table class=\"sides\"><tr><th></th><th>plain</th><th>anchor</th></tr>\n";
    out += fmt::format("<tr><th>layout</th><td>{}</td><td>{}</td></tr>\n",
                       side(d.plain, [](auto &u) { return code(u.attr); }),
                       side(d.anchor, [](auto &u) { return code(u.attr); }));
    out += fmt::format("<tr><th>Gluon</th><td>{}</td><td>{}</td></tr>\n",
                       side(d.plain, [](auto &u) { return gluonText(u.gluon); }),
                       side(d.anchor, [](auto &u) { return gluonText(u.gluon); }));
    out += fmt::format("<tr><th>shape</th><td>{}</td><td>{}</td></tr>\n",
                       side(d.plain, [](auto &u) { return shapeText(u.shape) + " " + u.memory; }),
                       side(d.anchor, [](auto &u) { return shapeText(u.shape) + " " + u.memory; }));
    out += fmt::format("<tr><th>roles</th><td>{}</td><td>{}</td></tr>\n",
                       side(d.plain, [](auto &u) { return rolesText(u.roles); }),
                       side(d.anchor, [](auto &u) { return rolesText(u.roles); }));
    out += fmt::format("<tr><th>use sites</th><td>{}</td><td>{}</td></tr>\n</table>\n",
                       side(d.plain, [](auto &u) { return sitesHtml(u.sites, u.sites.size()); }),
                       side(d.anchor, [](auto &u) { return sitesHtml(u.sites, u.sites.size()); }));
    if (!d.fixes.empty()) {
      std::vector<std::string> edits;
      for (auto &f : d.fixes)
        edits.push_back(f.anchorValue.empty()
                            ? fmt::format("add {}", code(f.keyword + "=" + f.plainValue))
                            : fmt::format("{} (was {})", code(f.keyword + "=" + f.plainValue),
                                          code(f.anchorValue)));
      out += fmt::format("<p class=\"fix\">Fix in the anchor's constructor: {}</p>\n",
                         fmt::join(edits, ", "));
    } else if (d.plain && d.plain->gluon) {
      out +=
          fmt::format("<p class=\"fix\">Use plain's constructor: {}</p>\n", code(*d.plain->gluon));
    }
    if (compared)
      out += fmt::format("<p>{} of {} elements are held by different threads or registers "
                         "(outlined in black).</p>\n",
                         differing.size(), plain.picture->cells.size());
    out += "<div class=\"pair\">\n";
    out +=
        figure(fmt::format("plain at {}", shapeText(shape)), plain, d.plain ? d.plain->attr : "",
               d.plain && d.plain->gluon ? *d.plain->gluon : "", differing, id + "-plain", budget);
    out += figure(
        fmt::format("anchor at {}", shapeText(shape)), anchor, d.anchor ? d.anchor->attr : "",
        d.anchor && d.anchor->gluon ? *d.anchor->gluon : "", differing, id + "-anchor", budget);
    figures += 2;
    out += "</div>\n</section>\n";
  }
  out.insert(notePlace, leftOutNote(budget, figures));

  auto listOf = [](const std::vector<analysis::LayoutDifference> &ds) {
    std::vector<const analysis::LayoutUse *> uses;
    std::vector<std::string> notes;
    for (auto &d : ds) {
      uses.push_back(&d.use);
      notes.push_back(
          d.nearest ? fmt::format("{}: {}", code(d.nearest->attr), xmlEscape(d.nearest->differs))
                    : "none");
    }
    return std::pair(uses, notes);
  };
  auto [missing, missingNotes] = listOf(v.missing);
  out += "<h2 id=\"missing\">Missing in the anchor</h2>\n";
  out += usesTable("missing-table", missing, missingNotes, "nearest in the anchor");
  auto [extra, extraNotes] = listOf(v.extra);
  out += "<h2 id=\"extra\">Extra in the anchor</h2>\n";
  out += usesTable("extra-table", extra, extraNotes, "nearest in plain");
  std::vector<const analysis::LayoutUse *> reconciled;
  std::vector<std::string> causes;
  for (auto &r : v.reconciled) {
    reconciled.push_back(&r.use);
    causes.push_back(
        fmt::format("{} ({}): {}", code(r.cause), xmlEscape(r.side), xmlEscape(r.detail)));
  }
  out += "<h2 id=\"reconciled\">Reconciled</h2>\n";
  out += usesTable("reconciled-table", reconciled, causes, "why");

  if (!v.multiplicity.empty()) {
    out += "<h2 id=\"multiplicity\">Use counts</h2>\n<table><tr><th>role</th><th>shape</th>"
           "<th>plain sites</th><th>anchor sites</th></tr>\n";
    for (auto &m : v.multiplicity)
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                         xmlEscape(m.role), shapeText(m.shape), m.plainSites, m.anchorSites);
    out += "</table>\n";
  }
  out += "<h2 id=\"shared\">Shared memory</h2>\n<table><tr><th></th><th>peak live B</th>"
         "<th>declared B</th><th>capacity B</th></tr>\n";
  out += sharedLine("plain", v.plain.shared) + sharedLine("anchor", v.anchor.shared);
  out += "</table>\n";
  if (v.anchorCrossesCapacity)
    out += "<p class=\"fix\">The anchor crosses the arch's capacity; plain did not.</p>\n";
  return out + kPageEnd;
}

std::string recoverHtml(const analysis::RecoverReport &r, Verdict verdict,
                        const std::string &file) {
  std::string out = pageStart(fmt::format("tilexform recover: {}", verdictName(verdict)));
  out += fmt::format("<h1>recover {}</h1>\n", verdictSpan(verdict, "verdict"));
  out += fmt::format(
      "<table><tr><th>file</th><td>{}</td></tr><tr><th>target</th><td>{}</td></tr>"
      "<tr><th>num_warps</th><td>{}</td></tr><tr><th>threads per warp</th><td>{}</td></tr>"
      "<tr><th>Gluon API</th><td>{}</td></tr><tr><th>constants digest</th><td>{}</td></tr>"
      "</table>\n",
      code(file), xmlEscape(r.facts.target.empty() ? "unknown" : r.facts.target),
      r.facts.numWarps ? std::to_string(*r.facts.numWarps) : "unknown",
      r.facts.threadsPerWarp ? std::to_string(*r.facts.threadsPerWarp) : "unknown",
      gluon::gluonApiName(r.api), code(r.constantsDigest));

  out += fmt::format("<h2 id=\"layouts\">Layouts ({})</h2>\n", r.layouts.size());
  out += "<table id=\"layout-table\"><tr><th>name</th><th>status</th><th>kind</th><th>roles</th>"
         "<th>sites</th><th>Gluon</th></tr>\n";
  for (size_t i = 0; i < r.layouts.size(); ++i) {
    auto &l = r.layouts[i];
    out += fmt::format("<tr><td><a href=\"#layout-{}\">{}</a></td><td>{}</td><td>{}</td><td>{}"
                       "</td><td>{}</td><td>{}</td></tr>\n",
                       i + 1, xmlEscape(l.name), verdictSpan(l.status), xmlEscape(l.kind),
                       rolesText(l.roles), l.siteCount, gluonText(l.gluon));
  }
  out += "</table>\n";
  PictureBudget budget;
  size_t notePlace = out.size();
  for (size_t i = 0; i < r.layouts.size(); ++i) {
    auto &l = r.layouts[i];
    std::string id = fmt::format("layout-{}", i + 1);
    out += fmt::format("<section class=\"layout\" id=\"{}\">\n<h3>{} {}</h3>\n", id,
                       xmlEscape(l.name), verdictSpan(l.status));
    out += fmt::format("<table><tr><th>layout</th><td>{}</td></tr><tr><th>Gluon</th><td>{}</td>"
                       "</tr><tr><th>roles</th><td>{}</td></tr><tr><th>warps</th><td>{}</td></tr>"
                       "<tr><th>use sites ({})</th><td>{}</td></tr>",
                       code(l.attr), gluonText(l.gluon), rolesText(l.roles),
                       l.warps ? std::to_string(l.warps) : "n/a", l.siteCount,
                       sitesHtml(l.sites, l.siteCount));
    if (!l.reason.empty())
      out += fmt::format("<tr><th>reason</th><td>{}</td></tr>", xmlEscape(l.reason));
    out += "</table>\n";
    Drawn d = drawWithin(budget, l.encoding, l.shape, bitsOfSites(l.sites));
    out += figure(
        fmt::format("{} at {}", l.name, shapeText(layout::bufferShape(*l.encoding, l.shape))), d,
        l.attr, l.gluon ? *l.gluon : "", {}, id + "-picture", budget);
    out += "</section>\n";
  }
  out.insert(notePlace, leftOutNote(budget, r.layouts.size()));

  if (!r.unsupportedOps.empty()) {
    out += "<h2 id=\"unsupported\">Ops without a Gluon builtin</h2>\n<table><tr><th>op</th>"
           "<th>count</th><th>first line</th><th>why</th></tr>\n";
    for (auto &u : r.unsupportedOps)
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", code(u.name),
                         u.count, u.line, xmlEscape(u.reason));
    out += "</table>\n";
  }
  if (!r.warpMismatches.empty()) {
    out += "<h2 id=\"num-warps\">num_warps disagreements</h2>\n<table><tr><th>layout</th>"
           "<th>its warps</th><th>num_warps</th><th>line</th></tr>\n";
    for (auto &m : r.warpMismatches)
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", code(m.layout),
                         m.layoutWarps, m.expected, m.line);
    out += "</table>\n";
  }

  out += "<h2 id=\"loops\">Pipelining per loop</h2>\n";
  if (r.loops.empty())
    out += "<p class=\"note\">no loop</p>\n";
  else {
    out += "<table id=\"loop-table\"><tr><th>loop</th><th>function</th><th>source</th>"
           "<th>verdict</th><th>num_stages</th><th>loads</th><th>dots</th><th>async copies</th>"
           "<th>buffers</th><th>iter_args</th><th>prefetch</th><th>why</th></tr>\n";
    for (auto &f : r.loops)
      out += fmt::format("<tr><td>{} line {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                         "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                         "<td>{}</td></tr>\n",
                         code(f.op), f.line, xmlEscape(f.function),
                         f.source.line ? fmt::format("<span class=\"loc mono\">{}:{}</span>",
                                                     xmlEscape(f.source.file), f.source.line)
                                       : "",
                         verdictSpan(f.verdict), f.numStages ? std::to_string(*f.numStages) : "-",
                         f.loads, f.dots, f.asyncCopies, f.buffers, f.iterArgs,
                         f.prefetch ? "yes" : "no", xmlEscape(f.why));
    out += "</table>\n";
  }

  auto &sh = r.shared;
  out += "<h2 id=\"shared\">Shared memory</h2>\n";
  out += fmt::format(
      "<p>Peak {} B live, {} B declared{}; capacity {}.</p>\n", sh.peakBytes, sh.declaredBytes,
      sh.compilerBytes ? fmt::format(", the compiler's total {} B", *sh.compilerBytes) : "",
      sh.capacity ? fmt::format("{} B ({})", sh.capacity->value, xmlEscape(sh.capacity->source))
                  : xmlEscape("unknown: " + sh.capacityNote));
  out += sharedTimeline(sh);
  if (!sh.allocations.empty()) {
    out += "<table id=\"allocation-table\"><tr><th>allocation</th><th>bytes</th><th>line</th>"
           "<th>live lines</th><th>type</th></tr>\n";
    for (auto &a : sh.allocations)
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}-{}</td><td>{}</td></tr>\n",
                         code(a.name), a.bytes, a.line, a.firstLine, a.lastLine, code(a.type));
    out += "</table>\n";
  }
  return out + kPageEnd;
}

} // namespace tilexform::cli
