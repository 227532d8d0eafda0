// libFuzzer entry point for the listing readers and the audit: any bytes read
// as AMDGCN, SASS or PTX text (byte 0 picks, or lets the reader sniff) must
// give an audit or an error, never a crash or a hang; whatever audits must
// also diff against itself with nothing added or removed.
#include "FuzzSupport.h"

#include "tilexform/asm/Audit.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  if (size == 0)
    return 0;
  static const char *names[] = {"fuzz.amdgcn", "fuzz.sass", "fuzz.ptx", "fuzz.txt"};
  const char *name = names[data[0] % 4];
  llvm::StringRef text(reinterpret_cast<const char *>(data) + 1, size - 1);
  tilexform::asmfile::AuditOptions o;
  auto r = tilexform::asmfile::audit(name, text, o);
  if (!r) {
    llvm::consumeError(r.takeError());
    // Several kernels: take the first by name.
    auto kernels = tilexform::asmfile::readListing(name, text, tilexform::asmfile::isaOfPath(name));
    if (!kernels) {
      llvm::consumeError(kernels.takeError());
      return 0;
    }
    o.kernel = kernels->front().name;
    r = tilexform::asmfile::audit(name, text, o);
    if (!r) {
      llvm::consumeError(r.takeError());
      return 0;
    }
  }
  size_t total = 0;
  for (auto &[k, n] : r->whole.classes)
    total += n;
  if (total != r->whole.instructions)
    abort();
  auto d = tilexform::asmfile::diffAudits(*r, *r);
  if (d.removed != 0 || d.added != 0)
    abort();
  // A loop can be forced by the label the report gives it (the first few:
  // each forced audit reads the whole listing again).
  for (size_t i = 0; i < r->loops.size() && i < 8; ++i) {
    const auto &l = r->loops[i];
    tilexform::asmfile::AuditOptions forced = o;
    forced.loop = l.label;
    auto f = tilexform::asmfile::audit(name, text, forced);
    if (!f)
      llvm::consumeError(f.takeError());
  }
  return 0;
}
