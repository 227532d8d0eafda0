// `tilexform layout`: one layout's canonical text, Gluon constructor, linear
// layout and per-thread table.
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/gluon/Gluon.h"
#include "tilexform/ir/Module.h"
#include "tilexform/layout/Picture.h"
#include "tilexform/layout/View.h"

#include <mlir/IR/BuiltinTypes.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <map>

namespace tilexform::cli {

namespace {

struct LayoutOptions {
  std::string attr, type, gluonExpr, shape, svg;
  bool table = false, view = false, hwView = false;
  uint64_t tableMax = uint64_t(1) << 16;
  CommonOptions common;
} opts;

std::optional<std::vector<int64_t>> parseShape(const std::string &s) {
  std::vector<int64_t> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = i;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
      ++j;
    if (j == i || j - i > 9)
      return std::nullopt;
    out.push_back(std::stoll(s.substr(i, j - i)));
    if (j == s.size())
      break;
    if (s[j] != 'x' && s[j] != ',')
      return std::nullopt;
    i = j + 1;
    if (i == s.size())
      return std::nullopt;
  }
  if (out.empty())
    return std::nullopt;
  return out;
}

Json linearJson(const layout::LinearLayout &ll) {
  Json j;
  for (auto &[name, bases] : ll.bases())
    j[name] = basesJson(bases);
  return j;
}

Json outDimsJson(const layout::LinearLayout &ll) {
  Json j;
  for (auto &[name, size] : ll.outDims())
    j[name] = size;
  return j;
}

// Every hardware location holding each element, in element order.
std::map<std::vector<int32_t>, std::vector<std::vector<int32_t>>>
ownersOf(const layout::LinearLayout &ll) {
  std::map<std::vector<int32_t>, std::vector<std::vector<int32_t>>> owners;
  auto ins = ll.inDimNames();
  std::vector<int32_t> sizes;
  int64_t total = 1;
  for (auto &n : ins) {
    sizes.push_back(ll.inDimSize(n));
    total *= ll.inDimSize(n);
  }
  std::vector<int32_t> idx(ins.size(), 0);
  for (int64_t k = 0; k < total; ++k) {
    int64_t rem = k;
    for (size_t d = 0; d < ins.size(); ++d) {
      idx[d] = int32_t(rem % sizes[d]);
      rem /= sizes[d];
    }
    std::vector<std::pair<std::string, int32_t>> in;
    for (size_t d = 0; d < ins.size(); ++d)
      in.emplace_back(ins[d], idx[d]);
    std::vector<int32_t> elem;
    for (auto &[n, v] : ll.apply(in))
      elem.push_back(v);
    owners[elem].push_back(idx);
  }
  return owners;
}

std::string ownerText(const std::vector<std::string> &ins, const std::vector<int32_t> &idx) {
  // register/lane/warp/block -> "B0:W1:T5:R3"; offset/block -> "B0:O12".
  std::string s;
  std::map<std::string, int32_t> by;
  for (size_t d = 0; d < ins.size(); ++d)
    by[ins[d]] = idx[d];
  if (by.count("offset"))
    return fmt::format("B{}:O{}", by["block"], by["offset"]);
  return fmt::format("B{}:W{}:T{}:R{}", by["block"], by["warp"], by["lane"], by["register"]);
}

// The element width of a tensor or memdesc type, 0 when it has none.
unsigned elementBitsOf(mlir::Type type) {
  mlir::Type element;
  if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type))
    element = tensor.getElementType();
  else if (auto triton = mlir::dyn_cast<ir::TritonType>(type))
    element = triton.info().elementType;
  return element && element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
}

/// One layout read and everything derived from it.
struct LayoutReport {
  layout::EncodingPtr enc;
  std::vector<int64_t> shape;
  gluon::GluonApi api = gluon::GluonApi::V3_6;
  std::string canonical;
  gluon::GluonExpr emitted;
  std::optional<layout::LinearLayout> ll;
  std::string linearError;
  Verdict roundtrip = Verdict::Unrecoverable;
  std::string roundtripDetail;
};

class LayoutView : public ReportView {
public:
  explicit LayoutView(const LayoutReport &r) : r_(r) {}

  Json json() const override {
    const auto &ll = r_.ll;
    Json j = envelope("layout", r_.roundtrip, exitCodeFor("layout", r_.roundtrip));
    j["attr"] = r_.canonical;
    j["shape"] = r_.shape;
    j["kind"] = r_.enc->kind();
    j["gluon"] = r_.emitted.expr ? Json(*r_.emitted.expr) : Json(nullptr);
    if (!r_.emitted.expr)
      j["reason"] = r_.emitted.reason;
    j["gluon_api"] = gluon::gluonApiName(r_.api);
    j["linear"] = ll ? linearJson(*ll) : Json(nullptr);
    if (ll) {
      j["out_dims"] = outDimsJson(*ll);
      Json masks;
      for (auto &[n, m] : ll->freeVariableMasks())
        masks[n] = m;
      j["free_variable_masks"] = masks;
    } else {
      j["linear_error"] = r_.linearError;
    }
    j["roundtrip"] = r_.emitted.expr ? Json(verdictName(r_.roundtrip)) : Json(nullptr);
    if (!r_.roundtripDetail.empty())
      j["roundtrip_detail"] = r_.roundtripDetail;
    if (opts.table && ll) {
      Json rows = Json::array();
      auto ins = ll->inDimNames();
      for (auto &[elem, owners] : ownersOf(*ll)) {
        Json who = Json::array();
        for (auto &idx : owners) {
          Json o;
          for (size_t d = 0; d < ins.size(); ++d)
            o[ins[d]] = idx[d];
          who.push_back(o);
        }
        rows.push_back(Json{{"element", elem}, {"owners", who}});
      }
      j["table"] = rows;
    }
    if (!opts.svg.empty())
      j["svg"] = opts.svg;
    if ((opts.view || opts.hwView) && ll) {
      if (opts.view)
        j["view"] = layout::layoutView(*ll, false);
      if (opts.hwView)
        j["hw_view"] = layout::layoutView(*ll, true);
    }
    return j;
  }

  std::string text() const override {
    const auto &ll = r_.ll;
    // The views alone, as Triton prints them, so they compare line for line.
    if (opts.view || opts.hwView) {
      std::string out = opts.view ? layout::layoutView(*ll, false) : "";
      if (opts.view && opts.hwView)
        out += "\n";
      if (opts.hwView)
        out += layout::layoutView(*ll, true);
      return out;
    }
    std::string out;
    out += fmt::format("layout:    {}\n", r_.canonical);
    out += fmt::format("kind:      {}\n", r_.enc->kind());
    out += fmt::format("shape:     {}\n", fmt::join(r_.shape, "x"));
    if (r_.emitted.expr)
      out += fmt::format("gluon:     {}\n", *r_.emitted.expr);
    else
      out += fmt::format("gluon:     none ({})\n", r_.emitted.reason);
    if (r_.emitted.expr)
      out += fmt::format("roundtrip: {}{}\n", verdictName(r_.roundtrip),
                         r_.roundtripDetail.empty() ? "" : " (" + r_.roundtripDetail + ")");
    if (ll) {
      out += "linear layout:";
      out += ll->toString();
      out += "\n";
    } else {
      out += "linear layout: none (" + r_.linearError + ")\n";
    }
    if (opts.table && ll) {
      out += "\nper-element owners (B=block W=warp T=lane R=register O=offset):\n";
      auto ins = ll->inDimNames();
      for (auto &[elem, owners] : ownersOf(*ll)) {
        std::vector<std::string> who;
        for (auto &idx : owners)
          who.push_back(ownerText(ins, idx));
        out += fmt::format("  [{}] {}\n", fmt::join(elem, ", "), fmt::join(who, " "));
      }
    }
    return out;
  }

private:
  const LayoutReport &r_;
};

/// The layout `--attr`, `--type` or `--gluon` names (with `--shape`): its
/// encoding, shape and, for a type, its element width; or the exit code of
/// the error reported.
int readLayout(mlir::MLIRContext *ctx, LayoutReport &r, unsigned &elementBits) {
  std::string source = !opts.attr.empty() ? "--attr" : !opts.type.empty() ? "--type" : "--gluon";
  if (opts.type.empty()) {
    auto parsedShape = parseShape(opts.shape);
    if (!parsedShape)
      return reportError("--shape: expected dims like 128x64, got '" + opts.shape + "'",
                         kExitUsage);
    r.shape = *parsedShape;
  }
  if (!opts.gluonExpr.empty()) {
    auto parsed = gluon::parseGluon(opts.gluonExpr);
    if (!parsed)
      return reportError("--gluon: " + llvm::toString(parsed.takeError()), kExitInput);
    r.enc = *parsed;
  } else if (!opts.attr.empty()) {
    auto a = ir::parseAttributeText(ctx, opts.attr);
    if (!a) {
      return reportError(llvm::handleErrors(a.takeError(), [&](const ir::InputError &e) {
        return llvm::make_error<ir::InputError>(source, e.line, e.col, e.message);
      }));
    }
    auto l = mlir::dyn_cast<ir::LayoutEncodingAttr>(*a);
    if (!l)
      return reportError("--attr: not a Triton layout attribute: " + opts.attr, kExitInput);
    r.enc = l.getEncoding();
  } else {
    auto t = ir::parseTypeText(ctx, opts.type);
    if (!t) {
      return reportError(llvm::handleErrors(t.takeError(), [&](const ir::InputError &e) {
        return llvm::make_error<ir::InputError>(source, e.line, e.col, e.message);
      }));
    }
    r.enc = ir::encodingOf(*t);
    if (!r.enc)
      return reportError("--type: the type carries no layout: " + opts.type, kExitInput);
    r.shape = ir::layoutShapeOf(*t);
    elementBits = elementBitsOf(*t);
  }

  if (!r.enc->isLayout())
    return reportError(source + ": '" + layout::printEncoding(*r.enc) + "' is not a layout",
                       kExitInput);
  if (!r.enc->is<layout::OpaqueEncoding>() && r.enc->rank() != r.shape.size())
    return reportError(fmt::format("{}: the layout has rank {} but the shape has rank {}", source,
                                   r.enc->rank(), r.shape.size()),
                       kExitInput);
  return 0;
}

/// The canonical text, Gluon constructor and its round trip, and the
/// linear layout of a layout at its shape.
void analyse(LayoutReport &r) {
  const auto &enc = r.enc;
  r.canonical = layout::printEncoding(*enc);
  r.emitted = gluon::emitGluon(*enc, r.api);
  if (auto ll = layout::linearLayoutAt(*enc, r.shape))
    r.ll = std::move(*ll);
  else
    r.linearError = llvm::toString(ll.takeError());
  if (!r.emitted.expr && enc->isShared() && !r.shape.empty()) {
    // A shared layout Gluon has no class for: its own linear layout at the
    // buffer's shape (the trailing dims), as recover and transcribe write it.
    std::vector<int64_t> buffer = layout::bufferShape(*enc, r.shape);
    auto lin = gluon::emitGluonAsLinear(*enc, buffer, r.api);
    if (lin.expr) {
      auto rt = gluon::checkLinearRoundTrip(*enc, *lin.expr, buffer);
      r.emitted.expr = lin.expr;
      r.roundtrip = rt.exact ? Verdict::Exact : Verdict::Differs;
      r.roundtripDetail = rt.exact ? fmt::format("{}; written as its linear layout at {}",
                                                 r.emitted.reason, fmt::join(buffer, "x"))
                                   : rt.detail;
    }
  } else if (r.emitted.expr) {
    auto rt = gluon::checkRoundTrip(*enc, *r.emitted.expr, r.ll ? r.shape : std::vector<int64_t>{});
    r.roundtrip = rt.exact ? Verdict::Exact : Verdict::Differs;
    r.roundtripDetail = rt.detail;
  }
}

} // namespace

void addLayoutCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "layout", "One layout: canonical text, Gluon constructor, linear layout, table");
  cmd->add_option("--attr", opts.attr, "Layout attribute text, e.g. '#ttg.blocked<{...}>'");
  cmd->add_option("--shape", opts.shape, "Tensor shape for --attr, e.g. 128x64");
  cmd->add_option("--gluon", opts.gluonExpr,
                  "A Gluon constructor expression, e.g. 'gl.BlockedLayout(...)'");
  cmd->add_option("--type", opts.type,
                  "A tensor or !ttg.memdesc type carrying the layout (shape from the type)");
  opts.common.addGluonApi(cmd);
  cmd->add_flag("--table", opts.table, "Print the per-element owner table");
  cmd->add_flag("--view", opts.view,
                "Print Triton's view: the tensor as a grid of T<thread>:<register> cells "
                "(shared: the coordinates at each offset)");
  cmd->add_flag("--hw-view", opts.hwView,
                "Print Triton's hardware view: each warp's registers per lane (shared: "
                "each block's offsets)");
  cmd->add_option("--table-max", opts.tableMax,
                  "Refuse --table for shapes of more elements than this (default 65536)")
      ->check(CLI::Validator(checkCount, "N"));
  cmd->add_option("--svg", opts.svg,
                  "Write the layout as an SVG picture to FILE ('-': standard output)");
  opts.common.addForce(cmd, "Overwrite the --svg file if it exists");
  opts.common.addFormat(cmd);
}

int runLayoutCommand() {
  CommonOptions &common = opts.common;
  if (int code = common.prepare())
    return code;
  int given = !opts.attr.empty() + !opts.type.empty() + !opts.gluonExpr.empty();
  if (given != 1)
    return reportError("layout: give exactly one of --attr or --gluon (with --shape), or --type",
                       kExitUsage);
  if (opts.type.empty() && opts.shape.empty())
    return reportError(std::string("layout: ") + (opts.attr.empty() ? "--gluon" : "--attr") +
                           " needs --shape (e.g. --shape 128x64)",
                       kExitUsage);
  if (opts.svg == "-" && (common.jsonOutput() || opts.table || opts.view || opts.hwView))
    return reportError("--svg -: the picture is all of stdout; give --svg a file to have the "
                       "report too",
                       kExitUsage);
  if (int code = opts.svg == "-" ? 0 : refuseExistingOut(opts.svg, common.force, "--svg"))
    return code;

  auto ctx = ir::makeContext();
  LayoutReport r;
  r.api = common.api();
  unsigned elementBits = 0; // of a --type, for a shared layout's banks
  if (int code = readLayout(ctx.get(), r, elementBits))
    return code;

  // The table and the views list every element: bound its size unless asked
  // for more.
  if (opts.table || opts.view || opts.hwView) {
    uint64_t elements = 1;
    for (int64_t d : r.shape)
      elements = d > 0 && elements <= opts.tableMax ? elements * uint64_t(d) : elements;
    if (elements > opts.tableMax)
      return reportError(fmt::format("{}: the shape has more than {} elements; pass "
                                     "--table-max N to list more",
                                     opts.table  ? "--table"
                                     : opts.view ? "--view"
                                                 : "--hw-view",
                                     opts.tableMax),
                         kExitUsage);
  }

  analyse(r);
  int exitCode = exitCodeFor("layout", r.roundtrip);

  if (!opts.svg.empty()) {
    if (!r.ll)
      return reportError("--svg: no linear layout for this layout (" + r.linearError + ")",
                         kExitInput);
    if (auto *nvmma = r.enc->as<layout::NVMMASharedEncoding>(); nvmma && !elementBits)
      elementBits = nvmma->elementBitWidth;
    auto picture = layout::pictureOf(*r.ll, elementBits);
    if (!picture)
      return reportError("--svg: " + llvm::toString(picture.takeError()), kExitUsage);
    layout::SvgOptions svgOptions;
    svgOptions.title = r.canonical;
    svgOptions.subtitle =
        r.emitted.expr ? *r.emitted.expr : "no Gluon constructor: " + r.emitted.reason;
    std::string svg = layout::renderSvg(*picture, svgOptions);
    if (opts.svg == "-") {
      printText(svg);
      return exitCode;
    }
    if (int code = writeOutFile(opts.svg, svg, common.force, "--svg"))
      return code;
  }

  if (!common.jsonOutput() && (opts.view || opts.hwView) && !r.ll)
    return reportError("--view: no linear layout for this layout (" + r.linearError + ")",
                       kExitInput);
  return writeReport(common, LayoutView(r), exitCode);
}

} // namespace tilexform::cli
