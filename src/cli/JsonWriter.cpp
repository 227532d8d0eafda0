// JSON documents written as nlohmann's `dump` writes them, faster.
#include "tilexform/cli/JsonWriter.h"

#include "tilexform/support/PythonText.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace tilexform::cli {

namespace {

using Json = nlohmann::ordered_json;

/// Writes what nlohmann's `dump` would, byte for byte, without its per-byte
/// UTF-8 automaton for the plain strings that are nearly all of a document:
/// a string with anything to escape or any byte above ASCII, and every
/// floating-point number, is written by nlohmann itself.
class JsonWriter {
public:
  JsonWriter(std::string &out, bool oneLine) : out_(out), oneLine_(oneLine) {}

  void value(const Json &j, unsigned level) {
    switch (j.type()) {
    case Json::value_t::object:
      container(j.get_ref<const Json::object_t &>(), level, '{', '}', [&](const auto &member) {
        string(member.first);
        out_ += oneLine_ ? ":" : ": ";
        value(member.second, level + 1);
      });
      return;
    case Json::value_t::array:
      container(j.get_ref<const Json::array_t &>(), level, '[', ']',
                [&](const Json &element) { value(element, level + 1); });
      return;
    case Json::value_t::string:
      string(j.get_ref<const std::string &>());
      return;
    case Json::value_t::boolean:
      out_ += j.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::null:
      out_ += "null";
      return;
    case Json::value_t::number_integer:
      integer(j.get<int64_t>());
      return;
    case Json::value_t::number_unsigned:
      integer(j.get<uint64_t>());
      return;
    default: // floating point (shortest round trip), binary, discarded
      out_ += j.dump(-1, ' ', false, Json::error_handler_t::replace);
      return;
    }
  }

private:
  // Over the object's or array's own container: nlohmann's iterators
  // dispatch on the value's type at every step.
  template <typename Items, typename Each>
  void container(const Items &items, unsigned level, char open, char close, Each &&each) {
    out_ += open;
    if (items.empty()) {
      out_ += close;
      return;
    }
    bool first = true;
    for (const auto &item : items) {
      if (!first)
        out_ += ',';
      first = false;
      newline(level + 1);
      each(item);
    }
    newline(level);
    out_ += close;
  }
  void newline(unsigned level) {
    if (oneLine_)
      return;
    out_ += '\n';
    out_.append(size_t(level) * 2, ' ');
  }
  void string(const std::string &s) {
    // Bytes written as they are: printable ASCII but for '"' and '\\'.
    static constexpr auto plain = [] {
      std::array<bool, 256> t{};
      for (int c = 0x20; c < 0x80; ++c)
        t[size_t(c)] = c != '"' && c != '\\';
      return t;
    }();
    for (unsigned char c : s)
      if (!plain[c]) {
        out_ += visibleJson(Json(s).dump(-1, ' ', false, Json::error_handler_t::replace));
        return;
      }
    size_t at = out_.size();
    out_.resize(at + s.size() + 2);
    char *p = out_.data() + at;
    *p = '"';
    std::memcpy(p + 1, s.data(), s.size());
    p[s.size() + 1] = '"';
  }
  template <typename Int> void integer(Int v) {
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, end);
  }

  std::string &out_;
  bool oneLine_;
};

} // namespace

std::string dumpJson(const Json &doc, bool oneLine) {
  std::string out;
  out.reserve(4096);
  JsonWriter(out, oneLine).value(doc, 0);
  return out;
}

} // namespace tilexform::cli
