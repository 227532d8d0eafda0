#pragma once
// A JSON document as text, byte for byte what nlohmann's `dump` writes.

#include <nlohmann/json.hpp>

#include <string>

namespace tilexform::cli {

/// `doc` as `Json::dump` writes it, on one line (jsonl) or indented by two,
/// invalid UTF-8 replaced rather than thrown; faster.
std::string dumpJson(const nlohmann::ordered_json &doc, bool oneLine);

} // namespace tilexform::cli
