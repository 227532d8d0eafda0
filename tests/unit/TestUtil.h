#pragma once

#include "tilexform/ir/Module.h"

#include <gtest/gtest.h>

#include <string>

namespace tilexform::test {

/// Source-tree paths, set by CMake.
inline std::string sourceDir() { return TILEXFORM_SOURCE_DIR; }
inline std::string corpusDir() { return sourceDir() + "/tests/corpus"; }

/// Parses a layout attribute; fails the test on error.
inline layout::EncodingPtr parseLayout(mlir::MLIRContext *ctx, const std::string &text) {
  auto a = ir::parseAttributeText(ctx, text);
  if (!a) {
    ADD_FAILURE() << "cannot parse " << text << ": " << llvm::toString(a.takeError());
    return nullptr;
  }
  auto l = mlir::dyn_cast<ir::LayoutEncodingAttr>(*a);
  if (!l) {
    ADD_FAILURE() << "not a layout: " << text;
    return nullptr;
  }
  return l.getEncoding();
}

} // namespace tilexform::test
