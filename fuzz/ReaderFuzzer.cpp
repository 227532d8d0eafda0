// libFuzzer entry point: any bytes given to the dump reader, the layout
// attribute parser and the Gluon expression parser must give a result or an
// error, never a crash or a hang. A dump that loads also goes through
// recover, the anchor-module emitter (`recover --out`), and the generic
// printer, whose output must load again.
#include "FuzzSupport.h"

#include "tilexform/analysis/Pipeline.h"
#include "tilexform/analysis/Recover.h"
#include "tilexform/gluon/Gluon.h"
#include "tilexform/ir/GenericPrinter.h"
#include "tilexform/ir/Module.h"
#include "tilexform/transcribe/Transcribe.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  std::string text(reinterpret_cast<const char *>(data), size);
  if (auto m = tilexform::ir::loadModuleText(text, "fuzz.ttgir")) {
    auto report = tilexform::analysis::recover(**m, tilexform::gluon::GluonApi::V3_6);
    if (auto module = tilexform::analysis::anchorModule(report, "fuzz.ttgir"); !module)
      llvm::consumeError(module.takeError());
    // The transcriber and the pipeline facts parity-gate reads stand on
    // the same module.
    (void)tilexform::analysis::hotLoopPipeline(**m);
    tilexform::fuzz::transcribeEveryWay(
        **m, report, "fuzz.ttgir", [](llvm::Expected<tilexform::transcribe::TranscribeReport> t) {
          if (!t)
            llvm::consumeError(t.takeError());
        });
    std::string generic;
    llvm::raw_string_ostream os(generic);
    tilexform::ir::printGeneric(**m, os);
    if (auto again = tilexform::ir::loadModuleText(generic, "generic.mlir"); !again)
      llvm::consumeError(again.takeError());
  } else {
    llvm::consumeError(m.takeError());
  }
  if (size < 4096) {
    auto ctx = tilexform::ir::makeContext();
    if (auto a = tilexform::ir::parseAttributeText(ctx.get(), text); !a)
      llvm::consumeError(a.takeError());
    if (auto g = tilexform::gluon::parseGluon(text); !g)
      llvm::consumeError(g.takeError());
  }
  return 0;
}
