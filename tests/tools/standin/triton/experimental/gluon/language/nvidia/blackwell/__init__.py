"""Stand-in `triton.experimental.gluon.language.nvidia.blackwell`: its functions
and namespaces are recorders."""
from triton._standin import module_getattr

__getattr__ = module_getattr(__name__)
