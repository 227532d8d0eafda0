// Loop classification: each loop of a kernel as Triton's software pipeliner
// sees it after the frontend has inlined every @jit helper and unrolled every
// static_range. The pipeliner pipelines innermost loops only: a loop whose own
// block holds another for or while loop is an outer loop (isOuterLoop, in
// isSafeToPipeline of lib/Dialect/TritonGPU/Transforms/Pipeliner), whether
// that loop is written in it or brought in by an inlined helper.
#include "SurveyFile.h"

#include <fmt/format.h>

namespace tilexform::source::detail {

namespace {

struct LoopForm {
  std::string form, iterator, numStages;
  const Node *numStagesArg = nullptr;
  bool bare = false, flatten = false, warpSpecialize = false;
};

/// What a num_stages name bound in the kernel can be: `NS: tl.constexpr =
/// None if ENABLE_PIPELINING else 1` is None (no attribute: the loop is
/// bare) when the switch is on and 1 otherwise. Empty when a binding is not
/// None, an integer literal or a conditional of those.
struct StagesChoice {
  bool none = false, frozen = false, deep = false;
  const Node *binding = nullptr, *test = nullptr;
};

bool stagesOutcomes(const Node *v, StagesChoice &c, int depth) {
  int64_t value = 0;
  if (!v || depth > 4)
    return false;
  if (v->kind == K::Constant && v->text == "None")
    return c.none = true;
  if (integerLiteral(v, value)) {
    (value <= 1 ? c.frozen : c.deep) = true;
    return true;
  }
  if (v->kind == K::IfExp) {
    if (!c.test)
      c.test = v->kids[1];
    return stagesOutcomes(v->kids[0], c, depth + 1) && stagesOutcomes(v->kids[2], c, depth + 1);
  }
  return false;
}

std::optional<StagesChoice> stagesOfLocal(const Node *def, const std::string &name) {
  StagesChoice c;
  bool ok = true;
  walkBody(def->body, [&](Node *n) {
    const Node *value = nullptr;
    bool binds = false;
    if (n->kind == K::AnnAssign && n->kids[0]->kind == K::Name && n->kids[0]->text == name) {
      binds = true;
      value = n->kids[2];
    } else if (n->kind == K::Assign) {
      for (size_t i = 0; i + 1 < n->kids.size(); ++i) {
        std::set<std::string> names;
        targetNames(n->kids[i], names);
        if (names.count(name)) {
          binds = true;
          value = n->kids[i]->kind == K::Name ? n->kids.back() : nullptr;
        }
      }
    } else if (n->kind == K::For || n->kind == K::AugAssign) {
      std::set<std::string> names;
      targetNames(n->kids[0], names);
      binds = names.count(name) > 0; // a value survey does not follow
    }
    if (!binds)
      return;
    if (!c.binding)
      c.binding = n;
    ok = ok && value && stagesOutcomes(value, c, 0);
  });
  for (const Node *p : def->params)
    if (p->text == name)
      ok = false;
  if (!ok || !c.binding)
    return std::nullopt;
  return c;
}

bool isStaticRange(const Imports &im, const Node *forNode) {
  const Node *iter = forNode->kids[1];
  if (iter->kind != K::Call)
    return false;
  std::string r = im.resolve(iter->kids[0]);
  return lastComponent(r) == "static_range" && (isLanguagePath(r) || r == "static_range");
}

LoopForm loopForm(const Imports &im, const Node *forNode) {
  LoopForm f;
  const Node *iter = forNode->kids[1];
  if (iter->kind != K::Call) {
    f.iterator = dottedName(iter);
    f.bare = true;
    return f;
  }
  std::string shown = dottedName(iter->kids[0]);
  std::string r = im.resolve(iter->kids[0]);
  f.iterator = shown.empty() ? "(call)" : shown;
  if (isStaticRange(im, forNode)) {
    f.form = "static";
    return f;
  }
  if (lastComponent(r) == "range" && isLanguagePath(r)) {
    const Node *ns = keywordArg(iter, "num_stages");
    // tl.range(arg1, arg2=None, step=None, num_stages=None, ...): the
    // fourth positional argument is num_stages.
    std::vector<const Node *> pos = positionalArgs(iter);
    if (!ns && pos.size() >= 4)
      ns = pos[3];
    for (const char *kw : {"flatten", "warp_specialize"})
      if (const Node *v = keywordArg(iter, kw); v && v->kind == K::Constant && v->text == "True")
        (llvm::StringRef(kw) == "flatten" ? f.flatten : f.warpSpecialize) = true;
    if (ns && !(ns->kind == K::Constant && ns->text == "None")) {
      f.numStagesArg = ns;
      f.numStages = ns->kind == K::Name || ns->kind == K::Constant ? ns->text : "(expression)";
      int64_t v = 0;
      if (ns->kind == K::Constant && !llvm::StringRef(ns->text).getAsInteger(0, v) && v <= 1)
        f.form = "frozen";
      else
        f.form = "annotated";
      return f;
    }
  }
  f.bare = true;
  return f;
}

/// What one loop's own block holds once helpers are inlined: its dots, and
/// whether a loop sits directly in it (which makes it an outer loop).
struct BlockFacts {
  int dots = 0, helperDots = 0;
  bool innerLoop = false;
  unsigned innerLine = 0;
  std::string innerHelper; // the inlined helper that brings the loop, "" for a written one
  std::string innerSwitch; // the constexpr tests it sits under, "" when none
  std::vector<ImportedCall> imported;
};

} // namespace

/// Reads a block as the pipeliner sees it. `direct`: the statements land in
/// the loop's own block (not under a runtime branch, which becomes an scf.if
/// region). A constexpr `if` folds away, so its body is direct; a
/// static_range body is unrolled into the block.
struct BlockReader {
  FileAnalysis &file;
  const Scope &scope;
  BlockFacts facts;
  std::vector<std::string> switches; // the folded ifs around the statement being read

  std::string switchText() const {
    std::string text;
    for (const std::string &s : switches)
      text += (text.empty() ? "" : " and ") + s;
    return text;
  }

  void expression(Node *root, bool direct) {
    traverse(root, [&](Node *n, const std::vector<Node *> &) {
      if (isScope(n))
        return false;
      if (n->kind != K::Call)
        return true;
      const Imports &im = file.imports();
      std::string r = im.resolve(n->kids[0]);
      if (isDotLike(r)) {
        ++facts.dots;
        return true;
      }
      if (n->kids[0]->kind == K::Name)
        if (KernelInfo *helper = file.kernelNamed(n->kids[0]->text); helper && !helper->noinline) {
          JitFunctionFacts h = file.jitFunction(helper->record.name);
          facts.dots += h.dots;
          facts.helperDots += h.dots;
          if (h.loop && direct && !facts.innerLoop) {
            facts.innerLoop = true;
            facts.innerLine = h.loopLine;
            facts.innerHelper = helper->record.name;
            std::string outer = switchText();
            facts.innerSwitch = outer.empty() || h.loopSwitch.empty()
                                    ? outer + h.loopSwitch
                                    : outer + " and " + h.loopSwitch;
          }
          return true;
        }
      std::string head = dottedName(n->kids[0]);
      head = head.substr(0, head.find('.'));
      if (!r.empty() && im.alias.count(head) && !isLanguagePath(r) &&
          !llvm::StringRef(r).starts_with("triton"))
        facts.imported.push_back(ImportedCall{r, direct});
      return true;
    });
  }

  void block(const std::vector<Node *> &body, bool direct) {
    for (Node *s : body) {
      switch (s->kind) {
      case K::For:
        if (isStaticRange(file.imports(), s)) {
          expression(s->kids[1], direct);
          block(s->body, direct);
          break;
        }
        [[fallthrough]];
      case K::While:
        // An inner loop has its own record; only its header is this block's.
        if (direct && !facts.innerLoop) {
          facts.innerLoop = true;
          facts.innerLine = s->line;
          facts.innerSwitch = switchText();
        }
        for (Node *c : s->kids)
          if (c)
            expression(c, direct);
        break;
      case K::If: {
        expression(s->kids[0], direct);
        bool folded = file.isConstexpr(s->kids[0], scope);
        // `X`, `not X`, or where the test is something else its line.
        const Node *t = s->kids[0];
        bool negated = t->kind == K::UnaryOp && t->text == "not" && !t->kids.empty();
        std::string name = dottedName(negated ? t->kids[0] : t);
        std::string holds = name.empty() ? "the test at line " + std::to_string(s->line)
                                         : (negated ? "not " : "") + name;
        std::string fails = name.empty() ? "not the test at line " + std::to_string(s->line)
                                         : (negated ? "" : "not ") + name;
        if (folded)
          switches.push_back(holds);
        block(s->body, direct && folded);
        if (folded)
          switches.back() = fails;
        block(s->orelse, direct && folded);
        if (folded)
          switches.pop_back();
        break;
      }
      case K::With:
      case K::Try:
        for (Node *c : s->kids)
          if (c)
            expression(c, direct);
        block(s->body, direct);
        for (Node *h : s->handlers)
          block(h->body, direct);
        block(s->orelse, direct);
        block(s->finalbody, direct);
        break;
      case K::FunctionDef:
      case K::ClassDef:
        break;
      default:
        expression(s, direct);
        break;
      }
    }
  }
};

JitFunctionFacts FileAnalysis::jitFunction(const std::string &name) {
  auto memo = jitFacts_.find(name);
  if (memo != jitFacts_.end())
    return memo->second;
  KernelInfo *k = kernelNamed(name);
  if (!k || k->noinline || inProgress_.count(name))
    return {};
  inProgress_.insert(name); // recursion counts once
  Scope scope = kernelScope(k->def);
  BlockReader reader{*this, scope, {}, {}};
  reader.block(k->def->body, true);
  inProgress_.erase(name);
  JitFunctionFacts facts{reader.facts.dots, reader.facts.innerLoop, reader.facts.innerLine,
                         reader.facts.innerSwitch};
  jitFacts_[name] = facts;
  return facts;
}

void FileAnalysis::classifyLoops(KernelInfo &k) {
  Scope scope = kernelScope(k.def);
  bool gluon = k.dialect == Dialect::Gluon;
  // Whether a Gluon loop writes its own overlap: async copies (global to
  // shared, TMA), mbarrier waits or multi-buffered shared memory indexed
  // per iteration.
  auto writesOverlap = [&](const std::vector<Node *> &body) {
    bool found = false;
    for (Node *s : body)
      walkAll(s, [&](Node *n) {
        if (n->kind != K::Call)
          return;
        std::string r = im_.resolve(n->kids[0]);
        llvm::StringRef last = llvm::StringRef(r).rsplit('.').second;
        if (last.empty())
          last = r;
        if (llvm::StringRef(r).contains("async_copy") || llvm::StringRef(r).contains("tma.") ||
            llvm::StringRef(r).contains("mbarrier.") || last == "async_copy_global_to_shared" ||
            last == "global_load_to_shared" || last == "buffer_load_to_shared" ||
            last == "warpgroup_mma_wait" || last == "tcgen05_commit")
          found = true;
        // smem.index(i) inside the loop: a ring of buffers.
        if (n->kids[0]->kind == K::Attribute && n->kids[0]->text == "index")
          found = true;
      });
    return found;
  };
  std::function<void(const std::vector<Node *> &)> visit = [&](const std::vector<Node *> &body) {
    for (Node *s : body) {
      if (s->kind == K::For || s->kind == K::While) {
        BlockReader reader{*this, scope, {}, {}};
        reader.block(s->body, true);
        BlockFacts &b = reader.facts;
        LoopRecord rec;
        rec.line = s->line;
        rec.col = s->col;
        rec.dots = b.dots;
        rec.helperDots = b.helperDots;
        rec.importedCalls = b.imported;
        LoopInfo info;
        info.node = s;
        info.dots = b.dots;
        if (s->kind == K::While) {
          rec.iterator = "while";
          rec.form = "none";
          rec.why = "a while loop: Triton's software pipeliner handles only for loops";
        } else {
          LoopForm f = loopForm(im_, s);
          // num_stages=NS with NS a constexpr local of literals: what it is.
          std::string stagesNote;
          if (f.numStagesArg && f.numStagesArg->kind == K::Name)
            if (auto c = stagesOfLocal(k.def, f.numStagesArg->text)) {
              std::string at = fmt::format("{} (line {})", f.numStages, c->binding->line);
              std::string when = c->test ? dottedName(c->test) : std::string();
              if (when.empty())
                when = "its test";
              if (c->none && !c->frozen && !c->deep) {
                f.form = "";
                stagesNote = "num_stages=" + at + " is None: ";
              } else if (c->none && c->frozen && !c->deep) {
                // None on one arm (the loop is bare there), 1 on the other.
                f.form = "";
                stagesNote = "num_stages=" + at + " is None or 1 by " + when +
                             ": where it is 1 the loop is frozen; where None, ";
              } else if (c->frozen && !c->none && !c->deep) {
                f.form = "frozen";
              }
            }
          rec.iterator = f.iterator;
          rec.numStages = f.numStages;
          rec.flatten = f.flatten;
          rec.warpSpecialize = f.warpSpecialize;
          bool outer =
              b.innerLoop && !gluon && f.form != "static" && !f.flatten && !f.warpSpecialize;
          info.outer = outer;
          if (gluon && f.form != "static") {
            // gluon_to_ttgir runs no software pipeliner: a Gluon loop
            // overlaps only what its code writes.
            bool authored = writesOverlap(s->body);
            rec.form = authored ? "authored" : "none";
            rec.why = authored ? "a Gluon loop: no software pipeliner runs on Gluon, and this one "
                                 "writes its own overlap (multi-buffered shared memory with async "
                                 "copies, TMA or mbarriers); the launch num_stages is inert"
                               : "a Gluon loop: no software pipeliner runs on Gluon and the loop "
                                 "writes no overlap of its own; the launch num_stages is inert";
          } else if (outer) {
            rec.form = "outer";
            std::string holds =
                b.innerHelper.empty()
                    ? fmt::format("holds the loop at line {}", b.innerLine)
                    : fmt::format("inlines @jit helper {}, whose loop (line {}) lands in its body",
                                  b.innerHelper, b.innerLine);
            if (!b.innerSwitch.empty())
              holds += " where " + b.innerSwitch +
                       " holds (a constexpr: a launch where it does not compiles no loop there)";
            rec.why = "an outer loop: it " + holds +
                      "; Triton pipelines innermost loops only (isOuterLoop), so " +
                      (f.numStages.empty() ? std::string("no num_stages reaches it")
                                           : "its num_stages=" + f.numStages + " is inert") +
                      (b.dots ? fmt::format(" and its {} dot{} run{} unpipelined", b.dots,
                                            b.dots == 1 ? "" : "s", b.dots == 1 ? "s" : "")
                              : std::string());
          } else if (f.form == "static") {
            rec.form = "static";
            rec.why = "static_range is unrolled at compile time, never pipelined";
          } else if (f.form == "annotated") {
            rec.form = "annotated";
            rec.why = "num_stages=" + f.numStages +
                      " on the loop decides its depth; the launch num_stages is inert";
          } else if (f.form == "frozen") {
            rec.form = "frozen";
            rec.why = "num_stages=" + f.numStages +
                      " written in the source: no config can deepen this loop";
          } else if (b.dots > 0) {
            rec.form = "launch";
            rec.why = stagesNote + std::to_string(b.dots) + " dot" + (b.dots == 1 ? "" : "s") +
                      (b.helperDots ? fmt::format(" ({} in @jit helpers it calls, inlined "
                                                  "before pipelining)",
                                                  b.helperDots)
                                    : std::string()) +
                      " in a bare loop: the launch num_stages decides its depth";
          } else {
            rec.form = "none";
            rec.why = stagesNote +
                      "no dot in a bare loop: nothing pipelines it until it is annotated "
                      "with tl.range(..., num_stages=N)";
          }
        }
        info.record = k.record.loops.size();
        k.record.loops.push_back(std::move(rec));
        k.loops.push_back(info);
        visit(s->body);
        visit(s->orelse);
        continue;
      }
      if (s->kind == K::FunctionDef || s->kind == K::ClassDef)
        continue;
      visit(s->body);
      for (Node *h : s->handlers)
        visit(h->body);
      visit(s->orelse);
      visit(s->finalbody);
    }
  };
  visit(k.def->body);
}

} // namespace tilexform::source::detail
