#include "AnchorBuiltins.h"

namespace tilexform::transcribe {

llvm::ArrayRef<AnchorBuiltin> anchorBuiltins() {
  static const AnchorBuiltin table[] = {
      {"_unsplat", R"(@builtin
def _unsplat(x, _semantic=None):
    """tt.unsplat: the scalar of a one-element tensor."""
    return _semantic.unsplat(x)
)"},
      {"_mfma", R"(@builtin
def _mfma(a, b, acc, input_precision, _semantic=None):
    """tt.dot on an AMD MFMA layout at plain's input precision (the MFMA builders take the
    default): the semantic call they make, with the precision stated."""
    precision = gl._unwrap_if_constexpr(input_precision)
    handle = _semantic.dot(a, b, acc, input_precision=precision, max_num_imprecise_acc=None,
                           out_dtype=acc.dtype).handle
    return gl.tensor(handle, acc.type)
)"},
      {"_dot_scaled", R"(@builtin
def _dot_scaled(a, a_scale, a_format, b, b_scale, b_format, acc, _semantic=None):
    """tt.dot_scaled with a scale left out (an fp8 dot Triton writes as a scaled dot): the
    semantic call cdna4.mfma_scaled makes, without the scale of ones it would add."""
    handle = _semantic.dot_scaled(a, a_scale, a_format, b, b_scale, b_format, acc, False, True, True,
                                  acc.dtype).handle
    return gl.tensor(handle, acc.type)
)"},
      {"_extern_elementwise", R"(@builtin
def _extern_elementwise(lib_name, lib_path, args, arg_type_symbol_dict, is_pure, _semantic=None):
    """tt.extern_elementwise as plain calls it (a libdevice or ocml symbol, Inductor's
    __nv_erff among them): Triton's own builtin, with plain's symbol, library and purity."""
    return tl.core.extern_elementwise(lib_name, lib_path, args, arg_type_symbol_dict, is_pure,
                                      _semantic=_semantic)
)"},
      {"_select", R"(@builtin
def _select(cond, x, y, _semantic=None):
    """arith.select on a scalar condition, as plain writes it: gl.where would splat the
    condition and select per element."""
    return gl.tensor(_semantic.builder.create_select(cond.handle, x.handle, y.handle), x.type)
)"},
  };
  return table;
}

} // namespace tilexform::transcribe
