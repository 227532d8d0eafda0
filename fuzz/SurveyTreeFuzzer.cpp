// libFuzzer entry point for survey (and probe) over hostile trees: the input
// is a little program that builds a directory tree in a scratch directory
// (nested and long-named folders, .py files with fuzzed content, .gitignore
// files, links to files and folders inside the tree and outside it, FIFOs,
// folders that cannot be entered, long chains of folders), then the tree is
// surveyed and probed as `survey DIR` and `probe DIR` do. Beyond not
// crashing, hanging or exhausting memory, nothing outside the tree may be
// read: a folder beside the tree holds files only links reach, watched with
// inotify, and any open or read of them aborts; every kernel reported must
// come from a file below the tree.
#include "FuzzSupport.h"

#include "tilexform/asm/Probe.h"
#include "tilexform/source/Survey.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

constexpr const char *kSecret = "OUTSIDE_SECRET";

/// The scratch directory: `tree/` is rebuilt for every input, `outside/`
/// is made once and watched.
struct Scratch {
  fs::path base, tree, outside;
  int watch = -1;

  Scratch() {
    base = fs::temp_directory_path() / ("tilexform-fuzz-survey-" + std::to_string(getpid()));
    tree = base / "tree";
    outside = base / "outside";
    std::error_code ec;
    fs::remove_all(base, ec);
    fs::create_directories(outside / "d", ec);
    write(outside / "secret.py",
          std::string("import triton\n\n@triton.jit\ndef ") + kSecret + "(x):\n    pass\n");
    write(outside / "bad.py", std::string(kSecret) + " = (\n");
    write(outside / "secret.ptx", std::string("// ") + kSecret + "\n.version 8.0\n");
    write(outside / "d" / "inner.py", std::string("def ") + kSecret + "():\n    pass\n");
    write(outside / ".gitignore", "*\n");
    watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    for (const fs::path &d : {outside, outside / "d"})
      if (watch >= 0)
        inotify_add_watch(watch, d.c_str(), IN_OPEN | IN_ACCESS);
  }

  static void write(const fs::path &p, const std::string &text) {
    std::ofstream(p, std::ios::binary) << text;
  }

  /// Whether anything below `outside/` was opened or read since the last call.
  bool outsideTouched() const {
    if (watch < 0)
      return false;
    bool touched = false;
    alignas(inotify_event) char buf[4096];
    while (true) {
      ssize_t n = ::read(watch, buf, sizeof buf);
      if (n <= 0)
        break;
      touched = true;
    }
    return touched;
  }
};

/// Reads the fuzz input as a stream of bytes (zeros past its end).
struct Reader {
  const uint8_t *data;
  size_t size, at = 0;
  bool done() const { return at >= size; }
  uint8_t byte() { return at < size ? data[at++] : 0; }
  std::string bytes(size_t n) {
    n = std::min(n, size - std::min(at, size));
    std::string s(reinterpret_cast<const char *>(data) + at, n);
    at += n;
    return s;
  }
};

/// A file name from the input: short and plain mostly, sometimes long (up to
/// NAME_MAX) or with odd characters; never "." or "..".
std::string nameFrom(Reader &in) {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789_-. \n\x1b";
  uint8_t head = in.byte();
  size_t length = (head & 0x80) ? 200 + head % 56 : 1 + head % 12;
  std::string name;
  for (size_t i = 0; i < length; ++i) {
    uint8_t b = (head & 0x80) && i >= 4 ? uint8_t(i) : in.byte();
    name += alphabet[b % (sizeof alphabet - 1)];
  }
  if (name == "." || name == "..")
    name = "dot" + name;
  return name;
}

/// Builds the tree the input describes, below `scratch.tree`. Returns the
/// folders made unreadable, to be restored before the tree is removed.
std::vector<fs::path> buildTree(Reader &in, const Scratch &scratch) {
  std::error_code ec;
  std::vector<fs::path> dirs{scratch.tree}; // real folders only: never a link
  std::vector<fs::path> files;
  std::vector<fs::path> locked;
  auto pick = [&](const std::vector<fs::path> &from) { return from[in.byte() % from.size()]; };
  std::vector<fs::path> outsideTargets;
  for (const char *name : {"secret.py", "bad.py", "secret.ptx", ".", "d"})
    outsideTargets.push_back(scratch.outside / name);
  outsideTargets.push_back("/dev/zero");
  for (int op = 0; op < 64 && !in.done(); ++op) {
    uint8_t code = in.byte();
    switch (code % 10) {
    case 0: { // a folder
      if (dirs.size() >= 256)
        break;
      fs::path d = pick(dirs) / nameFrom(in);
      if (fs::create_directory(d, ec))
        dirs.push_back(d);
      break;
    }
    case 1:   // a .py file with fuzzed content
    case 2: { // (twice as likely)
      fs::path f = pick(dirs) / (nameFrom(in) + ".py");
      size_t length = size_t(in.byte()) * 16 + in.byte() % 16;
      Scratch::write(f, in.bytes(length));
      files.push_back(f);
      break;
    }
    case 3: { // a .gitignore
      fs::path f = pick(dirs) / ".gitignore";
      Scratch::write(f, in.bytes(in.byte()));
      break;
    }
    case 4: { // a link to a file inside
      if (files.empty())
        break;
      fs::path target = pick(files);
      fs::create_symlink(target, pick(dirs) / (nameFrom(in) + ".py"), ec);
      break;
    }
    case 5: { // a link to a folder inside (an ancestor makes a loop)
      fs::path target = pick(dirs);
      fs::create_directory_symlink(target, pick(dirs) / nameFrom(in), ec);
      break;
    }
    case 6: { // a link leaving the tree, named as a source or an artifact
      const fs::path &target = outsideTargets[in.byte() % outsideTargets.size()];
      static const char *suffixes[] = {".py", ".ptx", "", ".json"};
      std::string name = nameFrom(in) + suffixes[in.byte() % std::size(suffixes)];
      fs::path at = in.byte() % 4 == 0 ? pick(dirs) / ".gitignore" : pick(dirs) / name;
      fs::create_symlink(target, at, ec);
      break;
    }
    case 7: { // a relative link climbing out of the tree
      fs::path at = pick(dirs);
      std::string up;
      for (fs::path p = at; p != scratch.tree && p.has_parent_path(); p = p.parent_path())
        up += "../";
      fs::create_symlink(up + "../outside/secret.py", at / (nameFrom(in) + ".py"), ec);
      break;
    }
    case 8: { // a FIFO named as a source
      fs::path f = pick(dirs) / (nameFrom(in) + ".py");
      ::mkfifo(f.c_str(), 0600);
      break;
    }
    case 9: { // a folder that cannot be entered, or a chain of folders
      if (in.byte() % 2) {
        fs::path d = pick(dirs);
        if (d != scratch.tree && ::chmod(d.c_str(), (in.byte() % 2) ? 0 : 0300) == 0)
          locked.push_back(d);
      } else {
        fs::path d = pick(dirs);
        size_t depth = in.byte();
        for (size_t i = 0; i < depth && dirs.size() < 1024; ++i) {
          d /= "c";
          if (!fs::create_directory(d, ec))
            break;
          dirs.push_back(d);
        }
        Scratch::write(d / "deep.py", "import triton\n\n@triton.jit\ndef deep(x):\n    pass\n");
      }
      break;
    }
    }
  }
  return locked;
}

void check(bool ok, const char *what) {
  if (ok)
    return;
  std::fprintf(stderr, "survey-tree fuzz: %s\n", what);
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  static const Scratch scratch;
  std::error_code ec;
  fs::remove_all(scratch.tree, ec);
  fs::create_directories(scratch.tree, ec);
  Reader in{data, size};
  std::vector<fs::path> locked = buildTree(in, scratch);
  scratch.outsideTouched(); // what building the tree did

  tilexform::source::SurveyOptions so;
  so.jobs = 1;
  auto report = tilexform::source::survey({scratch.tree.string()}, so);
  check(!scratch.outsideTouched(), "survey opened or read a file outside the tree");
  if (report) {
    const std::string below = scratch.tree.string() + "/";
    for (auto &k : report->kernels)
      check(llvm::StringRef(k.file).starts_with(below), "survey reported a file outside the tree");
  } else {
    llvm::consumeError(report.takeError());
  }

  tilexform::asmfile::ProbeOptions po;
  po.jobs = 1;
  auto probed = tilexform::asmfile::probe({scratch.tree.string()}, po);
  check(!scratch.outsideTouched(), "probe opened or read a file outside the tree");
  if (!probed)
    llvm::consumeError(probed.takeError());

  // Unlocked in as many passes as it takes: a folder below another locked
  // one can be reached only once that one is open again.
  for (size_t pass = 0; pass <= locked.size() && !locked.empty(); ++pass)
    std::erase_if(locked, [](const fs::path &d) { return ::chmod(d.c_str(), 0700) == 0; });
  return 0;
}
