#include "tilexform/hw/ArchData.h"
#include "tilexform/hw/Products.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

namespace tilexform::hw {

namespace {

struct Entry {
  const char *arch;
  const char *json;
};

// Generated from data/hw/*.json by CMake.
#include "tilexform/hw/ArchData.inc"

/// The figures of the archs asked about, each parsed the first time it is
/// (a command reads one or two of the dozen).
class Table {
public:
  using const_iterator = std::map<std::string, nlohmann::json>::const_iterator;
  const_iterator find(const std::string &arch) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = parsed_.find(arch);
    if (it != parsed_.end())
      return it;
    for (const Entry &e : kEntries)
      if (arch == e.arch)
        return parsed_.emplace(arch, nlohmann::json::parse(e.json)).first;
    return parsed_.end();
  }
  const_iterator end() const { return parsed_.end(); }

private:
  std::mutex mutex_;
  std::map<std::string, nlohmann::json> parsed_; // nodes never move: iterators stay valid
};

Table &table() {
  static Table t;
  return t;
}

} // namespace

std::vector<std::string> knownArchs() {
  // From the names alone: no figure is parsed for a list (every command's
  // --arch help names them at start-up).
  std::vector<std::string> out;
  for (const Entry &e : kEntries)
    out.push_back(e.arch);
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<Figure> figure(const std::string &arch, const std::string &key) {
  auto it = table().find(arch);
  if (it == table().end() || !it->second.contains(key))
    return std::nullopt;
  const auto &f = it->second[key];
  return Figure{f.at("value").get<long long>(), f.at("source").get<std::string>()};
}

std::optional<Fact> fact(const std::string &arch, const std::string &key) {
  auto it = table().find(arch);
  if (it == table().end() || !it->second.contains(key) || !it->second[key].is_object() ||
      !it->second[key].value("value", nlohmann::json()).is_string())
    return std::nullopt;
  const auto &f = it->second[key];
  return Fact{f.at("value").get<std::string>(), f.at("source").get<std::string>()};
}

std::vector<std::string> archsOfFamily(const std::string &family) {
  std::vector<std::string> out;
  for (const std::string &arch : knownArchs())
    if (auto f = fact(arch, "family"); f && f->value == family)
      out.push_back(arch);
  return out;
}

std::optional<unsigned> warpSize(const std::string &arch) {
  auto it = table().find(arch);
  if (it == table().end() || !it->second.contains("warp_size") ||
      !it->second["warp_size"].is_number_unsigned())
    return std::nullopt;
  return it->second["warp_size"].get<unsigned>();
}

std::optional<Figure> sharedCapacity(const std::string &arch) {
  if (auto f = figure(arch, "max_lds_per_workgroup_bytes"))
    return f;
  return figure(arch, "shared_memory_per_block_optin_bytes");
}

const std::vector<Product> &products() {
  static const std::vector<Product> table = [] {
    std::vector<Product> out;
    auto doc = nlohmann::json::parse(kProducts);
    const auto &sources = doc.at("sources");
    for (const auto &p : doc.at("products")) {
      std::string key = p.at("source").get<std::string>();
      out.push_back(Product{p.at("name").get<std::string>(), p.at("arch").get<std::string>(),
                            sources.at(key).get<std::string>()});
    }
    return out;
  }();
  return table;
}

namespace {

/// Lower-case words of a name, split at anything but a letter or digit.
std::vector<std::string> wordsOf(const std::string &text) {
  std::vector<std::string> words(1);
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      words.back().push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    else if (!words.back().empty())
      words.emplace_back();
  }
  if (words.back().empty())
    words.pop_back();
  return words;
}

} // namespace

std::optional<Product> findProduct(const std::string &text) {
  std::vector<std::string> words = wordsOf(text);
  static const char *const kVendorWords[] = {"nvidia", "geforce",  "tesla",
                                             "amd",    "instinct", "radeon"};
  size_t first = 0;
  while (first < words.size() && std::find(std::begin(kVendorWords), std::end(kVendorWords),
                                           words[first]) != std::end(kVendorWords))
    ++first;
  std::optional<Product> best;
  size_t bestLength = 0;
  for (const Product &p : products()) {
    std::string name;
    for (auto &w : wordsOf(p.name))
      if (std::find(std::begin(kVendorWords), std::end(kVendorWords), w) == std::end(kVendorWords))
        name += w;
    // The product's letters must be the input's first whole words.
    std::string joined;
    for (size_t i = first; i < words.size() && joined.size() < name.size(); ++i)
      joined += words[i];
    if (joined == name && name.size() > bestLength) {
      best = p;
      bestLength = name.size();
    }
  }
  return best;
}

} // namespace tilexform::hw
