"""A stand-in for Triton, enough to import the modules tilexform writes
without Triton (see _standin.py). Not Triton: nothing here compiles or runs
a kernel."""
from triton._standin import module_getattr, jit

__getattr__ = module_getattr(__name__)
