// Defaults for sanitizer builds of tilexform's executables.
//
// LLVM's headers poison the unused tail of allocator slabs when compiled with
// AddressSanitizer, but Debian's MLIR/LLVM libraries are not instrumented and
// never unpoison what they hand out; ASan then reports writes inside MLIR's
// own initialisation. Turning off user poisoning keeps every real ASan check
// (heap, stack, globals, use-after-free, leaks) and drops only those.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0:detect_leaks=1"; }
#endif
