#include "tilexform/gluon/Gluon.h"
#include "tilexform/layout/Kind.h"
#include "tilexform/layout/Validate.h"
#include "tilexform/support/Text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>
#include <map>
#include <variant>

namespace tilexform::gluon {

using namespace layout;

std::optional<GluonApi> parseGluonApi(const std::string &text) {
  // Only the APIs it writes: a later Triton's name is no promise that its
  // Gluon spells layouts as 3.6 does.
  if (text == "3.6")
    return GluonApi::V3_6;
  if (text == "3.5")
    return GluonApi::V3_5;
  return std::nullopt;
}

std::string gluonApiName(GluonApi api) { return api == GluonApi::V3_6 ? "3.6" : "3.5"; }

namespace {

// ---- emission ---------------------------------------------------------------

struct Emitter : GluonSpelling {
  GluonApi api;
  std::string reason;

  explicit Emitter(GluonApi api) : api(api) {}
  bool api35() const override { return api == GluonApi::V3_5; }
  void decline(std::string why) override { reason = std::move(why); }

  // The CGA keyword arguments, empty for one CTA.
  std::string cga(const CGALayout &c, unsigned rank) const override {
    if (c.bases.empty())
      return "";
    if (api == GluonApi::V3_6)
      return ", cga_layout=" + basesText(c.bases);
    auto p = cgaToSplitParams(c, rank);
    return fmt::format(", ctas_per_cga={}, cta_split_num={}, cta_order={}", listText(p.ctasPerCGA),
                       listText(p.ctaSplitNum), listText(p.ctaOrder));
  }

  // `#ttng.tensor_memory_encoding<blockM = M, blockN = N, colStride = C, ...>`
  // as Triton 3.6's TensorMemoryLayout(block, col_stride, cta_split_num,
  // two_ctas).
  std::optional<std::string> tensorMemory(const std::string &text) {
    auto field = [&](const std::string &key) -> std::optional<unsigned> {
      auto at = text.find(key + " = ");
      if (at == std::string::npos)
        return std::nullopt;
      return unsigned(std::strtoul(text.c_str() + at + key.size() + 3, nullptr, 10));
    };
    auto m = field("blockM"), n = field("blockN"), c = field("colStride");
    if (!m || !n || !c || text.find("CGALayout") != std::string::npos) {
      reason = text + " uses fields Triton 3.6's TensorMemoryLayout cannot express";
      return std::nullopt;
    }
    std::string s = fmt::format(
        "gl.nvidia.blackwell.TensorMemoryLayout(block=[{}, {}], col_stride={}", *m, *n, *c);
    auto sm = field("CTASplitM"), sn = field("CTASplitN");
    if (sm || sn)
      s += fmt::format(", cta_split_num=[{}, {}]", sm.value_or(1), sn.value_or(1));
    if (text.find("twoCTAs = true") != std::string::npos)
      s += ", two_ctas=True";
    return s + ")";
  }

  std::optional<std::string> nested(const Encoding &enc) override { return emit(enc); }

  std::optional<std::string> emit(const Encoding &enc) {
    if (const KindInfo *kind = kindOf(enc))
      return kind->emitGluon(enc, *this);
    const auto &e = *enc.as<OpaqueEncoding>();
    if (e.kind == "tensor_memory_encoding")
      return tensorMemory(e.text);
    if (e.kind == "tensor_memory_scales_encoding" &&
        e.text == "#ttng.tensor_memory_scales_encoding<>")
      return std::string("gl.nvidia.blackwell.TensorMemoryScalesLayout()");
    reason = e.unmodelledLayout()
                 ? "'" + e.kind +
                       "' is a layout kind tilexform does not model (another backend "
                       "or a newer Triton); kept by name, no constructor"
                 : e.text + " is not a layout Gluon can construct";
    return std::nullopt;
  }
};

// ---- parsing ----------------------------------------------------------------

struct PyValue;
using PyList = std::vector<PyValue>;
struct PyCall {
  std::string name;
  std::vector<PyValue> args;
  std::vector<std::pair<std::string, PyValue>> kwargs;
};
struct PyNone {};
struct PyValue {
  std::variant<PyNone, int64_t, bool, std::string, PyList, std::shared_ptr<PyCall>> v;
};

/// The first problem a reading meets: the error it returns. Later ones
/// follow from it and are dropped.
struct Problems {
  std::string first;
  void note(std::string message) {
    if (first.empty())
      first = std::move(message);
  }
  bool any() const { return !first.empty(); }
};

class PyParser {
public:
  PyParser(const std::string &s, Problems &problems) : s_(s), problems_(problems) {}

  PyValue parseTop() {
    PyValue v = value();
    skip();
    if (i_ != s_.size())
      error("unexpected text after the expression");
    return v;
  }

private:
  /// Records the problem and stops reading: what is left is not read, and
  /// every open bracket sees the end of the text.
  void error(const std::string &msg) {
    problems_.note(fmt::format("col {}: {}", i_ + 1, msg));
    i_ = s_.size();
  }
  bool failed() const { return problems_.any(); }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
      ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c))
      error(fmt::format("expected '{}'", c));
  }
  std::string ident() {
    skip();
    size_t start = i_;
    while (i_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '.'))
      ++i_;
    return s_.substr(start, i_ - start);
  }
  PyValue value() {
    PyValue out;
    if (failed())
      return out;
    if (depth_ >= 64) {
      error("expression nests too deeply");
      return out;
    }
    skip();
    if (i_ >= s_.size()) {
      error("unexpected end of expression");
      return out;
    }
    ++depth_;
    char c = s_[i_];
    if (c == '[' || c == '(') {
      char close = c == '[' ? ']' : ')';
      ++i_;
      PyList items;
      if (!eat(close)) {
        do {
          skip();
          if (i_ < s_.size() && s_[i_] == close)
            break; // trailing comma
          items.push_back(value());
        } while (eat(','));
        expect(close);
      }
      out.v = std::move(items);
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = i_;
      ++i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])))
        ++i_;
      int64_t n = 0;
      auto [end, ec] = std::from_chars(s_.data() + start, s_.data() + i_, n);
      if (ec != std::errc() || end != s_.data() + i_)
        error("bad integer");
      else
        out.v = n;
    } else if (c == '\'' || c == '"') {
      size_t end = s_.find(c, i_ + 1);
      if (end == std::string::npos) {
        error("unterminated string");
      } else {
        out.v = s_.substr(i_ + 1, end - i_ - 1);
        i_ = end + 1;
      }
    } else {
      std::string name = ident();
      if (name.empty()) {
        error("expected a value");
      } else if (name == "True" || name == "False") {
        out.v = name == "True";
      } else if (name == "None") {
        out.v = PyNone{};
      } else {
        auto call = std::make_shared<PyCall>();
        call->name = name;
        expect('(');
        if (!eat(')')) {
          do {
            skip();
            if (i_ < s_.size() && s_[i_] == ')')
              break;
            size_t save = i_;
            std::string kw = ident();
            if (!kw.empty() && kw.find('.') == std::string::npos && eat('=')) {
              call->kwargs.emplace_back(kw, value());
            } else {
              i_ = save;
              if (!call->kwargs.empty())
                error("positional argument after keyword argument");
              call->args.push_back(value());
            }
          } while (eat(','));
          expect(')');
        }
        out.v = call;
      }
    }
    --depth_;
    return out;
  }

  const std::string &s_;
  Problems &problems_;
  size_t i_ = 0;
  int depth_ = 0;
};

EncodingPtr toEncoding(const PyValue &v, Problems &problems);

// Binds a call's arguments to a class's field list (positional order). An
// argument that cannot be read is a problem and reads as empty.
class Args : public GluonArgs {
public:
  Args(const PyCall &call, std::vector<std::string> fields, Problems &problems)
      : name_(call.name), problems_(problems) {
    if (call.args.size() > fields.size()) {
      error(name_ + ": too many positional arguments");
      return;
    }
    for (size_t i = 0; i < call.args.size(); ++i)
      values_[fields[i]] = call.args[i];
    for (auto &[k, v] : call.kwargs) {
      if (std::find(fields.begin(), fields.end(), k) == fields.end()) {
        error(name_ + ": unexpected keyword argument '" + k + "'");
        return;
      }
      if (values_.count(k)) {
        error(name_ + ": argument '" + k + "' given twice");
        return;
      }
      values_[k] = v;
    }
  }
  bool has(const std::string &k) const override {
    auto it = values_.find(k);
    return it != values_.end() && !std::holds_alternative<PyNone>(it->second.v);
  }
  const PyValue &get(const std::string &k) const {
    static const PyValue none;
    auto it = values_.find(k);
    if (it == values_.end()) {
      error(name_ + ": missing argument '" + k + "'");
      return none;
    }
    return it->second;
  }
  int64_t integer(const std::string &k) const override {
    auto *p = std::get_if<int64_t>(&get(k).v);
    if (!p || *p < 0) {
      error(name_ + ": '" + k + "' must be a non-negative integer");
      return 0;
    }
    // The bound the attribute reader sets: never cut to an unsigned field.
    if (*p >= kLimit) {
      error(fmt::format("{}: '{}' out of range (must be below 2^30)", name_, k));
      return 0;
    }
    return *p;
  }
  int64_t integer(const std::string &k, int64_t dflt) const override {
    return has(k) ? integer(k) : dflt;
  }
  bool boolean(const std::string &k, bool dflt) const override {
    if (!has(k))
      return dflt;
    auto *p = std::get_if<bool>(&get(k).v);
    if (!p) {
      error(name_ + ": '" + k + "' must be True or False");
      return dflt;
    }
    return *p;
  }
  std::vector<unsigned> ints(const std::string &k) const override { return intsOf(get(k), k); }
  std::vector<unsigned> ints(const std::string &k, std::vector<unsigned> dflt) const override {
    return has(k) ? ints(k) : dflt;
  }
  Bases bases(const std::string &k) const override {
    if (!has(k))
      return {};
    auto *l = std::get_if<PyList>(&get(k).v);
    if (!l) {
      error(name_ + ": '" + k + "' must be a list of lists");
      return {};
    }
    Bases out;
    for (auto &item : *l) {
      auto v = intsOf(item, k);
      out.emplace_back(v.begin(), v.end());
    }
    return out;
  }
  EncodingPtr layout(const std::string &k) const override { return toEncoding(get(k), problems_); }
  bool intPairs(const std::string &k,
                std::vector<std::optional<std::pair<int64_t, int64_t>>> &out) const override {
    auto *pairs = std::get_if<PyList>(&get(k).v);
    if (!pairs)
      return false;
    for (auto &p : *pairs) {
      auto *pl = std::get_if<PyList>(&p.v);
      auto *i = pl && pl->size() == 2 ? std::get_if<int64_t>(&(*pl)[0].v) : nullptr;
      auto *q = pl && pl->size() == 2 ? std::get_if<int64_t>(&(*pl)[1].v) : nullptr;
      if (i && q)
        out.emplace_back(std::make_pair(*i, *q));
      else
        out.emplace_back(std::nullopt);
    }
    return true;
  }
  void error(const std::string &message) const override { problems_.note(message); }
  CGALayout cga(unsigned rank) const override;

private:
  std::vector<unsigned> intsOf(const PyValue &v, const std::string &k) const {
    auto *l = std::get_if<PyList>(&v.v);
    if (!l) {
      error(name_ + ": '" + k + "' must be a list");
      return {};
    }
    std::vector<unsigned> out;
    for (auto &item : *l) {
      auto *p = std::get_if<int64_t>(&item.v);
      if (!p || *p < 0) {
        error(name_ + ": '" + k + "' must hold non-negative integers");
        return {};
      }
      if (*p >= kLimit) {
        error(fmt::format("{}: '{}' entry out of range (must be below 2^30)", name_, k));
        return {};
      }
      out.push_back(unsigned(*p));
    }
    return out;
  }
  static constexpr int64_t kLimit = int64_t(1) << 30;
  std::string name_;
  Problems &problems_;
  std::map<std::string, PyValue> values_;
};

CGALayout Args::cga(unsigned rank) const {
  if (has("cga_layout"))
    return CGALayout{bases("cga_layout")};
  if (has("ctas_per_cga") || has("cta_split_num") || has("cta_order")) {
    std::vector<unsigned> ones(rank, 1), order;
    for (int i = int(rank) - 1; i >= 0; --i)
      order.push_back(unsigned(i));
    auto cga = cgaFromSplitParams(ints("ctas_per_cga", ones), ints("cta_split_num", ones),
                                  ints("cta_order", order));
    if (!cga) {
      error(llvm::toString(cga.takeError()));
      return {};
    }
    return std::move(*cga);
  }
  return {};
}

std::string shortName(const std::string &dotted) {
  auto pos = dotted.rfind('.');
  return pos == std::string::npos ? dotted : dotted.substr(pos + 1);
}

EncodingPtr callToEncoding(const PyCall &call, Problems &problems) {
  std::string cls = shortName(call.name);
  if (const KindInfo *kind = kindOfGluonClass(cls)) {
    Args a(call, kind->gluonFields, problems);
    if (problems.any())
      return nullptr;
    return kind->parseGluon(a);
  }
  if (cls == "TensorMemoryLayout") {
    Args a(call, {"block", "col_stride", "cta_split_num", "two_ctas"}, problems);
    auto block = a.ints("block");
    if (problems.any())
      return nullptr;
    if (block.size() != 2) {
      problems.note("TensorMemoryLayout: block is [M, N]");
      return nullptr;
    }
    std::string text =
        fmt::format("#ttng.tensor_memory_encoding<blockM = {}, blockN = {}, colStride = {}",
                    block[0], block[1], a.integer("col_stride"));
    auto split = a.ints("cta_split_num", {1, 1});
    if (split.size() != 2) {
      problems.note("TensorMemoryLayout: cta_split_num is [M, N]");
      return nullptr;
    }
    if (split[0] != 1)
      text += fmt::format(", CTASplitM = {}", split[0]);
    if (split[1] != 1)
      text += fmt::format(", CTASplitN = {}", split[1]);
    if (a.boolean("two_ctas", false))
      text += ", twoCTAs = true";
    return makeEncoding(OpaqueEncoding{"tensor_memory_encoding", text + ">"});
  }
  if (cls == "TensorMemoryScalesLayout") {
    Args a(call, {"cta_split_num"}, problems);
    return makeEncoding(
        OpaqueEncoding{"tensor_memory_scales_encoding", "#ttng.tensor_memory_scales_encoding<>"});
  }
  problems.note("unknown Gluon layout class '" + call.name + "'");
  return nullptr;
}

EncodingPtr toEncoding(const PyValue &v, Problems &problems) {
  if (problems.any())
    return nullptr;
  auto *c = std::get_if<std::shared_ptr<PyCall>>(&v.v);
  if (!c) {
    problems.note("expected a layout constructor call");
    return nullptr;
  }
  return callToEncoding(**c, problems);
}

} // namespace

GluonExpr emitGluon(const Encoding &enc, GluonApi api) {
  Emitter em(api);
  GluonExpr r;
  r.expr = em.emit(enc);
  if (!r.expr)
    r.reason = em.reason;
  return r;
}

GluonExpr emitGluonAsLinear(const Encoding &enc, const std::vector<int64_t> &shape, GluonApi api) {
  GluonExpr r;
  if (!enc.isShared() || shape.empty()) {
    r.reason = "only a shared layout at a known buffer shape is written as its linear layout";
    return r;
  }
  if (api == GluonApi::V3_5) {
    r.reason = "gl.SharedLinearLayout is new in Gluon 3.6";
    return r;
  }
  SharedLinearEncoding lin;
  auto ll = linearLayoutAt(enc, shape);
  if (!ll) {
    r.reason = "no linear layout at this shape: " + llvm::toString(ll.takeError());
    return r;
  }
  lin.ll = std::move(*ll);
  return emitGluon(Encoding{EncodingVariant{std::move(lin)}}, api);
}

llvm::Expected<EncodingPtr> parseGluon(const std::string &text) {
  Problems problems;
  auto failure = [&](const std::string &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", message.c_str());
  };
  PyParser p(text, problems);
  PyValue top = p.parseTop();
  EncodingPtr enc = toEncoding(top, problems);
  if (problems.any())
    return failure(problems.first);
  if (!enc)
    return failure("expected a layout constructor call");
  if (std::string invalid = validateEncoding(*enc); !invalid.empty())
    return failure(invalid);
  return enc;
}

namespace {

// EXACT when the two encodings have the same linear layout at `shape`.
RoundTrip sameLinearLayout(const Encoding &a, const Encoding &b,
                           const std::vector<int64_t> &shape) {
  RoundTrip rt;
  auto la = linearLayoutAt(a, shape);
  if (!la) {
    rt.detail = "no linear layout to compare: " + llvm::toString(la.takeError());
    return rt;
  }
  auto lb = linearLayoutAt(b, shape);
  if (!lb) {
    rt.detail = "no linear layout to compare: " + llvm::toString(lb.takeError());
    return rt;
  }
  if (*la != *lb) {
    rt.detail = "linear layouts differ";
    return rt;
  }
  rt.exact = true;
  return rt;
}

} // namespace

RoundTrip checkRoundTrip(const Encoding &enc, const std::string &expr,
                         const std::vector<int64_t> &shape) {
  RoundTrip rt;
  auto parsed = parseGluon(expr);
  if (!parsed) {
    rt.detail = "the constructor does not parse: " + llvm::toString(parsed.takeError());
    return rt;
  }
  std::string want = printEncoding(enc), got = printEncoding(**parsed);
  if (want != got) {
    rt.detail = "attribute text differs: " + got;
    return rt;
  }
  // Structurally equal encodings have the same linear layout at every shape
  // (it is a function of the encoding); only when the printed text hides a
  // difference are the linear layouts computed and compared.
  if (!shape.empty() && !(enc == **parsed))
    return sameLinearLayout(enc, **parsed, shape);
  rt.exact = true;
  return rt;
}

RoundTrip checkLinearRoundTrip(const Encoding &enc, const std::string &expr,
                               const std::vector<int64_t> &shape) {
  auto parsed = parseGluon(expr);
  if (!parsed) {
    RoundTrip rt;
    rt.detail = "the constructor does not parse: " + llvm::toString(parsed.takeError());
    return rt;
  }
  return sameLinearLayout(enc, **parsed, shape);
}

} // namespace tilexform::gluon
