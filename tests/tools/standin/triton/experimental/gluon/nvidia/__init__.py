"""Stand-in `triton.experimental.gluon.nvidia`."""
from triton._standin import module_getattr

__getattr__ = module_getattr(__name__)
