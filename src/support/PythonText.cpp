#include "tilexform/support/PythonText.h"

#include <fmt/format.h>

namespace tilexform {

namespace {

constexpr uint32_t kInvalid = 0xFFFFFFFF;

// The code point at `text[i]` and its length in bytes; kInvalid (length 1)
// for a byte that does not start valid UTF-8 (overlong forms, surrogates
// and code points past U+10FFFF included).
uint32_t decode(llvm::StringRef text, size_t i, size_t &len) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b = byte(i);
  len = 1;
  if (b < 0x80)
    return b;
  size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
  if (n == 0 || b > 0xF4 || i + n > text.size())
    return kInvalid;
  uint32_t cp = b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80)
      return kInvalid;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return kInvalid;
  len = n;
  return cp;
}

// Line breaks to str.splitlines (and, for \n and \r, to the tokenizer).
bool isLineBreak(uint32_t cp) {
  return cp == '\n' || cp == '\r' || cp == 0x0B || cp == 0x0C || (cp >= 0x1C && cp <= 0x1E) ||
         cp == 0x85 || cp == 0x2028 || cp == 0x2029;
}

bool isControl(uint32_t cp) { return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0); }

// Characters that change how a line is shown without being seen: bidi
// controls (a comment that reads as code, Trojan Source), zero-width and
// other format characters, tags, and non-characters.
bool isInvisible(uint32_t cp) {
  return cp == 0xAD || cp == 0x34F || cp == 0x61C || cp == 0x115F || cp == 0x1160 || cp == 0x17B4 ||
         cp == 0x17B5 || (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x200B && cp <= 0x200F) ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F) || cp == 0x3164 ||
         (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF || cp == 0xFFA0 ||
         (cp >= 0xFFF0 && cp <= 0xFFFB) || (cp >= 0xFDD0 && cp <= 0xFDEF) ||
         (cp & 0xFFFE) == 0xFFFE || (cp >= 0x1D173 && cp <= 0x1D17A) ||
         (cp >= 0xE0000 && cp <= 0xE0FFF);
}

std::string escapeOf(uint32_t cp) {
  switch (cp) {
  case '\n':
    return "\\n";
  case '\r':
    return "\\r";
  case '\t':
    return "\\t";
  default:
    break;
  }
  if (cp <= 0xFF)
    return fmt::format("\\x{:02x}", cp);
  if (cp <= 0xFFFF)
    return fmt::format("\\u{:04x}", cp);
  return fmt::format("\\U{:08x}", cp);
}

} // namespace

std::string pyStringLiteral(llvm::StringRef text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (size_t i = 0; i < text.size();) {
    size_t len;
    uint32_t cp = decode(text, i, len);
    i += len;
    if (cp == kInvalid)
      out += "\\ufffd";
    else if (cp == '\\' || cp == '"')
      (out += '\\') += char(cp);
    else if (cp >= 0x20 && cp < 0x7F)
      out += char(cp);
    else
      out += escapeOf(cp);
  }
  out += '"';
  return out;
}

std::string visibleText(llvm::StringRef text, bool keepLineFeeds) {
  size_t i = 0;
  for (size_t len; i < text.size(); i += len) {
    uint32_t cp = decode(text, i, len);
    if (cp == kInvalid || (cp != '\t' && !(keepLineFeeds && cp == '\n') &&
                           (isLineBreak(cp) || isControl(cp) || isInvisible(cp))))
      break;
  }
  if (i == text.size())
    return text.str();
  std::string out = text.take_front(i).str();
  out.reserve(text.size() + 8);
  for (size_t len; i < text.size(); i += len) {
    uint32_t cp = decode(text, i, len);
    if (cp == kInvalid)
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
    else if (cp != '\t' && !(keepLineFeeds && cp == '\n') &&
             (isLineBreak(cp) || isControl(cp) || isInvisible(cp)))
      out += escapeOf(cp);
    else
      out.append(text.data() + i, len);
  }
  return out;
}

std::string pyCommentText(llvm::StringRef text) { return visibleText(text); }

std::string visibleJson(llvm::StringRef json) {
  auto hidden = [](uint32_t cp) {
    return cp != '\n' && cp != '\t' && (isLineBreak(cp) || isControl(cp) || isInvisible(cp));
  };
  std::string out;
  size_t done = 0;
  for (size_t i = 0, len; i < json.size(); i += len) {
    uint32_t cp = decode(json, i, len);
    if (cp == kInvalid || !hidden(cp))
      continue;
    out.append(json.data() + done, i - done);
    if (cp <= 0xFFFF) {
      out += fmt::format("\\u{:04x}", cp);
    } else {
      uint32_t v = cp - 0x10000;
      out += fmt::format("\\u{:04x}\\u{:04x}", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
    }
    done = i + len;
  }
  if (done == 0)
    return json.str();
  out.append(json.data() + done, json.size() - done);
  return out;
}

size_t unsafePythonTextAt(llvm::StringRef text) {
  for (size_t i = 0; i < text.size();) {
    size_t len;
    uint32_t cp = decode(text, i, len);
    if (cp == kInvalid || cp == 0 || (cp != '\n' && isLineBreak(cp)))
      return i;
    i += len;
  }
  return llvm::StringRef::npos;
}

} // namespace tilexform
