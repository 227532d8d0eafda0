// Readable: the ops plain inlined from one call of a `@jit` helper of the
// source become a call of a `@gluon.jit` helper of the anchor with the
// source's name. Triton inlines the helper again when it compiles the
// anchor, so its TTGIR keeps plain's ops in plain's order; layouts are the
// module's constants, so a helper needs no layout passed to it.
#include "Emitter.h"

#include "tilexform/ir/OpSchema.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <functional>
#include <map>

namespace tilexform::transcribe {

using ir::Operation;
using ir::Value;

namespace {

/// An op's position at each depth of inlining: the kernel's line first,
/// then the line inside each helper it came through, the op's own last.
std::vector<ir::CallSite> framesOf(const ir::SourceLoc &loc) {
  std::vector<ir::CallSite> frames;
  for (const ir::CallSite *c : loc.callers.outermostFirst())
    frames.push_back(*c);
  frames.push_back({loc.file, loc.line, loc.col, loc.name});
  return frames;
}

/// Triton's own `@jit` functions (`tl.max`, `tl.cdiv`, `tl.sigmoid`) are
/// the language's, which Gluon spells itself: never a helper of the anchor.
bool isTritonLibrary(llvm::StringRef file) {
  return file.contains("triton/language/") || file.contains("triton\\language\\");
}

/// The Python text of a value that needs no name: a number, a float
/// constant, None, True or False.
bool isLiteralText(llvm::StringRef t) {
  if (t == "None" || t == "True" || t == "False")
    return true;
  if (t.starts_with("float(\"") && t.ends_with("\")"))
    return true;
  t.consume_front("-");
  if (t.empty() || !(llvm::isDigit(t[0]) || t[0] == '.'))
    return false;
  return llvm::all_of(
      t, [](char c) { return llvm::isDigit(c) || c == '.' || c == 'e' || c == '-' || c == '+'; });
}

void walkOps(const Operation &op, const std::function<void(const Operation &)> &f) {
  ir::Module::walkFrom(op, [&](const Operation *o) { f(*o); });
}

bool isTerminator(const Operation &op) { return op.schema && op.schema->is(ir::OpFlagTerminator); }

/// The text between the parenthesis at `open` and its match, split at its
/// top-level commas, each part trimmed; empty when it does not close.
std::vector<std::string> splitArguments(llvm::StringRef text, size_t open) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = open + 1;
  char quote = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      quote = c == quote ? 0 : quote;
      continue;
    }
    if (c == '"' || c == '\'')
      quote = c;
    else if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        llvm::StringRef last = text.slice(start, i).trim();
        if (!last.empty())
          parts.push_back(last.str());
        return parts;
      }
    } else if (c == ',' && depth == 1) {
      parts.push_back(text.slice(start, i).trim().str());
      start = i + 1;
    }
  }
  return {};
}

/// Where `text` calls `callee` (`f(...)` or a module's `mod.f(...)`):
/// the callee's position and its opening parenthesis; npos when it does not.
std::pair<size_t, size_t> findCall(llvm::StringRef text, llvm::StringRef callee) {
  for (size_t at = text.find(callee); at != llvm::StringRef::npos; at = text.find(callee, at + 1)) {
    bool start = at == 0 || !(llvm::isAlnum(text[at - 1]) || text[at - 1] == '_');
    size_t open = at + callee.size();
    while (open < text.size() && text[open] == ' ')
      ++open;
    if (start && open < text.size() && text[open] == '(')
      return {at, open};
  }
  return {llvm::StringRef::npos, llvm::StringRef::npos};
}

} // namespace

std::string Emitter::sourceText(const std::string &file, unsigned from, unsigned count) {
  const SourceText *lines = source(file);
  std::string text;
  if (!lines)
    return text;
  for (unsigned l = from; l != 0 && l <= lines->size() && l < from + count; ++l)
    text += (*lines)[l - 1].str() + "\n";
  return text;
}

std::vector<std::string> Emitter::sourceParameters(const std::string &file, unsigned defLine) {
  // `def f(x, s, BLOCK: tl.constexpr = 64):`, over several lines at most.
  std::string text = sourceText(file, defLine, 20);
  size_t open = text.find('(');
  std::vector<std::string> params;
  if (open == std::string::npos)
    return params;
  for (llvm::StringRef p : splitArguments(text, open)) {
    // A constexpr parameter is folded into the dump: no value is passed to
    // it, so it names none (an empty name).
    bool constexpr_ = p.split('=').first.contains("constexpr");
    p = p.split(':').first.split('=').first.trim();
    p = p.ltrim('*');
    params.push_back(constexpr_ ? "" : p.str());
  }
  return params;
}

std::vector<std::pair<std::string, std::string>>
Emitter::sourceCallArguments(const std::string &file, unsigned lineNo, const std::string &callee) {
  // `w = scale_shift(v, s=s)` on the call's line (and the lines after it
  // that the call runs over): each argument's keyword (empty for a
  // positional one) and text.
  std::string text = sourceText(file, lineNo, 20);
  std::vector<std::pair<std::string, std::string>> args;
  size_t open = findCall(text, callee).second;
  if (open == llvm::StringRef::npos)
    return args;
  for (llvm::StringRef a : splitArguments(text, open)) {
    auto [key, value] = a.split('=');
    bool keyword =
        !value.empty() && Scope::isIdentifier(key.trim().str()) && !value.starts_with("=");
    if (keyword)
      args.emplace_back(key.trim().str(), value.trim().str());
    else
      args.emplace_back("", a.str());
  }
  return args;
}

std::vector<std::string> Emitter::sourceReturnNames(const std::string &file, unsigned defLine) {
  const SourceText *src = source(file);
  std::vector<std::string> names;
  if (!src || defLine == 0 || defLine > src->size())
    return names;
  auto indentOf = [](llvm::StringRef s) { return s.size() - s.ltrim().size(); };
  size_t indent = indentOf((*src)[defLine - 1]);
  // The body: the lines after the signature indented more than the `def`
  // (blank lines and comments aside); its last `return`.
  unsigned returnLine = 0;
  for (unsigned l = defLine + 1; l <= src->size(); ++l) {
    llvm::StringRef t = llvm::StringRef((*src)[l - 1]).ltrim();
    if (t.empty() || t.starts_with("#"))
      continue;
    if (indentOf((*src)[l - 1]) <= indent)
      break;
    if (t.starts_with("return ") || t == "return")
      returnLine = l;
  }
  if (returnLine == 0)
    return names;
  std::string text = sourceText(file, returnLine, 20);
  size_t at = text.find("return") + 6;
  while (at < text.size() && text[at] == ' ')
    ++at;
  std::vector<std::string> parts;
  if (at < text.size() && text[at] == '(') {
    parts = splitArguments(text, at);
  } else {
    // One line: `return a, b` (a comment after it aside).
    std::string line =
        "(" + llvm::StringRef(text).substr(at).split('\n').first.split('#').first.str() + ")";
    parts = splitArguments(line, 0);
  }
  for (const std::string &p : parts)
    names.push_back(Scope::isIdentifier(p) ? p : "");
  return names;
}

std::vector<std::string> Emitter::sourceCallTargets(const std::string &file, unsigned lineNo,
                                                    const std::string &callee) {
  std::vector<std::string> targets;
  std::string text = sourceText(file, lineNo, 1);
  size_t at = findCall(text, callee).first;
  if (at == llvm::StringRef::npos)
    return targets;
  llvm::StringRef before = llvm::StringRef(text).take_front(at).rtrim();
  // `a, b = f(...)` or `a, b = mod.f(...)`: the targets before the one `=`.
  size_t dot = before.size();
  while (dot > 0 &&
         (llvm::isAlnum(before[dot - 1]) || before[dot - 1] == '_' || before[dot - 1] == '.'))
    --dot;
  before = before.take_front(dot).rtrim();
  // One `=`: not `==`, `!=`, `<=`, `>=` or a chain `a = b = f(...)`.
  if (!before.consume_back("=") || before.contains('=') || before.ends_with("!") ||
      before.ends_with("<") || before.ends_with(">"))
    return targets;
  std::string lhs = before.trim().str();
  if (llvm::StringRef(lhs).starts_with("(") && llvm::StringRef(lhs).ends_with(")"))
    lhs = lhs.substr(1, lhs.size() - 2);
  for (const std::string &p : splitArguments("(" + lhs + ")", 0)) {
    if (!Scope::isIdentifier(p))
      return {};
    targets.push_back(p);
  }
  return targets;
}

std::string Emitter::sourceFunctionAt(const std::string &file, unsigned lineNo, unsigned *defLine) {
  // The nearest `def` above the line, indented less than it (a jit
  // function has no function nested in it).
  const SourceText *src = source(file);
  if (!src || lineNo == 0 || lineNo > src->size())
    return "";
  const SourceText &lines = *src;
  auto indentOf = [](llvm::StringRef s) { return s.size() - s.ltrim().size(); };
  size_t indent = indentOf(lines[lineNo - 1]);
  for (size_t i = lineNo; i-- > 0;) {
    llvm::StringRef l(lines[i]);
    llvm::StringRef t = l.ltrim();
    // A one-line function (`def exp2(x): return ...`) is its own line.
    bool own = i + 1 == lineNo && t.starts_with("def ");
    // Past the lines of the body and of a signature written over several
    // lines (`def f(\n    x,\n):`), to the first `def` indented less.
    if (!own && (!t.starts_with("def ") || indentOf(l) >= indent))
      continue;
    t.consume_front("def ");
    t = t.ltrim();
    if (defLine)
      *defLine = unsigned(i + 1);
    std::string name = t.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; }).str();
    return Scope::isIdentifier(name) ? name : "";
  }
  return "";
}

void Emitter::countHelper(const std::string &name, const std::string &source, size_t calls) {
  for (auto &h : helperFunctions_)
    if (h.name == name) {
      h.calls += calls;
      return;
    }
  helperFunctions_.push_back({name, source, calls});
}

std::pair<std::string, unsigned> Emitter::positionAt(const ir::SourceLoc &loc) const {
  std::vector<ir::CallSite> frames = framesOf(loc);
  const ir::CallSite &f = frames[std::min<size_t>(size_t(depth_), frames.size() - 1)];
  return {f.file, f.line};
}

void Emitter::planHelpers(const std::vector<std::vector<const Operation *>> &sequences) {
  // The call an op came from at this depth: the position of the call in
  // the code being written, when the op came through a helper of the
  // source's own (the frame below it is not Triton's library).
  // The key also names the callee (its def), so two calls that share a
  // position (`g(f())`: Triton leaves the call's location at its last
  // argument) are two calls.
  using Key = std::tuple<std::string, unsigned, unsigned, std::string, unsigned>;
  struct Callee {
    std::string name, file; // the source's function and its file
    unsigned def = 0;       // the line of its `def`
  };
  std::map<std::pair<std::string, unsigned>, Callee> callees;
  auto keyOf = [&](const Operation &op, Callee *callee) -> std::optional<Key> {
    if (isTerminator(op))
      return std::nullopt;
    std::vector<ir::CallSite> frames = framesOf(op.loc);
    size_t d = size_t(depth_);
    if (frames.size() <= d + 1 || frames[d].line == 0 || isTritonLibrary(frames[d + 1].file))
      return std::nullopt;
    // Each op is keyed several times: the source is searched once a line.
    auto [it, fresh] = callees.try_emplace({frames[d + 1].file, frames[d + 1].line});
    if (fresh) {
      it->second.file = frames[d + 1].file;
      it->second.name = sourceFunctionAt(it->second.file, frames[d + 1].line, &it->second.def);
    }
    const Callee &c = it->second;
    Key key{frames[d].file, frames[d].line, frames[d].col, c.file, c.def};
    if (callee)
      *callee = c;
    return key;
  };
  // How many ops each call has in all: a call whose ops plain moved apart
  // (a constant hoisted, a value shared with the caller) stays inline.
  std::map<Key, size_t> total;
  for (auto &seq : sequences)
    for (const Operation *o : seq)
      walkOps(*o, [&](const Operation &op) {
        if (auto k = keyOf(op, nullptr))
          ++total[*k];
      });
  std::function<void(const std::vector<const Operation *> &)> plan =
      [&](const std::vector<const Operation *> &ops) {
        for (size_t i = 0; i < ops.size();) {
          const Operation &first = *ops[i];
          Callee callee;
          auto key = keyOf(first, &callee);
          if (!key) {
            // A while's condition is folded as one test; no call is taken out of it.
            if (first.name != "scf.while")
              for (auto &r : first.regions)
                for (auto &nb : r->blocks) {
                  std::vector<const Operation *> inner;
                  for (auto &o : nb->ops)
                    inner.push_back(o.get());
                  plan(inner);
                }
            ++i;
            continue;
          }
          size_t j = i;
          size_t n = 0;
          while (j < ops.size() && keyOf(*ops[j], nullptr) == key) {
            walkOps(*ops[j], [&](const Operation &op) { n += keyOf(op, nullptr) == key; });
            ++j;
          }
          if (!callee.name.empty() && n == total[*key]) {
            HelperRun run;
            run.ops.assign(ops.begin() + long(i), ops.begin() + long(j));
            inHelperRun_.insert(run.ops.begin(), run.ops.end());
            run.name = moduleScope().claim(callee.name);
            run.sourceName = callee.name;
            run.defFile = callee.file;
            run.defLine = callee.def;
            run.callFile = std::get<0>(*key);
            run.callLine = std::get<1>(*key);
            // The source's name is the helper's: no value of the caller takes it.
            scope_.reserve(run.name);
            helperRuns_[run.ops.front()] = std::move(run);
          }
          i = j;
        }
      };
  for (auto &seq : sequences)
    plan(seq);
}

void Emitter::emitHelperCall(const HelperRun &run) {
  std::set<const Operation *> inside;
  for (const Operation *o : run.ops)
    walkOps(*o, [&](const Operation &op) { inside.insert(&op); });
  auto definedInside = [&](const Value *v) {
    const Operation *d = v->definingOp;
    if (!d && v->ownerBlock) {
      // A block argument of a region inside the call.
      for (const Operation *o : inside)
        for (auto &r : o->regions)
          for (auto &b : r->blocks)
            if (b.get() == v->ownerBlock)
              return true;
      return false;
    }
    return d && inside.count(d);
  };
  // The helper's body in a scope of its own, one call deeper.
  Emitter inner(m_, rec_, o_);
  inner.shareNames(*this);
  inner.depth_ = depth_ + 1;
  inner.absorbed_ = absorbed_;
  inner.notes_ = notes_; // a ring allocated inside keeps its comment
  inner.phases_ = phases_;
  inner.plan_ = plan_;
  inner.functionNames_ = functionNames_;
  inner.helperByBody_ = helperByBody_;
  inner.displayNames_ = displayNames_;
  inner.moduleScope_ = &moduleScope();
  inner.scope_.setOuter(&moduleScope());
  // Its parameters: the values it reads from the caller, in the order it
  // first reads them; a literal is written inside instead.
  // An op another op's spelling stands for (a descriptor's byte stride)
  // is written by no one: what it reads is read in its place.
  std::function<void(const Value *, const std::function<void(const Value *)> &)> through =
      [&](const Value *v, const std::function<void(const Value *)> &f) {
        if (v && v->definingOp && absorbed_.count(v->definingOp)) {
          for (const Value *o : v->definingOp->operands)
            through(o, f);
          return;
        }
        f(v);
      };
  std::vector<const Value *> reads;
  std::set<const Value *> seen;
  for (const Operation *o : run.ops)
    walkOps(*o, [&](const Operation &op) {
      for (const Value *operand : op.operands)
        through(operand, [&](const Value *v) {
          if (!v || definedInside(v) || !seen.insert(v).second)
            return;
          py::Expr x = expr(v);
          if (isLiteralText(py::print(x)))
            inner.bind(v, x);
          else
            reads.push_back(v);
        });
    });
  // Calls one level further in, planned before any name is given here,
  // so that no parameter takes a helper's name.
  inner.planHelpers({run.ops});
  // Where the source's call passes a value by the caller's name for it,
  // the parameter takes the source's name and place; the others follow.
  std::vector<std::string> defParams = sourceParameters(run.defFile, run.defLine);
  std::vector<std::pair<std::string, std::string>> callArgs =
      sourceCallArguments(run.callFile, run.callLine, run.sourceName);
  std::map<const Value *, std::pair<size_t, std::string>> placed;
  for (size_t i = 0; i < callArgs.size(); ++i) {
    auto &[keyword, text] = callArgs[i];
    size_t at = i;
    if (!keyword.empty())
      at = size_t(std::find(defParams.begin(), defParams.end(), keyword) - defParams.begin());
    if (at >= defParams.size() || !Scope::isIdentifier(defParams[at]))
      continue;
    for (const Value *v : reads)
      if (!placed.count(v) && py::print(expr(v)) == text) {
        placed[v] = {at, defParams[at]};
        break;
      }
  }
  // One value read and one parameter left: that parameter, whatever the
  // call computed in its argument (`exp2(b_gn - b_gk)`).
  {
    std::vector<const Value *> freeReads;
    for (const Value *v : reads)
      if (!placed.count(v))
        freeReads.push_back(v);
    std::vector<size_t> freeParams;
    // The parameters the call passes (all of a one-parameter function's
    // when the call was not read).
    size_t passed = !callArgs.empty() ? callArgs.size() : defParams.size() == 1 ? 1 : 0;
    for (size_t i = 0; i < defParams.size() && i < passed; ++i)
      if (Scope::isIdentifier(defParams[i]) &&
          std::none_of(placed.begin(), placed.end(),
                       [&](auto &kv) { return kv.second.first == i; }))
        freeParams.push_back(i);
    if (freeReads.size() == 1 && freeParams.size() == 1)
      placed[freeReads[0]] = {freeParams[0], defParams[freeParams[0]]};
  }
  std::stable_sort(reads.begin(), reads.end(), [&](const Value *a, const Value *b) {
    size_t pa = placed.count(a) ? placed[a].first : SIZE_MAX;
    size_t pb = placed.count(b) ? placed[b].first : SIZE_MAX;
    return pa < pb;
  });
  std::vector<std::string> params;
  std::vector<py::Expr> args;
  for (const Value *v : reads) {
    params.push_back(placed.count(v) ? inner.nameAs(v, placed[v].second) : inner.nameFor(v));
    args.push_back(expr(v));
  }
  for (const Operation *o : run.ops)
    inner.emitOp(*o);
  // Its results: the values the caller reads afterwards. A literal is
  // bound in the caller as it is.
  std::vector<std::string> rets;
  std::vector<const Value *> outs;
  for (const Operation *o : run.ops)
    for (const Value *result : o->results) {
      bool usedOutside = std::any_of(result->uses.begin(), result->uses.end(),
                                     [&](auto &u) { return !inside.count(u.first); });
      if (!usedOutside)
        continue;
      through(result, [&](const Value *r) {
        if (!r || !definedInside(r) || std::find(outs.begin(), outs.end(), r) != outs.end())
          return;
        py::Expr x = inner.expr(r);
        std::string text = py::print(x);
        if (isLiteralText(text)) {
          bind(r, x);
          return;
        }
        rets.push_back(text);
        outs.push_back(r);
      });
    }
  // In the order the source returns them (`return acc, l_i, m_i`), each
  // bound to the caller's target at its position (`acc, l_i, m_i = f(...)`);
  // a value the source does not return (the pipeliner's) after them.
  std::vector<std::string> returned = sourceReturnNames(run.defFile, run.defLine);
  std::vector<std::string> targets = sourceCallTargets(run.callFile, run.callLine, run.sourceName);
  struct Result {
    size_t position; // in the source's return; SIZE_MAX when it is not there
    const Value *value;
    std::string text;
  };
  std::vector<Result> results;
  for (size_t i = 0; i < outs.size(); ++i) {
    std::string own = inner.sourceName(outs[i]);
    size_t k = 0;
    for (; k < returned.size(); ++k)
      if (!returned[k].empty() && (returned[k] == rets[i] || returned[k] == own) &&
          std::none_of(results.begin(), results.end(), [&](auto &r) { return r.position == k; }))
        break;
    results.push_back({k < returned.size() ? k : SIZE_MAX, outs[i], rets[i]});
  }
  std::stable_sort(results.begin(), results.end(),
                   [](auto &a, auto &b) { return a.position < b.position; });
  for (size_t i = 0; i < results.size(); ++i) {
    outs[i] = results[i].value;
    rets[i] = results[i].text;
  }
  // `y = expr` as the body's last line, returned alone: `return expr`.
  std::string &body = inner.body_;
  llvm::StringRef last = llvm::StringRef(body).rtrim('\n');
  last = last.substr(last.rfind('\n') + 1);
  std::string assigned = rets.size() == 1 ? "    " + rets[0] + " = " : "";
  if (!assigned.empty() && last.starts_with(assigned)) {
    std::string value = last.substr(assigned.size()).str();
    body.resize(body.size() - last.size() - 1);
    body += "    return " + value + "\n";
  } else if (!rets.empty()) {
    // Under the helper's last line (a folded op set none).
    auto [file, at] = inner.positionAt(run.ops.back()->loc);
    if (at != 0) {
      inner.curFile_ = file;
      inner.curLine_ = at;
    }
    inner.line("return " + llvm::join(rets, ", "));
  }
  if (body.empty())
    body = "    pass\n";
  adopt(inner);
  // One helper per distinct body: a second call with the same code calls
  // the first one's.
  std::string key = "def " + run.name + "(" + llvm::join(params, ", ") + "):\n" + body;
  std::string name;
  if (auto it = helperByBody_.find(key); it != helperByBody_.end()) {
    name = it->second;
  } else {
    // The source's name for its first body, then name_1, name_2, ...
    bool taken = std::any_of(helperByBody_.begin(), helperByBody_.end(),
                             [&](auto &kv) { return kv.second == run.name; });
    name = taken ? moduleScope().fresh(run.name) : run.name;
    helperByBody_[key] = name;
    helpers_.push_back(
        fmt::format("@gluon.jit\ndef {}({}):\n{}", name, llvm::join(params, ", "), body));
  }
  scope_.reserve(name);
  countHelper(name, run.sourceName, 1);
  py::Expr call = py::call(name, std::move(args));
  // A call whose one result the next statement reads inside its
  // expression, where plain's last op of the call was folded: written
  // there (`b_A * exp2(b_g - b_gk)`), when evaluating the call (its
  // arguments left to right, then its body) makes the ops the folded op
  // would have, in the same order. As a statement of its own it would come
  // before the ops of that expression plain has first.
  if (readable() && plan_ && outs.size() == 1) {
    const Operation *last = run.ops.back();
    const FoldKind *k = plan_->kindOf(last);
    if (k && *k == FoldKind::Expression && last->results.size() == 1 &&
        last->results[0] == outs[0]) {
      std::vector<const Operation *> made;
      for (const Value *v : reads) {
        std::vector<const Operation *> ops = expressionOps(*plan_, v);
        made.insert(made.end(), ops.begin(), ops.end());
      }
      for (const Operation *o : run.ops)
        if (o->name != "arith.constant")
          made.push_back(o);
      if (made == expressionOps(*plan_, outs[0]))
        return bind(outs[0], call);
    }
  }
  // The call, under the caller's line.
  if (!inner_) {
    auto [file, at] = positionAt(run.ops.front()->loc);
    if (at != 0) {
      curFile_ = file;
      curLine_ = at;
    }
  }
  // The caller's names; a second result the caller's line names the same
  // (a value plain shares between the helper and what follows) takes the
  // helper's own name for it.
  std::vector<std::string> names;
  for (size_t i = 0; i < outs.size(); ++i) {
    const Value *v = outs[i];
    size_t at = results[i].position;
    if (targets.size() == returned.size() && at < targets.size() && !scope_.named(v)) {
      names.push_back(nameAs(v, targets[at]));
      continue;
    }
    bool shadowed = i + 1 < outs.size() && !scope_.named(v) &&
                    sourceName(v) == sourceName(outs.back()) && Scope::isIdentifier(rets[i]);
    names.push_back(shadowed ? nameAs(v, rets[i]) : nameFor(v));
  }
  line((names.empty() ? "" : llvm::join(names, ", ") + " = ") + py::print(call));
}

} // namespace tilexform::transcribe
