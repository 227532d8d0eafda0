"""Stand-in `triton.language` (imported as tl)."""
from triton._standin import constexpr, module_getattr

__getattr__ = module_getattr(__name__)
