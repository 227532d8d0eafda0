#include "tilexform/hw/ArchData.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace tilexform::hw {

namespace {

struct Entry {
  const char *arch;
  const char *json;
};

// Generated from data/hw/*.json by CMake.
#include "tilexform/hw/ArchData.inc"

const std::map<std::string, nlohmann::json> &table() {
  static const std::map<std::string, nlohmann::json> t = [] {
    std::map<std::string, nlohmann::json> m;
    for (const Entry &e : kEntries)
      m[e.arch] = nlohmann::json::parse(e.json);
    return m;
  }();
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

} // namespace tilexform::hw
