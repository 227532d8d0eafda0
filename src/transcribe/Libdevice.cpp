#include "Libdevice.h"

#include <llvm/ADT/StringMap.h>

namespace tilexform::transcribe {

const char *libdeviceFunction(llvm::StringRef symbol) {
  static const llvm::StringMap<const char *> table = [] {
    llvm::StringMap<const char *> t;
#define TX_LIBDEVICE(SYMBOL, FUNCTION) t[SYMBOL] = FUNCTION;
#include "Libdevice.def"
#undef TX_LIBDEVICE
    return t;
  }();
  auto it = table.find(symbol);
  return it == table.end() ? nullptr : it->second;
}

} // namespace tilexform::transcribe
