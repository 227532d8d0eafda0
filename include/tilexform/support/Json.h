// The one way a JSON input is read (samples, champion bundles and their
// sidecars, Triton's metadata): nesting bounded before nlohmann's recursive
// parser sees the text, and every syntax error named by line and column.
#pragma once

#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

#include <string>

namespace tilexform {

/// The deepest nesting of arrays and objects a JSON input may have, as for
/// the IR: nlohmann parses (and frees) recursively, so a document of 100,000
/// brackets would exhaust the stack.
constexpr unsigned kMaxJsonDepth = 256;

/// `text` as one JSON document, or an InputError naming `file:line:col` (a
/// syntax error, nesting deeper than kMaxJsonDepth) or `file` (a number
/// beyond a double's range, an empty file).
llvm::Expected<nlohmann::json> parseJson(llvm::StringRef text, const std::string &file);

/// What a value is, for a message: "an object", "an array", "a string",
/// "a number", "a boolean", "null".
const char *jsonKind(const nlohmann::json &value);

/// readInputFile, then parseJson.
llvm::Expected<nlohmann::json> readJsonFile(const std::string &path);

} // namespace tilexform
