"""Stand-in `triton.language.core`: `builtin` keeps the function."""
from triton._standin import builtin, module_getattr

__getattr__ = module_getattr(__name__)
