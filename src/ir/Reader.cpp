// The tolerant structural reader for Triton dumps.
//
// MLIR's printer writes one op per line; an op whose line ends in `{` owns
// regions that close on a line starting with `}`. The reader follows that
// structure, and within an op's own text it takes results, name, operands,
// attribute dictionaries, the type signature and the location. Attributes and
// types are parsed by MLIR with tilexform's dialects, so layouts are typed
// values, not strings.
#include "tilexform/ir/Module.h"

#include <mlir/AsmParser/AsmParser.h>
#include <mlir/IR/Diagnostics.h>
#include <mlir/IR/OperationSupport.h>

#include <fmt/format.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cctype>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>

namespace tilexform::ir {

namespace {

llvm::Error inputError(const std::string &file, unsigned line, unsigned col,
                       const std::string &msg) {
  return llvm::make_error<InputError>(file, line, col, msg);
}

bool isIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

bool isBareIdStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Index of the `"` closing a string that opens at `i`, honouring escapes.
size_t skipString(const std::string &s, size_t i) {
  for (size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\')
      ++j;
    else if (s[j] == '"')
      return j;
  }
  return std::string::npos;
}

// Index of the bracket closing the one at `i` ((, [, {, <), or npos.
size_t matchBracket(const std::string &s, size_t i) {
  std::vector<char> stack;
  for (size_t j = i; j < s.size(); ++j) {
    char c = s[j];
    if (c == '"') {
      j = skipString(s, j);
      if (j == std::string::npos)
        return j;
      continue;
    }
    if (c == '-' && j + 1 < s.size() && s[j + 1] == '>') {
      ++j;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<')
      stack.push_back(c);
    else if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (stack.empty())
        return std::string::npos;
      stack.pop_back();
      if (stack.empty())
        return j;
    }
  }
  return std::string::npos;
}

const llvm::StringSet<> &tritonOps() {
  static const llvm::StringSet<> ops = {
      // tt
      "tt.func", "tt.return", "tt.call", "tt.get_program_id", "tt.get_num_programs",
      "tt.make_range", "tt.splat", "tt.unsplat", "tt.broadcast", "tt.expand_dims", "tt.reshape",
      "tt.trans", "tt.addptr", "tt.advance", "tt.load", "tt.store", "tt.dot", "tt.dot_scaled",
      "tt.reduce", "tt.reduce.return", "tt.scan", "tt.scan.return", "tt.map_elementwise",
      "tt.map_elementwise.return", "tt.atomic_rmw", "tt.atomic_cas", "tt.atomic_poll",
      "tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_reduce", "tt.descriptor_gather",
      "tt.descriptor_scatter", "tt.make_tensor_descriptor", "tt.assert", "tt.print",
      "tt.elementwise_inline_asm", "tt.extern_elementwise", "tt.fp_to_fp", "tt.bitcast", "tt.join",
      "tt.split", "tt.cat", "tt.histogram", "tt.gather", "tt.clampf", "tt.precise_sqrt",
      "tt.precise_divf", "tt.make_tensor_ptr", "tt.mulhiui", "tt.int_to_ptr", "tt.ptr_to_int",
      "tt.grid_dependency_wait", "tt.grid_dependency_launch_dependents",
      "tt.reinterpret_tensor_descriptor", "tt.experimental_descriptor_load",
      "tt.experimental_descriptor_store", "tt.experimental_descriptor_gather",
      "tt.experimental_descriptor_scatter", "tt.experimental_tensormap_create",
      "tt.experimental_tensormap_fenceproxy_acquire",
      // ttg
      "ttg.convert_layout", "ttg.local_alloc", "ttg.local_dealloc", "ttg.local_load",
      "ttg.local_store", "ttg.local_gather", "ttg.local_scatter", "ttg.local_atomic_scatter_rmw",
      "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_subview", "ttg.memdesc_trans",
      "ttg.memdesc_reshape", "ttg.memdesc_reinterpret", "ttg.async_copy_global_to_local",
      "ttg.async_commit_group", "ttg.async_wait", "ttg.barrier", "ttg.local_barrier",
      "ttg.warp_specialize", "ttg.warp_specialize.partitions", "ttg.warp_yield", "ttg.warp_return",
      "ttg.fp4_to_fp", "ttg.global_scratch_alloc", "ttg.predicate_stage", "ttg.mask",
      "ttg.mask.return", "ttg.warp_id", "ttg.upcast_mxfp",
      // ttng
      "ttng.warp_group_dot", "ttng.warp_group_dot_wait", "ttng.fence_async_shared",
      "ttng.init_barrier", "ttng.inval_barrier", "ttng.barrier_expect", "ttng.wait_barrier",
      "ttng.arrive_barrier", "ttng.async_tma_copy_global_to_local",
      "ttng.async_tma_copy_local_to_global", "ttng.async_tma_reduce", "ttng.async_tma_gather",
      "ttng.async_tma_scatter", "ttng.async_tma_store_wait", "ttng.tc_gen5_mma",
      "ttng.tc_gen5_mma_scaled", "ttng.tc_gen5_commit", "ttng.tmem_alloc", "ttng.tmem_load",
      "ttng.tmem_store", "ttng.tmem_subslice", "ttng.tmem_copy",
      "ttng.reinterpret_tensor_descriptor", "ttng.tensormap_create",
      "ttng.tensormap_fenceproxy_acquire", "ttng.cluster_arrive", "ttng.cluster_wait",
      "ttng.cluster_barrier", "ttng.tensor_desc_to_tma_ptr", "ttng.async_copy_mbarrier_arrive",
      "ttng.fence_mbarrier_init_release_cluster", "ttng.async_shared_store",
      // amdg
      "amdg.buffer_load", "amdg.buffer_store", "amdg.buffer_load_to_local",
      "amdg.buffer_atomic_rmw", "amdg.buffer_atomic_cas", "amdg.async_wait", "amdg.cond_barrier",
      "amdg.concat", "amdg.extract_slice", "amdg.in_thread_transpose",
      "amdg.instruction_sched_hint", "amdg.local_load_packed_tranposed",
      "amdg.local_load_packed_transposed", "amdg.scaled_upcast_fp4", "amdg.scaled_upcast_fp8",
      "amdg.upcast_mxfp", "amdg.masked_load", "amdg.masked_store",
      "amdg.async_copy_local_to_global", "amdg.async_tdm_copy_global_to_local",
      "amdg.async_tdm_copy_local_to_global", "amdg.async_tdm_wait", "amdg.tdm_prefetch",
      "amdg.update_tensor_descriptor", "amdg.memory_counter_wait", "amdg.init_barrier",
      "amdg.wait_barrier", "amdg.arrive_barrier",
      // gluon
      "gluon.set_auto_layout",
      // module
      "builtin.module"};
  return ops;
}

struct Piece {
  std::string text;
  unsigned line, col; // where `text` starts
};

// The text of one op without its regions, with a map back to file positions.
struct Header {
  std::string text;
  std::vector<std::pair<size_t, Piece *>> map;
  std::vector<Piece> pieces;

  void add(const std::string &t, unsigned line, unsigned col) { pieces.push_back({t, line, col}); }
  void finish() {
    text.clear();
    map.clear();
    for (auto &p : pieces) {
      if (!text.empty())
        text += ' ';
      map.emplace_back(text.size(), &p);
      text += p.text;
    }
  }
  TextPos posOf(size_t offset) const {
    TextPos pos;
    for (auto &[start, piece] : map) {
      if (start > offset)
        break;
      pos.line = piece->line;
      pos.col = piece->col + unsigned(offset - start);
    }
    return pos;
  }
};

struct LocNode {
  std::string text; // inside loc( ... )
};

class Reader {
public:
  Reader(std::string path, const std::string &text) : path_(std::move(path)) {
    std::string line;
    std::istringstream in(text);
    while (std::getline(in, line))
      lines_.push_back(line);
  }

  llvm::Expected<std::unique_ptr<Module>> run();

private:
  // ---- errors ----
  llvm::Error error(TextPos pos, const std::string &msg) {
    return inputError(path_, pos.line, pos.col, msg);
  }

  // ---- text helpers ----
  std::string substitute(const std::string &s, size_t *firstChange = nullptr);
  std::string fixStrippedType(const std::string &t);
  llvm::Expected<mlir::Type> parseType(const std::string &text, TextPos at);
  llvm::Expected<mlir::Attribute> parseAttr(const std::string &text, TextPos at);
  llvm::Expected<mlir::Type> parseTypeUncached(const std::string &text, TextPos at);
  llvm::Expected<mlir::Attribute> parseAttrUncached(const std::string &text, TextPos at);
  std::unordered_map<std::string, mlir::Type> typeCache_;
  std::unordered_map<std::string, mlir::Attribute> attrCache_;

  // ---- structure ----
  llvm::Error parseTopLevel();
  llvm::Error expandAliases();
  llvm::Expected<std::unique_ptr<Operation>> parseOp(size_t &lineIdx, Block *parent);
  llvm::Error parseRegionBody(size_t &lineIdx, Region *region, TextPos open);
  llvm::Error analyseHeader(Operation *op, Header &h, Block *parent);
  llvm::Error parseSignature(Operation *op, const std::string &sig, size_t sigOffset, Header &h,
                             size_t nResults);
  std::vector<std::string> splitTypes(const std::string &s);
  SourceLoc resolveLoc(const std::string &text, int depth = 0);

  Value *newValue(const std::string &name) {
    mod_->values.push_back(std::make_unique<Value>());
    mod_->values.back()->name = name;
    return mod_->values.back().get();
  }
  Value *lookup(const std::string &name, TextPos pos);
  void define(const std::string &name, Value *v);

  std::string path_;
  std::vector<std::string> lines_;
  std::unique_ptr<Module> mod_;
  std::map<std::string, std::string> attrAliases_; // "#blocked" -> text
  std::map<std::string, std::string> typeAliases_; // "!t" -> text
  std::map<std::string, std::string> locAliases_;  // "#loc3" -> inside loc()
  std::map<std::string, SourceLoc> locCache_;
  std::vector<std::unordered_map<std::string, Value *>> scopes_;
  std::unordered_map<std::string, Value *> forward_;
  std::vector<Value *> pendingArgs_; // arguments written on a region label
  std::string missingLoc_;           // first `#locN` used but never defined
  TextPos missingLocPos_;
  llvm::Error labelArguments(const std::string &label, unsigned line, unsigned col);
};

std::string Reader::substitute(const std::string &s, size_t *firstChange) {
  if (firstChange)
    *firstChange = std::string::npos;
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '"') {
      size_t e = skipString(s, i);
      if (e == std::string::npos)
        e = s.size() - 1;
      out.append(s, i, e - i + 1);
      i = e + 1;
      continue;
    }
    if ((c == '#' || c == '!') && i + 1 < s.size() && isBareIdStart(s[i + 1])) {
      size_t j = i + 1;
      while (j < s.size() && isIdChar(s[j]))
        ++j;
      std::string tok = s.substr(i, j - i);
      auto &table = c == '#' ? attrAliases_ : typeAliases_;
      auto it = table.find(tok);
      if (it != table.end()) {
        if (firstChange && *firstChange == std::string::npos)
          *firstChange = i;
        out += it->second;
      } else {
        out += tok;
      }
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string Reader::fixStrippedType(const std::string &t) {
  if (t.empty() || t[0] != '<')
    return t;
  if (t.find("#smem") != std::string::npos || t.find("shared_memory") != std::string::npos ||
      t.find("tensor_memory") != std::string::npos || t.find(", mutable") != std::string::npos ||
      t.find("#shared") != std::string::npos)
    return "!ttg.memdesc" + t;
  size_t k = 1;
  while (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k])))
    ++k;
  if (k > 1 && k < t.size() && t[k] == 'x')
    return "!tt.tensordesc" + t;
  return "!tt.ptr" + t;
}

// Runs an MLIR parse with diagnostics captured into one message.
template <typename T, typename Fn>
llvm::Expected<T> captureParse(mlir::MLIRContext *ctx, const std::string &text, Fn &&parse,
                               unsigned &errCol) {
  std::string message;
  errCol = 0;
  mlir::ScopedDiagnosticHandler handler(ctx, [&](mlir::Diagnostic &d) {
    if (message.empty()) {
      message = d.str();
      if (auto fl = mlir::dyn_cast<mlir::FileLineColLoc>(d.getLocation()))
        errCol = fl.getColumn();
    }
    return mlir::success();
  });
  size_t numRead = 0;
  T result = parse(text, &numRead);
  if (!result)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   message.empty() ? "cannot parse" : message.c_str());
  if (numRead != text.size() && !trim(text.substr(numRead)).empty()) {
    errCol = unsigned(numRead) + 1;
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "unexpected text after '%s'",
                                   text.substr(0, numRead).c_str());
  }
  return result;
}

llvm::Expected<mlir::Type> Reader::parseType(const std::string &raw, TextPos at) {
  // Dumps repeat the same few types thousands of times.
  auto cached = typeCache_.find(raw);
  if (cached != typeCache_.end())
    return cached->second;
  auto parsed = parseTypeUncached(raw, at);
  if (parsed)
    typeCache_.emplace(raw, *parsed);
  return parsed;
}

llvm::Expected<mlir::Type> Reader::parseTypeUncached(const std::string &raw, TextPos at) {
  size_t firstChange;
  std::string text = substitute(fixStrippedType(trim(raw)), &firstChange);
  unsigned col;
  auto r = captureParse<mlir::Type>(
      mod_->context.get(), text,
      [&](const std::string &t, size_t *n) { return mlir::parseType(t, mod_->context.get(), n); },
      col);
  if (!r) {
    TextPos p = at;
    if (col > 0 && (firstChange == std::string::npos || col - 1 < firstChange) &&
        raw.size() == trim(raw).size() && raw[0] != '<')
      p.col += col - 1;
    return error(p, llvm::toString(r.takeError()));
  }
  return *r;
}

llvm::Expected<mlir::Attribute> Reader::parseAttr(const std::string &raw, TextPos at) {
  auto cached = attrCache_.find(raw);
  if (cached != attrCache_.end())
    return cached->second;
  auto parsed = parseAttrUncached(raw, at);
  if (parsed)
    attrCache_.emplace(raw, *parsed);
  return parsed;
}

llvm::Expected<mlir::Attribute> Reader::parseAttrUncached(const std::string &raw, TextPos at) {
  size_t firstChange;
  std::string text = substitute(trim(raw), &firstChange);
  unsigned col;
  auto r = captureParse<mlir::Attribute>(
      mod_->context.get(), text,
      [&](const std::string &t, size_t *n) {
        return mlir::parseAttribute(t, mod_->context.get(), mlir::Type(), n);
      },
      col);
  if (!r) {
    TextPos p = at;
    if (col > 0 && (firstChange == std::string::npos || col - 1 < firstChange))
      p.col += col - 1;
    return error(p, llvm::toString(r.takeError()));
  }
  return *r;
}

Value *Reader::lookup(const std::string &name, TextPos) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end())
      return f->second;
  }
  auto f = forward_.find(name);
  if (f != forward_.end())
    return f->second;
  Value *v = newValue(name);
  forward_[name] = v;
  return v;
}

void Reader::define(const std::string &name, Value *v) {
  auto f = forward_.find(name);
  if (f != forward_.end()) {
    // A use came first (graph regions, branches): fold it into the definition.
    Value *placeholder = f->second;
    for (auto &[op, idx] : placeholder->uses) {
      op->operands[idx] = v;
      v->uses.emplace_back(op, idx);
    }
    placeholder->uses.clear();
    forward_.erase(f);
  }
  scopes_.back()[name] = v;
}

SourceLoc Reader::resolveLoc(const std::string &rawText, int depth) {
  SourceLoc out;
  std::string t = trim(rawText);
  if (depth > 64 || t.empty())
    return out;
  if (t[0] == '#') {
    auto c = locCache_.find(t);
    if (c != locCache_.end())
      return c->second;
    auto a = locAliases_.find(t);
    if (a == locAliases_.end()) {
      if (missingLoc_.empty())
        missingLoc_ = t;
      return out;
    }
    out = resolveLoc(a->second, depth + 1);
    locCache_[t] = out;
    return out;
  }
  if (t.rfind("callsite(", 0) == 0) {
    size_t close = matchBracket(t, 8);
    std::string inner = close == std::string::npos ? t.substr(9) : t.substr(9, close - 9);
    size_t at = inner.find(" at ");
    return resolveLoc(at == std::string::npos ? inner : inner.substr(0, at), depth + 1);
  }
  if (t.rfind("fused", 0) == 0) {
    size_t lb = t.find('[');
    if (lb == std::string::npos)
      return out;
    size_t rb = matchBracket(t, lb);
    std::string inner = t.substr(lb + 1, (rb == std::string::npos ? t.size() : rb) - lb - 1);
    // The first part that resolves.
    int d = 0;
    size_t start = 0;
    for (size_t i = 0; i <= inner.size(); ++i) {
      if (i < inner.size() && inner[i] == '"') {
        i = skipString(inner, i);
        if (i == std::string::npos)
          break;
        continue;
      }
      if (i < inner.size() && (inner[i] == '(' || inner[i] == '['))
        ++d;
      else if (i < inner.size() && (inner[i] == ')' || inner[i] == ']'))
        --d;
      else if (i == inner.size() || (inner[i] == ',' && d == 0)) {
        SourceLoc part = resolveLoc(inner.substr(start, i - start), depth + 1);
        if (part.known())
          return part;
        start = i + 1;
      }
    }
    return out;
  }
  if (t[0] == '"') {
    size_t e = skipString(t, 0);
    if (e == std::string::npos)
      return out;
    std::string s = t.substr(1, e - 1);
    std::string rest = trim(t.substr(e + 1));
    if (!rest.empty() && rest[0] == ':') {
      out.file = s;
      unsigned line = 0, col = 0;
      if (std::sscanf(rest.c_str(), ":%u:%u", &line, &col) >= 1) {
        out.line = line;
        out.col = col;
      }
      return out;
    }
    if (!rest.empty() && rest[0] == '(') {
      size_t close = matchBracket(rest, 0);
      std::string child = rest.substr(1, (close == std::string::npos ? rest.size() : close) - 1);
      out = resolveLoc(child, depth + 1);
    }
    out.name = s;
    return out;
  }
  return out;
}

llvm::Error Reader::expandAliases() {
  constexpr size_t kMaxExpansion = size_t(1) << 20;
  std::map<std::string, int> state; // 1: expanding, 2: done
  std::function<llvm::Error(const std::string &)> expand =
      [&](const std::string &name) -> llvm::Error {
    auto &table = name[0] == '#' ? attrAliases_ : typeAliases_;
    auto it = table.find(name);
    if (it == table.end() || state[name] == 2)
      return llvm::Error::success();
    TextPos pos{1, 1};
    for (auto &a : mod_->aliases)
      if (a.name == name)
        pos = a.pos;
    if (state[name] == 1)
      return error(pos, "alias '" + name + "' refers to itself");
    state[name] = 1;
    const std::string &text = it->second;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '"') {
        size_t e = skipString(text, i);
        if (e == std::string::npos)
          break;
        i = e;
        continue;
      }
      if ((text[i] == '#' || text[i] == '!') && i + 1 < text.size() && isBareIdStart(text[i + 1])) {
        size_t j = i + 1;
        while (j < text.size() && isIdChar(text[j]))
          ++j;
        std::string ref = text.substr(i, j - i);
        if ((ref[0] == '#' ? attrAliases_ : typeAliases_).count(ref))
          if (auto e = expand(ref))
            return e;
        i = j - 1;
      }
    }
    std::string expanded = substitute(text);
    if (expanded.size() > kMaxExpansion)
      return error(pos, "alias '" + name + "' expands to more than 1 MiB");
    table[name] = std::move(expanded);
    state[name] = 2;
    return llvm::Error::success();
  };
  for (auto &a : mod_->aliases)
    if (auto e = expand(a.name))
      return e;
  return llvm::Error::success();
}

llvm::Error Reader::parseTopLevel() {
  // Pass 1: aliases, wherever they are (Triton puts #loc aliases last).
  for (size_t i = 0; i < lines_.size(); ++i) {
    const std::string &l = lines_[i];
    if (l.empty() || (l[0] != '#' && l[0] != '!'))
      continue;
    size_t eq = l.find(" = ");
    if (eq == std::string::npos)
      return error({unsigned(i + 1), 1}, "expected 'NAME = VALUE' for an alias definition");
    std::string name = l.substr(0, eq);
    std::string value = trim(l.substr(eq + 3));
    for (size_t k = 1; k < name.size(); ++k)
      if (!isIdChar(name[k]))
        return error({unsigned(i + 1), unsigned(k + 1)}, "bad alias name '" + name + "'");
    if (name[0] == '#' && value.rfind("loc(", 0) == 0) {
      size_t close = matchBracket(value, 3);
      if (close == std::string::npos)
        return error({unsigned(i + 1), unsigned(eq + 4)}, "unterminated loc(...)");
      locAliases_[name] = value.substr(4, close - 4);
      continue;
    }
    if (name[0] == '#')
      attrAliases_[name] = value;
    else
      typeAliases_[name] = value;
    LayoutAlias a;
    a.name = name;
    a.definition = value;
    a.pos = {unsigned(i + 1), 1};
    mod_->aliases.push_back(std::move(a));
  }
  // Alias definitions may refer to other aliases: expand each once, in
  // dependency order, refusing cycles and runaway growth.
  if (auto e = expandAliases())
    return e;
  for (auto &a : mod_->aliases) {
    unsigned valueCol = unsigned(a.name.size() + 4);
    TextPos at{a.pos.line, valueCol};
    if (a.name[0] == '#') {
      auto attr = parseAttr(a.definition, at);
      if (!attr)
        return attr.takeError();
      a.attr = *attr;
    } else {
      auto type = parseType(a.definition, at);
      if (!type)
        return type.takeError();
    }
  }

  // Pre-3.3 `#triton_gpu.shared<{..., hasLeadingOffset}>` aliases: which
  // modern kind they are depends on the element type of the memdescs that
  // use them, so read it from the first such use.
  for (auto &a : mod_->aliases) {
    auto l = mlir::dyn_cast_or_null<LayoutEncodingAttr>(a.attr);
    if (!l || !l.getEncoding()->is<layout::LegacySharedEncoding>())
      continue;
    std::string needle = ", " + a.name;
    for (auto &line : lines_) {
      size_t at = line.find(needle);
      while (at != std::string::npos) {
        size_t end = at + needle.size();
        bool exact = end >= line.size() || !isIdChar(line[end]);
        size_t open = line.rfind('<', at);
        if (exact && open != std::string::npos && open >= 7 &&
            line.compare(open - 7, 7, "memdesc") == 0) {
          auto type = parseType(
              "!ttg.memdesc" + line.substr(open, matchBracket(line, open) - open + 1), a.pos);
          if (type) {
            a.attr = TritonType(mlir::cast<TritonType>(*type)).info().encoding;
            break;
          }
          llvm::consumeError(type.takeError());
        }
        at = line.find(needle, at + 1);
      }
      if (a.attr != l)
        break;
    }
  }

  // Pass 2: the ops.
  auto root = std::make_unique<Operation>();
  root->name = "builtin.module";
  root->writtenName = "module";
  root->regions.push_back(std::make_unique<Region>());
  root->regions[0]->parent = root.get();
  root->regions[0]->blocks.push_back(std::make_unique<Block>());
  Block *top = root->regions[0]->blocks[0].get();
  top->parent = root->regions[0].get();
  scopes_.emplace_back();
  bool sawModule = false;
  for (size_t i = 0; i < lines_.size();) {
    std::string t = trim(lines_[i]);
    if (t.empty() || t.rfind("//", 0) == 0 || lines_[i][0] == '#' || lines_[i][0] == '!') {
      ++i;
      continue;
    }
    if (!sawModule && t.rfind("module", 0) == 0 && (t.size() == 6 || !isIdChar(t[6]))) {
      // The module op: its attributes and one region holding the functions.
      sawModule = true;
      Header h;
      size_t indent = lines_[i].find_first_not_of(" \t");
      h.add(t, unsigned(i + 1), unsigned(indent + 1));
      h.finish();
      root->pos = {unsigned(i + 1), unsigned(indent + 1)};
      std::string rest = t.substr(6);
      bool opens = !rest.empty() && trim(rest).back() == '{';
      if (!opens)
        return error(root->pos, "expected '{' opening the module body");
      size_t attrs = rest.find("attributes");
      if (attrs != std::string::npos) {
        size_t lb = rest.find('{', attrs);
        size_t rb = lb == std::string::npos ? lb : matchBracket(rest, lb);
        if (rb == std::string::npos)
          return error(root->pos, "unterminated module attributes");
        auto a =
            parseAttr(rest.substr(lb, rb - lb + 1), {unsigned(i + 1), unsigned(indent + 7 + lb)});
        if (!a)
          return a.takeError();
        mod_->moduleAttributes = mlir::dyn_cast<mlir::DictionaryAttr>(*a);
      }
      ++i;
      if (auto e = parseRegionBody(i, root->regions[0].get(), root->pos))
        return e;
      // After the closing brace: trailing `loc(...)`.
      if (i < lines_.size()) {
        std::string closing = trim(lines_[i]);
        size_t lp = closing.find("loc(");
        if (lp != std::string::npos) {
          size_t close = matchBracket(closing, lp + 3);
          if (close != std::string::npos)
            root->loc = resolveLoc(closing.substr(lp + 4, close - lp - 4));
        }
        ++i;
      }
      continue;
    }
    if (sawModule)
      return error({unsigned(i + 1), 1}, "unexpected text after the module");
    // A dump without a module wrapper: read its ops into an implicit one.
    auto op = parseOp(i, top);
    if (!op)
      return op.takeError();
    top->ops.push_back(std::move(*op));
  }
  if (!sawModule && top->ops.empty())
    return error({1, 1}, "no module and no operations found");
  if (!forward_.empty()) {
    // A use never defined: point at the first such use.
    Value *v = forward_.begin()->second;
    TextPos pos = v->uses.empty() ? TextPos{1, 1} : v->uses[0].first->pos;
    return error(pos, "use of undefined value '" + forward_.begin()->first + "'");
  }
  if (missingLocPos_.line != 0)
    return error(missingLocPos_,
                 "undefined location alias '" + missingLoc_ + "' (truncated dump?)");
  mod_->root = std::move(root);
  return llvm::Error::success();
}

llvm::Error Reader::parseRegionBody(size_t &i, Region *region, TextPos open) {
  auto block = std::make_unique<Block>();
  block->parent = region;
  for (Value *v : pendingArgs_) {
    v->ownerBlock = block.get();
    block->arguments.push_back(v);
  }
  pendingArgs_.clear();
  scopes_.emplace_back();
  while (true) {
    if (i >= lines_.size()) {
      scopes_.pop_back();
      return error(open, "region opened here is never closed (truncated dump?)");
    }
    std::string t = trim(lines_[i]);
    if (t.empty() || t.rfind("//", 0) == 0) {
      ++i;
      continue;
    }
    if (t[0] == '}')
      break;
    if (t[0] == '^') {
      // A block label, `^bb0(%a: type loc(..), ...):`.
      if (!block->ops.empty() || !block->label.empty() || !block->arguments.empty())
        region->blocks.push_back(std::move(block));
      block = std::make_unique<Block>();
      block->parent = region;
      size_t lp = t.find('(');
      block->label = t.substr(0, lp == std::string::npos ? t.find(':') : lp);
      if (lp != std::string::npos) {
        size_t rp = matchBracket(t, lp);
        if (rp == std::string::npos)
          return error({unsigned(i + 1), 1}, "unterminated block arguments");
        std::string args = t.substr(lp + 1, rp - lp - 1);
        size_t indent = lines_[i].find_first_not_of(" \t");
        // Split on depth-0 commas.
        int d = 0;
        size_t start = 0;
        for (size_t k = 0; k <= args.size(); ++k) {
          if (k < args.size() && args[k] == '"') {
            k = skipString(args, k);
            if (k == std::string::npos)
              break;
            continue;
          }
          if (k < args.size() &&
              (args[k] == '(' || args[k] == '<' || args[k] == '[' || args[k] == '{'))
            ++d;
          else if (k < args.size() &&
                   (args[k] == ')' || args[k] == '>' || args[k] == ']' || args[k] == '}'))
            --d;
          else if (k == args.size() || (args[k] == ',' && d == 0)) {
            std::string a = trim(args.substr(start, k - start));
            size_t colon = a.find(':');
            if (a.empty() || a[0] != '%' || colon == std::string::npos)
              return error({unsigned(i + 1), unsigned(indent + lp + 2 + start)},
                           "expected '%name: type' in block arguments");
            Value *v = newValue(trim(a.substr(0, colon)));
            std::string ty = trim(a.substr(colon + 1));
            size_t locp = ty.find(" loc(");
            if (locp != std::string::npos)
              ty = ty.substr(0, locp);
            auto type =
                parseType(ty, {unsigned(i + 1), unsigned(indent + lp + 2 + start + colon + 1)});
            if (!type)
              return type.takeError();
            v->type = *type;
            v->ownerBlock = block.get();
            block->arguments.push_back(v);
            define(v->name, v);
            start = k + 1;
          }
        }
      }
      ++i;
      continue;
    }
    auto op = parseOp(i, block.get());
    if (!op)
      return op.takeError();
    block->ops.push_back(std::move(*op));
  }
  region->blocks.push_back(std::move(block));
  scopes_.pop_back();
  return llvm::Error::success();
}

// A line that continues the previous op with another region: `default {`,
// `partition0(...) num_warps(4) {`, `else {` — a bare word without a dot.
bool isRegionContinuation(const std::string &t) {
  if (t.empty() || t.back() != '{' || !isBareIdStart(t[0]))
    return false;
  size_t j = 0;
  while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_'))
    ++j;
  return j < t.size() && t[j] != '.';
}

llvm::Error Reader::labelArguments(const std::string &label, unsigned line, unsigned col) {
  size_t lp = label.find('(');
  if (lp == std::string::npos)
    return llvm::Error::success();
  size_t rp = matchBracket(label, lp);
  if (rp == std::string::npos)
    return error({line, unsigned(col + lp)}, "unterminated region arguments");
  std::string args = label.substr(lp + 1, rp - lp - 1);
  size_t from = 0;
  for (auto &part : splitTypes(args)) {
    size_t at = args.find(part, from);
    from = at + part.size();
    size_t colon = part.find(':');
    if (part[0] != '%' || colon == std::string::npos)
      return error({line, unsigned(col + lp + 1 + at)},
                   "expected '%name: type' in region arguments");
    Value *v = newValue(trim(part.substr(0, colon)));
    std::string ty = trim(part.substr(colon + 1));
    size_t locp = ty.find(" loc(");
    if (locp != std::string::npos)
      ty = ty.substr(0, locp);
    auto type = parseType(ty, {line, unsigned(col + lp + 2 + at + colon)});
    if (!type)
      return type.takeError();
    v->type = *type;
    define(v->name, v);
    pendingArgs_.push_back(v);
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Operation>> Reader::parseOp(size_t &i, Block *parent) {
  auto op = std::make_unique<Operation>();
  op->parentBlock = parent;
  Header h;
  size_t indent = lines_[i].find_first_not_of(" \t");
  op->pos = {unsigned(i + 1), unsigned(indent + 1)};
  std::string first = trim(lines_[i]);
  std::vector<std::pair<std::string, TextPos>> regionsToParse;

  auto handleLine = [&](std::string t, unsigned line, unsigned col) -> llvm::Error {
    // `t` may end with `{` (region opens) — strip it and parse the region.
    while (true) {
      bool opens = !t.empty() && t.back() == '{';
      std::string label;
      if (opens) {
        std::string body = trim(t.substr(0, t.size() - 1));
        // A generic op's region list opens with `({`.
        if (!body.empty() && body.back() == '(')
          body = trim(body.substr(0, body.size() - 1));
        // `partition0(...) num_warps(4)` / `default` / `else` label the region.
        if (isRegionContinuation(t) || body == "else" || body == ",") {
          label = body;
          body.clear();
          if (auto e = labelArguments(label, line, col))
            return e;
        }
        if (!body.empty())
          h.add(body, line, col);
        auto region = std::make_unique<Region>();
        region->parent = op.get();
        region->label = label;
        ++i;
        if (auto e = parseRegionBody(i, region.get(), {line, col}))
          return e;
        op->regions.push_back(std::move(region));
        // Line i is the closing `}`; continue with what follows it.
        size_t cIndent = lines_[i].find_first_not_of(" \t");
        std::string rest = trim(trim(lines_[i]).substr(1));
        line = unsigned(i + 1);
        col = unsigned(cIndent + 2);
        if (!rest.empty() && rest[0] == ')')
          rest = trim(rest.substr(1));
        if (!rest.empty() && rest[0] == ',')
          rest = trim(rest.substr(1));
        t = rest;
        if (t.empty()) {
          // Maybe the next line continues with another region.
          if (i + 1 < lines_.size() && isRegionContinuation(trim(lines_[i + 1]))) {
            ++i;
            size_t ni = lines_[i].find_first_not_of(" \t");
            t = trim(lines_[i]);
            line = unsigned(i + 1);
            col = unsigned(ni + 1);
            continue;
          }
          ++i;
          return llvm::Error::success();
        }
        continue;
      }
      if (!t.empty())
        h.add(t, line, col);
      if (i + 1 < lines_.size() && isRegionContinuation(trim(lines_[i + 1]))) {
        ++i;
        size_t ni = lines_[i].find_first_not_of(" \t");
        t = trim(lines_[i]);
        line = unsigned(i + 1);
        col = unsigned(ni + 1);
        continue;
      }
      ++i;
      return llvm::Error::success();
    }
  };

  // Results are defined after the regions are read, but the op's own text
  // comes first; regions see the enclosing scope only.
  if (auto e = handleLine(first, op->pos.line, op->pos.col))
    return e;
  h.finish();
  if (auto e = analyseHeader(op.get(), h, parent))
    return e;
  return op;
}

std::vector<std::string> Reader::splitTypes(const std::string &s) {
  std::vector<std::string> out;
  int d = 0;
  size_t start = 0;
  for (size_t k = 0; k <= s.size(); ++k) {
    if (k < s.size() && s[k] == '"') {
      k = skipString(s, k);
      if (k == std::string::npos)
        break;
      continue;
    }
    if (k + 1 < s.size() && s[k] == '-' && s[k + 1] == '>') {
      ++k;
      continue;
    }
    if (k < s.size() && (s[k] == '(' || s[k] == '<' || s[k] == '[' || s[k] == '{'))
      ++d;
    else if (k < s.size() && (s[k] == ')' || s[k] == '>' || s[k] == ']' || s[k] == '}'))
      --d;
    else if (k == s.size() || ((s[k] == ',' || s[k] == '*') && d == 0)) {
      std::string t = trim(s.substr(start, k - start));
      if (!t.empty())
        out.push_back(t);
      start = k + 1;
    }
  }
  return out;
}

std::string canonicalName(llvm::StringRef name) {
  static const std::pair<const char *, const char *> prefixes[] = {{"triton_gpu.", "ttg."},
                                                                   {"triton_nvidia_gpu.", "ttng."},
                                                                   {"amdgpu.", "amdg."},
                                                                   {"nvgpu.", "nvg."}};
  for (auto &[from, to] : prefixes)
    if (name.starts_with(from))
      return std::string(to) + name.substr(strlen(from)).str();
  if (name == "module")
    return "builtin.module";
  return name.str();
}

bool isKnownOp(mlir::MLIRContext *ctx, llvm::StringRef name) {
  if (tritonOps().contains(name))
    return true;
  auto dot = name.find('.');
  if (dot == llvm::StringRef::npos)
    return false;
  llvm::StringRef ns = name.substr(0, dot);
  static const llvm::StringSet<> tritonNs = {"tt", "ttg", "ttng", "amdg", "gluon", "nvg"};
  if (tritonNs.contains(ns))
    return false;
  if (!ctx->getOrLoadDialect(ns))
    return false;
  return mlir::RegisteredOperationName::lookup(name, ctx).has_value();
}

llvm::Error Reader::analyseHeader(Operation *op, Header &h, Block *parent) {
  const std::string &s = h.text;
  size_t k = 0;
  auto skipWs = [&]() {
    while (k < s.size() && s[k] == ' ')
      ++k;
  };
  // Results: `%a, %b:2 =`.
  std::vector<std::pair<std::string, unsigned>> results;
  if (!s.empty() && s[0] == '%') {
    while (true) {
      skipWs();
      if (k >= s.size() || s[k] != '%')
        return error(h.posOf(k), "expected a result name");
      size_t b = k++;
      while (k < s.size() && isIdChar(s[k]))
        ++k;
      std::string name = s.substr(b, k - b);
      unsigned count = 1;
      if (k < s.size() && s[k] == ':') {
        size_t c = ++k;
        while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k])))
          ++k;
        if (k == c)
          return error(h.posOf(k), "expected a result count after ':'");
        count = unsigned(std::stoul(s.substr(c, k - c)));
      }
      results.emplace_back(name, count);
      skipWs();
      if (k < s.size() && s[k] == ',') {
        ++k;
        continue;
      }
      if (k < s.size() && s[k] == '=') {
        ++k;
        break;
      }
      return error(h.posOf(k), "expected '=' after the results");
    }
  }
  skipWs();
  // Op name: bare or quoted.
  if (k < s.size() && s[k] == '"') {
    size_t e = skipString(s, k);
    if (e == std::string::npos)
      return error(h.posOf(k), "unterminated op name");
    op->writtenName = s.substr(k + 1, e - k - 1);
    k = e + 1;
  } else {
    size_t b = k;
    while (k < s.size() && isIdChar(s[k]))
      ++k;
    op->writtenName = s.substr(b, k - b);
  }
  if (op->writtenName.empty() || op->writtenName.find('.') == std::string::npos)
    return error(h.posOf(k), op->writtenName.empty()
                                 ? "expected an operation name"
                                 : "expected a dialect-qualified operation name, got '" +
                                       op->writtenName + "'");
  op->name = canonicalName(op->writtenName);
  op->known = isKnownOp(mod_->context.get(), op->name);
  std::string rest = s.substr(k);
  size_t restOff = k;
  op->text = trim(s);

  // Location: the last depth-0 `loc(`.
  {
    int d = 0;
    size_t locAt = std::string::npos;
    for (size_t j = 0; j < rest.size(); ++j) {
      char c = rest[j];
      if (c == '"') {
        j = skipString(rest, j);
        if (j == std::string::npos)
          return error(h.posOf(restOff), "unterminated string");
        continue;
      }
      if (c == '-' && j + 1 < rest.size() && rest[j + 1] == '>') {
        ++j;
        continue;
      }
      if (c == '(' || c == '[' || c == '{' || c == '<')
        ++d;
      else if (c == ')' || c == ']' || c == '}' || c == '>')
        --d;
      if (d < 0)
        return error(h.posOf(restOff + j), std::string("unbalanced '") + c + "'");
      if (d == 0 && rest.compare(j, 4, "loc(") == 0 && (j == 0 || rest[j - 1] == ' '))
        locAt = j;
    }
    if (d != 0)
      return error(h.posOf(restOff + rest.size()),
                   "unbalanced brackets in operation (truncated line?)");
    if (locAt != std::string::npos) {
      size_t close = matchBracket(rest, locAt + 3);
      op->loc = resolveLoc(rest.substr(locAt + 4, close - locAt - 4));
      // Reported after the structure is read: a truncated dump should be
      // named by its unclosed region, not by the aliases it lost.
      if (!missingLoc_.empty() && missingLocPos_.line == 0)
        missingLocPos_ = h.posOf(restOff + locAt);
      rest = rest.substr(0, locAt);
    }
  }

  // Scan: SSA references, attribute dictionaries, the signature colon.
  std::vector<std::pair<std::string, size_t>> uses;
  std::vector<std::pair<std::string, size_t>> dicts;
  size_t sigColon = std::string::npos, arrowBeforeColon = std::string::npos;
  std::string clean = rest;
  {
    int d = 0;
    for (size_t j = 0; j < rest.size(); ++j) {
      char c = rest[j];
      if (c == '"') {
        j = skipString(rest, j);
        continue;
      }
      if (c == '-' && j + 1 < rest.size() && rest[j + 1] == '>') {
        if (d == 0 && sigColon == std::string::npos)
          arrowBeforeColon = j;
        ++j;
        continue;
      }
      if (c == '{' || (c == '<' && j + 1 < rest.size() && rest[j + 1] == '{')) {
        if (d == 0) {
          size_t close = matchBracket(rest, j);
          if (close == std::string::npos)
            return error(h.posOf(restOff + j), "unterminated attribute dictionary");
          size_t b = c == '<' ? j + 1 : j;
          size_t e = c == '<' ? close - 1 : close;
          dicts.emplace_back(rest.substr(b, e - b + 1), restOff + b);
          // SSA refs cannot appear inside attribute dictionaries; blank the
          // dictionary so the signature below never sees it.
          for (size_t q = j; q <= close; ++q)
            clean[q] = ' ';
          j = close;
          continue;
        }
      }
      if (c == '(' || c == '[' || c == '{' || c == '<')
        ++d;
      else if (c == ')' || c == ']' || c == '}' || c == '>')
        --d;
      else if (c == ':' && d == 0)
        sigColon = j;
      else if (c == '%') {
        size_t b = j++;
        while (j < rest.size() && (isIdChar(rest[j]) || rest[j] == '#'))
          ++j;
        std::string name = rest.substr(b, j - b);
        size_t n = j;
        while (n < rest.size() && rest[n] == ' ')
          ++n;
        bool def =
            (n < rest.size() && rest[n] == '=' && (n + 1 >= rest.size() || rest[n + 1] != '=')) ||
            (n < rest.size() && rest[n] == ':' && d >= 1);
        if (!def && sigColon == std::string::npos)
          uses.emplace_back(name, restOff + b);
        else if (def)
          uses.emplace_back("=" + name, restOff + b);
        --j;
      } else if (c == '@' && op->symbol.empty()) {
        size_t b = j++;
        if (j < rest.size() && rest[j] == '"') {
          j = skipString(rest, j);
          op->symbol = rest.substr(b, j - b + 1);
        } else {
          while (j < rest.size() && isIdChar(rest[j]))
            ++j;
          op->symbol = rest.substr(b, j - b);
          --j;
        }
      }
    }
  }

  // Attribute dictionaries (attr-dict and `<{properties}>`), merged.
  {
    llvm::SmallVector<mlir::NamedAttribute> merged;
    for (auto &[text, off] : dicts) {
      auto a = parseAttr(text, h.posOf(off));
      if (!a) {
        if (!op->known) {
          llvm::consumeError(a.takeError());
          continue;
        }
        return a.takeError();
      }
      if (auto dict = mlir::dyn_cast<mlir::DictionaryAttr>(*a))
        for (auto nv : dict)
          merged.push_back(nv);
    }
    op->attributes = mlir::DictionaryAttr::get(mod_->context.get(), merged);
  }

  // Operands (uses) and region-argument definitions.
  for (auto &[name, off] : uses) {
    if (name[0] == '=') {
      // `%iv = %lb` / `iter_args(%acc = %init)` / `(%arg: type)`: the region's
      // arguments. They become values of the op's first region entry block.
      Value *v = newValue(name.substr(1));
      if (!op->regions.empty() && !op->regions[0]->blocks.empty()) {
        v->ownerBlock = op->regions[0]->blocks[0].get();
        op->regions[0]->blocks[0]->arguments.push_back(v);
      }
      define(v->name, v);
      continue;
    }
    Value *v = lookup(name, h.posOf(off));
    unsigned idx = unsigned(op->operands.size());
    op->operands.push_back(v);
    v->uses.emplace_back(op, idx);
  }

  size_t nResults = 0;
  for (auto &[n, c] : results)
    nResults += c;
  for (auto &[name, count] : results) {
    for (unsigned r = 0; r < count; ++r) {
      std::string vname = count == 1 ? name : name + "#" + std::to_string(r);
      Value *v = newValue(vname);
      v->definingOp = op;
      v->resultIndex = unsigned(op->results.size());
      op->results.push_back(v);
      define(vname, v);
      if (count > 1 && r == 0)
        scopes_.back()[name] = v;
    }
  }

  // Signature types.
  std::string sig;
  size_t sigOff = 0;
  if (sigColon != std::string::npos) {
    sig = clean.substr(sigColon + 1);
    sigOff = restOff + sigColon + 1;
  }
  std::string arrowList;
  size_t arrowOff = 0;
  if (arrowBeforeColon != std::string::npos) {
    size_t end = sigColon == std::string::npos ? rest.size() : sigColon;
    std::string after = clean.substr(arrowBeforeColon + 2, end - arrowBeforeColon - 2);
    // Stop at `attributes` (functions); dictionaries are already blanked.
    size_t stop = after.find(" attributes");
    if (stop != std::string::npos)
      after = after.substr(0, stop);
    arrowList = after;
    arrowOff = restOff + arrowBeforeColon + 2;
  }
  if (op->name == "tt.func" || op->name == "func.func" || op->name == "llvm.func") {
    // Function signatures live in the argument list; the region's entry block
    // already got the argument values above. Record their types.
    size_t lp = rest.find('(');
    if (lp != std::string::npos) {
      size_t rp = matchBracket(rest, lp);
      if (rp != std::string::npos && !op->regions.empty()) {
        std::string args = rest.substr(lp + 1, rp - lp - 1);
        auto parts = splitTypes(args);
        auto &argVals = op->regions[0]->blocks[0]->arguments;
        size_t ai = 0;
        for (auto &p : parts) {
          size_t colon = p.find(':');
          if (colon == std::string::npos || ai >= argVals.size())
            continue;
          std::string ty = trim(p.substr(colon + 1));
          // Drop the argument's attribute dict and loc.
          for (const char *cut : {" {", " loc("}) {
            size_t c = ty.find(cut);
            if (c != std::string::npos)
              ty = ty.substr(0, c);
          }
          auto t = parseType(ty, h.posOf(restOff + lp + 1 + args.find(p) + colon + 1));
          if (!t)
            return t.takeError();
          argVals[ai++]->type = *t;
        }
      }
    }
    return llvm::Error::success();
  }
  if (!sig.empty() || !arrowList.empty())
    if (auto e = parseSignature(op, sig, sigOff, h, nResults)) {
      if (op->known)
        return e;
      llvm::consumeError(std::move(e));
    }
  if (!arrowList.empty() && (sig.empty() || sig.find("->") == std::string::npos)) {
    std::string list = trim(arrowList);
    if (!list.empty() && list[0] == '(' && list.back() == ')')
      list = list.substr(1, list.size() - 2);
    std::vector<mlir::Type> types;
    for (auto &t : splitTypes(list)) {
      auto ty = parseType(t, h.posOf(arrowOff + arrowList.find(t)));
      if (!ty) {
        if (op->known)
          return ty.takeError();
        llvm::consumeError(ty.takeError());
        continue;
      }
      types.push_back(*ty);
    }
    for (size_t r = 0; r < op->results.size() && r < types.size(); ++r)
      op->results[r]->type = types[r];
  }
  // Region arguments of loops: the iter_args take the result types.
  if ((op->name == "scf.for") && !op->regions.empty()) {
    auto &args = op->regions[0]->blocks[0]->arguments;
    if (!args.empty() && !op->signatureTypes.empty())
      args[0]->type = op->signatureTypes.back();
    for (size_t a = 1; a < args.size() && a - 1 < op->results.size(); ++a)
      args[a]->type = op->results[a - 1]->type;
  }
  return llvm::Error::success();
}

llvm::Error Reader::parseSignature(Operation *op, const std::string &sigIn, size_t sigOff,
                                   Header &h, size_t nResults) {
  std::string sig = sigIn;
  if (trim(sig).empty())
    return llvm::Error::success();
  // Split at a depth-0 `->` or ` to `.
  int d = 0;
  size_t arrow = std::string::npos, to = std::string::npos;
  for (size_t j = 0; j < sig.size(); ++j) {
    char c = sig[j];
    if (c == '"') {
      j = skipString(sig, j);
      if (j == std::string::npos)
        break;
      continue;
    }
    if (c == '-' && j + 1 < sig.size() && sig[j + 1] == '>') {
      if (d == 0)
        arrow = j;
      ++j;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<')
      ++d;
    else if (c == ')' || c == ']' || c == '}' || c == '>')
      --d;
    else if (d == 0 && sig.compare(j, 4, " to ") == 0)
      to = j;
  }
  auto parseList = [&](const std::string &part, size_t off,
                       std::vector<mlir::Type> &out) -> llvm::Error {
    std::string p = trim(part);
    size_t lead = part.find_first_not_of(' ');
    if (lead == std::string::npos)
      return llvm::Error::success();
    if (!p.empty() && p[0] == '(' && matchBracket(p, 0) == p.size() - 1) {
      p = p.substr(1, p.size() - 2);
      ++lead;
    }
    size_t searchFrom = 0;
    for (auto &t : splitTypes(p)) {
      size_t at = part.find(t, searchFrom);
      searchFrom = at == std::string::npos ? searchFrom : at + t.size();
      auto ty = parseType(t, h.posOf(off + (at == std::string::npos ? lead : at)));
      if (!ty)
        return ty.takeError();
      out.push_back(*ty);
    }
    return llvm::Error::success();
  };
  std::vector<mlir::Type> ins, outs;
  size_t split = arrow != std::string::npos ? arrow : to;
  if (split != std::string::npos) {
    if (auto e = parseList(sig.substr(0, split), sigOff, ins))
      return e;
    size_t after = split + (arrow != std::string::npos ? 2 : 4);
    if (auto e = parseList(sig.substr(after), sigOff + after, outs))
      return e;
  } else {
    if (auto e = parseList(sig, sigOff, ins))
      return e;
  }
  op->signatureTypes = ins;
  op->signatureTypes.insert(op->signatureTypes.end(), outs.begin(), outs.end());
  std::vector<mlir::Type> resultTypes;
  if (split != std::string::npos)
    resultTypes = outs;
  else if (ins.size() == nResults)
    resultTypes = ins;
  else if (nResults >= 1 && !ins.empty())
    resultTypes.assign(nResults, ins.front());
  mlir::MLIRContext *ctx = mod_->context.get();
  for (size_t r = 0; r < op->results.size() && r < resultTypes.size(); ++r) {
    mlir::Type t = resultTypes[r];
    auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(t);
    // Ops whose signature names an operand type, not the result type.
    if (tensor && (op->name == "arith.cmpi" || op->name == "arith.cmpf"))
      t = mlir::RankedTensorType::get(tensor.getShape(), mlir::IntegerType::get(ctx, 1),
                                      tensor.getEncoding());
    else if (!tensor && (op->name == "arith.cmpi" || op->name == "arith.cmpf"))
      t = mlir::IntegerType::get(ctx, 1);
    else if (op->name == "tt.load") {
      auto elem = tensor ? tensor.getElementType() : t;
      if (auto ptr = mlir::dyn_cast<TritonType>(elem))
        if (ptr.kind() == TritonTypeKind::Pointer) {
          mlir::Type pointee = ptr.info().elementType;
          t = tensor ? mlir::Type(mlir::RankedTensorType::get(tensor.getShape(), pointee,
                                                              tensor.getEncoding()))
                     : pointee;
        }
    }
    op->results[r]->type = t;
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Module>> Reader::run() {
  mod_ = std::make_unique<Module>();
  mod_->path = path_;
  mod_->context = makeContext();
  if (auto e = parseTopLevel())
    return e;
  // Module facts.
  if (mod_->moduleAttributes) {
    for (auto nv : mod_->moduleAttributes) {
      std::string key = canonicalName(nv.getName().strref());
      auto asInt = [&]() -> std::optional<int64_t> {
        if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(nv.getValue()))
          return i.getInt();
        return std::nullopt;
      };
      if (key == "ttg.num-warps")
        mod_->facts.numWarps = asInt();
      else if (key == "ttg.threads-per-warp")
        mod_->facts.threadsPerWarp = asInt();
      else if (key == "ttg.num-ctas")
        mod_->facts.numCtas = asInt();
      else if (key == "ttg.shared")
        mod_->facts.shared = asInt();
      else if (key == "ttg.target") {
        if (auto s = mlir::dyn_cast<mlir::StringAttr>(nv.getValue()))
          mod_->facts.target = s.str();
      } else if (key == "ttg.compute-capability" && mod_->facts.target.empty()) {
        if (auto v = asInt())
          mod_->facts.target = "cuda:" + std::to_string(*v);
      }
    }
  }
  return std::move(mod_);
}

} // namespace

Operation *Operation::parentOp() const {
  if (!parentBlock || !parentBlock->parent)
    return nullptr;
  return parentBlock->parent->parent;
}

mlir::Attribute Operation::attr(llvm::StringRef name) const {
  return attributes ? attributes.get(name) : mlir::Attribute();
}

std::optional<int64_t> Operation::intAttr(llvm::StringRef name) const {
  if (auto i = mlir::dyn_cast_or_null<mlir::IntegerAttr>(attr(name)))
    return i.getInt();
  return std::nullopt;
}

std::string ModuleFacts::arch() const {
  auto colon = target.find(':');
  if (colon == std::string::npos)
    return target;
  std::string v = target.substr(colon + 1);
  if (target.rfind("cuda", 0) == 0)
    return "sm_" + v;
  return v;
}

std::string ModuleFacts::vendor() const {
  if (target.rfind("cuda", 0) == 0)
    return "nvidia";
  if (target.rfind("hip", 0) == 0)
    return "amd";
  return "";
}

std::string Module::aliasFor(mlir::Attribute attr) const {
  for (auto &a : aliases)
    if (a.attr == attr)
      return a.name;
  return "";
}

static llvm::Error checkText(const std::string &path, const std::string &text) {
  if (text.empty())
    return inputError(path, 1, 1, "empty file");
  unsigned line = 1, col = 1;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\t' && c != '\r'))
      return inputError(path, line, col, "binary data, not a text dump");
    size_t len = 1;
    if (c >= 0x80) {
      len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
      if (len == 0 || i + len > text.size())
        return inputError(path, line, col, "invalid UTF-8 (binary file?)");
      for (size_t k = 1; k < len; ++k)
        if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2)
          return inputError(path, line, col, "invalid UTF-8 (binary file?)");
    }
    if (c == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
    i += len;
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Module>> loadModuleText(const std::string &text,
                                                       const std::string &path) {
  if (auto e = checkText(path, text))
    return e;
  Reader reader(path, text);
  return reader.run();
}

llvm::Expected<std::unique_ptr<Module>> loadModuleFile(const std::string &path) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return inputError(path, 0, 0, buf.getError().message());
  return loadModuleText((*buf)->getBuffer().str(), path);
}

llvm::Expected<mlir::Attribute> parseAttributeText(mlir::MLIRContext *ctx,
                                                   const std::string &text) {
  unsigned col;
  auto r = captureParse<mlir::Attribute>(
      ctx, text,
      [&](const std::string &t, size_t *n) {
        return mlir::parseAttribute(t, ctx, mlir::Type(), n);
      },
      col);
  if (!r)
    return llvm::make_error<InputError>("<attr>", 1, col ? col : 1, llvm::toString(r.takeError()));
  return *r;
}

llvm::Expected<mlir::Type> parseTypeText(mlir::MLIRContext *ctx, const std::string &text) {
  unsigned col;
  std::string t = trim(text);
  auto r = captureParse<mlir::Type>(
      ctx, t, [&](const std::string &s, size_t *n) { return mlir::parseType(s, ctx, n); }, col);
  if (!r)
    return llvm::make_error<InputError>("<type>", 1, col ? col : 1, llvm::toString(r.takeError()));
  return *r;
}

} // namespace tilexform::ir
