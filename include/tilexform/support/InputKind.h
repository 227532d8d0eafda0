// What an input file is, told from its first bytes (its extension only when
// the content does not say): a command that reads one kind names the kind it
// was given instead of parsing, say, Python source as IR.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace tilexform {

enum class InputKind {
  Empty,      // no bytes, or only whitespace
  Ttgir,      // TTGIR: MLIR text with layouts (ttg. attributes, #blocked, ...)
  Ttir,       // TTIR: Triton's MLIR before layout assignment
  Python,     // Python source (a kernel, a launcher)
  CudaElf,    // an ELF for NVIDIA GPUs (.cubin)
  AmdgpuElf,  // an ELF for AMD GPUs (.hsaco)
  Elf,        // any other ELF (a host object, a shared library)
  Json,       // a JSON document (Triton's metadata, a config)
  Ptx,        // PTX text
  Amdgcn,     // AMDGCN assembly text
  Sass,       // SASS text (cuobjdump -sass, nvdisasm)
  CMakeCache, // a CMakeCache.txt
  Binary,     // other bytes that are no text
  Unknown,    // text none of the above: left to the reader to judge
};

/// The kind of `contents`, read from the content first (magic bytes, the
/// first significant lines, a module's attributes) and from the extension of
/// `path` only when the content is inconclusive. Pure: no I/O.
InputKind sniffInputKind(llvm::StringRef contents, llvm::StringRef path);

/// The kind a file's name alone implies (its extension, or `CMakeCache.txt`);
/// Unknown when the name says nothing.
InputKind inputKindOfName(llvm::StringRef path);

/// What the kind is, to follow "FILE looks like": "Python source",
/// "an NVIDIA GPU binary (ELF, .cubin)", "a TTIR dump".
const char *describeInputKind(InputKind kind);

/// The error for input of a kind the reader does not take, naming the file
/// and what it is: `FILE: error: looks like Python source; WANTED`.
llvm::Error wrongInputKindError(const std::string &path, InputKind kind, llvm::StringRef wanted);

} // namespace tilexform
