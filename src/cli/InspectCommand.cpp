// `tilexform inspect FILE`: module facts, layouts, op census, unknown ops,
// functions and loops of one dump.
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/CommonOptions.h"
#include "tilexform/cli/ReportView.h"
#include "tilexform/gluon/Gluon.h"
#include "tilexform/ir/GenericPrinter.h"
#include "tilexform/ir/Module.h"
#include "tilexform/support/InputError.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <map>

namespace tilexform::cli {

namespace {

struct InspectOptions {
  std::vector<std::string> files;
  bool printGeneric = false;
  CommonOptions common;
} opts;

/// What one dump holds, as the JSON report's records (the text view reads
/// the same records).
struct Inspection {
  std::string shown;
  const ir::Module *mod = nullptr;
  Json module, layouts = Json::array(), otherAliases = Json::array(), functions = Json::array(),
               loops = Json::array(), ops = Json::object(), unknownOps = Json::array();
  int64_t total = 0;
  std::map<std::string, int64_t> opCounts;
  std::map<std::string, std::pair<int64_t, ir::TextPos>> unknown;
};

Inspection inspect(const ir::Module &mod, const std::string &shown, gluon::GluonApi api) {
  Inspection r;
  r.shown = shown;
  r.mod = &mod;
  Json &module = r.module;
  module["target"] = mod.facts.target.empty() ? Json(nullptr) : Json(mod.facts.target);
  module["arch"] = mod.facts.target.empty() ? Json(nullptr) : Json(mod.facts.arch());
  module["num_warps"] = optionalJson(mod.facts.numWarps);
  module["threads_per_warp"] = optionalJson(mod.facts.threadsPerWarp);
  module["num_ctas"] = optionalJson(mod.facts.numCtas);
  module["shared"] = optionalJson(mod.facts.shared);

  for (auto &a : mod.aliases) {
    auto l = mlir::dyn_cast_or_null<ir::LayoutEncodingAttr>(a.attr);
    // A layout of another backend or a newer Triton: listed by name, never
    // given a constructor.
    std::string unmodelled;
    if (auto o = mlir::dyn_cast_or_null<mlir::OpaqueAttr>(a.attr))
      unmodelled = (o.getDialectNamespace().strref() + "." + o.getAttrData().take_until([](char c) {
                     return c == '<';
                   })).str();
    else if (l)
      if (auto *o = l.getEncoding()->as<layout::OpaqueEncoding>(); o && o->unmodelledLayout())
        unmodelled = o->kind;
    if (!unmodelled.empty()) {
      r.layouts.push_back(Json{{"name", a.name},
                               {"attr", a.definition},
                               {"kind", unmodelled},
                               {"gluon", nullptr},
                               {"reason", "a layout kind tilexform does not model (another "
                                          "backend or a newer Triton); kept by name"},
                               {"unmodelled", true},
                               {"line", a.pos.line},
                               {"text_roundtrip", true}});
      continue;
    }
    if (!l || !l.getEncoding()->isLayout()) {
      r.otherAliases.push_back(Json{{"name", a.name},
                                    {"attr", a.attr ? ir::attrText(a.attr) : a.definition},
                                    {"line", a.pos.line}});
      continue;
    }
    Json j;
    j["name"] = a.name;
    j["attr"] = l.getText().str();
    j["kind"] = l.getEncoding()->kind();
    auto g = gluon::emitGluon(*l.getEncoding(), api);
    j["gluon"] = g.expr ? Json(*g.expr) : Json(nullptr);
    if (!g.expr)
      j["reason"] = g.reason;
    j["line"] = a.pos.line;
    j["text_roundtrip"] = l.getText() == a.definition;
    r.layouts.push_back(j);
  }

  mod.walk([&](ir::Operation *op) {
    if (op == mod.root.get())
      return;
    ++r.opCounts[op->name];
    if (!op->known) {
      auto &u = r.unknown[op->name];
      if (u.first++ == 0)
        u.second = op->pos;
    }
    if (op->isFunction()) {
      Json f;
      f["name"] = op->symbol.empty() ? "" : op->symbol.substr(1);
      std::string vis = op->enumAttr("sym_visibility");
      f["visibility"] = vis.empty() ? "public" : vis;
      size_t nargs = op->regions.empty() || op->regions[0]->blocks.empty()
                         ? 0
                         : op->regions[0]->blocks[0]->arguments.size();
      f["num_args"] = nargs;
      f["line"] = op->pos.line;
      f["source"] = sourceJson(op->loc);
      r.functions.push_back(f);
    }
    if (op->isLoop()) {
      Json l;
      l["op"] = op->name;
      l["line"] = op->pos.line;
      l["function"] = op->enclosingFunction();
      l["depth"] = op->loopDepth();
      l["iter_args"] = op->results.size();
      l["num_stages"] = optionalJson(op->intAttr("tt.num_stages"));
      l["source"] = sourceJson(op->loc);
      r.loops.push_back(l);
    }
  });

  for (auto &[name, count] : r.opCounts) {
    r.ops[name] = count;
    r.total += count;
  }
  for (auto &[name, info] : r.unknown)
    r.unknownOps.push_back(Json{{"name", name},
                                {"count", info.first},
                                {"line", info.second.line},
                                {"col", info.second.col}});
  return r;
}

class InspectView : public ReportView {
public:
  explicit InspectView(const Inspection &r) : r_(r) {}

  Json json() const override {
    Json j = envelope("inspect", Verdict::Ok, exitCodeFor("inspect", Verdict::Ok));
    j["file"] = r_.shown;
    j["module"] = r_.module;
    j["layouts"] = r_.layouts;
    j["other_aliases"] = r_.otherAliases;
    j["ops"] = r_.ops;
    j["op_total"] = r_.total;
    j["unknown_ops"] = r_.unknownOps;
    j["functions"] = r_.functions;
    j["loops"] = r_.loops;
    return j;
  }

  std::string text() const override {
    const auto &facts = r_.mod->facts;
    std::string out;
    out += fmt::format("file:      {}\n", r_.shown);
    out += fmt::format("target:    {}  num_warps={}  threads_per_warp={}  num_ctas={}\n",
                       facts.target.empty() ? "?" : facts.target,
                       facts.numWarps ? std::to_string(*facts.numWarps) : "?",
                       facts.threadsPerWarp ? std::to_string(*facts.threadsPerWarp) : "?",
                       facts.numCtas ? std::to_string(*facts.numCtas) : "?");
    out += fmt::format("\nlayouts ({}):\n", r_.layouts.size());
    for (auto &l : r_.layouts) {
      out += fmt::format("  {:<10} {:<20} {}\n", l["name"].get<std::string>(),
                         l["kind"].get<std::string>(), l["attr"].get<std::string>());
      if (l["gluon"].is_null())
        out += fmt::format("  {:<10} {:<20} gluon: none ({})\n", "", "",
                           l["reason"].get<std::string>());
      else
        out += fmt::format("  {:<10} {:<20} gluon: {}\n", "", "", l["gluon"].get<std::string>());
    }
    out += fmt::format("\nfunctions ({}):\n", r_.functions.size());
    for (auto &f : r_.functions)
      out += fmt::format("  @{} ({}, {} args) line {}\n", f["name"].get<std::string>(),
                         f["visibility"].get<std::string>(), f["num_args"].get<size_t>(),
                         f["line"].get<unsigned>());
    out += fmt::format("\nloops ({}):\n", r_.loops.size());
    for (auto &l : r_.loops)
      out += fmt::format(
          "  line {:<5} {} in @{}  depth {}  iter_args {}  num_stages {}\n",
          l["line"].get<unsigned>(), l["op"].get<std::string>(), l["function"].get<std::string>(),
          l["depth"].get<int>(), l["iter_args"].get<size_t>(),
          l["num_stages"].is_null() ? "-" : std::to_string(l["num_stages"].get<int64_t>()));
    out += fmt::format("\nops ({} total, {} kinds):\n", r_.total, r_.opCounts.size());
    for (auto &[name, count] : r_.opCounts)
      out += fmt::format("  {:>6}  {}\n", count, name);
    out += fmt::format("\nunknown ops: {}\n", r_.unknown.empty() ? "none" : "");
    for (auto &[name, info] : r_.unknown)
      out += fmt::format("  {} ({}x, first at line {})\n", name, info.first, info.second.line);
    return out;
  }

private:
  const Inspection &r_;
};

FileOutput inspectOne(const std::string &file) {
  auto loaded = loadForCommand(file, "inspect", true);
  if (!loaded) {
    FileOutput o;
    o.error = errorLine(loaded.takeError());
    return o;
  }
  if (opts.printGeneric) {
    FileOutput o;
    llvm::raw_string_ostream os(o.text);
    ir::printGeneric(**loaded, os);
    return o;
  }
  Inspection r = inspect(**loaded, (*loaded)->path, opts.common.api());
  return reportOutput(opts.common, InspectView(r), kExitOk);
}

} // namespace

void addInspectCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "inspect", "Load a .ttgir/.ttir dump and report module facts, layouts, ops and loops");
  cmd->add_option("files", opts.files, "The dumps to read ('-': standard input)")->required();
  opts.common.addJobs(cmd);
  opts.common.addGluonApi(cmd);
  opts.common.addFormat(cmd);
  cmd->add_flag("--print-generic", opts.printGeneric,
                "Print the module as read, in MLIR's generic op form, instead of the report");
}

int runInspectCommand() {
  if (int code = opts.common.prepare())
    return code;
  // The generic form is the module itself, never a report.
  if (opts.printGeneric)
    opts.common.format = "text";
  return runOverFiles("inspect", opts.files, opts.common, inspectOne);
}

} // namespace tilexform::cli
