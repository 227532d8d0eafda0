// The last check before a generated Python module leaves tilexform: the
// module transcribe or recover --out wrote is read back with the Python
// front end and must be exactly what they write — imports from triton,
// layout constants, NUM_WARPS, decorated functions and `launch` — with no
// text from an input anywhere it could act. Input text reaches a module
// only through the escapes of support/PythonText.h; this check is what
// makes a missed escape a refusal instead of code that runs on import.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace tilexform::source {

/// The error checkGeneratedModule returns: a fault of tilexform's, never of
/// the input (the CLI exits 70 and writes nothing).
class UnsafeModuleError : public llvm::ErrorInfo<UnsafeModuleError> {
public:
  static char ID;
  explicit UnsafeModuleError(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
  std::string message;
};

/// Success when `text` is a module of the shape tilexform writes: valid
/// UTF-8 with no line break but `\n` and no NUL (support/PythonText.h), a
/// module Python parses, whose top level holds only `from triton... import`
/// and `import triton...`, `NAME = gl.constexpr(...)`, `NUM_WARPS = N`,
/// functions decorated `@gluon.jit`, `@gluon.jit(...)` or `@builtin`, and
/// an undecorated `def launch`; and no function body that imports, declares
/// globals, defines a class or names a builtin that reaches outside the
/// kernel (`exec`, `eval`, `open`, `__import__`, ...). Else an
/// UnsafeModuleError naming the line and what was found there.
llvm::Error checkGeneratedModule(llvm::StringRef text);

} // namespace tilexform::source
