#include "tilexform/support/InputKind.h"

#include "tilexform/support/InputError.h"

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>

#include <cstdint>

namespace tilexform {

namespace {

constexpr size_t kHead = 1 << 16; // what is read to judge the text kinds

uint16_t elfMachine(llvm::StringRef bytes) {
  if (bytes.size() < 20)
    return 0;
  auto b = [&](size_t i) { return uint16_t(static_cast<unsigned char>(bytes[i])); };
  bool bigEndian = bytes[5] == 2;
  return bigEndian ? uint16_t(b(18) << 8 | b(19)) : uint16_t(b(19) << 8 | b(18));
}

/// An MLIR alias definition: `#name = ...` (a Python or CMake comment is
/// `# words`).
bool isAliasLine(llvm::StringRef line) {
  if (!line.consume_front("#") || line.empty() || !(llvm::isAlpha(line[0]) || line[0] == '_'))
    return false;
  size_t end =
      line.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.");
  return end != llvm::StringRef::npos && line.substr(end).ltrim().starts_with("=");
}

bool isPythonLine(llvm::StringRef line) {
  for (const char *w : {"import ", "def ", "class ", "async def ", "print(", "if __name__"})
    if (line.starts_with(w))
      return true;
  if (line.starts_with("from ") && line.contains(" import "))
    return true;
  // A decorator (`@triton.jit`); MLIR never starts a line with `@`.
  return line.size() > 1 && line[0] == '@' && llvm::isAlpha(line[1]);
}

/// MLIR that carries layouts: TTGIR's module attributes or encodings.
bool hasLayouts(llvm::StringRef text) {
  for (const char *w : {"ttg.", "triton_gpu.", "#blocked", "#mma", "#shared", "#linear"})
    if (text.contains(w))
      return true;
  return false;
}

} // namespace

InputKind inputKindOfName(llvm::StringRef path) {
  size_t slash = path.find_last_of('/');
  llvm::StringRef name = slash == llvm::StringRef::npos ? path : path.substr(slash + 1);
  if (name == "CMakeCache.txt")
    return InputKind::CMakeCache;
  size_t dot = name.rfind('.');
  if (dot == llvm::StringRef::npos)
    return InputKind::Unknown;
  return llvm::StringSwitch<InputKind>(name.substr(dot + 1))
      .Case("py", InputKind::Python)
      .Case("json", InputKind::Json)
      .Case("ptx", InputKind::Ptx)
      .Case("amdgcn", InputKind::Amdgcn)
      .Case("sass", InputKind::Sass)
      .Case("cubin", InputKind::CudaElf)
      .Case("hsaco", InputKind::AmdgpuElf)
      .Default(InputKind::Unknown);
}

InputKind sniffInputKind(llvm::StringRef contents, llvm::StringRef path) {
  if (contents.ltrim().empty())
    return InputKind::Empty;
  if (contents.starts_with("\x7f"
                           "ELF")) {
    switch (elfMachine(contents)) {
    case 190: // EM_CUDA
      return InputKind::CudaElf;
    case 224: // EM_AMDGPU
      return InputKind::AmdgpuElf;
    default:
      return InputKind::Elf;
    }
  }
  llvm::StringRef head = contents.take_front(kHead);
  if (head.contains('\0'))
    return InputKind::Binary;
  llvm::StringRef trimmed = head.ltrim();
  if (trimmed.starts_with("{") && !trimmed.starts_with("{-#"))
    return InputKind::Json;
  if (trimmed.starts_with("[") && !trimmed.starts_with("[["))
    return InputKind::Json;
  if (head.contains("# This is the CMakeCache file."))
    return InputKind::CMakeCache;
  // Listings first: their comments and directives are unmistakable.
  if (head.contains("Function : ") || head.contains("/*0000*/"))
    return InputKind::Sass;
  if (head.contains(".amdgcn_target") || head.contains(".amdhsa_kernel") ||
      head.contains("s_endpgm"))
    return InputKind::Amdgcn;
  // The first significant lines decide between MLIR and Python.
  llvm::StringRef rest = head;
  for (int seen = 0; !rest.empty() && seen < 64;) {
    auto [line, tail] = rest.split('\n');
    rest = tail;
    line = line.trim();
    if (line.empty() || line.starts_with("//"))
      continue;
    ++seen;
    if (line.starts_with(".version") || line.starts_with(".target") ||
        line.starts_with(".address_size"))
      return InputKind::Ptx;
    if (isAliasLine(line) || line.starts_with("module") || line.starts_with("builtin.module") ||
        line.starts_with("tt.func") || line.starts_with("\"builtin.module\""))
      return hasLayouts(contents) ? InputKind::Ttgir : InputKind::Ttir;
    if (line.starts_with("#") || line.starts_with("\"\"\"") || line.starts_with("'''"))
      continue; // a comment or docstring: Python's, a shell's, CMake's
    if (isPythonLine(line))
      return InputKind::Python;
  }
  InputKind ext = inputKindOfName(path);
  return ext == InputKind::CudaElf || ext == InputKind::AmdgpuElf ? InputKind::Unknown : ext;
}

const char *describeInputKind(InputKind kind) {
  switch (kind) {
  case InputKind::Empty:
    return "an empty file";
  case InputKind::Ttgir:
    return "a TTGIR dump";
  case InputKind::Ttir:
    return "a TTIR dump";
  case InputKind::Python:
    return "Python source";
  case InputKind::CudaElf:
    return "an NVIDIA GPU binary (ELF, .cubin)";
  case InputKind::AmdgpuElf:
    return "an AMD GPU code object (ELF, .hsaco)";
  case InputKind::Elf:
    return "an ELF binary";
  case InputKind::Json:
    return "JSON";
  case InputKind::Ptx:
    return "PTX assembly";
  case InputKind::Amdgcn:
    return "AMDGCN assembly";
  case InputKind::Sass:
    return "SASS assembly";
  case InputKind::CMakeCache:
    return "a CMake cache";
  case InputKind::Binary:
    return "binary data";
  case InputKind::Unknown:
    return "text";
  }
  return "text";
}

llvm::Error wrongInputKindError(const std::string &path, InputKind kind, llvm::StringRef wanted) {
  if (kind == InputKind::Empty)
    return llvm::make_error<InputError>(path, 0, 0, fmt::format("empty file; {}", wanted));
  return llvm::make_error<InputError>(
      path, 0, 0, fmt::format("looks like {}; {}", describeInputKind(kind), wanted));
}

} // namespace tilexform
