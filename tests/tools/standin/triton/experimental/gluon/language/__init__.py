"""Stand-in `triton.experimental.gluon.language` (imported as gl): constexpr
keeps its value; layouts, dtypes and functions are recorders."""
from triton._standin import constexpr, module_getattr

__getattr__ = module_getattr(__name__)
