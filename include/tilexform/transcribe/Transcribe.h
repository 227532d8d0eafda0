// Transcription: a Gluon kernel module written from a plain Triton dump, op
// by op, every layout plain's compiler chose applied where plain's op
// carries it, so that the anchor verifies by construction.
#pragma once

#include "tilexform/analysis/Recover.h"
#include "tilexform/gluon/Gluon.h"
#include "tilexform/ir/Module.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace tilexform {
class SourceFiles;
}

namespace tilexform::transcribe {

/// How the anchor is written. Both carry plain's layouts and ops in plain's
/// order; they differ only in spelling.
enum class Style {
  /// One statement per op, named after plain's SSA values, each commented
  /// with its dump line.
  Faithful,
  /// Statements grouped by the source line they came from (`# kernels.py:19`,
  /// the line quoted when the source is found); a pure op used once by the
  /// next op is written inside that op's expression, scalars and `x[:, None]`
  /// broadcast as Gluon broadcasts them, constants inline, values named as
  /// the source named them. Nothing is folded that would change an op, its
  /// layout or the order of the ops the anchor's compiler sees.
  Readable,
};

struct TranscribeOptions {
  gluon::GluonApi api = gluon::GluonApi::V3_6;
  std::string kernelName; // empty: the dump's function name
  bool allowGaps = false; // write a compile-time placeholder for what has no spelling
  std::string sourceName; // how the header names the dump (no directories)
  Style style = Style::Faithful;
  /// Readable: the source files the dump's locations name, read only
  /// through this (support/SourceFiles.h: regular .py files inside the
  /// directories the command allows); null: none is read.
  SourceFiles *sources = nullptr;
};

/// Something with no Gluon spelling on the chosen API.
struct Gap {
  std::string what; // the op ("amdg.in_thread_transpose") or layout ("amd_rotating_shared")
  std::string kind; // "op" or "layout" ("damaged" inside the core: an input error)
  unsigned line = 0;
  std::string reason;
};

/// An op of plain's the anchor leaves out because it only steers the
/// backend's schedule and Gluon has no way to state it (AMD's priority and
/// scheduling-barrier hints, which plain's ping-pong pass inserts): the
/// anchor computes the same values; its machine code may be scheduled
/// differently, which `audit --diff` shows.
struct NotCarried {
  std::string what;
  unsigned line = 0;  // the first
  unsigned count = 0; // how many in the dump
  std::string reason;
};

/// Readable: a `@gluon.jit` helper written for calls of an inlined `@jit`
/// helper of the source.
struct HelperFunction {
  std::string name;   // the anchor's
  std::string source; // the source's function
  size_t calls = 0;
};

struct TranscribeReport {
  std::string kernel;     // the dump's function
  std::string anchorName; // the Gluon kernel's name
  std::string form;       // "pipelined" or "not pipelined", as plain's hot loop shows
  std::string python;     // the module (empty when blocked and gaps are not allowed)
  std::vector<Gap> blockedBy;
  std::vector<NotCarried> notCarried;
  std::vector<HelperFunction> helpers;
  size_t opsTotal = 0, opsTranscribed = 0;
  std::vector<std::string> imports; // Gluon modules the kernel needs
};

/// Why `name` cannot name the anchor's kernel (not a Python identifier, a
/// keyword, or a name the module binds itself: `launch`, `gl`, `NUM_WARPS`),
/// or empty when it can.
std::string kernelNameProblem(const std::string &name);

/// Whether `err` (from transcribe) says --kernel-name takes a name the
/// module binds for this dump (a layout constant): a usage error.
bool isKernelNameError(const llvm::Error &err);

/// Transcribes the one public function of `module`. Fails (an input error)
/// only for a dump with no function or several; what has no spelling is in
/// blockedBy.
llvm::Expected<TranscribeReport> transcribe(const ir::Module &module,
                                            const analysis::RecoverReport &recovered,
                                            const TranscribeOptions &options);

} // namespace tilexform::transcribe
