// libFuzzer entry point for `verify`: the input holds two dumps separated by
// a line `// ===`; both that load are compared.
#include "FuzzSupport.h"

#include "tilexform/analysis/Verify.h"
#include "tilexform/ir/Module.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilexform::fuzz::keepLastInput(data, size);
  std::string text(reinterpret_cast<const char *>(data), size);
  size_t cut = text.find("\n// ===\n");
  std::string a = cut == std::string::npos ? text : text.substr(0, cut);
  std::string b = cut == std::string::npos ? text : text.substr(cut + 8);
  auto plain = tilexform::ir::loadModuleText(a, "plain.ttgir");
  if (!plain) {
    llvm::consumeError(plain.takeError());
    return 0;
  }
  auto anchor = tilexform::ir::loadModuleText(b, "anchor.ttgir");
  if (!anchor) {
    llvm::consumeError(anchor.takeError());
    return 0;
  }
  (void)tilexform::analysis::verify(**plain, **anchor);
  return 0;
}
