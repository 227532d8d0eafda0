"""Stand-in `triton.experimental.gluon`: `jit` keeps the function, as
`@gluon.jit` and as `@gluon.jit(...)`."""
from triton._standin import jit, module_getattr
from triton.experimental.gluon import language

__getattr__ = module_getattr(__name__)
