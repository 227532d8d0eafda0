// One file's facts: module globals, kernels and their autotune configs,
// constexpr names, launches; run() computes them and applies every rule.
#include "SurveyFile.h"

#include "SurveyRules.h"

#include <algorithm>

namespace tilexform::source::detail {

namespace {

bool byPosition(const Finding &a, const Finding &b) {
  return std::tie(a.line, a.col, a.kind) < std::tie(b.line, b.col, b.kind);
}

/// A decorator that autotunes through a library's wrapper: one that takes
/// `configs=` as triton.autotune does (`@libtuner(configs=..., key=...)`,
/// `@fla_cache_autotune(configs=...)`), or is named like one.
bool isAutotuneWrapper(const Node *decorator, const std::string &resolved) {
  std::string last = lastComponent(resolved);
  llvm::StringRef l(last);
  if (l == "autotune" || l.ends_with("_autotune") || l.ends_with("tuner"))
    return true;
  return decorator->kind == K::Call && keywordArg(decorator, "configs") &&
         keywordArg(decorator, "key");
}

} // namespace

std::string FileAnalysis::lineText(unsigned line) const {
  llvm::StringRef rest = text_;
  for (unsigned i = 1; i < line && !rest.empty(); ++i)
    rest = rest.split('\n').second;
  llvm::StringRef l = rest.split('\n').first;
  // Without a trailing comment: a '#' outside quotes ends the code.
  char quote = 0;
  for (size_t i = 0; i < l.size(); ++i) {
    char c = l[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      l = l.take_front(i);
      break;
    }
  }
  return l.trim().str();
}

Finding FileAnalysis::finding(const char *kind, const Node *at, const std::string &kernel,
                              std::string message) const {
  return Finding{kind, m_.file, at->line, at->col, kernel, std::move(message), ""};
}

bool FileAnalysis::isConstexprAnnotation(const Node *annotation) const {
  return annotation && (lastComponent(im_.resolve(annotation)) == "constexpr" ||
                        (annotation->kind == K::Str &&
                         llvm::StringRef(annotation->value).ends_with("constexpr")));
}

bool FileAnalysis::isConstexprCall(const Node *value) const {
  return value && value->kind == K::Call &&
         lastComponent(im_.resolve(value->kids[0])) == "constexpr";
}

KernelInfo *FileAnalysis::kernelNamed(const std::string &name) {
  for (auto &k : kernels_)
    if (k.record.name == name)
      return &k;
  return nullptr;
}

// ------------------------------------------------------------- globals --

GlobalKind FileAnalysis::kindOfValue(const Node *v) const {
  if (!v)
    return GlobalKind::Unknown;
  switch (v->kind) {
  case K::Constant:
  case K::Str:
  case K::List:
  case K::Tuple:
  case K::Set:
  case K::Dict:
  case K::Comprehension:
  case K::Lambda:
  case K::BinOp:
  case K::UnaryOp:
  case K::Compare:
    return GlobalKind::Value;
  case K::BoolOp: {
    // `a or b` is b where a is falsy: `getattr(gl, "barrier", None) or
    // gl.thread_barrier` is a language function either way. An operand that
    // is a falsy literal is never the value unless it is the last.
    std::optional<GlobalKind> kind;
    for (size_t i = 0; i < v->kids.size(); ++i) {
      const Node *operand = v->kids[i];
      bool last = i + 1 == v->kids.size();
      if (v->text == "or" && !last && operand->kind == K::Constant &&
          (operand->text == "None" || operand->text == "False" || operand->text == "0"))
        continue;
      GlobalKind k = v->text == "or" && !last ? kindOfTruthyValue(operand) : kindOfValue(operand);
      if (!kind)
        kind = k;
      else if (*kind != k)
        return GlobalKind::Unknown;
    }
    return kind.value_or(GlobalKind::Value);
  }
  case K::Call: {
    if (isConstexprCall(v))
      return GlobalKind::Allowed;
    std::string fn = im_.resolve(v->kids[0]);
    if (fn == "getattr") {
      // `getattr(gl, "barrier", default)`: the attribute, or the default.
      auto args = positionalArgs(v);
      if (args.size() < 2)
        return GlobalKind::Unknown;
      GlobalKind attribute = llvm::StringRef(im_.resolve(args[0])).starts_with("triton")
                                 ? GlobalKind::Allowed
                                 : GlobalKind::Unknown;
      if (args.size() == 2 || attribute == GlobalKind::Unknown)
        return attribute;
      return kindOfValue(args[2]) == attribute ? attribute : GlobalKind::Unknown;
    }
    llvm::StringRef f(fn);
    if (f.ends_with("namedtuple") || f.ends_with("NamedTuple") || f.starts_with("triton"))
      return GlobalKind::Allowed;
    static const std::set<std::string> valueBuiltins = {
        "int",   "float",     "str", "bool", "len", "list", "dict",  "tuple", "set",
        "range", "frozenset", "sum", "max",  "min", "abs",  "round", "pow"};
    if (valueBuiltins.count(fn) || f.starts_with("os.") || f.starts_with("math.") ||
        f.starts_with("torch.") || f.starts_with("numpy.") || f.starts_with("np."))
      return GlobalKind::Value;
    return GlobalKind::Unknown;
  }
  case K::Name:
  case K::Attribute: {
    std::string path = im_.resolve(v);
    llvm::StringRef p(path);
    if (p.starts_with("triton"))
      return GlobalKind::Allowed; // tl.float16, tl_extra_shim.erf, libdevice, ...
    std::string head = p.split('.').first.str();
    if (v->kind == K::Name) {
      if (definitions_.count(head) || im_.alias.count(head))
        return GlobalKind::Allowed; // an alias of a def, class or import
      auto g = globals_.find(head);
      if (g != globals_.end() && g->second.value != v)
        return g->second.kind;
      return GlobalKind::Unknown;
    }
    // An attribute of a module that holds data, not kernels.
    static const std::set<std::string> dataModules = {"math", "torch", "numpy", "np", "os", "sys"};
    if (im_.alias.count(head) && dataModules.count(p.split('.').first.str()))
      return GlobalKind::Value;
    return GlobalKind::Unknown;
  }
  default:
    return GlobalKind::Unknown;
  }
}

GlobalKind FileAnalysis::kindOfTruthyValue(const Node *v) const {
  // What a value is where it is truthy: a getattr's None default is not.
  if (v->kind == K::Call && im_.resolve(v->kids[0]) == "getattr") {
    auto args = positionalArgs(v);
    if (args.size() == 3 && args[2]->kind == K::Constant && args[2]->text == "None" &&
        llvm::StringRef(im_.resolve(args[0])).starts_with("triton"))
      return GlobalKind::Allowed;
  }
  return kindOfValue(v);
}

void FileAnalysis::collectModuleGlobals() {
  // A name bound in several places (`X = tl.make_tensor_descriptor` under
  // `if hasattr(...)`, `X = None` in its else) is what the branch taken on
  // import makes it: known only when every binding agrees.
  auto bind = [&](const std::string &name, ModuleGlobal g) {
    auto [it, inserted] = globals_.emplace(name, g);
    if (!inserted && it->second.kind != g.kind)
      it->second = ModuleGlobal{g.line, GlobalKind::Unknown, g.value};
    else if (!inserted)
      it->second = g;
  };
  std::function<void(const std::vector<Node *> &)> scan = [&](const std::vector<Node *> &body) {
    for (Node *s : body) {
      if (s->kind == K::Assign) {
        GlobalKind kind = kindOfValue(s->kids.back());
        const Node *value = s->kids.back();
        for (size_t i = 0; i + 1 < s->kids.size(); ++i) {
          const Node *target = s->kids[i];
          // `A, B = 1, 2` binds each name to its own element.
          if ((target->kind == K::Tuple || target->kind == K::List) &&
              (value->kind == K::Tuple || value->kind == K::List) &&
              target->kids.size() == value->kids.size()) {
            for (size_t j = 0; j < target->kids.size(); ++j)
              if (target->kids[j]->kind == K::Name)
                bind(target->kids[j]->text,
                     ModuleGlobal{s->line, kindOfValue(value->kids[j]), value->kids[j]});
            continue;
          }
          std::set<std::string> names;
          targetNames(target, names);
          // Other unpacking binds parts of the value: what they are is unknown.
          GlobalKind k = target->kind == K::Name ? kind : GlobalKind::Unknown;
          for (auto &n : names)
            bind(n, ModuleGlobal{s->line, k, value});
        }
      } else if (s->kind == K::AnnAssign && s->kids[0]->kind == K::Name) {
        GlobalKind kind = isConstexprCall(s->kids[2])         ? GlobalKind::Allowed
                          : isConstexprAnnotation(s->kids[1]) ? GlobalKind::AnnotatedConstexpr
                          : s->kids[2]                        ? kindOfValue(s->kids[2])
                                                              : GlobalKind::Unknown;
        bind(s->kids[0]->text, ModuleGlobal{s->line, kind, s->kids[2]});
      } else if (s->kind == K::If || s->kind == K::Try || s->kind == K::With) {
        scan(s->body);
        scan(s->orelse);
        scan(s->finalbody);
        for (Node *h : s->handlers)
          scan(h->body);
      } else if (s->kind == K::FunctionDef || s->kind == K::ClassDef) {
        definitions_.insert(s->text);
      }
    }
  };
  scan(m_.root->body);
  // Definitions and imports shadow assignments of the same name.
  for (auto &d : definitions_)
    globals_.erase(d);
  for (auto &[name, path] : im_.alias)
    globals_.erase(name);
}

// ------------------------------------------------------------- kernels --

void FileAnalysis::findKernels() {
  walkAll(m_.root, [&](Node *n) {
    if (n->kind != K::FunctionDef)
      return;
    KernelInfo k;
    k.def = n;
    Dialect dialect = Dialect::None;
    for (Node *d : n->decorators) {
      Node *f = d->kind == K::Call ? d->kids[0] : d;
      std::string r = im_.resolve(f);
      std::string shown = dottedName(f);
      if (Dialect dd = jitDialect(r); dd != Dialect::None) {
        dialect = dd;
        if (d->kind == K::Call)
          if (const Node *ni = keywordArg(d, "noinline"); ni && ni->text == "True")
            k.noinline = true;
      } else if (isTritonHelper(r, "autotune")) {
        k.record.autotuned = true;
        if (d->kind == K::Call)
          k.autotune = d;
      } else if (isTritonHelper(r, "heuristics")) {
        k.record.heuristics = true;
      } else if (!shown.empty() && isAutotuneWrapper(d, r)) {
        k.record.autotuned = true;
        k.record.autotuneWrapper = shown;
        if (d->kind == K::Call)
          k.autotune = d;
      }
      k.record.decorators.push_back(shown.empty() ? "?" : shown);
    }
    if (dialect == Dialect::None)
      return;
    k.dialect = dialect;
    k.record.name = n->text;
    k.record.file = m_.file;
    k.record.line = n->line;
    k.record.dialect = dialect == Dialect::Gluon ? "gluon" : "triton";
    if (k.autotune) {
      k.configs = configFacts(k.autotune);
      k.record.autotuneNumStages = k.configs.numStages;
      k.record.tunedKeys.assign(k.configs.keys.begin(), k.configs.keys.end());
      k.record.configsOpaque = k.configs.opaque;
    }
    kernels_.push_back(std::move(k));
  });
}

/// The node that holds an autotune decorator's configs: the list itself, a
/// module-level list it names, or the def of this file that builds them
/// (`configs=get_configs()`); null when they come from elsewhere.
const Node *FileAnalysis::configsOf(const Node *autotune) const {
  const Node *configs = keywordArg(autotune, "configs");
  if (!configs) {
    auto pos = positionalArgs(autotune);
    configs = pos.empty() ? nullptr : pos.front();
  }
  if (!configs)
    return nullptr;
  if (configs->kind == K::Name) {
    const Node *found = nullptr;
    for (Node *s : m_.root->body) {
      if (s->kind == K::Assign && s->kids[0]->kind == K::Name && s->kids[0]->text == configs->text)
        found = s->kids.back();
      if (s->kind == K::FunctionDef && s->text == configs->text)
        found = s;
    }
    return found;
  }
  if (configs->kind == K::Call && lastComponent(im_.resolve(configs->kids[0])) != "Config") {
    // A function that builds the configs: readable when it is a def of this file.
    const Node *fn = configs->kids[0];
    if (fn->kind == K::Name)
      for (Node *s : m_.root->body)
        if (s->kind == K::FunctionDef && s->text == fn->text)
          return s;
    return nullptr;
  }
  return configs;
}

namespace {

void assume(const Node *test, bool truth, std::map<std::string, bool> &known) {
  if (!test)
    return;
  if (test->kind == K::UnaryOp && test->text == "not" && !test->kids.empty())
    return assume(test->kids[0], !truth, known);
  // `a and b` true makes each true; `a or b` false makes each false.
  if (test->kind == K::BoolOp && (test->text == "and") == truth) {
    for (const Node *operand : test->kids)
      assume(operand, truth, known);
    return;
  }
  std::string name = dottedName(test);
  if (!name.empty())
    known.emplace(name, truth);
}

bool inList(const std::vector<Node *> &list, const Node *n) {
  return std::find(list.begin(), list.end(), n) != list.end();
}

} // namespace

PathFacts PathFacts::at(const std::vector<Node *> &ancestors, const Node *point, const Node *from) {
  PathFacts facts;
  bool counting = from == nullptr;
  for (size_t i = 0; i < ancestors.size(); ++i) {
    const Node *a = ancestors[i];
    counting = counting || a == from;
    if (!counting || a->kind != K::If)
      continue;
    const Node *child = i + 1 < ancestors.size() ? ancestors[i + 1] : point;
    if (inList(a->body, child))
      assume(a->kids[0], true, facts.known);
    else if (inList(a->orelse, child))
      assume(a->kids[0], false, facts.known);
  }
  return facts;
}

bool PathFacts::reaches(const std::vector<Node *> &ancestors, const Node *statement) const {
  if (known.empty())
    return true;
  for (auto &[name, truth] : at(ancestors, statement, nullptr).known) {
    auto it = known.find(name);
    if (it != known.end() && it->second != truth)
      return false;
  }
  return true;
}

bool FileAnalysis::zeroValue(const Node *v, const Node *root, int depth,
                             const PathFacts *facts) const {
  if (!v || depth > 8)
    return false;
  int64_t value = 0;
  if (integerLiteral(v, value))
    return value == 0;
  if (v->kind == K::IfExp)
    return zeroValue(v->kids[0], root, depth + 1, facts) &&
           zeroValue(v->kids[2], root, depth + 1, facts);
  if (v->kind == K::Subscript && root && v->kids[0]->kind == K::Name && v->kids[1]->kind == K::Str)
    return zeroConfigEntry(v->kids[0]->text, v->kids[1]->value, root, depth, facts);
  if (v->kind != K::Name || !root)
    return false;
  // Every binding of the name in `root` that reaches the read: assignments,
  // loop and comprehension targets over literal lists; a parameter can be
  // anything.
  bool bound = false, allZero = true;
  traverse(const_cast<Node *>(root), [&](Node *n, const std::vector<Node *> &ancestors) {
    if (!allZero)
      return false;
    if ((n->kind == K::FunctionDef || n->kind == K::Lambda))
      for (const Node *p : n->params)
        if (p->text == v->text)
          bound = true, allZero = false;
    if (n->kind == K::Assign) {
      if (facts && !facts->reaches(ancestors, n))
        return true;
      for (size_t i = 0; i + 1 < n->kids.size(); ++i)
        if (n->kids[i]->kind == K::Name && n->kids[i]->text == v->text) {
          bound = true;
          if (n->kids.back() == v || !zeroValue(n->kids.back(), root, depth + 1, facts))
            allZero = false;
        } else {
          std::set<std::string> names;
          targetNames(n->kids[i], names);
          if (names.count(v->text))
            bound = true, allZero = false;
        }
    }
    if (n->kind == K::For || n->kind == K::CompFor) {
      std::set<std::string> names;
      targetNames(n->kids[0], names);
      if (!names.count(v->text))
        return true;
      bound = true;
      const Node *iter = n->kids[1];
      if (n->kids[0]->kind != K::Name || (iter->kind != K::List && iter->kind != K::Tuple)) {
        allZero = false;
        return true;
      }
      for (const Node *e : iter->kids)
        if (!zeroValue(e, root, depth + 1))
          allZero = false;
    }
    return true;
  });
  return bound && allZero;
}

bool FileAnalysis::zeroConfigEntry(const std::string &dict, const std::string &key,
                                   const Node *root, int depth, const PathFacts *facts) const {
  // `config["waves_per_eu"]`, config bound in `root` to a dict literal or to
  // a call of a function of this file: every dict literal there that sets
  // the key sets it to 0 (a config builder that hard-codes 0). Bindings on
  // paths that do not reach the read are not counted (`if use_gluon: config
  // = gluon_config(...)` / `else: config = tuned_config(...)`, read under
  // `if use_gluon`).
  std::vector<const Node *> sources;
  bool other = false;
  traverse(const_cast<Node *>(root), [&](Node *n, const std::vector<Node *> &ancestors) {
    if (n->kind != K::Assign || (facts && !facts->reaches(ancestors, n)))
      return true;
    for (size_t i = 0; i + 1 < n->kids.size(); ++i)
      if (n->kids[i]->kind == K::Name && n->kids[i]->text == dict) {
        const Node *value = n->kids.back();
        if (value->kind == K::Dict)
          sources.push_back(value);
        else if (value->kind == K::Call && value->kids[0]->kind == K::Name) {
          const Node *def = nullptr;
          for (Node *st : m_.root->body)
            if (st->kind == K::FunctionDef && st->text == value->kids[0]->text)
              def = st;
          if (def)
            sources.push_back(def);
          else
            other = true;
        } else {
          other = true;
        }
      }
    return true;
  });
  if (other || sources.empty())
    return false;
  int entries = 0;
  bool allZero = true;
  for (const Node *src : sources)
    walkAll(const_cast<Node *>(src), [&](Node *n) {
      if (n->kind != K::Dict)
        return;
      for (size_t i = 0; i + 1 < n->kids.size(); i += 2)
        if (n->kids[i] && n->kids[i]->kind == K::Str && n->kids[i]->value == key) {
          ++entries;
          if (!zeroValue(n->kids[i + 1], src, depth + 1))
            allZero = false;
        }
    });
  return entries > 0 && allZero;
}

bool FileAnalysis::zeroOnEveryPath(const Node *value, const Launch &launch) const {
  const Node *root = launch.scope ? launch.scope : m_.root;
  PathFacts facts = PathFacts::at(launch.ancestors, launch.call, root);
  return zeroValue(value, root, 0, &facts);
}

ConfigFacts FileAnalysis::configFacts(const Node *autotune) {
  ConfigFacts c;
  const Node *configs = configsOf(autotune);
  if (!configs) {
    c.opaque = true;
    return c;
  }
  std::set<std::string> compTargets;
  walkAll(const_cast<Node *>(configs), [&](Node *n) {
    if (n->kind == K::CompFor || n->kind == K::For)
      targetNames(n->kids[0], compTargets);
  });
  bool anyConfig = false, allPassWarps = true;
  walkAll(const_cast<Node *>(configs), [&](Node *n) {
    if (n->kind != K::Call || lastComponent(im_.resolve(n->kids[0])) != "Config")
      return;
    anyConfig = true;
    auto pos = positionalArgs(n);
    if (!pos.empty() && pos.front()->kind == K::Dict)
      for (size_t i = 0; i + 1 < pos.front()->kids.size(); i += 2) {
        const Node *key = pos.front()->kids[i];
        if (key && key->kind == K::Str) {
          c.keys.insert(key->value);
          if (key->value == "waves_per_eu" && !c.wavesPerEu &&
              !zeroValue(pos.front()->kids[i + 1], configs, 0))
            c.wavesPerEu = key;
        }
      }
    const Node *warps = keywordArg(n, "num_warps");
    bool passed = false;
    if (warps && warps->kind == K::Name && !pos.empty() && pos.front()->kind == K::Dict)
      for (size_t i = 1; i < pos.front()->kids.size(); i += 2)
        if (const Node *v = pos.front()->kids[i]; v && v->kind == K::Name && v->text == warps->text)
          passed = true;
    allPassWarps = allPassWarps && passed;
    if (const Node *nw = warps) {
      if (nw->kind == K::Name && compTargets.count(nw->text))
        c.numWarpsSwept = true;
      else
        c.numWarps.insert(nw->text);
    }
    if (const Node *w = keywordArg(n, "waves_per_eu");
        w && !c.wavesPerEu && !zeroValue(w, configs, 0))
      c.wavesPerEu = w;
    const Node *ns = keywordArg(n, "num_stages");
    c.numStages.push_back(!ns                                              ? ""
                          : ns->kind == K::Constant || ns->kind == K::Name ? ns->text
                                                                           : "(expression)");
  });
  c.numWarpsPassed = anyConfig && allPassWarps;
  // A builder that makes no triton.Config of its own (it reads a table).
  if (!anyConfig && configs->kind == K::FunctionDef)
    c.opaque = true;
  return c;
}

// ------------------------------------------------------- constexpr-ness --

const std::set<std::string> &FileAnalysis::constexprFields(const std::string &cls) const {
  auto it = constexprFields_.find(cls);
  if (it != constexprFields_.end())
    return it->second;
  std::set<std::string> &fields = constexprFields_[cls];
  for (Node *st : m_.root->body)
    if (st->kind == K::ClassDef && st->text == cls)
      for (Node *b : st->body)
        if (b->kind == K::AnnAssign && b->kids[0]->kind == K::Name &&
            isConstexprAnnotation(b->kids[1]))
          fields.insert(b->kids[0]->text);
  return fields;
}

bool FileAnalysis::nameIsConstexpr(const Node *e, const Scope &s) const {
  if (s.constexprParams.count(e->text) || s.constexprLocals.count(e->text))
    return true;
  if (s.params.count(e->text) || s.locals.count(e->text))
    return false;
  auto g = globals_.find(e->text);
  if (g != globals_.end())
    return g->second.kind == GlobalKind::Allowed;
  return isLanguagePath(im_.resolve(e)) || im_.alias.count(e->text);
}

bool FileAnalysis::isConstexpr(const Node *root, const Scope &s) const {
  static const std::set<std::string> typeInfo = {"dtype", "shape", "element_ty",        "numel",
                                                 "type",  "value", "primitive_bitwidth"};
  static const std::set<std::string> pure = {
      "min",        "max",     "abs",     "int",       "float", "bool",           "len",
      "isinstance", "hasattr", "getattr", "constexpr", "cdiv",  "next_power_of_2"};
  std::vector<const Node *> work{root};
  while (!work.empty()) {
    const Node *e = work.back();
    work.pop_back();
    if (!e)
      continue;
    switch (e->kind) {
    case K::Constant:
    case K::Str:
    case K::Ellipsis:
      break;
    case K::Name:
      if (!nameIsConstexpr(e, s))
        return false;
      break;
    case K::Attribute: {
      // A constexpr field of an aggregate parameter (`cfg.BLOCK_M`).
      const Node *base = e->kids[0];
      if (base->kind == K::Name) {
        auto cls = s.paramClass.find(base->text);
        if (cls != s.paramClass.end() && constexprFields(cls->second).count(e->text))
          break;
      }
      if (!typeInfo.count(e->text) && !isLanguagePath(im_.resolve(e)))
        work.push_back(e->kids[0]);
      break;
    }
    case K::Keyword:
      work.push_back(e->kids[0]);
      break;
    case K::Call: {
      const Node *func = e->kids[0];
      std::string r = im_.resolve(func);
      if (!pure.count(lastComponent(r))) {
        // A method of a constexpr object (x.dtype.is_fp8()) is constexpr.
        if (func->kind != K::Attribute || isLanguagePath(r))
          return false;
        work.push_back(func->kids[0]);
      }
      for (size_t i = 1; i < e->kids.size(); ++i)
        work.push_back(e->kids[i]);
      break;
    }
    case K::Compare:
      // `x is None` / `x is not None` on a parameter: Triton specialises a
      // None argument to a constant, so the test folds at compile time.
      if (e->kids.size() == 2 && e->ops.size() == 1 &&
          (e->ops[0] == "is" || e->ops[0] == "is not")) {
        const Node *a = e->kids[0], *b = e->kids[1];
        auto isNone = [](const Node *n) { return n->kind == K::Constant && n->text == "None"; };
        auto isParam = [&](const Node *n) { return n->kind == K::Name && s.params.count(n->text); };
        if ((isNone(a) && isParam(b)) || (isNone(b) && isParam(a)))
          break;
        // `dtype is tl.int64`: identity with a language constant (a dtype)
        // is decided at compile time, as dtypes are constexpr objects.
        auto isLanguageConstant = [&](const Node *n) {
          return (n->kind == K::Attribute || n->kind == K::Name) && isLanguagePath(im_.resolve(n));
        };
        if (isLanguageConstant(a) || isLanguageConstant(b))
          break;
      }
      for (const Node *c : e->kids)
        work.push_back(c);
      break;
    case K::BoolOp: {
      // `CONST and x`: when the constexpr side is false (or true for
      // `or`), the frontend folds the whole test away; which it is depends
      // on the launch, so the test is not known to be a runtime branch.
      bool anyConst = std::any_of(e->kids.begin(), e->kids.end(),
                                  [&](const Node *c) { return isConstexpr(c, s); });
      if (anyConst)
        break;
      for (const Node *c : e->kids)
        work.push_back(c);
      break;
    }
    case K::BinOp:
    case K::UnaryOp:
    case K::IfExp:
    case K::Tuple:
    case K::List:
    case K::Subscript:
    case K::Slice:
      for (const Node *c : e->kids)
        work.push_back(c);
      break;
    default:
      return false;
    }
  }
  return true;
}

Scope FileAnalysis::kernelScope(Node *def) const {
  Scope s;
  for (Node *p : def->params) {
    s.params.insert(p->text);
    Node *annotation = p->kids[0];
    if (isConstexprAnnotation(annotation))
      s.constexprParams.insert(p->text);
    else if (annotation && annotation->kind == K::Name && definitions_.count(annotation->text))
      s.paramClass[p->text] = annotation->text;
  }
  // Every name bound in the body is local; a local is constexpr when all
  // its plain assignments are (computed to a fixed point).
  std::map<std::string, std::vector<const Node *>> assigned;
  std::set<std::string> otherwiseBound;
  walkBody(def->body, [&](Node *n) {
    switch (n->kind) {
    case K::Assign:
      for (size_t i = 0; i + 1 < n->kids.size(); ++i) {
        if (n->kids[i]->kind == K::Name)
          assigned[n->kids[i]->text].push_back(n->kids.back());
        else
          targetNames(n->kids[i], otherwiseBound);
      }
      break;
    case K::AnnAssign:
      if (n->kids[0]->kind == K::Name) {
        if (n->kids[2])
          assigned[n->kids[0]->text].push_back(n->kids[2]);
        if (isConstexprAnnotation(n->kids[1]))
          s.constexprLocals.insert(n->kids[0]->text);
      }
      break;
    case K::AugAssign:
    case K::For:
    case K::CompFor:
    case K::NamedExpr:
      targetNames(n->kids[0], otherwiseBound);
      break;
    case K::With:
      // "as" targets follow the context expressions; bind any plain names.
      for (Node *c : n->kids)
        if (c->kind == K::Name)
          otherwiseBound.insert(c->text);
      break;
    case K::ExceptHandler:
      if (!n->text.empty())
        otherwiseBound.insert(n->text);
      break;
    case K::FunctionDef:
    case K::ClassDef:
      otherwiseBound.insert(n->text);
      break;
    case K::Import:
    case K::ImportFrom:
      for (Node *a : n->kids)
        otherwiseBound.insert(a->alias.empty() ? a->text.substr(0, a->text.find('.')) : a->alias);
      break;
    default:
      break;
    }
  });
  for (auto &[name, values] : assigned)
    s.locals.insert(name);
  s.locals.insert(otherwiseBound.begin(), otherwiseBound.end());
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto &[name, values] : assigned) {
      if (s.constexprLocals.count(name) || otherwiseBound.count(name))
        continue;
      bool all = std::all_of(values.begin(), values.end(),
                             [&](const Node *v) { return isConstexpr(v, s); });
      if (all) {
        s.constexprLocals.insert(name);
        changed = true;
      }
    }
  }
  return s;
}

// ------------------------------------------------------------ launches --

/// The kernel a dotted import path names: its longest suffix with a module
/// part that the index holds.
static const ExternalKernel *lookupKernel(const KernelIndex &index, llvm::StringRef path) {
  path = path.ltrim('.');
  while (path.contains('.')) {
    auto it = index.find(path.str());
    if (it != index.end())
      return &it->second;
    path = path.drop_front(path.find('.') + 1);
  }
  return nullptr;
}

KernelInfo *FileAnalysis::externalKernel(const Node *callee) {
  std::string head = dottedName(callee);
  head = head.substr(0, head.find('.'));
  if (head.empty() || !im_.alias.count(head))
    return nullptr;
  std::string path = im_.resolve(callee);
  if (llvm::StringRef(path).starts_with("triton") || llvm::StringRef(path).starts_with("torch"))
    return nullptr;
  importedLaunches_ = true;
  const ExternalKernel *ek = external_ ? lookupKernel(*external_, path) : nullptr;
  if (!ek)
    return nullptr;
  KernelInfo &k = externals_.emplace_back();
  k.record.name = ek->name;
  k.dialect = ek->gluon ? Dialect::Gluon : Dialect::Triton;
  k.record.autotuned = ek->autotuned;
  k.configs.keys.insert(ek->tunedKeys.begin(), ek->tunedKeys.end());
  return &k;
}

std::vector<const Node *> FileAnalysis::aliasValues(const Node *callee, const Node *scope,
                                                    const Node *launch) const {
  std::vector<const Node *> values;
  if (callee->kind != K::Name || !scope || scope == m_.root)
    return values;
  walkBody(scope->body, [&](Node *n) {
    if (n->kind == K::Assign && n->line <= launch->line)
      for (size_t i = 0; i + 1 < n->kids.size(); ++i)
        if (n->kids[i]->kind == K::Name && n->kids[i]->text == callee->text) {
          const Node *v = n->kids.back();
          if (v->kind == K::Name || v->kind == K::Attribute)
            values.push_back(v);
        }
  });
  return values;
}

std::vector<KernelInfo *> FileAnalysis::launchedKernels(const Node *callee, const Node *scope,
                                                        const Node *launch) {
  std::vector<KernelInfo *> out;
  // The first pass checks this file's kernels, the second the imported ones.
  auto add = [&](const Node *name) {
    KernelInfo *local = name->kind == K::Name ? kernelNamed(name->text) : nullptr;
    if (local) {
      if (!external_)
        out.push_back(local);
      return;
    }
    if (KernelInfo *ext = externalKernel(name); ext && external_)
      out.push_back(ext);
  };
  if (callee->kind == K::Name && kernelNamed(callee->text)) {
    add(callee);
    return out;
  }
  std::vector<const Node *> aliases = aliasValues(callee, scope, launch);
  if (aliases.empty()) {
    add(callee);
    return out;
  }
  for (const Node *a : aliases)
    add(a);
  return out;
}

void FileAnalysis::findLaunches(const std::function<void(Launch &)> &check) {
  traverse(m_.root, [&](Node *n, const std::vector<Node *> &ancestors) {
    if (n->kind != K::Call || n->kids[0]->kind != K::Subscript)
      return true;
    // Inside a kernel there are no launches.
    for (Node *a : ancestors)
      if (KernelInfo *outer = a->kind == K::FunctionDef ? kernelNamed(a->text) : nullptr;
          outer && outer->def == a)
        return true;
    Node *sub = n->kids[0];
    Node *scope = m_.root;
    for (Node *a : ancestors)
      if (a->kind == K::FunctionDef)
        scope = a;
    for (KernelInfo *k : launchedKernels(sub->kids[0], scope, n)) {
      Launch launch{n, sub->kids[1], k, scope, ancestors};
      check(launch);
    }
    return true;
  });
}

// ----------------------------------------------------------------- run --

FileSurvey FileAnalysis::run() {
  collectModuleGlobals();
  findKernels();
  for (auto &k : kernels_)
    classifyLoops(k);
  for (auto &k : kernels_) {
    Scope scope = kernelScope(k.def);
    rules::runtimeIfInDotLoop(*this, k, scope);
    rules::moduleGlobalInKernel(*this, k, scope);
    rules::warpSpecializeOnCdna3(*this, k);
    rules::wavesPerEuInGluonConfigs(*this, k);
    rules::numWarpsSweepInGluonConfigs(*this, k);
  }
  findLaunches([&](Launch &launch) {
    rules::autotuneGridIgnoresMeta(*this, launch);
    rules::wavesPerEuAtGluonLaunch(*this, launch);
    rules::numWarpsSweepAtGluonLaunch(*this, launch);
    rules::perTensorLaunchLoop(*this, launch);
  });
  rules::forkOnlyEnvKnob(*this);
  rules::schedHintStubImport(*this);
  FileSurvey out;
  for (auto &k : kernels_)
    out.jitFunctions[k.record.name] = jitFunction(k.record.name);
  out.importedLaunches = importedLaunches_;
  for (auto &k : kernels_) {
    std::sort(k.record.findings.begin(), k.record.findings.end(), byPosition);
    out.kernels.push_back(std::move(k.record));
  }
  std::sort(fileFindings_.begin(), fileFindings_.end(), byPosition);
  out.findings = std::move(fileFindings_);
  return out;
}

std::vector<Finding> FileAnalysis::importedLaunchFindings(const KernelIndex &index) {
  external_ = &index;
  collectModuleGlobals();
  findKernels();
  findLaunches([&](Launch &launch) {
    rules::autotuneGridIgnoresMeta(*this, launch);
    rules::wavesPerEuAtGluonLaunch(*this, launch);
    rules::numWarpsSweepAtGluonLaunch(*this, launch);
    rules::perTensorLaunchLoop(*this, launch);
    // An imported kernel's findings are the launching file's.
    for (auto &f : launch.kernel->record.findings)
      fileFindings_.push_back(std::move(f));
    launch.kernel->record.findings.clear();
  });
  std::sort(fileFindings_.begin(), fileFindings_.end(), byPosition);
  return std::move(fileFindings_);
}

} // namespace tilexform::source::detail
