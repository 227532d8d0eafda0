#include "tilexform/source/Survey.h"

#include "tilexform/source/Python.h"
#include "tilexform/support/InputError.h"
#include "tilexform/support/Parallel.h"

#include <fmt/format.h>
#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <set>

namespace tilexform::source {

namespace {

using K = NodeKind;

// ------------------------------------------------------------ traversal --

template <class F> void forEachChild(Node *n, F &&f) {
  for (auto *list :
       {&n->decorators, &n->params, &n->kids, &n->body, &n->handlers, &n->orelse, &n->finalbody})
    for (Node *c : *list)
      if (c)
        f(c);
}

/// Pre-order walk with the chain of ancestors; `f(node, ancestors)` returns
/// whether to descend into the node. Iterative: a long operator chain makes a
/// deep tree, and no walk may recurse that deep.
template <class F> void traverse(Node *root, F &&f) {
  struct Frame {
    Node *node;
    bool leave;
  };
  std::vector<Frame> work{{root, false}};
  std::vector<Node *> ancestors, children;
  while (!work.empty()) {
    Frame frame = work.back();
    work.pop_back();
    if (frame.leave) {
      ancestors.pop_back();
      continue;
    }
    if (!f(frame.node, ancestors))
      continue;
    ancestors.push_back(frame.node);
    work.push_back({frame.node, true});
    children.clear();
    forEachChild(frame.node, [&](Node *c) { children.push_back(c); });
    for (auto it = children.rbegin(); it != children.rend(); ++it)
      work.push_back({*it, false});
  }
}

template <class F> void walkAll(Node *n, F &&f) {
  traverse(n, [&](Node *m, const std::vector<Node *> &) {
    f(m);
    return true;
  });
}

bool isScope(const Node *n) {
  return n->kind == K::FunctionDef || n->kind == K::ClassDef || n->kind == K::Lambda;
}

/// Walks a kernel body without entering nested function definitions.
template <class F> void walkBody(const std::vector<Node *> &body, F &&f) {
  for (Node *s : body)
    traverse(s, [&](Node *n, const std::vector<Node *> &) {
      f(n);
      return !isScope(n);
    });
}

std::string lastComponent(const std::string &dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

const Node *keywordArg(const Node *call, llvm::StringRef name) {
  for (size_t i = 1; i < call->kids.size(); ++i) {
    const Node *a = call->kids[i];
    if (a && a->kind == K::Keyword && a->text == name)
      return a->kids[0];
  }
  return nullptr;
}

std::vector<const Node *> positionalArgs(const Node *call) {
  std::vector<const Node *> out;
  for (size_t i = 1; i < call->kids.size(); ++i)
    if (call->kids[i] && call->kids[i]->kind != K::Keyword)
      out.push_back(call->kids[i]);
  return out;
}

void collectNames(const Node *n, std::vector<const Node *> &out) {
  if (!n)
    return;
  walkAll(const_cast<Node *>(n), [&](Node *m) {
    if (m->kind == K::Name)
      out.push_back(m);
  });
}

/// Names bound by an assignment target (x, (a, b), *rest); not x.attr or x[i].
void targetNames(const Node *t, std::set<std::string> &out) {
  if (!t)
    return;
  if (t->kind == K::Name)
    out.insert(t->text);
  else if (t->kind == K::Tuple || t->kind == K::List || t->kind == K::Starred)
    for (const Node *c : t->kids)
      targetNames(c, out);
}

// ------------------------------------------------------------- imports --

struct Imports {
  std::map<std::string, std::string> alias; // bound name -> module path
  bool targetsCdna3 = false;

  std::string resolve(const Node *n) const {
    std::string d = dottedName(n);
    if (d.empty())
      return d;
    size_t dot = d.find('.');
    std::string head = d.substr(0, dot);
    auto it = alias.find(head);
    if (it == alias.end())
      return d;
    return it->second + (dot == std::string::npos ? "" : d.substr(dot));
  }
};

Imports collectImports(Node *root) {
  Imports im;
  walkAll(root, [&](Node *n) {
    if (n->kind == K::Import) {
      for (Node *a : n->kids) {
        if (!a->alias.empty())
          im.alias[a->alias] = a->text;
        else
          im.alias[a->text.substr(0, a->text.find('.'))] = a->text.substr(0, a->text.find('.'));
        if (llvm::StringRef(a->text).contains("amd.cdna3"))
          im.targetsCdna3 = true;
      }
    } else if (n->kind == K::ImportFrom) {
      if (llvm::StringRef(n->text).contains("amd.cdna3"))
        im.targetsCdna3 = true;
      for (Node *a : n->kids) {
        if (a->text == "*")
          continue;
        im.alias[a->alias.empty() ? a->text : a->alias] = n->text + "." + a->text;
        if (a->text == "cdna3")
          im.targetsCdna3 = true;
      }
    } else if (n->kind == K::Str) {
      std::string v = llvm::StringRef(n->value).lower();
      if (v.find("gfx942") != std::string::npos || v.find("cdna3") != std::string::npos)
        im.targetsCdna3 = true;
    } else if ((n->kind == K::Name || n->kind == K::Attribute) && n->text == "cdna3") {
      im.targetsCdna3 = true;
    }
  });
  return im;
}

bool isGluonPath(const std::string &r) {
  llvm::StringRef s(r);
  return s.starts_with("triton.experimental.gluon") || s.starts_with("gluon.") ||
         s.starts_with("gl.") || s.starts_with("ttgl.");
}

/// A call into a kernel language namespace (tl.*, gl.*, and Gluon's
/// arch submodules).
bool isLanguagePath(const std::string &r) {
  llvm::StringRef s(r);
  return s.starts_with("triton.language.") || s.starts_with("triton.experimental.gluon.") ||
         s.starts_with("tl.") || s.starts_with("gl.") || s.starts_with("ttgl.");
}

bool isDotLike(const std::string &r) {
  static const std::set<std::string> names = {
      "dot",    "dot_scaled",    "mfma",        "mfma_scaled",        "wmma",   "wmma_scaled",
      "mma_v2", "warpgroup_mma", "tcgen05_mma", "tcgen05_mma_scaled", "dot_fma"};
  return isLanguagePath(r) && names.count(lastComponent(r));
}

enum class Dialect { None, Triton, Gluon };

Dialect jitDialect(const std::string &r) {
  if (lastComponent(r) != "jit")
    return Dialect::None;
  if (isGluonPath(r) || llvm::StringRef(r).contains("gluon"))
    return Dialect::Gluon;
  if (r == "jit" || llvm::StringRef(r).starts_with("triton"))
    return Dialect::Triton;
  return Dialect::None;
}

bool isTritonHelper(const std::string &r, llvm::StringRef name) {
  return lastComponent(r) == name && (llvm::StringRef(r).starts_with("triton") || r == name);
}

// -------------------------------------------------------------- kernels --

/// What an autotune decorator's configs say.
struct ConfigFacts {
  std::set<std::string> keys, numWarps;
  std::vector<std::string> numStages; // each config's num_stages as written ("" when absent)
  bool numWarpsSwept = false;
  const Node *wavesPerEu = nullptr;
};

struct KernelInfo {
  Node *def = nullptr;
  KernelRecord record;
  Dialect dialect = Dialect::Triton;
  Node *autotune = nullptr; // the autotune decorator call
  ConfigFacts configs;      // read once, when autotuned
};

/// What a module-level global is bound to, as Triton's global lookup
/// (code_generator.py, `global_lookup`) tells them apart.
enum class GlobalKind {
  Allowed,            // constexpr, module, JIT function, triton.language object, dtype, namedtuple
  Value,              // a plain Python value: a NameError when a kernel reads it
  AnnotatedConstexpr, // `X: tl.constexpr = 7`: the annotation form Triton does not support
  Unknown,            // bound to something tilexform cannot see (a call, another project's object)
};

struct ModuleGlobal {
  unsigned line = 0;
  GlobalKind kind = GlobalKind::Unknown;
  const Node *value = nullptr;
};

class FileAnalysis {
public:
  FileAnalysis(PyModule &m, llvm::StringRef text) : m_(m), text_(text) {
    im_ = collectImports(m.root);
  }

  FileSurvey run() {
    collectModuleGlobals();
    findKernels();
    for (auto &k : kernels_)
      analyzeKernel(k);
    analyzeLaunches();
    analyzeFileLevel();
    auto byPosition = [](const Finding &a, const Finding &b) {
      return std::tie(a.line, a.col, a.kind) < std::tie(b.line, b.col, b.kind);
    };
    FileSurvey out;
    out.jitDots = allJitDots();
    out.importedLaunches = importedLaunches_;
    for (auto &k : kernels_) {
      std::sort(k.record.findings.begin(), k.record.findings.end(), byPosition);
      out.kernels.push_back(std::move(k.record));
    }
    std::sort(fileFindings_.begin(), fileFindings_.end(), byPosition);
    out.findings = std::move(fileFindings_);
    return out;
  }

private:
  std::string lineText(unsigned line) const {
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

  Finding finding(const char *kind, const Node *at, const std::string &kernel,
                  std::string message) {
    return Finding{kind, m_.file, at->line, at->col, kernel, std::move(message)};
  }

  /// `tl.constexpr` (however imported) or the string "tl.constexpr".
  bool isConstexprAnnotation(const Node *annotation) const {
    return annotation && (lastComponent(im_.resolve(annotation)) == "constexpr" ||
                          (annotation->kind == K::Str &&
                           llvm::StringRef(annotation->value).ends_with("constexpr")));
  }
  /// `tl.constexpr(...)`.
  bool isConstexprCall(const Node *value) const {
    return value && value->kind == K::Call &&
           lastComponent(im_.resolve(value->kids[0])) == "constexpr";
  }

  KernelInfo *kernelNamed(const std::string &name) {
    for (auto &k : kernels_)
      if (k.record.name == name)
        return &k;
    return nullptr;
  }

  /// What a module-level assignment binds, following Triton's global lookup:
  /// allowed are constexprs, modules, JIT functions, `__triton_builtin__`
  /// functions and aggregates, anything whose `__module__` is under
  /// triton.language or triton.experimental.gluon.language, dtypes and
  /// namedtuples; a plain value is a NameError when a kernel reads it.
  GlobalKind kindOfValue(const Node *v) const {
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
    case K::BoolOp:
      return GlobalKind::Value;
    case K::Call: {
      if (isConstexprCall(v))
        return GlobalKind::Allowed;
      std::string fn = im_.resolve(v->kids[0]);
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
      static const std::set<std::string> dataModules = {"math", "torch", "numpy",
                                                        "np",   "os",    "sys"};
      if (im_.alias.count(head) && dataModules.count(p.split('.').first.str()))
        return GlobalKind::Value;
      return GlobalKind::Unknown;
    }
    default:
      return GlobalKind::Unknown;
    }
  }

  void collectModuleGlobals() {
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
                  globals_[target->kids[j]->text] =
                      ModuleGlobal{s->line, kindOfValue(value->kids[j]), value->kids[j]};
              continue;
            }
            std::set<std::string> names;
            targetNames(target, names);
            // Other unpacking binds parts of the value: what they are is unknown.
            GlobalKind k = target->kind == K::Name ? kind : GlobalKind::Unknown;
            for (auto &n : names)
              globals_[n] = ModuleGlobal{s->line, k, value};
          }
        } else if (s->kind == K::AnnAssign && s->kids[0]->kind == K::Name) {
          GlobalKind kind = isConstexprCall(s->kids[2])         ? GlobalKind::Allowed
                            : isConstexprAnnotation(s->kids[1]) ? GlobalKind::AnnotatedConstexpr
                            : s->kids[2]                        ? kindOfValue(s->kids[2])
                                                                : GlobalKind::Unknown;
          globals_[s->kids[0]->text] = ModuleGlobal{s->line, kind, s->kids[2]};
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

  void findKernels() {
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
        if (Dialect dd = jitDialect(r); dd != Dialect::None)
          dialect = dd;
        if (isTritonHelper(r, "autotune")) {
          k.record.autotuned = true;
          if (d->kind == K::Call)
            k.autotune = d;
        }
        if (isTritonHelper(r, "heuristics"))
          k.record.heuristics = true;
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
      }
      kernels_.push_back(std::move(k));
    });
  }

  // ---- constexpr-ness inside one kernel
  struct Scope {
    std::set<std::string> params, constexprParams, locals, constexprLocals;
    /// Parameters annotated with a class of this file, by name: for the
    /// constexpr fields of an @aggregate (`cfg: Config` then `cfg.BLOCK`).
    std::map<std::string, std::string> paramClass;
  };

  /// The fields a class of this file declares `: tl.constexpr` (or
  /// `gl.constexpr`), as @aggregate classes do; empty for other classes.
  const std::set<std::string> &constexprFields(const std::string &cls) {
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
  std::map<std::string, std::set<std::string>> constexprFields_;

  bool nameIsConstexpr(const Node *e, const Scope &s) const {
    if (s.constexprParams.count(e->text) || s.constexprLocals.count(e->text))
      return true;
    if (s.params.count(e->text) || s.locals.count(e->text))
      return false;
    auto g = globals_.find(e->text);
    if (g != globals_.end())
      return g->second.kind == GlobalKind::Allowed;
    return isLanguagePath(im_.resolve(e)) || im_.alias.count(e->text);
  }

  /// Whether an expression is known at compile time: every leaf is a literal,
  /// a constexpr name or a language constant, and every operation is pure.
  bool isConstexpr(const Node *root, const Scope &s) const {
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
          if (cls != s.paramClass.end() &&
              const_cast<FileAnalysis *>(this)->constexprFields(cls->second).count(e->text))
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
          auto isParam = [&](const Node *n) {
            return n->kind == K::Name && s.params.count(n->text);
          };
          if ((isNone(a) && isParam(b)) || (isNone(b) && isParam(a)))
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

  Scope kernelScope(Node *def) {
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
        targetNames(n->kids[0], otherwiseBound);
        break;
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

  // ---- loops
  struct LoopForm {
    std::string form, iterator, numStages;
    bool bare = false, flatten = false, warpSpecialize = false;
  };

  LoopForm loopForm(const Node *forNode) {
    LoopForm f;
    const Node *iter = forNode->kids[1];
    if (iter->kind != K::Call) {
      f.iterator = dottedName(iter);
      f.bare = true;
      return f;
    }
    std::string shown = dottedName(iter->kids[0]);
    std::string r = im_.resolve(iter->kids[0]);
    f.iterator = shown.empty() ? "(call)" : shown;
    std::string last = lastComponent(r);
    if (last == "static_range" && (isLanguagePath(r) || r == "static_range")) {
      f.form = "static";
      return f;
    }
    if (last == "range" && isLanguagePath(r)) {
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

  /// Dots in a @jit function of this file, its own and those of the helpers
  /// it calls (Triton inlines them before pipelining); recursion counts once.
  int jitFunctionDots(const std::string &name) {
    auto memo = jitDots_.find(name);
    if (memo != jitDots_.end())
      return memo->second;
    KernelInfo *k = kernelNamed(name);
    if (!k || inProgress_.count(name))
      return 0;
    inProgress_.insert(name);
    int dots = 0;
    walkBody(k->def->body, [&](Node *n) {
      if (n->kind != K::Call)
        return;
      if (isDotLike(im_.resolve(n->kids[0])))
        ++dots;
      else if (n->kids[0]->kind == K::Name && n->kids[0]->text != name)
        dots += jitFunctionDots(n->kids[0]->text);
    });
    inProgress_.erase(name);
    jitDots_[name] = dots;
    return dots;
  }

  /// Dots of a loop: in its own body, in static_range loops inside it (they
  /// are unrolled into it), and in the @jit helpers it calls; not in other
  /// inner loops. Calls into other modules are listed in `imported`.
  int countDots(const std::vector<Node *> &body, int *helperDots = nullptr,
                std::vector<std::string> *imported = nullptr) {
    int dots = 0;
    std::function<bool(Node *, const std::vector<Node *> &)> visit =
        [&](Node *n, const std::vector<Node *> &) {
          if (isScope(n))
            return false;
          if (n->kind == K::Call && isDotLike(im_.resolve(n->kids[0])))
            ++dots;
          else if (n->kind == K::Call && n->kids[0]->kind == K::Name &&
                   kernelNamed(n->kids[0]->text)) {
            int h = jitFunctionDots(n->kids[0]->text);
            dots += h;
            if (helperDots)
              *helperDots += h;
          } else if (n->kind == K::Call && imported) {
            std::string r = im_.resolve(n->kids[0]);
            std::string head = dottedName(n->kids[0]);
            head = head.substr(0, head.find('.'));
            if (!r.empty() && im_.alias.count(head) && !isLanguagePath(r) &&
                !llvm::StringRef(r).starts_with("triton"))
              imported->push_back(r);
          }
          if ((n->kind == K::For && loopForm(n).form != "static") || n->kind == K::While) {
            // An inner loop has its own record; only its header is this loop's.
            for (Node *c : n->kids)
              if (c)
                traverse(c, visit);
            return false;
          }
          return true;
        };
    for (Node *s : body)
      traverse(s, visit);
    return dots;
  }

  void analyzeKernel(KernelInfo &k) {
    Scope scope = kernelScope(k.def);
    const std::string &kname = k.record.name;
    // Loops, and runtime ifs inside dot loops.
    std::function<void(const std::vector<Node *> &, int)> block =
        [&](const std::vector<Node *> &body, int dotLoopLine) {
          for (Node *s : body) {
            switch (s->kind) {
            case K::For: {
              LoopForm f = loopForm(s);
              LoopRecord rec;
              int dots = countDots(s->body, &rec.helperDots, &rec.importedCalls);
              rec.line = s->line;
              rec.col = s->col;
              rec.dots = dots;
              rec.iterator = f.iterator;
              rec.numStages = f.numStages;
              rec.flatten = f.flatten;
              rec.warpSpecialize = f.warpSpecialize;
              bool gluon = k.dialect == Dialect::Gluon;
              if (gluon && f.form != "static") {
                // gluon_to_ttgir runs no software pipeliner: a Gluon loop
                // overlaps only what its code writes.
                bool authored = writesOverlap(s->body);
                f.form = authored ? "authored" : "none";
              } else if (f.bare) {
                f.form = dots > 0 ? "launch" : "none";
              }
              rec.form = f.form;
              if (gluon && f.form == "authored")
                rec.why = "a Gluon loop: no software pipeliner runs on Gluon, and this one writes "
                          "its own overlap (multi-buffered shared memory with async copies, TMA "
                          "or mbarriers); the launch num_stages is inert";
              else if (gluon && f.form == "none")
                rec.why = "a Gluon loop: no software pipeliner runs on Gluon and the loop writes "
                          "no overlap of its own; the launch num_stages is inert";
              else if (f.form == "annotated")
                rec.why = "num_stages=" + f.numStages +
                          " on the loop decides its depth; the launch num_stages is inert";
              else if (f.form == "launch")
                rec.why = std::to_string(dots) + " dot" + (dots == 1 ? "" : "s") +
                          (rec.helperDots ? fmt::format(" ({} in @jit helpers it calls, inlined "
                                                        "before pipelining)",
                                                        rec.helperDots)
                                          : std::string()) +
                          " in a bare loop: the launch num_stages decides its depth";
              else if (f.form == "none")
                rec.why = "no dot in a bare loop: nothing pipelines it until it is annotated "
                          "with tl.range(..., num_stages=N)";
              else if (f.form == "frozen")
                rec.why = "num_stages=" + f.numStages +
                          " written in the source: no config can deepen this loop";
              else
                rec.why = "static_range is unrolled at compile time, never pipelined";
              k.record.loops.push_back(rec);
              int inner = f.form == "static" ? dotLoopLine : (dots > 0 ? int(s->line) : 0);
              block(s->body, inner);
              block(s->orelse, dotLoopLine);
              break;
            }
            case K::If: {
              if (dotLoopLine && !isConstexpr(s->kids[0], scope)) {
                std::vector<const Node *> names;
                collectNames(s->kids[0], names);
                std::set<std::string> runtime;
                for (const Node *n : names)
                  if (!isConstexpr(n, scope))
                    runtime.insert(n->text);
                std::string reads;
                for (auto &r : runtime)
                  reads += (reads.empty() ? "" : ", ") + r;
                k.record.findings.push_back(finding(
                    "runtime_if_in_dot_loop", s, kname,
                    "runtime `" + lineText(s->line) + "` inside the dot loop at line " +
                        std::to_string(dotLoopLine) +
                        (reads.empty() ? "" : " (reads " + reads + ")") +
                        ": it blocks ping-pong scheduling; split the loop or test a constexpr"));
              }
              block(s->body, dotLoopLine);
              block(s->orelse, dotLoopLine);
              break;
            }
            case K::While: {
              // scf.while: the pipeliner handles only for loops.
              LoopRecord rec;
              rec.line = s->line;
              rec.col = s->col;
              rec.dots = countDots(s->body);
              rec.iterator = "while";
              rec.form = "none";
              rec.why = "a while loop: Triton's software pipeliner handles only for loops";
              k.record.loops.push_back(rec);
              block(s->body, 0);
              block(s->orelse, dotLoopLine);
              break;
            }
            case K::With:
              block(s->body, dotLoopLine);
              block(s->orelse, dotLoopLine);
              break;
            case K::Try:
              block(s->body, dotLoopLine);
              for (Node *h : s->handlers)
                block(h->body, dotLoopLine);
              block(s->orelse, dotLoopLine);
              block(s->finalbody, dotLoopLine);
              break;
            default:
              break;
            }
          }
        };
    block(k.def->body, 0);

    // Module-level globals read inside the kernel.
    std::map<std::string, const Node *> firstUse;
    walkBody(k.def->body, [&](Node *n) {
      if (n->kind != K::Name || scope.params.count(n->text) || scope.locals.count(n->text))
        return;
      auto g = globals_.find(n->text);
      if (g == globals_.end() ||
          (g->second.kind != GlobalKind::Value && g->second.kind != GlobalKind::AnnotatedConstexpr))
        return;
      auto &first = firstUse[n->text];
      if (!first || n->line < first->line)
        first = n;
    });
    for (auto &[name, use] : firstUse) {
      const ModuleGlobal &g = globals_[name];
      std::string line = std::to_string(g.line);
      k.record.findings.push_back(finding(
          "module_global_in_kernel", use, kname,
          g.kind == GlobalKind::AnnotatedConstexpr
              ? "module-level global '" + name + "' (line " + line +
                    ") is annotated `: tl.constexpr`, which Triton does not support for "
                    "globals: reading it in the kernel is a NameError; write " +
                    name + " = tl.constexpr(...)"
              : "module-level global '" + name + "' (line " + line +
                    ") holds a plain Python value, read inside the kernel: a NameError since "
                    "Triton 3.6; pass it as a constexpr parameter or define it as " +
                    name + " = tl.constexpr(...)"));
    }

    // gl.warp_specialize for CDNA3.
    if (im_.targetsCdna3)
      walkBody(k.def->body, [&](Node *n) {
        if (n->kind == K::Call && lastComponent(im_.resolve(n->kids[0])) == "warp_specialize")
          k.record.findings.push_back(
              finding("warp_specialize_on_cdna3", n, kname,
                      "warp_specialize in a kernel for CDNA3 (gfx942): warp specialization has "
                      "no CDNA3 lowering; keep the single-partition schedule"));
      });

    // Autotune configs: waves_per_eu and num_warps sweeps on Gluon kernels.
    if (k.autotune && k.dialect == Dialect::Gluon) {
      const ConfigFacts &c = k.configs;
      if (c.wavesPerEu)
        k.record.findings.push_back(finding(
            "waves_per_eu_in_gluon", c.wavesPerEu, kname,
            "waves_per_eu in the autotune configs of a Gluon kernel: the anchor must run with "
            "the transcribed kernel's register budget, not a tuned occupancy hint"));
      if (c.numWarps.size() > 1 || c.numWarpsSwept)
        k.record.findings.push_back(finding(
            "num_warps_sweep_on_gluon", k.autotune, kname,
            "autotune sweeps num_warps over a Gluon kernel: its layouts are written for one "
            "warp count, so other configs run mismatched layouts (or fail)"));
    }
  }

  /// What an autotune decorator's configs say: tuned keys, num_warps values,
  /// waves_per_eu.
  ConfigFacts configFacts(const Node *autotune) {
    ConfigFacts c;
    const Node *configs = keywordArg(autotune, "configs");
    if (!configs) {
      auto pos = positionalArgs(autotune);
      configs = pos.empty() ? nullptr : pos.front();
    }
    if (configs && configs->kind == K::Name) {
      // A module-level list of configs.
      for (Node *s : m_.root->body)
        if (s->kind == K::Assign && s->kids[0]->kind == K::Name &&
            s->kids[0]->text == configs->text)
          configs = s->kids.back();
    }
    if (!configs)
      return c;
    std::set<std::string> compTargets;
    walkAll(const_cast<Node *>(configs), [&](Node *n) {
      if (n->kind == K::CompFor)
        targetNames(n->kids[0], compTargets);
    });
    walkAll(const_cast<Node *>(configs), [&](Node *n) {
      if (n->kind == K::Call && lastComponent(im_.resolve(n->kids[0])) == "Config") {
        auto pos = positionalArgs(n);
        if (!pos.empty() && pos.front()->kind == K::Dict)
          for (size_t i = 0; i + 1 < pos.front()->kids.size(); i += 2) {
            const Node *key = pos.front()->kids[i];
            if (key && key->kind == K::Str) {
              c.keys.insert(key->value);
              if (key->value == "waves_per_eu" && !c.wavesPerEu)
                c.wavesPerEu = key;
            }
          }
        if (const Node *nw = keywordArg(n, "num_warps")) {
          if (nw->kind == K::Name && compTargets.count(nw->text))
            c.numWarpsSwept = true;
          else
            c.numWarps.insert(nw->text);
        }
        if (const Node *w = keywordArg(n, "waves_per_eu"); w && !c.wavesPerEu)
          c.wavesPerEu = w;
        const Node *ns = keywordArg(n, "num_stages");
        c.numStages.push_back(!ns                                              ? ""
                              : ns->kind == K::Constant || ns->kind == K::Name ? ns->text
                                                                               : "(expression)");
      }
    });
    return c;
  }

  // ---- launches: kernel[grid](args)
  void analyzeLaunches() {
    traverse(m_.root, [&](Node *n, const std::vector<Node *> &ancestors) {
      if (n->kind != K::Call || n->kids[0]->kind != K::Subscript)
        return true;
      Node *sub = n->kids[0];
      KernelInfo *k = sub->kids[0]->kind == K::Name ? kernelNamed(sub->kids[0]->text) : nullptr;
      std::optional<KernelInfo> external;
      if (!k) {
        // A kernel imported from another module of the tree.
        std::string head = dottedName(sub->kids[0]);
        head = head.substr(0, head.find('.'));
        if (head.empty() || !im_.alias.count(head))
          return true;
        std::string path = im_.resolve(sub->kids[0]);
        if (llvm::StringRef(path).starts_with("triton") ||
            llvm::StringRef(path).starts_with("torch"))
          return true;
        importedLaunches_ = true;
        const ExternalKernel *ek = external_ ? lookupKernel(*external_, path) : nullptr;
        if (!ek)
          return true;
        external.emplace();
        external->record.name = ek->name;
        external->dialect = ek->gluon ? Dialect::Gluon : Dialect::Triton;
        external->autotune = ek->autotuned ? n : nullptr;
        external->configs.keys.insert(ek->tunedKeys.begin(), ek->tunedKeys.end());
        k = &*external;
      } else if (external_) {
        return true; // the first pass checked this file's own kernels
      }
      // Inside a kernel there are no launches.
      for (Node *a : ancestors)
        if (KernelInfo *outer = a->kind == K::FunctionDef ? kernelNamed(a->text) : nullptr;
            outer && outer->def == a)
          return true;
      Node *scope = m_.root;
      for (Node *a : ancestors)
        if (a->kind == K::FunctionDef)
          scope = a;
      checkGrid(*k, sub->kids[1], n, scope);
      if (k->dialect == Dialect::Gluon)
        if (const Node *w = keywordArg(n, "waves_per_eu"))
          k->record.findings.push_back(finding(
              "waves_per_eu_in_gluon", w, k->record.name,
              "waves_per_eu passed to a Gluon kernel's launch: the anchor must run with the "
              "transcribed kernel's register budget, not a tuned occupancy hint"));
      std::set<std::string> loopVars;
      const Node *tensorLoop = nullptr;
      for (auto it = ancestors.rbegin(); it != ancestors.rend(); ++it) {
        Node *a = *it;
        if (a->kind == K::FunctionDef)
          break;
        if (a->kind != K::For)
          continue;
        std::set<std::string> vars;
        targetNames(a->kids[0], vars);
        loopVars.insert(vars.begin(), vars.end());
        if (!tensorLoop && passesLoopTensor(a, n, vars) && !isLiteralSweep(a->kids[1]) &&
            !carriesDependency(a, n, vars))
          tensorLoop = a;
      }
      if (k->dialect == Dialect::Gluon)
        if (const Node *nw = keywordArg(n, "num_warps");
            nw && nw->kind == K::Name && loopVars.count(nw->text))
          k->record.findings.push_back(finding(
              "num_warps_sweep_on_gluon", n, k->record.name,
              "num_warps swept over a Gluon kernel's launch: its layouts are written for one "
              "warp count, so other values run mismatched layouts (or fail)"));
      if (tensorLoop && !reportedLoops_.count(tensorLoop)) {
        reportedLoops_.insert(tensorLoop);
        k->record.findings.push_back(finding(
            "per_tensor_launch_loop", tensorLoop, k->record.name,
            "'" + k->record.name + "' is launched once per tensor in the loop at line " +
                std::to_string(tensorLoop->line) +
                ": batch the tensors into one launch (a grouped kernel over a pointer table)"));
      }
      if (external)
        for (auto &f : external->record.findings)
          fileFindings_.push_back(std::move(f));
      return true;
    });
  }

  static bool isLiteralSweep(const Node *iter) {
    if (iter->kind != K::List && iter->kind != K::Tuple)
      return false;
    return std::all_of(iter->kids.begin(), iter->kids.end(),
                       [](const Node *c) { return c->kind == K::Constant; });
  }

  /// The loop runs once per element of a collection of tensors: it iterates
  /// a sequence (`for t in tensors`, `zip(...)`, `enumerate(...)`) and passes
  /// an element (or one of its attributes), or iterates `range(len(X))` and
  /// passes `X[i]`. A `range` over numbers whose variable is passed itself —
  /// radix passes, chunk offsets, shifts — is not a tensor list.
  static bool passesLoopTensor(const Node *loop, const Node *call,
                               const std::set<std::string> &vars) {
    const Node *iter = loop->kids[1];
    std::string fn = iter->kind == K::Call ? dottedName(iter->kids[0]) : "";
    bool overRange = fn == "range";
    bool overLen = overRange && iter->kids.size() == 2 && iter->kids[1]->kind == K::Call &&
                   dottedName(iter->kids[1]->kids[0]) == "len";
    if (overRange && !overLen)
      return false;
    // Over anything else, the loop must walk a collection: a name or
    // attribute holding the tensors, zip/enumerate of them, or a mapping's
    // items/values; a generator call (a chunker's (offset, length) pairs)
    // is no tensor list.
    if (!overRange) {
      std::string last = fn.substr(fn.rfind('.') == std::string::npos ? 0 : fn.rfind('.') + 1);
      bool collection = iter->kind == K::Name || iter->kind == K::Attribute ||
                        iter->kind == K::List || iter->kind == K::Tuple || last == "zip" ||
                        last == "enumerate" || last == "items" || last == "values";
      if (!collection)
        return false;
    }
    // A slice of one tensor by the loop variable is a chunk, not a tensor.
    for (const Node *a : positionalArgs(call))
      if (a->kind == K::Subscript && a->kids[1]->kind == K::Slice) {
        std::vector<const Node *> names;
        collectNames(a->kids[1], names);
        for (const Node *n : names)
          if (vars.count(n->text))
            return false;
      }
    for (const Node *a : positionalArgs(call)) {
      if (overLen) {
        // X[i] exactly: not a slice, not arithmetic on the index.
        const Node *x = a;
        while (x->kind == K::Attribute ||
               (x->kind == K::Call && !x->kids.empty() && x->kids[0]->kind == K::Attribute))
          x = x->kids[0];
        if (x->kind == K::Subscript && x->kids[1]->kind == K::Name && vars.count(x->kids[1]->text))
          return true;
        continue;
      }
      const Node *base = a;
      while (base->kind == K::Attribute || (base->kind == K::Call && !base->kids.empty()))
        base = base->kids[0];
      if (base->kind == K::Name && vars.count(base->text))
        return true;
    }
    return false;
  }

  /// The loop's iterations depend on each other: a name the launch passes is
  /// reassigned in the loop body (`src, dst = dst, src`, `x = out`), so one
  /// launch reads what the previous wrote.
  static bool carriesDependency(const Node *loop, const Node *call,
                                const std::set<std::string> &vars) {
    std::set<std::string> passed;
    for (const Node *a : positionalArgs(call)) {
      std::vector<const Node *> names;
      collectNames(a, names);
      for (const Node *n : names)
        if (!vars.count(n->text))
          passed.insert(n->text);
    }
    bool carried = false;
    for (Node *s : loop->body)
      walkAll(s, [&](Node *n) {
        std::set<std::string> assigned;
        if (n->kind == K::Assign)
          for (size_t i = 0; i + 1 < n->kids.size(); ++i)
            targetNames(n->kids[i], assigned);
        if (n->kind == K::AugAssign)
          targetNames(n->kids[0], assigned);
        for (auto &a : assigned)
          if (passed.count(a))
            carried = true;
      });
    return carried;
  }

  void checkGrid(KernelInfo &k, Node *grid, Node *launch, Node *scope) {
    if (!k.autotune)
      return;
    const Node *g = grid;
    if (g->kind == K::Name) {
      const Node *def = nullptr;
      walkAll(scope, [&](Node *n) {
        if (n->line > launch->line)
          return;
        if (n->kind == K::Assign && n->kids[0]->kind == K::Name && n->kids[0]->text == g->text)
          def = n->kids.back();
        if (n->kind == K::FunctionDef && n->text == g->text && n != scope)
          def = n;
      });
      if (!def && scope != m_.root)
        for (Node *s : m_.root->body)
          if ((s->kind == K::Assign && s->kids[0]->kind == K::Name &&
               s->kids[0]->text == g->text) ||
              (s->kind == K::FunctionDef && s->text == g->text))
            def = s->kind == K::Assign ? s->kids.back() : s;
      if (!def)
        return;
      g = def;
    }
    std::string param;
    std::vector<const Node *> names;
    std::set<std::string> locals; // a grid function's own variables (`bm = META["BM"]`)
    if (g->kind == K::Lambda || g->kind == K::FunctionDef) {
      if (!g->params.empty())
        param = g->params.front()->text;
      if (g->kind == K::Lambda)
        collectNames(g->kids[0], names);
      else
        for (Node *s : g->body) {
          collectNames(s, names);
          walkAll(s, [&](Node *n) {
            if (n->kind == K::Assign || n->kind == K::AnnAssign || n->kind == K::AugAssign ||
                n->kind == K::For)
              targetNames(n->kids[0], locals);
            if (n->kind == K::Assign)
              for (size_t i = 1; i + 1 < n->kids.size(); ++i)
                targetNames(n->kids[i], locals);
          });
        }
    } else {
      collectNames(g, names);
    }
    // Only a parameter the configs tune is wrong to read from the host: when
    // the configs tune no block size, the host's is the right one.
    const ConfigFacts &c = k.configs;
    std::set<std::string> fixed;
    for (const Node *n : names) {
      if (n->text == param || locals.count(n->text))
        continue;
      if (c.keys.count(n->text))
        fixed.insert(n->text);
    }
    if (fixed.empty())
      return;
    std::string list;
    for (auto &f : fixed)
      list += (list.empty() ? "" : ", ") + f;
    k.record.findings.push_back(finding(
        "autotune_grid_ignores_meta", launch, k.record.name,
        "the grid of autotuned '" + k.record.name + "' reads host " + list +
            " instead of META['...']: every config then runs on one config's grid; write the "
            "grid as lambda META: (triton.cdiv(M, META['BLOCK_M']), ...)"));
  }

  // ---- file-level findings
  void analyzeFileLevel() {
    static const std::pair<const char *, const char *> forkOnly[] = {
        {"TRITON_GLUON_SWP_PIPELINE", "a fork's Gluon software-pipelining switch"},
        {"TRITON_GLUON_COOP_LDS", "a fork's cooperative-LDS switch"},
        {"TRITON_GLUON_PINGPONG", "a fork's Gluon ping-pong switch"},
        {"TRITON_ENABLE_LLIR_SCHED", "a fork's LLVM-IR scheduling switch"},
        {"TRITON_GLUON_SWP", "armed only by a patched compiler that re-injects the pipeliner"},
        {"TRITON_GLUON_SWP_NOPP", "armed only by a patched compiler that re-injects the pipeliner"},
        {"TRITON_GLUON_SWP_BUF", "armed only by a patched compiler that re-injects the pipeliner"},
        {"TRITON_GLUON_ASYNC", "armed only by a patched compiler that re-injects async copies"},
    };
    walkAll(m_.root, [&](Node *n) {
      if (n->kind != K::Str)
        return;
      for (auto &[name, what] : forkOnly)
        if (n->value == name)
          fileFindings_.push_back(
              finding("fork_only_env_knob", n, "",
                      std::string(name) + " is " + what +
                          ": upstream Triton never reads it, so setting it changes nothing"));
    });
    static const std::set<std::string> schedHints = {"sched_barrier", "sched_group_barrier",
                                                     "set_prio"};
    walkAll(m_.root, [&](Node *n) {
      if (n->kind != K::Try)
        return;
      std::set<std::string> imported;
      for (Node *s : n->body)
        if (s->kind == K::ImportFrom || s->kind == K::Import)
          for (Node *a : s->kids) {
            std::string bound = a->alias.empty() ? lastComponent(a->text) : a->alias;
            if (schedHints.count(lastComponent(a->text)))
              imported.insert(bound);
          }
      if (imported.empty())
        return;
      std::set<std::string> stubbed;
      for (Node *h : n->handlers)
        walkAll(h, [&](Node *m) {
          if (m->kind == K::FunctionDef && imported.count(m->text))
            stubbed.insert(m->text);
          if (m->kind == K::Assign)
            for (size_t i = 0; i + 1 < m->kids.size(); ++i)
              targetNames(m->kids[i], stubbed);
        });
      std::string list;
      for (auto &s : imported)
        if (stubbed.count(s))
          list += (list.empty() ? "" : ", ") + s;
      if (!list.empty())
        fileFindings_.push_back(finding(
            "sched_hint_stub_import", n, "",
            list + " imported in a try with a no-op fallback: where the import fails the "
                   "schedule hints silently vanish; import them unconditionally or fail loudly"));
    });
  }

  PyModule &m_;
  llvm::StringRef text_;
  Imports im_;
  std::map<std::string, ModuleGlobal> globals_;
  std::map<std::string, int> jitDots_;
  std::set<std::string> inProgress_;
  const KernelIndex *external_ = nullptr;
  bool importedLaunches_ = false;

  /// The kernel a dotted import path names: its longest suffix with a
  /// module part that the index holds.
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

public:
  /// The second pass: only the launches of imported kernels, checked
  /// against the tree's kernels.
  std::vector<Finding> importedLaunchFindings(const KernelIndex &index) {
    external_ = &index;
    collectModuleGlobals();
    findKernels();
    analyzeLaunches();
    std::sort(fileFindings_.begin(), fileFindings_.end(), [](const Finding &a, const Finding &b) {
      return std::tie(a.line, a.col, a.kind) < std::tie(b.line, b.col, b.kind);
    });
    return std::move(fileFindings_);
  }

  /// Every @jit function of the file with its dots (for other files' loops).
  std::map<std::string, int> allJitDots() {
    for (auto &k : kernels_)
      jitFunctionDots(k.record.name);
    return jitDots_;
  }

private:
  /// Whether a Gluon loop writes its own overlap: async copies (global to
  /// shared, TMA), mbarrier waits or multi-buffered shared memory indexed
  /// per iteration.
  bool writesOverlap(const std::vector<Node *> &body) const {
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
  }
  std::set<std::string> definitions_;
  std::vector<KernelInfo> kernels_;
  std::vector<Finding> fileFindings_;
  std::set<const Node *> reportedLoops_;
};

// ------------------------------------------------------------- file walk --

struct IgnoreRule {
  std::string base; // directory of the .gitignore, relative to the root ("" at the root)
  std::string pattern;
  bool negate = false;
};

bool globMatch(llvm::StringRef pat, llvm::StringRef str) {
  // '*' and '?' do not cross '/'; "**" does.
  while (!pat.empty()) {
    if (pat.starts_with("**")) {
      llvm::StringRef rest = pat.drop_front(2);
      if (rest.starts_with("/")) {
        llvm::StringRef after = rest.drop_front(1);
        // "**/" matches zero or more directories.
        if (globMatch(after, str))
          return true;
        for (size_t i = 0; i < str.size(); ++i)
          if (str[i] == '/' && globMatch(after, str.drop_front(i + 1)))
            return true;
        return false;
      }
      for (size_t i = 0; i <= str.size(); ++i)
        if (globMatch(rest, str.drop_front(i)))
          return true;
      return false;
    }
    char p = pat.front();
    if (p == '*') {
      llvm::StringRef rest = pat.drop_front(1);
      for (size_t i = 0; i <= str.size(); ++i) {
        if (globMatch(rest, str.drop_front(i)))
          return true;
        if (i < str.size() && str[i] == '/')
          return false;
      }
      return false;
    }
    if (str.empty())
      return false;
    if (p == '?') {
      if (str.front() == '/')
        return false;
    } else if (p == '[') {
      size_t close = pat.find(']', 1);
      if (close == llvm::StringRef::npos)
        return false;
      llvm::StringRef set = pat.slice(1, close);
      bool negate = set.consume_front("!") || set.consume_front("^");
      bool hit = false;
      for (size_t i = 0; i < set.size(); ++i) {
        if (i + 2 < set.size() && set[i + 1] == '-') {
          hit |= str.front() >= set[i] && str.front() <= set[i + 2];
          i += 2;
        } else {
          hit |= str.front() == set[i];
        }
      }
      if (hit == negate)
        return false;
      pat = pat.drop_front(close + 1);
      str = str.drop_front(1);
      continue;
    } else {
      if (p == '\\' && pat.size() > 1) {
        pat = pat.drop_front(1);
        p = pat.front();
      }
      if (p != str.front())
        return false;
    }
    pat = pat.drop_front(1);
    str = str.drop_front(1);
  }
  return str.empty();
}

struct WalkState {
  std::vector<std::string> files;
  size_t excluded = 0;
};

void walkTree(const std::filesystem::path &root, const std::filesystem::path &dir,
              std::vector<IgnoreRule> rules, const SurveyOptions &options, WalkState &state) {
  namespace fs = std::filesystem;
  std::string rel = fs::relative(dir, root).generic_string();
  if (rel == ".")
    rel.clear();
  if (options.useGitignore) {
    // Only a regular .gitignore: a FIFO or a link to /dev/zero is skipped.
    std::string ignorePath = (dir / ".gitignore").string();
    auto buffer = isRegularFile(ignorePath)
                      ? readInputFile(ignorePath)
                      : llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>(
                            llvm::make_error<InputError>(ignorePath, 0, 0, "absent"));
    if (!buffer)
      llvm::consumeError(buffer.takeError());
    else {
      llvm::StringRef text = (*buffer)->getBuffer();
      while (!text.empty()) {
        auto [line, rest] = text.split('\n');
        text = rest;
        line = line.rtrim("\r").rtrim(" ");
        if (line.empty() || line.starts_with("#"))
          continue;
        IgnoreRule r;
        r.base = rel;
        r.negate = line.consume_front("!");
        r.pattern = line.str();
        rules.push_back(r);
      }
    }
  }
  std::vector<fs::directory_entry> entries;
  std::error_code ec;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    entries.push_back(*it);
  std::sort(entries.begin(), entries.end(),
            [](const auto &a, const auto &b) { return a.path() < b.path(); });
  for (auto &e : entries) {
    std::string name = e.path().filename().string();
    std::error_code typeEc;
    // Directory links are not followed (as git does not): a link to an
    // ancestor would never end.
    bool isDir = !e.is_symlink(typeEc) && e.is_directory(typeEc);
    std::string path = rel.empty() ? name : rel + "/" + name;
    if (isDir && (name == ".git" || name == "__pycache__" || name == ".hg" || name == ".svn"))
      continue;
    bool ignored = false;
    for (auto &r : rules) {
      std::string local = path;
      if (!r.base.empty()) {
        if (!llvm::StringRef(path).starts_with(r.base + "/"))
          continue;
        local = path.substr(r.base.size() + 1);
      }
      if (gitignoreMatch(r.pattern, local, isDir))
        ignored = !r.negate;
    }
    if (ignored) {
      ++state.excluded;
      continue;
    }
    if (isDir)
      walkTree(root, e.path(), rules, options, state);
    else if (llvm::StringRef(name).ends_with(".py"))
      state.files.push_back(e.path().string());
  }
}

struct FileResult {
  FileSurvey survey;
  std::optional<std::string> error;
};

FileResult surveyFile(const std::string &path) {
  FileResult r;
  auto buffer = readInputFile(path);
  if (!buffer) {
    r.error = errorLine(buffer.takeError());
    return r;
  }
  llvm::StringRef text = (*buffer)->getBuffer();
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
  const auto *cursor = begin;
  if (!llvm::isLegalUTF8String(&cursor, begin + text.size())) {
    size_t at = cursor - begin;
    TextPosition pos = positionOf(text, at);
    r.error = errorLine(llvm::make_error<InputError>(
        path, pos.line, pos.col, "not UTF-8 (byte " + std::to_string(at) + "); skipped"));
    return r;
  }
  if (text.contains('\0')) {
    r.error = errorLine(llvm::make_error<InputError>(path, 0, 0, "binary file; skipped"));
    return r;
  }
  auto s = surveySource(text, path);
  if (!s) {
    r.error = errorLine(s.takeError());
    return r;
  }
  r.survey = std::move(*s);
  return r;
}

} // namespace

const std::vector<SurveyRule> &surveyRules() {
  static const std::vector<SurveyRule> rules = {
      {"runtime_if_in_dot_loop", "runtime `if` inside a dot loop",
       "A branch on a runtime value inside the loop that carries the dot blocks the ping-pong "
       "schedule; split the loop (peel the guarded iterations) or branch on a constexpr."},
      {"autotune_grid_ignores_meta", "autotuned grid reads host BLOCK_* instead of META",
       "The grid of an autotuned kernel must read the block sizes from the config (META); with "
       "host values every config runs on the grid of one, and the tuning result is wrong."},
      {"module_global_in_kernel", "module-level global read inside a kernel",
       "Since Triton 3.6 a kernel may read only constexpr globals; any other module global is a "
       "NameError at compile time. Pass it as a tl.constexpr parameter or wrap it in "
       "tl.constexpr(...)."},
      {"fork_only_env_knob", "environment knob only a fork reads",
       "Setting an environment variable that upstream Triton never reads changes nothing: the "
       "experiment silently measures the default."},
      {"sched_hint_stub_import", "schedule hints imported with a no-op fallback",
       "sched_barrier / sched_group_barrier / set_prio imported in a try with stubs: where the "
       "import fails the kernel runs without its schedule and nobody is told."},
      {"waves_per_eu_in_gluon", "waves_per_eu carried into a Gluon kernel",
       "A Gluon anchor is compared with its plain kernel at the same register budget; a tuned "
       "waves_per_eu changes register allocation and breaks the comparison."},
      {"num_warps_sweep_on_gluon", "num_warps swept over a Gluon kernel",
       "A transcribed Gluon kernel's layouts encode one warp count (warpsPerCTA); sweeping "
       "num_warps runs mismatched layouts or fails to compile."},
      {"warp_specialize_on_cdna3", "warp_specialize in a kernel for CDNA3",
       "Warp specialization has no CDNA3 (gfx942) lowering; the kernel will not build there."},
      {"per_tensor_launch_loop", "one launch per tensor in a loop",
       "Launching the kernel once per tensor of a list pays the launch cost per tensor and "
       "leaves the GPU idle between launches; batch the tensors into one grouped launch."},
  };
  return rules;
}

llvm::Expected<FileSurvey> surveySource(llvm::StringRef text, const std::string &file) {
  auto module = parsePython(text, file);
  if (!module)
    return module.takeError();
  FileAnalysis analysis(**module, text);
  return analysis.run();
}

llvm::Expected<std::vector<Finding>>
surveyImportedLaunches(llvm::StringRef text, const std::string &file, const KernelIndex &index) {
  auto module = parsePython(text, file);
  if (!module)
    return module.takeError();
  FileAnalysis analysis(**module, text);
  return analysis.importedLaunchFindings(index);
}

bool gitignoreMatch(llvm::StringRef pattern, llvm::StringRef path, bool isDirectory) {
  bool dirOnly = pattern.consume_back("/");
  if (dirOnly && !isDirectory)
    return false;
  bool anchored = pattern.contains('/');
  pattern.consume_front("/");
  if (anchored)
    return globMatch(pattern, path);
  llvm::StringRef base = path.rsplit('/').second.empty() ? path : path.rsplit('/').second;
  return globMatch(pattern, base);
}

namespace {

/// The dotted names a module file is imported by, whatever the tree's root:
/// "pkg/helpers.py" is "helpers" and "pkg.helpers" (a package's __init__ is
/// the package).
std::vector<std::string> moduleSuffixes(const std::string &file) {
  llvm::StringRef p(file);
  p.consume_back(".py");
  llvm::SmallVector<llvm::StringRef> parts;
  p.split(parts, '/', -1, false);
  if (!parts.empty() && parts.back() == "__init__")
    parts.pop_back();
  std::vector<std::string> out;
  std::string suffix;
  for (size_t j = parts.size(); j-- > 0;) {
    suffix = suffix.empty() ? parts[j].str() : parts[j].str() + "." + suffix;
    out.push_back(suffix);
  }
  return out;
}

/// Loops that call @jit helpers imported from other modules of the tree get
/// those helpers' dots: Triton inlines them before pipelining, so such a loop
/// is controlled by the launch num_stages. Modules are named by the file's
/// path suffixes ("pkg/helpers.py": "helpers", "pkg.helpers"), which is how
/// an import names them whatever the tree's root.
void joinImportedHelpers(const std::vector<std::string> &files, std::vector<FileResult> &results) {
  std::map<std::string, int> byPath; // "helpers.mm", "pkg.helpers.mm" -> dots
  for (size_t i = 0; i < files.size(); ++i) {
    if (results[i].error || results[i].survey.jitDots.empty())
      continue;
    for (const std::string &suffix : moduleSuffixes(files[i]))
      for (auto &[fn, dots] : results[i].survey.jitDots)
        if (dots > 0)
          byPath.emplace(suffix + "." + fn, dots);
  }
  if (byPath.empty())
    return;
  for (auto &r : results) {
    if (r.error)
      continue;
    for (auto &k : r.survey.kernels)
      for (auto &loop : k.loops) {
        int added = 0;
        for (auto &call : loop.importedCalls) {
          llvm::StringRef c(call);
          c = c.ltrim('.');
          // The longest suffix of the dotted path that names a helper.
          while (!c.empty()) {
            auto it = byPath.find(c.str());
            if (it != byPath.end()) {
              added += it->second;
              break;
            }
            size_t dot = c.find('.');
            if (dot == llvm::StringRef::npos)
              break;
            c = c.drop_front(dot + 1);
            if (!c.contains('.'))
              break; // a bare function name alone is too weak a join
          }
        }
        if (!added)
          continue;
        loop.dots += added;
        loop.helperDots += added;
        if (loop.form == "none" && loop.iterator != "while") {
          loop.form = "launch";
          loop.why = fmt::format("{} dot{} ({} in @jit helpers it imports and calls, inlined "
                                 "before pipelining) in a bare loop: the launch num_stages "
                                 "decides its depth",
                                 loop.dots, loop.dots == 1 ? "" : "s", loop.helperDots);
        }
      }
  }
}

/// Launches of kernels imported from other modules of the tree, checked
/// against those kernels (autotune configs, dialect): in some trees most
/// kernels are launched only from other modules.
void joinImportedLaunches(const std::vector<std::string> &files, std::vector<FileResult> &results) {
  KernelIndex index;
  for (size_t i = 0; i < files.size(); ++i) {
    if (results[i].error || results[i].survey.kernels.empty())
      continue;
    for (const std::string &suffix : moduleSuffixes(files[i]))
      for (auto &k : results[i].survey.kernels) {
        ExternalKernel e;
        e.name = k.name;
        e.gluon = k.dialect == "gluon";
        e.autotuned = k.autotuned;
        e.tunedKeys = k.tunedKeys;
        index.emplace(suffix + "." + k.name, std::move(e));
      }
  }
  if (index.empty())
    return;
  for (size_t i = 0; i < files.size(); ++i) {
    if (results[i].error || !results[i].survey.importedLaunches)
      continue;
    auto buffer = readInputFile(files[i]);
    if (!buffer) {
      llvm::consumeError(buffer.takeError());
      continue;
    }
    auto found = surveyImportedLaunches((*buffer)->getBuffer(), files[i], index);
    if (!found) {
      llvm::consumeError(found.takeError());
      continue;
    }
    for (auto &f : *found)
      results[i].survey.findings.push_back(std::move(f));
  }
}

} // namespace

llvm::Expected<SurveyReport> survey(const std::vector<std::string> &roots,
                                    const SurveyOptions &options) {
  namespace fs = std::filesystem;
  WalkState state;
  std::vector<IgnoreRule> cli;
  for (auto &e : options.excludes) {
    IgnoreRule r;
    llvm::StringRef p(e);
    r.negate = p.consume_front("!");
    r.pattern = p.str();
    cli.push_back(r);
  }
  for (auto &root : roots) {
    std::error_code ec;
    auto st = fs::status(root, ec);
    if (ec || !fs::exists(st))
      return llvm::make_error<InputError>(
          root, 0, 0, describeSystemError(ec && ec.value() ? ec.value() : ENOENT));
    if (fs::is_directory(st))
      walkTree(root, root, cli, options, state);
    else
      state.files.push_back(root);
  }
  // One file named through overlapping roots is surveyed once.
  {
    std::set<std::string> seen;
    std::vector<std::string> unique;
    for (auto &f : state.files) {
      std::error_code canonEc;
      std::string canon = fs::weakly_canonical(f, canonEc).string();
      if (seen.insert(canonEc ? f : canon).second)
        unique.push_back(f);
    }
    state.files = std::move(unique);
  }
  std::vector<FileResult> results(state.files.size());
  parallelForWithProgress(state.files.size(), options.jobs, options.progress,
                          [&](size_t i) { results[i] = surveyFile(state.files[i]); });
  joinImportedHelpers(state.files, results);
  joinImportedLaunches(state.files, results);
  SurveyReport report;
  report.filesExcluded = state.excluded;
  for (auto &r : results) {
    if (r.error) {
      report.errors.push_back(*r.error);
      continue;
    }
    ++report.filesScanned;
    if (!r.survey.kernels.empty())
      ++report.filesWithKernels;
    for (auto &k : r.survey.kernels)
      report.kernels.push_back(std::move(k));
    for (auto &f : r.survey.findings)
      report.findings.push_back(std::move(f));
  }
  return report;
}

} // namespace tilexform::source
