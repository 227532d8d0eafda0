// The op-schema table, built once from OpSchemas.def.
#include "tilexform/ir/OpSchema.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace tilexform::ir {

namespace {

std::vector<OperandSegment> parseSegments(llvm::StringRef spec) {
  std::vector<OperandSegment> out;
  llvm::SmallVector<llvm::StringRef> parts;
  spec.split(parts, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef p : parts) {
    OperandSegment s;
    if (p.starts_with("[:")) {
      s.keyword = "[";
      p = p.drop_front(2);
    } else if (auto colon = p.find(':'); colon != llvm::StringRef::npos) {
      s.keyword = p.take_front(colon);
      p = p.drop_front(colon + 1);
    }
    if (p.ends_with("?")) {
      s.optional = true;
      p = p.drop_back();
    } else if (p.ends_with("*")) {
      s.variadic = true;
      s.optional = true;
      p = p.drop_back();
    }
    s.name = p;
    out.push_back(std::move(s));
  }
  return out;
}

// `name:type@place!`, space-separated (see OpSchemas.def). An entry it
// cannot read is left out and listed in `unreadable` (a unit test keeps
// that list empty).
std::vector<AttrSpec> parseAttrs(llvm::StringRef spec, std::vector<std::string> &unreadable) {
  std::vector<AttrSpec> out;
  llvm::SmallVector<llvm::StringRef> parts;
  spec.split(parts, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef entry : parts) {
    AttrSpec a;
    llvm::StringRef p = entry;
    unreadable.push_back(entry.str()); // until it is read whole
    if (p.consume_back("!"))
      a.required = true;
    auto [head, place] = p.rsplit('@');
    if (head.size() == p.size())
      place = "";
    auto [name, type] = head.split(':');
    a.name = name;
    llvm::StringRef cases; // Enum and String: `a|b|c`
    if (type == "i64") {
      a.type = AttrType::Integer;
    } else if (type == "i64[]") {
      a.type = AttrType::Integers;
    } else if (type == "unit") {
      a.type = AttrType::Unit;
    } else if (type == "attr") {
      a.type = AttrType::Literal;
    } else if (type.consume_front("str(") && type.consume_back(")")) {
      a.type = AttrType::String;
      cases = type;
    } else if ((type.starts_with("enum(") || type.starts_with("enum64(")) &&
               type.consume_back(")")) {
      a.type = AttrType::Enum;
      a.bits = type.starts_with("enum64(") ? 64 : 32;
      type = type.drop_front(type.find('(') + 1);
      if (auto colon = type.find(':'); colon != llvm::StringRef::npos) {
        if (type.take_front(colon).getAsInteger(10, a.first))
          continue;
        type = type.drop_front(colon + 1);
      }
      cases = type;
    } else {
      continue;
    }
    if (place.empty()) {
      a.place = AttrPlace::Dictionary;
    } else if (place.consume_front("word")) {
      a.place = AttrPlace::Word;
      if (place.getAsInteger(10, a.word))
        continue;
    } else if (place.consume_front("=")) {
      a.place = AttrPlace::Keyword;
      a.keyword = place;
    } else if (place == "int") {
      a.place = AttrPlace::Integer;
    } else if (place == "[]") {
      a.place = AttrPlace::Brackets;
    } else if (place == "bare") {
      a.place = AttrPlace::Bare;
    } else if (place == "literal") {
      a.place = AttrPlace::Literal;
    } else {
      continue;
    }
    if (!cases.empty()) {
      llvm::SmallVector<llvm::StringRef> split;
      cases.split(split, '|');
      a.cases.assign(split.begin(), split.end());
    }
    unreadable.pop_back();
    out.push_back(std::move(a));
  }
  return out;
}

struct Table {
  std::vector<OpSchema> schemas;
  std::vector<std::string> unreadable;
  llvm::StringMap<size_t> byName;

  Table() {
    auto add = [&](const char *name, const char *operands, const char *attrs, ResultRule results,
                   RegionArgs args, uint16_t flags, const char *legacy) {
      OpSchema s;
      s.name = name;
      s.segments = parseSegments(operands);
      s.attrs = parseAttrs(attrs, unreadable);
      s.results = results;
      s.regionArgs = args;
      s.flags = flags;
      llvm::SmallVector<llvm::StringRef> names;
      llvm::StringRef(legacy).split(names, '|', -1, false);
      s.legacyNames.assign(names.begin(), names.end());
      schemas.push_back(std::move(s));
    };
#define TX_OP(NAME, OPERANDS, ATTRS, RESULTS, ARGS, FLAGS, LEGACY)                                 \
  add(NAME, OPERANDS, ATTRS, ResultRule::RESULTS, RegionArgs::ARGS, uint16_t(FLAGS), LEGACY);
#include "OpSchemas.def"
#undef TX_OP
    for (size_t i = 0; i < schemas.size(); ++i) {
      byName[schemas[i].name] = i;
      for (auto &l : schemas[i].legacyNames)
        byName[l] = i;
    }
  }
};

const Table &table() {
  static const Table t;
  return t;
}

} // namespace

int OpSchema::segmentIndex(llvm::StringRef n) const {
  for (size_t i = 0; i < segments.size(); ++i)
    if (segments[i].name == n)
      return int(i);
  return -1;
}

const AttrSpec *OpSchema::attr(llvm::StringRef n) const {
  for (auto &a : attrs)
    if (a.name == n)
      return &a;
  return nullptr;
}

llvm::StringRef AttrSpec::caseName(int64_t number) const {
  int64_t k = number - first;
  return k >= 0 && size_t(k) < cases.size() ? cases[size_t(k)] : llvm::StringRef();
}

std::optional<int64_t> AttrSpec::caseNumber(llvm::StringRef keyword) const {
  for (size_t k = 0; k < cases.size(); ++k)
    if (cases[k] == keyword)
      return first + int64_t(k);
  return std::nullopt;
}

std::string AttrSpec::caseList() const {
  std::string out;
  for (size_t k = 0; k < cases.size(); ++k) {
    if (k)
      out += k + 1 == cases.size() ? " or " : ", ";
    out += cases[k].str();
  }
  return out;
}

const OpSchema *lookupOpSchema(llvm::StringRef name) {
  auto &t = table();
  auto it = t.byName.find(name);
  return it == t.byName.end() ? nullptr : &t.schemas[it->second];
}

const std::vector<OpSchema> &allOpSchemas() { return table().schemas; }

const std::vector<std::string> &unreadableAttrEntries() { return table().unreadable; }

} // namespace tilexform::ir
