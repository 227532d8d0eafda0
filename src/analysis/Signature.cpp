#include "tilexform/analysis/Signature.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <mlir/IR/BuiltinAttributes.h>

#include <map>

namespace tilexform::analysis {

namespace {

std::string integerOf(mlir::Attribute a) {
  if (auto i = mlir::dyn_cast_or_null<mlir::IntegerAttr>(a))
    return std::to_string(i.getValue().getSExtValue());
  return a ? ir::attrText(a) : "";
}

std::string described(const ArgumentFacts &a) {
  if (a.specialisation.empty())
    return a.type;
  return a.type + ", " + a.specialisation;
}

} // namespace

std::vector<ArgumentFacts> signatureOf(const ir::Module &m) {
  const ir::Operation *fn = m.firstFunction();
  std::vector<ArgumentFacts> out;
  if (!fn || fn->regions.empty() || fn->regions[0]->blocks.empty())
    return out;
  unsigned index = 0;
  for (const ir::Value *v : fn->regions[0]->blocks[0]->arguments) {
    ArgumentFacts a;
    a.index = index++;
    a.name = v->name.size() > 1 && v->name[0] == '%' ? v->name.substr(1) : v->name;
    a.type = v->type ? ir::typeText(v->type) : "?";
    bool specialisable = llvm::StringRef(a.type).starts_with("!tt.ptr") || a.type == "i32" ||
                         a.type == "i64" || a.type == "i1";
    std::vector<std::string> facts;
    if (v->attributes) {
      if (auto d = v->attributes.get("tt.divisibility"))
        facts.push_back("divisible by " + integerOf(d));
      if (auto r = v->attributes.get("tt.pointer_range"))
        facts.push_back("pointer range " + integerOf(r));
      if (auto e = v->attributes.get("tt.equal_to"))
        facts.push_back("equal to " + integerOf(e));
    }
    if (!facts.empty())
      a.specialisation = llvm::join(facts, ", ");
    else if (specialisable)
      a.specialisation = "not specialised";
    out.push_back(std::move(a));
  }
  return out;
}

std::string SignatureComparison::summary() const {
  if (!compared)
    return "not compared (a module without a function)";
  if (differences.empty())
    return "same";
  std::vector<std::string> parts;
  for (auto &d : differences)
    parts.push_back(fmt::format("{}: plain {}; anchor {}", d.name, d.plain, d.anchor));
  return llvm::join(parts, " | ");
}

SignatureComparison compareSignatures(const std::vector<ArgumentFacts> &plain,
                                      const std::vector<ArgumentFacts> &anchor) {
  SignatureComparison c;
  c.compared = !plain.empty() || !anchor.empty();
  // Dumps name arguments after the Python parameters; a dump without names
  // (argN) is paired by position.
  auto generic = [](const std::string &n) {
    return n.size() > 3 && n.rfind("arg", 0) == 0 &&
           n.find_first_not_of("0123456789", 3) == std::string::npos;
  };
  std::map<std::string, const ArgumentFacts *> byName;
  for (auto &a : anchor)
    byName[a.name] = &a;
  std::vector<bool> paired(anchor.size(), false);
  for (auto &p : plain) {
    const ArgumentFacts *q = nullptr;
    if (!generic(p.name)) {
      auto it = byName.find(p.name);
      if (it != byName.end())
        q = it->second;
    } else if (p.index < anchor.size() && generic(anchor[p.index].name)) {
      q = &anchor[p.index];
    }
    if (!q) {
      c.differences.push_back({p.name, described(p), "absent"});
      continue;
    }
    paired[q->index] = true;
    if (q->type != p.type || q->specialisation != p.specialisation)
      c.differences.push_back({p.name, described(p), described(*q)});
  }
  for (auto &q : anchor)
    if (!paired[q.index])
      c.differences.push_back({q.name, "absent", described(q)});
  return c;
}

} // namespace tilexform::analysis
