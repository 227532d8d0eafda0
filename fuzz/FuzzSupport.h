// Shared by the fuzz targets: keep the running input on disk for crashes
// that take libFuzzer's own handler down (TILEXFORM_FUZZ_LAST=FILE).
#pragma once

#include "tilexform/analysis/Recover.h"
#include "tilexform/ir/Module.h"
#include "tilexform/transcribe/Transcribe.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

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

/// Transcribes `m` in every way a user can (both styles, with and without
/// --allow-gaps), handing each result to `check`.
template <typename Check>
void transcribeEveryWay(const ir::Module &m, const analysis::RecoverReport &report,
                        const std::string &sourceName, Check &&check) {
  using transcribe::Style;
  for (Style style : {Style::Faithful, Style::Readable})
    for (bool gaps : {false, true}) {
      transcribe::TranscribeOptions to;
      to.allowGaps = gaps;
      to.style = style;
      to.sourceName = sourceName;
      check(transcribe::transcribe(m, report, to));
    }
}

} // namespace tilexform::fuzz
