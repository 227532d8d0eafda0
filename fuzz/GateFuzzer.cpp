// libFuzzer entry point for the JSON inputs of the gates and parity-gate:
// byte 0 picks what the rest is — a champion bundle, its config sidecar,
// Triton's metadata beside its dump, an A/B samples file, parity-gate's
// samples (a list, or an arm of a samples file) — and the gate must decide
// or refuse it, never crash or hang. The inputs are files, as on a command
// line: written to a directory of this process, beside a real dump.
#include "FuzzSupport.h"

#include "tilexform/gate/Gates.h"
#include "tilexform/gate/Parity.h"
#include "tilexform/support/Json.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const fs::path &workDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("tilexform-fuzz-gate-" + std::to_string(getpid()));
    fs::create_directories(d);
    // A small dump the bundles can name; its metadata sidecar is fuzzed.
    std::ofstream(d / "k.ttgir") << "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
                                    "  tt.func public @k() {\n    tt.return\n  }\n}\n";
    return d;
  }();
  return dir;
}

void write(const fs::path &p, llvm::StringRef bytes) {
  std::ofstream(p, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

// A bundle around a fuzzed sidecar: config or metadata.
const char *kBundle = R"({"kernel": "k", "source": {"path": "k.ttgir", "sha256": "00"},
  "live": {"path": "k.ttgir", "sha256": "00"}, "config": "config.json", "ttgir": "k.ttgir",
  "time_ms": 1.0, "samples_ms": [1.0, 1.0, 1.0]})";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  if (size == 0)
    return 0;
  const fs::path &dir = workDir();
  llvm::StringRef text(reinterpret_cast<const char *>(data) + 1, size - 1);
  using namespace tilexform;
  switch (data[0] % 6) {
  case 0: { // a champion bundle
    write(dir / "bundle.json", text);
    auto r = gate::checkChampion((dir / "bundle.json").string(), 3);
    if (!r)
      llvm::consumeError(r.takeError());
    break;
  }
  case 1:   // its config sidecar
  case 2: { // Triton's metadata beside its dump
    write(dir / "bundle.json", kBundle);
    write(dir / "config.json", data[0] % 6 == 1 ? text : R"({"num_warps": 4, "num_stages": 1})");
    write(dir / "k.json", data[0] % 6 == 2 ? text : "{}");
    auto r = gate::checkChampion((dir / "bundle.json").string(), 3);
    if (!r)
      llvm::consumeError(r.takeError());
    break;
  }
  case 3: { // an A/B samples file, with and without the permutation test
    write(dir / "samples.json", text);
    gate::AbOptions o;
    o.resamples = 200;
    o.permute = size % 2;
    auto r = gate::abTest((dir / "samples.json").string(), o);
    if (!r)
      llvm::consumeError(r.takeError());
    break;
  }
  case 4:   // parity-gate's samples: a list
  case 5: { // or an arm of a samples file, against a list
    write(dir / "samples.json", text);
    gate::ParityOptions o;
    o.resamples = 200;
    std::string path = (dir / "samples.json").string();
    o.champion.samples = data[0] % 6 == 4 ? path : path + ":a";
    o.anchor.samples = data[0] % 6 == 4 ? path : path + ":b";
    auto r = gate::parityGate(o);
    if (!r)
      llvm::consumeError(r.takeError());
    break;
  }
  }
  return 0;
}
