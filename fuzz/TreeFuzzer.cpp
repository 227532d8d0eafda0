// libFuzzer entry point for the tree walks: the input is a small file tree
// (files separated by a 0xFF byte, each named by its first byte from a fixed
// list: dumps, artifacts, metadata, Python sources, .gitignore files in
// nested directories) written to a scratch directory, then walked by probe's
// join and by survey, as `probe DIR` and `survey DIR` do.
#include "FuzzSupport.h"

#include "tilexform/asm/Probe.h"
#include "tilexform/source/Survey.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  static const char *names[] = {"k.json",         "k.cubin",        "k.hsaco",       "k.amdgcn",
                                "k.ptx",          "k.sass",         "k.ttgir",       "a/k.json",
                                "a/k.amdgcn",     "a/b/k.cubin",    "__grp__k.json", "m.py",
                                "a/m.py",         "a/b/n.py",       ".gitignore",    "a/.gitignore",
                                "a/b/.gitignore", ".hidden/k.json", "tmp.x/k.ptx",   "k2.json"};
  static const fs::path root = [] {
    fs::path p = fs::temp_directory_path() / ("tilexform-fuzz-tree-" + std::to_string(getpid()));
    return p;
  }();
  std::error_code ec;
  fs::remove_all(root, ec);
  fs::create_directories(root, ec);
  size_t i = 0;
  while (i < size) {
    size_t end = i;
    while (end < size && data[end] != 0xFF)
      ++end;
    if (end > i) {
      fs::path file = root / names[data[i] % (sizeof(names) / sizeof(names[0]))];
      fs::create_directories(file.parent_path(), ec);
      std::ofstream(file, std::ios::binary)
          .write(reinterpret_cast<const char *>(data) + i + 1, std::streamsize(end - i - 1));
    }
    i = end + 1;
  }
  tilexform::asmfile::ProbeOptions po;
  po.jobs = 1;
  if (auto r = tilexform::asmfile::probe({root.string()}, po); !r)
    llvm::consumeError(r.takeError());
  tilexform::source::SurveyOptions so;
  so.jobs = 1;
  if (auto r = tilexform::source::survey({root.string()}, so); !r)
    llvm::consumeError(r.takeError());
  return 0;
}
