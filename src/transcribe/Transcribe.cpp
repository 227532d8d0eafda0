// Transcription of a plain Triton dump into a Gluon module: one Python
// statement per op, in plain's order, each layout applied where plain's op
// carries it. The Emit*.cpp files know how each op family is spelled; this
// file writes the module around the kernel's body: the header, the imports,
// the layout constants, the signature and the launch helper.
#include "tilexform/transcribe/Transcribe.h"
#include "AnchorBuiltins.h"
#include "Emitter.h"
#include "OpText.h"

#include "tilexform/analysis/Pipeline.h"
#include "tilexform/ir/Dialects.h"
#include "tilexform/source/GeneratedModule.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/PythonText.h"
#include "tilexform/support/Text.h"
#include "tilexform/support/TextPosition.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <map>
#include <set>

namespace tilexform::transcribe {

class KernelNameError : public llvm::ErrorInfo<KernelNameError, InputError> {
public:
  static char ID;
  using llvm::ErrorInfo<KernelNameError, InputError>::ErrorInfo;
};

using ir::Operation;
using ir::Value;

void addSpellings(EmitterTable &t, llvm::ArrayRef<Spelling> spellings) {
  for (const Spelling &s : spellings)
    t[s.op] = s.emit;
}

namespace {

/// The Python function a symbol of the dump names: Triton calls a noinline
/// function `module.qualname__argtypes__constants`
/// (`@"__main__._row_sum__Pfp32_i32_i32__(3,)cconstexpr_256_"`); the part
/// after the last dot of the module and qualname (the constants, which
/// start at `(`, have none: Triton spells a dot in them `_d_`) and before
/// the mangled types. A module's own underscores (`__main__`) are not the
/// types' separator.
std::string pythonFunctionName(llvm::StringRef symbol) {
  symbol.consume_front("@");
  symbol = symbol.trim('"');
  llvm::StringRef head = symbol.substr(0, symbol.find('('));
  if (size_t dot = head.rfind('.'); dot != llvm::StringRef::npos)
    head = head.substr(dot + 1);
  size_t lead = head.find_first_not_of('_');
  size_t mangled = lead == llvm::StringRef::npos ? llvm::StringRef::npos : head.find("__", lead);
  llvm::StringRef name = head.substr(0, mangled);
  return Scope::identifier(name.empty() ? "helper" : name.str());
}

/// The ops of each block of a function's body.
std::vector<std::vector<const Operation *>> blockSequences(const Operation &fn) {
  std::vector<std::vector<const Operation *>> out;
  if (!fn.regions.empty())
    for (auto &b : fn.regions[0]->blocks) {
      out.emplace_back();
      for (auto &o : b->ops)
        out.back().push_back(o.get());
    }
  return out;
}

} // namespace

std::string Emitter::functionName(const std::string &symbol) const {
  auto it = functionNames_.find(symbol);
  return it == functionNames_.end() ? "" : it->second;
}

void Emitter::emitNoinlineFunction(const Operation &fn, const std::string &name) {
  if (fn.regions.empty() || fn.regions[0]->blocks.empty()) {
    gap("damaged", "tt.func", fn.pos.line, "a function without a body");
    return;
  }
  // The body in a scope of its own, as a combine function's; what it adds
  // to the module (imports, constants, combine functions) is the module's.
  Emitter inner(m_, rec_, o_);
  inner.shareNames(*this);
  inner.inner_ = true;
  inner.absorbed_ = absorbed_;
  inner.functionNames_ = functionNames_;
  inner.helperByBody_ = helperByBody_;
  inner.moduleScope_ = &moduleScope();
  inner.scope_.setOuter(&moduleScope());
  if (readable()) {
    inner.ownPlan_ = planFolds(fn);
    inner.plan_ = &inner.ownPlan_;
    inner.displayNames_ = displayNames_;
    inner.planHelpers(blockSequences(fn));
  }
  std::vector<std::string> params;
  for (auto *a : fn.regions[0]->blocks[0]->arguments)
    params.push_back(a->paramName.empty() ? inner.nameFor(a)
                                          : inner.scope_.nameFor(a, a->paramName));
  inner.emitFunctionBody(*fn.regions[0]);
  adopt(inner);
  ++opsTotal_; // the function itself
  ++opsDone_;
  helpers_.push_back(fmt::format("@gluon.jit(noinline=True)\ndef {}({}):  # line {}\n{}", name,
                                 llvm::join(params, ", "), fn.pos.line,
                                 inner.body_.empty() ? "    pass\n" : inner.body_));
}

void Emitter::adopt(const Emitter &inner) {
  gaps_.insert(gaps_.end(), inner.gaps_.begin(), inner.gaps_.end());
  notCarried_.insert(notCarried_.end(), inner.notCarried_.begin(), inner.notCarried_.end());
  imports_.insert(inner.imports_.begin(), inner.imports_.end());
  shapeConstants_.insert(inner.shapeConstants_.begin(), inner.shapeConstants_.end());
  helpers_.insert(helpers_.end(), inner.helpers_.begin(), inner.helpers_.end());
  for (auto &h : inner.helperFunctions_)
    countHelper(h.name, h.source, h.calls);
  helperByBody_ = inner.helperByBody_;
  opsTotal_ += inner.opsTotal_;
  opsDone_ += inner.opsDone_;
}

llvm::Expected<TranscribeReport> Emitter::run() {
  std::vector<const Operation *> functions;
  m_.walk([&](const Operation *op) {
    if (op->isFunction())
      functions.push_back(op);
  });
  if (functions.empty())
    return llvm::make_error<InputError>(m_.path, 0, 0, "no function to transcribe in this dump");
  // The kernel is the dump's public function; the others are plain's
  // noinline helpers (`@triton.jit(noinline=True)`), which Triton keeps as
  // functions of their own and calls.
  const Operation *fn = functions.front();
  for (const Operation *f : functions)
    if (f->enumAttr("sym_visibility") != "private") {
      fn = f;
      break;
    }
  TranscribeReport r;
  r.kernel = fn->symbol.empty() ? "kernel" : fn->symbol.substr(fn->symbol[0] == '@' ? 1 : 0);
  // The kernel's Python name: an identifier that is no keyword and none of
  // the module's own names (a dump's kernel named `launch` or `for`).
  // Every module-level name (imports, layout constants) is taken before
  // it: a kernel named LOAD_LAYOUT is written LOAD_LAYOUT_1, and
  // --kernel-name may not take one.
  if (!o_.kernelName.empty() && scope_.taken(o_.kernelName))
    return llvm::make_error<KernelNameError>(
        "", 0, 0,
        fmt::format(
            "--kernel-name: '{}' is a name the anchor module binds itself (a layout constant or an "
            "import); choose another",
            o_.kernelName));
  r.anchorName = scope_.fresh(Scope::identifier(o_.kernelName.empty() ? r.kernel : o_.kernelName));
  for (const Operation *f : functions)
    if (f != fn)
      functionNames_[f->symbol] = scope_.fresh(pythonFunctionName(f->symbol));
  absorbed_ = descriptorStrideOps(m_);
  for (const Operation *f : functions)
    if (f != fn)
      emitNoinlineFunction(*f, functionNames_[f->symbol]);
  auto pipeline = analysis::hotLoopPipeline(m_);
  if (readable()) {
    ownPlan_ = planFolds(*fn);
    plan_ = &ownPlan_;
    planSources(*fn);
    planHelpers(blockSequences(*fn));
    planPipelineNotes(*fn, pipeline);
  }
  r.form = pipeline.found && pipeline.pipelined() ? "pipelined" : "not pipelined";

  // Layouts with no constructor that the function uses block it.
  std::vector<std::string> params;
  if (fn->regions.empty() || fn->regions[0]->blocks.empty())
    return llvm::make_error<InputError>(m_.path, fn->pos.line, fn->pos.col,
                                        "a function without a body");
  const ir::Block &entry = *fn->regions[0]->blocks[0];
  std::vector<std::string> argNotes;
  std::vector<std::string> unspecialised, unaligned, specialisation, alignedPointers,
      divisibleIntegers;
  // A host tensor descriptor is followed by its shape and strides, which
  // Triton passes as extra arguments named after it; Gluon's descriptor
  // carries them itself.
  std::vector<std::pair<std::string, std::string>> descriptors; // param, layout constant
  std::string lastDesc;
  for (auto *a : entry.arguments) {
    if (!lastDesc.empty() && !isTensorDesc(a->type) &&
        a->name.rfind("%" + lastDesc + "_", 0) == 0) {
      if (!a->uses.empty())
        gap("op", "tensor descriptor field " + a->name, fn->pos.line,
            "the kernel reads a descriptor's shape or stride argument directly");
      bind(a, py::none());
      continue;
    }
    // A parameter keeps the name plain's Python function gives it (the
    // first name in its location), not a later one the body gave its value
    // (`left, right = 0, N` prints the argument as %right).
    std::string n = a->paramName.empty() ? nameFor(a) : scope_.nameFor(a, a->paramName);
    params.push_back(n);
    lastDesc.clear();
    if (isTensorDesc(a->type)) {
      lastDesc = a->name.substr(1);
      descriptors.emplace_back(n, layoutOf(a->type, fn->pos.line));
    }
    std::string note = a->type ? ir::typeText(a->type) : "?";
    if (a->attributes && !a->attributes.empty())
      note += " " + ir::attrText(a->attributes);
    argNotes.push_back(fmt::format("    # {}: {}", n, pyCommentText(note)));
    // Plain's launch specialisation: an integer without tt.divisibility was
    // not specialised (do_not_specialize, or a value not divisible by 16);
    // the anchor is told the same, so one binary serves every value, 1 included.
    std::string ty = a->type ? ir::typeText(a->type) : "";
    bool divisible = a->attributes && a->attributes.get("tt.divisibility");
    bool pointer = llvm::StringRef(ty).starts_with("!tt.ptr");
    if ((ty == "i32" || ty == "i64") && !divisible)
      unspecialised.push_back(n);
    // A pointer plain saw unaligned: the anchor is not told it is aligned.
    if (pointer && !divisible)
      unaligned.push_back(n);
    if (divisible)
      (pointer ? alignedPointers : divisibleIntegers).push_back(n);
    specialisation.push_back(fmt::format("#   {}: {}{}", n, pyCommentText(ty),
                                         divisible ? ", divisible by 16"
                                         : pointer || ty == "i32" || ty == "i64"
                                             ? ", not specialised"
                                             : ""));
  }
  emitFunctionBody(*fn->regions[0]);
  for (auto &l : rec_.layouts)
    if (!l.gluon && l.gluonAtShape.empty() && !l.sites.empty())
      gap("layout", l.kind, l.sites.front().line, "no Gluon constructor: " + l.reason);

  // An op the dump itself gets wrong is bad input, not a missing spelling.
  for (auto &g : gaps_)
    if (g.kind == "damaged") {
      // The caret under the op, where its line's text starts.
      llvm::StringRef text = m_.source();
      size_t at = std::min(offsetOf(text, g.line, 1), text.size());
      size_t first = text.find_first_not_of(" \t", at);
      unsigned col = first != llvm::StringRef::npos && first < text.find('\n', at)
                         ? unsigned(first - at + 1)
                         : 1;
      return llvm::make_error<InputError>(m_.path, g.line, col,
                                          fmt::format("{}: {}", g.what, g.reason));
    }
  r.blockedBy = gaps_;
  r.notCarried = notCarried_;
  r.helpers = helperFunctions_;
  std::sort(r.blockedBy.begin(), r.blockedBy.end(),
            [](const Gap &a, const Gap &b) { return a.line < b.line; });
  r.opsTotal = opsTotal_;
  r.opsTranscribed = opsDone_;
  r.imports.assign(imports_.begin(), imports_.end());
  if (!r.blockedBy.empty() && !o_.allowGaps)
    return r;

  // The module.
  std::string out;
  out += "# A Gluon anchor transcribed by tilexform from a plain Triton dump. Generated.\n";
  // Python takes a module's encoding from its first two lines: stated here,
  // before any line that holds input text (a dump named `coding:utf-7`).
  out += "# -*- coding: utf-8 -*-\n";
  out += fmt::format("# source dump: {}\n", pyCommentText(o_.sourceName));
  out += fmt::format("# kernel: {}\n", pyCommentText(r.kernel));
  out += fmt::format("# target: {}\n",
                     m_.facts.target.empty() ? "unknown" : pyCommentText(m_.facts.target));
  out += fmt::format("# num_warps: {}\n",
                     m_.facts.numWarps ? std::to_string(*m_.facts.numWarps) : "unknown");
  out +=
      fmt::format("# threads_per_warp: {}\n",
                  m_.facts.threadsPerWarp ? std::to_string(*m_.facts.threadsPerWarp) : "unknown");
  out += fmt::format("# gluon api: {}\n", gluon::gluonApiName(o_.api));
  out += fmt::format("# form: {}{}\n", r.form,
                     r.form == "pipelined"
                         ? " (plain's software pipeline, transcribed as the dump shows it)"
                         : "");
  out += fmt::format("# coverage: {}/{} ops\n", r.opsTranscribed, r.opsTotal);
  if (readable())
    out += "# style: readable (plain's ops in plain's order, grouped by the source line they came "
           "from; --style faithful writes one statement per op)\n";
  if (!specialisation.empty()) {
    out += "# plain's specialisation (integers specialised to 1 and constexprs are folded in the "
           "dump):\n";
    for (auto &s : specialisation)
      out += s + "\n";
  }
  for (auto &n : r.notCarried)
    out += fmt::format("# not carried: {} x{} (first at line {}): {}\n", pyCommentText(n.what),
                       n.count, n.line, pyCommentText(n.reason));
  if (!r.blockedBy.empty())
    out += fmt::format("# PLACEHOLDERS: {} op(s) or layout(s) have no Gluon spelling; the "
                       "kernel raises at compile time\n",
                       r.blockedBy.size());
  out += "from triton.experimental import gluon\n";
  out += "from triton.experimental.gluon import language as gl\n";
  if (imports_.count("tl"))
    out += "import triton.language as tl\n";
  if (llvm::any_of(anchorBuiltins(),
                   [&](const AnchorBuiltin &b) { return imports_.count(b.name) != 0; }))
    out += "from triton.language.core import builtin\n";
  if (imports_.count("libdevice"))
    out += "from triton.language.extra import libdevice\n";
  if (imports_.count("hopper") || imports_.count("hopper_init"))
    out += fmt::format("from triton.experimental.gluon.language.nvidia.hopper import "
                       "fence_async_shared, warpgroup_mma, {}warpgroup_mma_wait\n",
                       imports_.count("hopper_init") ? "warpgroup_mma_init, " : "");
  if (imports_.count("ampere"))
    out += "from triton.experimental.gluon.language.nvidia.ampere import mma_v2\n";
  if (imports_.count("async_copy"))
    out += "from triton.experimental.gluon.language.nvidia.ampere import async_copy\n";
  if (imports_.count("blackwell") || imports_.count("blackwell_scaled"))
    out += fmt::format("from triton.experimental.gluon.language.nvidia.blackwell import "
                       "allocate_tensor_memory, tcgen05_commit, tcgen05_mma{}\n",
                       imports_.count("blackwell_scaled") ? ", tcgen05_mma_scaled" : "");
  if (imports_.count("mbarrier") || imports_.count("tma"))
    out += fmt::format("from triton.experimental.gluon.language.nvidia.hopper import {}\n",
                       imports_.count("mbarrier") && imports_.count("tma") ? "mbarrier, tma"
                       : imports_.count("tma")                             ? "tma"
                                                                           : "mbarrier");
  if (!descriptors.empty())
    out += "from triton.experimental.gluon.nvidia.hopper import TensorDescriptor\n";
  if (imports_.count("amd_async_copy"))
    out += "from triton.experimental.gluon.language.amd.cdna4 import async_copy\n";
  for (const char *mod : {"cdna3", "cdna4", "rdna3", "rdna4"})
    if (imports_.count(mod))
      out += fmt::format("from triton.experimental.gluon.language.amd import {}\n", mod);
  // The layout constants, as recover --out writes them.
  std::vector<analysis::LayoutConstant> constants = analysis::layoutConstants(rec_);
  // A parent is kept when a used layout names it, though unused itself, and
  // so is its own parent, up the chain.
  std::map<size_t, std::optional<size_t>> parentOf;
  for (auto &c : constants)
    parentOf[c.index] = c.parent;
  std::set<size_t> referenced;
  for (auto &c : constants)
    if (!rec_.layouts[c.index].sites.empty())
      for (auto p = c.parent; p && referenced.insert(*p).second; p = parentOf[*p]) {
      }
  for (auto &c : constants) {
    const auto &l = rec_.layouts[c.index];
    if (l.sites.empty() && !referenced.count(c.index))
      continue;
    out += fmt::format("\n# {} ({}), role {}\n", pyCommentText(l.name), pyCommentText(l.kind),
                       pyCommentText(l.role));
    out += fmt::format("{} = gl.constexpr({})\n", c.name, c.expr);
  }
  for (auto &[name, c] : shapeConstants_) {
    out += fmt::format("\n# {}\n", pyCommentText(c.second));
    out += fmt::format("{} = gl.constexpr({})\n", name, c.first);
  }
  for (const AnchorBuiltin &b : anchorBuiltins())
    if (imports_.count(b.name))
      out += std::string("\n\n") + b.definition;
  for (auto &h : helpers_)
    out += "\n\n" + h;
  out += "\n\n";
  auto quoted = [](const std::vector<std::string> &names) {
    return llvm::join(
        llvm::map_range(names, [](const std::string &s) { return pyStringLiteral(s); }), ", ");
  };
  std::vector<std::string> jitArgs;
  if (!unspecialised.empty())
    jitArgs.push_back(fmt::format("do_not_specialize=[{}]", quoted(unspecialised)));
  if (!unaligned.empty())
    jitArgs.push_back(fmt::format("do_not_specialize_on_alignment=[{}]", quoted(unaligned)));
  if (jitArgs.empty())
    out += "@gluon.jit\n";
  else
    out += fmt::format("@gluon.jit({})\n", llvm::join(jitArgs, ", "));
  out += fmt::format("def {}({}):\n", r.anchorName, llvm::join(params, ", "));
  for (auto &n : argNotes)
    out += n + "\n";
  out += body_;
  if (body_.empty())
    out += "    pass\n";
  out += "\n\n";
  out += fmt::format("NUM_WARPS = {}\n", m_.facts.numWarps ? *m_.facts.numWarps : 4);
  out += "\n\n";
  // The helper's grid parameter may not be one of the kernel's.
  std::string grid = "grid";
  while (std::find(params.begin(), params.end(), grid) != params.end() || grid == r.anchorName)
    grid = "launch_" + grid;
  std::string paramList = llvm::join(params, ", ");
  out += fmt::format("def launch({}{}{}):\n", grid, params.empty() ? "" : ", ", paramList);
  // The launches it is valid for: those plain's specialisation holds for
  // (the JIT specialises the anchor the same way, so another launch
  // compiles another anchor, as it would compile another plain kernel).
  std::vector<std::string> valid;
  if (!alignedPointers.empty())
    valid.push_back(fmt::format("16-byte aligned: {}", llvm::join(alignedPointers, ", ")));
  if (!divisibleIntegers.empty())
    valid.push_back(fmt::format("multiples of 16: {}", llvm::join(divisibleIntegers, ", ")));
  out += "    \"\"\"Runs the anchor on plain's arguments with plain's grid and num_warps.";
  if (!valid.empty())
    out += fmt::format(
        "\n\n    Plain's binary was specialised for launches with\n      {}\n    and the "
        "anchor is that kernel for them.\n    ",
        llvm::join(valid, "\n      "));
  out += "\"\"\"\n";
  for (auto &[param, layout] : descriptors)
    out +=
        fmt::format("    {0} = TensorDescriptor({0}.base, {0}.shape, {0}.strides, {0}.block_shape, "
                    "{1}.value)\n",
                    param, layout);
  out += fmt::format("    return {}[{}]({}{}num_warps=NUM_WARPS)\n", r.anchorName, grid, paramList,
                     params.empty() ? "" : ", ");
  // Nothing leaves that is not what this function writes (a missed escape
  // is refused here, never imported).
  if (auto err = source::checkGeneratedModule(out))
    return err;
  r.python = std::move(out);
  return r;
}

char KernelNameError::ID = 0;

bool isKernelNameError(const llvm::Error &err) { return err.isA<KernelNameError>(); }

std::string kernelNameProblem(const std::string &name) {
  if (Scope::isIdentifier(name))
    return "";
  if (Scope::isReserved(name))
    return fmt::format("'{}' is a Python keyword, a name Python gives a meaning (a dunder such "
                       "as __getattr__) or a name the anchor module binds itself",
                       name);
  return fmt::format("'{}' is not a Python identifier", name);
}

llvm::Expected<TranscribeReport> transcribe(const ir::Module &module,
                                            const analysis::RecoverReport &recovered,
                                            const TranscribeOptions &options) {
  Emitter e(module, recovered, options);
  return e.run();
}

} // namespace tilexform::transcribe