// Triton's verifier rules, one per layout kind, for every reader: the
// `#ttg.xxx<...>` attribute parser and the `gl.XxxLayout(...)` constructor
// parser build an Encoding and ask here whether Triton would accept it, so
// one layout gets one verdict and one message whichever way it is spelled.
#pragma once

#include "tilexform/layout/Encoding.h"

#include <string>
#include <vector>

namespace tilexform::layout {

/// What makes a layout invalid (Triton's verifier rules that the model and
/// the algebra rely on: power-of-two counts, `order` a permutation,
/// consistent ranks, the MMA shapes and versions the hardware has), or empty
/// when it is valid. Parents of slice and dot_op are checked too. The
/// messages name fields as Triton's attributes do (`warpsPerCTA`).
std::string validateEncoding(const Encoding &enc);

/// Before a linear-kind layout (linear, shared_linear, padded_shared) is
/// built from its bases: every basis must have one entry per tensor dim.
/// Sets `rank` to that length (0 when every basis is empty or there is none)
/// and returns the error, or empty.
std::string validateBasesRank(const std::vector<const Bases *> &all, unsigned &rank);

} // namespace tilexform::layout
