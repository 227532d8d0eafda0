"""Stand-in `triton.language.extra.libdevice`: any function is a recorder."""
from triton._standin import module_getattr

__getattr__ = module_getattr(__name__)
