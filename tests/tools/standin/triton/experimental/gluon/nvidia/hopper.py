"""Stand-in `triton.experimental.gluon.nvidia.hopper` (its TensorDescriptor)."""
from triton._standin import Recorder, module_getattr

TensorDescriptor = Recorder(__name__ + ".TensorDescriptor")
__getattr__ = module_getattr(__name__)
