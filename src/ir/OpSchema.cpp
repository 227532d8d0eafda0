// The op-schema table, built once from OpSchemas.def.
#include "tilexform/ir/OpSchema.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>

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

struct Table {
  std::vector<OpSchema> schemas;
  llvm::StringMap<size_t> byName;

  Table() {
    auto add = [&](const char *name, const char *operands, ResultRule results, RegionArgs args,
                   uint16_t flags, const char *legacy) {
      OpSchema s;
      s.name = name;
      s.segments = parseSegments(operands);
      s.results = results;
      s.regionArgs = args;
      s.flags = flags;
      llvm::SmallVector<llvm::StringRef> names;
      llvm::StringRef(legacy).split(names, '|', -1, false);
      s.legacyNames.assign(names.begin(), names.end());
      schemas.push_back(std::move(s));
    };
#define TX_OP(NAME, OPERANDS, RESULTS, ARGS, FLAGS, LEGACY)                                        \
  add(NAME, OPERANDS, ResultRule::RESULTS, RegionArgs::ARGS, uint16_t(FLAGS), LEGACY);
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

const OpSchema *lookupOpSchema(llvm::StringRef name) {
  auto &t = table();
  auto it = t.byName.find(name);
  return it == t.byName.end() ? nullptr : &t.schemas[it->second];
}

const std::vector<OpSchema> &allOpSchemas() { return table().schemas; }

} // namespace tilexform::ir
