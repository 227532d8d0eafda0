// `tilexform inspect FILE`: module facts, layouts, op census, unknown ops,
// functions and loops of one dump.
#include "tilexform/cli/Commands.h"
#include "tilexform/cli/Output.h"
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
  std::string gluonApi = "3.6", format = "text";
  bool json = false, printGeneric = false, quiet = false;
  unsigned jobs = 0;
} opts;

FileOutput inspectOne(const std::string &file, gluon::GluonApi api) {
  FileOutput o;
  const std::string shown = file == "-" ? "<stdin>" : file;
  auto loaded = loadForCommand(file, "inspect", true);
  if (!loaded) {
    o.error = errorLine(loaded.takeError());
    return o;
  }
  ir::Module &mod = **loaded;
  if (opts.printGeneric) {
    llvm::raw_string_ostream os(o.text);
    ir::printGeneric(mod, os);
    return o;
  }

  Json module;
  module["target"] = mod.facts.target.empty() ? Json(nullptr) : Json(mod.facts.target);
  module["arch"] = mod.facts.target.empty() ? Json(nullptr) : Json(mod.facts.arch());
  module["num_warps"] = optionalJson(mod.facts.numWarps);
  module["threads_per_warp"] = optionalJson(mod.facts.threadsPerWarp);
  module["num_ctas"] = optionalJson(mod.facts.numCtas);
  module["shared"] = optionalJson(mod.facts.shared);

  Json layouts = Json::array();
  Json otherAliases = Json::array();
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
      layouts.push_back(Json{{"name", a.name},
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
      otherAliases.push_back(Json{{"name", a.name},
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
    layouts.push_back(j);
  }

  std::map<std::string, int64_t> opCounts;
  std::map<std::string, std::pair<int64_t, ir::TextPos>> unknown;
  Json functions = Json::array();
  Json loops = Json::array();
  mod.walk([&](ir::Operation *op) {
    if (op == mod.root.get())
      return;
    ++opCounts[op->name];
    if (!op->known) {
      auto &u = unknown[op->name];
      if (u.first++ == 0)
        u.second = op->pos;
    }
    if (op->isFunction()) {
      Json f;
      f["name"] = op->symbol.empty() ? "" : op->symbol.substr(1);
      std::string vis = "public";
      if (op->text().find(" private ") != std::string::npos)
        vis = "private";
      f["visibility"] = vis;
      size_t nargs = op->regions.empty() || op->regions[0]->blocks.empty()
                         ? 0
                         : op->regions[0]->blocks[0]->arguments.size();
      f["num_args"] = nargs;
      f["line"] = op->pos.line;
      f["source"] = sourceJson(op->loc);
      functions.push_back(f);
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
      loops.push_back(l);
    }
  });

  Json ops = Json::object();
  int64_t total = 0;
  for (auto &[name, count] : opCounts) {
    ops[name] = count;
    total += count;
  }
  Json unknownOps = Json::array();
  for (auto &[name, info] : unknown)
    unknownOps.push_back(Json{{"name", name},
                              {"count", info.first},
                              {"line", info.second.line},
                              {"col", info.second.col}});

  if (isJson(opts.format)) {
    Json j = envelope("inspect", Verdict::Ok, exitCodeFor("inspect", Verdict::Ok));
    j["file"] = shown;
    j["module"] = std::move(module);
    j["layouts"] = std::move(layouts);
    j["other_aliases"] = std::move(otherAliases);
    j["ops"] = std::move(ops);
    j["op_total"] = total;
    j["unknown_ops"] = std::move(unknownOps);
    j["functions"] = std::move(functions);
    j["loops"] = std::move(loops);
    o.doc = std::move(j);
    return o;
  }

  std::string out;
  out += fmt::format("file:      {}\n", shown);
  out += fmt::format("target:    {}  num_warps={}  threads_per_warp={}  num_ctas={}\n",
                     mod.facts.target.empty() ? "?" : mod.facts.target,
                     mod.facts.numWarps ? std::to_string(*mod.facts.numWarps) : "?",
                     mod.facts.threadsPerWarp ? std::to_string(*mod.facts.threadsPerWarp) : "?",
                     mod.facts.numCtas ? std::to_string(*mod.facts.numCtas) : "?");
  out += fmt::format("\nlayouts ({}):\n", layouts.size());
  for (auto &l : layouts) {
    out += fmt::format("  {:<10} {:<20} {}\n", l["name"].get<std::string>(),
                       l["kind"].get<std::string>(), l["attr"].get<std::string>());
    if (l["gluon"].is_null())
      out +=
          fmt::format("  {:<10} {:<20} gluon: none ({})\n", "", "", l["reason"].get<std::string>());
    else
      out += fmt::format("  {:<10} {:<20} gluon: {}\n", "", "", l["gluon"].get<std::string>());
  }
  out += fmt::format("\nfunctions ({}):\n", functions.size());
  for (auto &f : functions)
    out += fmt::format("  @{} ({}, {} args) line {}\n", f["name"].get<std::string>(),
                       f["visibility"].get<std::string>(), f["num_args"].get<size_t>(),
                       f["line"].get<unsigned>());
  out += fmt::format("\nloops ({}):\n", loops.size());
  for (auto &l : loops)
    out += fmt::format(
        "  line {:<5} {} in @{}  depth {}  iter_args {}  num_stages {}\n",
        l["line"].get<unsigned>(), l["op"].get<std::string>(), l["function"].get<std::string>(),
        l["depth"].get<int>(), l["iter_args"].get<size_t>(),
        l["num_stages"].is_null() ? "-" : std::to_string(l["num_stages"].get<int64_t>()));
  out += fmt::format("\nops ({} total, {} kinds):\n", total, opCounts.size());
  for (auto &[name, count] : opCounts)
    out += fmt::format("  {:>6}  {}\n", count, name);
  out += fmt::format("\nunknown ops: {}\n", unknown.empty() ? "none" : "");
  for (auto &[name, info] : unknown)
    out += fmt::format("  {} ({}x, first at line {})\n", name, info.first, info.second.line);
  o.text = std::move(out);
  return o;
}

int execute() {
  if (opts.json)
    opts.format = "json";
  auto api = resolveGluonApi(opts.gluonApi);
  if (!api)
    return kExitUsage;
  return runOverFiles("inspect", opts.files, isJson(opts.format) && !opts.printGeneric, opts.jobs,
                      opts.quiet, [&](const std::string &f) { return inspectOne(f, *api); });
}

} // namespace

void addInspectCommand(CLI::App &root) {
  auto *cmd = root.add_subcommand(
      "inspect", "Load a .ttgir/.ttir dump and report module facts, layouts, ops and loops");
  cmd->add_option("files", opts.files, "The dumps to read ('-': standard input)")->required();
  addJobsOptions(cmd, opts.jobs, opts.quiet);
  addGluonApiOption(cmd, opts.gluonApi);
  addFormatOptions(cmd, opts.format, opts.json);
  cmd->add_flag("--print-generic", opts.printGeneric,
                "Print the module as read, in MLIR's generic op form, instead of the report");
}

int runInspectCommand() { return execute(); }

} // namespace tilexform::cli
