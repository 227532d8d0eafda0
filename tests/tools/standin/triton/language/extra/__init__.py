"""Stand-in `triton.language.extra` (its `libdevice`)."""
from triton._standin import module_getattr
from triton.language.extra import libdevice

__getattr__ = module_getattr(__name__)
