"""Stand-in `triton.experimental.gluon.language.amd.rdna3`."""
from triton._standin import module_getattr

__getattr__ = module_getattr(__name__)
