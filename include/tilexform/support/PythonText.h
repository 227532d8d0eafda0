// Text from an input on its way into generated Python. A dump, a source
// file or a file name can hold any bytes; the modules transcribe and
// recover --out write are imported by people. Every piece of input text
// reaches a module through exactly one of these, by the context it lands
// in: a string literal, a comment, or a name (names are made identifiers
// by transcribe's Scope, or refused).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace tilexform {

/// `text` as a double-quoted Python string literal whose value is `text`
/// (its bytes read as UTF-8): printable ASCII as it is, `\\`, `\"`, `\n`,
/// `\r`, `\t`, every other control character and every non-ASCII code point
/// as `\xNN`, `\uNNNN` or `\UNNNNNNNN`, so no byte of the literal is a line
/// break to Python's tokenizer or to `str.splitlines`, and no quote ends it
/// early. A byte that is not part of valid UTF-8 becomes U+FFFD.
std::string pyStringLiteral(llvm::StringRef text);

/// `text` made safe to follow `# ` on one line of a comment: every
/// character Python or `str.splitlines` treats as a line break (`\n`, `\r`,
/// `\v`, `\f`, `\x1c`-`\x1e`, `\x85`, U+2028, U+2029), every other control
/// character but tab, every character that changes how the line is shown
/// without being seen (bidi controls such as U+202E, zero-width and other
/// format characters, tags, non-characters) and every byte that is not
/// valid UTF-8 are written as their escapes (`\r`, `\x0b`, `\u202e`,
/// `\xff`), so the comment stays one line that reads as it is and the module
/// stays valid UTF-8. Other text (`α`, `é`) is kept as it is.
std::string pyCommentText(llvm::StringRef text);

/// The same escapes for text shown anywhere (a report, a diagnostic, a
/// file name in a log): it reads as it is and cannot forge or hide a line.
/// With `keepLineFeeds`, `\n` is kept (a report of several lines).
std::string visibleText(llvm::StringRef text, bool keepLineFeeds = false);

/// A JSON text with every character visibleText escapes, inside or outside
/// its strings, written as a `\uXXXX` escape: the same document, readable
/// on a terminal, one line per JSON Lines record for `str.splitlines`.
std::string visibleJson(llvm::StringRef json);

/// The offset of the first character in `text` that ends a line for
/// Python's tokenizer or `str.splitlines` other than `\n`, a NUL, or a byte
/// that is not valid UTF-8 (what a generated module must never contain);
/// npos when there is none.
size_t unsafePythonTextAt(llvm::StringRef text);

} // namespace tilexform
