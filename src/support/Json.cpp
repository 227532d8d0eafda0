#include "tilexform/support/Json.h"
#include "tilexform/support/InputError.h"

#include <fmt/format.h>

namespace tilexform {

namespace {

// The offset where nesting first goes deeper than kMaxJsonDepth, or npos.
// Brackets inside strings do not count; the scan is one pass, so a document
// of any size costs no more than reading it.
size_t tooDeepAt(llvm::StringRef text) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return i;
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return llvm::StringRef::npos;
}

// nlohmann's message without its "[json.exception...] parse error at line
// L, column C: " prefix (the position is given our way).
std::string plainMessage(const std::string &what) {
  size_t at = what.find(": ");
  std::string rest = at == std::string::npos ? what : what.substr(at + 2);
  size_t close = rest.find("] ");
  if (rest.starts_with("[json.exception") && close != std::string::npos)
    rest = rest.substr(close + 2);
  return rest;
}

} // namespace

llvm::Expected<nlohmann::json> parseJson(llvm::StringRef text, const std::string &file) {
  if (size_t deep = tooDeepAt(text); deep != llvm::StringRef::npos) {
    TextPosition at = positionOf(text, deep);
    return llvm::make_error<InputError>(
        file, at.line, at.col, fmt::format("JSON nested deeper than {} levels", kMaxJsonDepth));
  }
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error &e) {
    TextPosition at = positionOf(text, e.byte ? std::min<size_t>(e.byte - 1, text.size()) : 0);
    return llvm::make_error<InputError>(file, at.line, at.col,
                                        "not valid JSON: " + plainMessage(e.what()));
  } catch (const nlohmann::json::exception &e) {
    // A number beyond a double's range and the like carry no position.
    return llvm::make_error<InputError>(file, 0, 0, "not usable JSON: " + plainMessage(e.what()));
  }
}

const char *jsonKind(const nlohmann::json &value) {
  if (value.is_object())
    return "an object";
  if (value.is_array())
    return "an array";
  if (value.is_string())
    return "a string";
  if (value.is_number())
    return "a number";
  if (value.is_boolean())
    return "a boolean";
  return "null";
}

llvm::Expected<nlohmann::json> readJsonFile(const std::string &path) {
  auto buf = readInputFile(path);
  if (!buf)
    return buf.takeError();
  return parseJson((*buf)->getBuffer(), path);
}

} // namespace tilexform
