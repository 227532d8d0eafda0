// The one way kernel sources named by a dump are read. A dump's locations
// (`loc("kernels.py":42:7)`) name files, and a hostile dump can name any
// path: `/etc/passwd`, `../../secret`, a FIFO, `/dev/zero`. SourceFiles reads
// a named file only when it is a regular `.py` file, within the size limit,
// that lies inside one of the directories it was handed; everything else is
// refused with a one-line reason and nothing of it is read.
//
// Wiring (a command that quotes or reads kernel sources):
//
//   SourceFiles sources({sourceRoot}, maxInputSize());
//   if (const SourceText *src = sources.lines(loc.file))
//     quote = (*src)[loc.line - 1];     // or src->line(loc.line), 1-based
//   else
//     note = sources.refusal(loc.file); // "outside the source roots", ...
//
// A SourceText behaves like a vector of lines (`size()`, `operator[]`,
// iteration, each line a StringRef without its `\n`/`\r\n`); it lives as
// long as the SourceFiles that returned it.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tilexform {

/// One source file's text, read once, and its lines.
class SourceText {
public:
  explicit SourceText(std::string text);
  /// The number of lines (a last line without `\n` counts; an empty file has none).
  size_t size() const { return starts_.size(); }
  bool empty() const { return starts_.empty(); }
  /// Line `i`, 0-based, without its line break (and without a trailing `\r`).
  llvm::StringRef operator[](size_t i) const;
  /// Line `n`, 1-based as locations count; "" when out of range.
  llvm::StringRef line(size_t n) const { return n == 0 || n > size() ? "" : (*this)[n - 1]; }
  /// The whole text.
  llvm::StringRef text() const { return text_; }

  class iterator {
  public:
    using value_type = llvm::StringRef;
    using difference_type = std::ptrdiff_t;
    iterator(const SourceText *t, size_t i) : t_(t), i_(i) {}
    llvm::StringRef operator*() const { return (*t_)[i_]; }
    iterator &operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const iterator &o) const { return i_ == o.i_; }
    bool operator!=(const iterator &o) const { return i_ != o.i_; }

  private:
    const SourceText *t_;
    size_t i_;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }

private:
  std::string text_;
  std::vector<uint32_t> starts_; // offset of each line's first byte (text is at most 4 GiB)
};

/// The kernel source files a run may read: regular `.py` files inside the
/// given root directories, at most `maxSize` bytes each. Safe to call from
/// several threads; each file is read at most once.
class SourceFiles {
public:
  /// `roots`: the directories sources may come from (e.g. `--source-root`);
  /// each is resolved (symlinks, `..`) once here, and one that is not an
  /// existing directory is dropped. With no roots every file is refused.
  /// `maxSize`: the largest file read, in bytes (the CLI's --max-input-size,
  /// `maxInputSize()`).
  SourceFiles(const std::vector<std::string> &roots, uint64_t maxSize);
  ~SourceFiles();
  SourceFiles(const SourceFiles &) = delete;
  SourceFiles &operator=(const SourceFiles &) = delete;

  /// The lines of the file a location names, or nullptr when it is refused
  /// (then `refusal(file)` says why). Tried in order, the first readable one
  /// wins:
  ///  - an absolute `file` itself;
  ///  - a relative `file` below each root in turn (`root/file`);
  ///  - `root/<file's last component>` for each root (a dump made on another
  ///    machine names the file by a path of that machine).
  /// A candidate is read only when, with every symlink and `..` resolved, it
  /// lies inside one of the (resolved) roots, ends in `.py`, is a regular file
  /// (checked on the opened descriptor, opened without blocking, so a FIFO
  /// or device swapped in is never waited on or read), is at most the size
  /// limit (checked before reading; reading stops past it) and holds no NUL
  /// byte. The answer is cached per name and the text per file.
  const SourceText *lines(const std::string &file);

  /// Why `lines(file)` refused `file`: one short line that names no path
  /// outside the roots and quotes nothing of any file ("outside the source
  /// roots", "not a regular file (a FIFO)", "above the input limit of N
  /// bytes (--max-input-size)", ...). Empty when the file was read or has
  /// not been asked for.
  std::string refusal(const std::string &file) const;

  /// The resolved roots, for messages.
  const std::vector<std::string> &roots() const { return roots_; }

  /// How many distinct file names were asked for, and how many of them
  /// were read (a command says so when a dump names sources and none was
  /// found).
  size_t askedFor() const;
  size_t found() const;

private:
  struct Entry {
    const SourceText *text = nullptr;
    std::string refusal;
  };
  /// Reads one candidate path, or returns why not.
  const SourceText *tryRead(const std::string &candidate, std::string &why);
  /// Whether a resolved path lies below a resolved root.
  bool insideRoots(llvm::StringRef resolved) const;
  /// Whether a path as written (made absolute, `..` taken out) lies below a
  /// root as resolved or as written.
  bool lexicallyInsideRoots(llvm::StringRef path) const;

  std::vector<std::string> roots_;        // resolved
  std::vector<std::string> spelledRoots_; // as written, where that differs
  uint64_t maxSize_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> byName_;
  std::map<std::string, std::unique_ptr<SourceText>> byResolved_;
};

/// `path` with every symlink, `.` and `..` resolved (realpath), or "" when
/// it cannot be resolved (a dangling link, a loop, a missing file).
std::string resolvedPath(const std::string &path);

/// Whether `path` lies strictly below directory `root`, both resolved
/// (resolvedPath): the check tree walks make before following a file link.
bool isBelowDirectory(llvm::StringRef path, llvm::StringRef root);

} // namespace tilexform
