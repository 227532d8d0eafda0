// Shared by the fuzz targets: keep the running input on disk for crashes
// that take libFuzzer's own handler down (TILEXFORM_FUZZ_LAST=FILE).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace tilexform::fuzz {

inline void keepLastInput(const uint8_t *data, size_t size) {
  static const char *last = std::getenv("TILEXFORM_FUZZ_LAST");
  if (!last)
    return;
  if (FILE *f = std::fopen(last, "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
}

} // namespace tilexform::fuzz
