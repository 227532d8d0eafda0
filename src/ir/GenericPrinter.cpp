// MLIR's generic op form, printed from the reader's op tree. Values are
// renamed `%0`, `%1`... in definition order so names stay unique across
// regions (the printed ops are not isolated from above).
#include "tilexform/ir/GenericPrinter.h"

#include <mlir/IR/BuiltinAttributes.h>

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <vector>

namespace tilexform::ir {

namespace {

class GenericPrinter {
public:
  explicit GenericPrinter(llvm::raw_ostream &os) : os_(os) {}

  void printTopLevel(const Module &mod) {
    std::string body;
    {
      llvm::raw_string_ostream bs(body);
      GenericPrinter inner(bs);
      inner.printOp(*mod.root, 0);
    }
    // Write layouts by their alias names again, as MLIR's printer does:
    // longest text first, so a slice's parent is not replaced inside it.
    std::vector<std::pair<std::string, std::string>> subst;
    for (auto &a : mod.aliases)
      if (a.name[0] == '#' && a.attr) {
        os_ << a.name << " = " << attrText(a.attr) << "\n";
        subst.emplace_back(attrText(a.attr), a.name);
      }
    std::stable_sort(subst.begin(), subst.end(),
                     [](auto &x, auto &y) { return x.first.size() > y.first.size(); });
    for (auto &[text, name] : subst) {
      std::string out;
      out.reserve(body.size());
      size_t from = 0;
      for (size_t at = body.find(text); at != std::string::npos; at = body.find(text, from)) {
        // Only whole attributes: not a prefix of a longer identifier.
        size_t end = at + text.size();
        bool whole = end >= body.size() || !(std::isalnum(static_cast<unsigned char>(body[end])) ||
                                             body[end] == '_' || body[end] == '.');
        out.append(body, from, at - from);
        out += whole ? name : text;
        from = end;
      }
      out.append(body, from, std::string::npos);
      body = std::move(out);
    }
    os_ << body;
  }

private:
  std::string name(const Value *v) {
    auto it = names_.find(v);
    if (it != names_.end())
      return it->second;
    // A use whose definition the reader folded away: give it a name too.
    define(v);
    return names_[v];
  }
  void define(const Value *v) {
    std::string n = std::to_string(next_++);
    n.insert(n.begin(), '%');
    names_[v] = std::move(n);
  }
  void type(mlir::Type t) { os_ << (t ? typeText(t) : std::string("none")); }
  void indent(unsigned depth) {
    for (unsigned i = 0; i < depth; ++i)
      os_ << "  ";
  }

  void printOp(const Operation &op, unsigned depth) {
    for (auto *r : op.results)
      define(r);
    indent(depth);
    for (size_t i = 0; i < op.results.size(); ++i)
      os_ << (i ? ", " : "") << names_[op.results[i]];
    if (!op.results.empty())
      os_ << " = ";
    os_ << '"' << op.name << "\"(";
    for (size_t i = 0; i < op.operands.size(); ++i)
      os_ << (i ? ", " : "") << name(op.operands[i]);
    os_ << ")";
    if (!op.regions.empty()) {
      os_ << " (";
      for (size_t r = 0; r < op.regions.size(); ++r) {
        os_ << (r ? ", " : "");
        printRegion(*op.regions[r], depth);
      }
      os_ << ")";
    }
    // The dictionary MLIR's generic form prints: the op's attributes and, for
    // a function, its symbol's name, sorted by name.
    mlir::DictionaryAttr attrs = op.attributes;
    if (attrs && !op.symbol.empty() && !op.attr("sym_name")) {
      mlir::MLIRContext *ctx = attrs.getContext();
      llvm::SmallVector<mlir::NamedAttribute> all(attrs.begin(), attrs.end());
      all.emplace_back(mlir::StringAttr::get(ctx, "sym_name"),
                       mlir::StringAttr::get(ctx, llvm::StringRef(op.symbol).ltrim('@').trim('"')));
      attrs = mlir::DictionaryAttr::get(ctx, all);
    }
    std::string dict;
    llvm::raw_string_ostream ds(dict);
    bool first = true;
    for (mlir::NamedAttribute nv :
         attrs ? attrs.getValue() : llvm::ArrayRef<mlir::NamedAttribute>()) {
      ds << (first ? "" : ", ");
      first = false;
      nv.getName().getValue().contains('-') || nv.getName().getValue().contains(' ')
          ? (ds << '"' << nv.getName().getValue() << '"')
          : (ds << nv.getName().getValue());
      if (!mlir::isa<mlir::UnitAttr>(nv.getValue()))
        ds << " = " << attrText(nv.getValue());
    }
    if (!first)
      os_ << " {" << dict << "}";
    os_ << " : (";
    for (size_t i = 0; i < op.operands.size(); ++i) {
      os_ << (i ? ", " : "");
      type(op.operands[i]->type);
    }
    os_ << ") -> (";
    for (size_t i = 0; i < op.results.size(); ++i) {
      os_ << (i ? ", " : "");
      type(op.results[i]->type);
    }
    os_ << ")\n";
  }

  void printRegion(const Region &region, unsigned depth) {
    os_ << "{\n";
    for (size_t b = 0; b < region.blocks.size(); ++b) {
      const Block &block = *region.blocks[b];
      if (b > 0 || !block.arguments.empty()) {
        indent(depth);
        os_ << "^bb" << b;
        if (!block.arguments.empty()) {
          os_ << "(";
          for (size_t i = 0; i < block.arguments.size(); ++i) {
            define(block.arguments[i]);
            os_ << (i ? ", " : "") << names_[block.arguments[i]] << ": ";
            type(block.arguments[i]->type);
          }
          os_ << ")";
        }
        os_ << ":\n";
      }
      for (auto &op : block.ops)
        printOp(*op, depth + 1);
    }
    indent(depth);
    os_ << "}";
  }

  llvm::raw_ostream &os_;
  std::unordered_map<const Value *, std::string> names_;
  unsigned next_ = 0;
};

} // namespace

void printGeneric(const Module &mod, llvm::raw_ostream &os) {
  GenericPrinter(os).printTopLevel(mod);
}

} // namespace tilexform::ir
