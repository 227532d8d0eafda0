"""The stand-in's one piece: objects that record what an emitted module asks
of Triton at import time and do nothing else.

An anchor module written by `tilexform transcribe` or `recover --out` only
imports Triton, builds layout constants and decorates functions when it is
imported; the kernel's body runs when Triton compiles it, never at import.
These stand-ins let a test import such a module without Triton and see that
nothing else happened: `jit` and `builtin` keep the function without calling
it, every other name is a `Recorder` that accepts any attribute, call or
subscript and returns another one.
"""

# What the decorators saw, in order: ("jit" | "builtin", function name, options).
# The safety checker reads it after the import.
DECORATED = []


class Recorder:
    """Any attribute of a stand-in module: `gl.BlockedLayout(...)`,
    `gl.float16`, `tma.async_copy_global_to_shared`."""

    __slots__ = ("_path",)

    def __init__(self, path):
        object.__setattr__(self, "_path", path)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Recorder(f"{self._path}.{name}")

    def __setattr__(self, name, value):
        raise AttributeError(f"stand-in {self._path} is read-only")

    def __call__(self, *args, **kwargs):
        return Recorder(f"{self._path}(...)")

    def __getitem__(self, key):
        return Recorder(f"{self._path}[...]")

    def __repr__(self):
        return f"<stand-in {self._path}>"


class constexpr:
    """`gl.constexpr(value)`: keeps the value; as an annotation, the class."""

    def __init__(self, value=None):
        self.value = value

    def __repr__(self):
        return f"constexpr({self.value!r})"


class JITFunction:
    """What `@gluon.jit` makes of a function: the function, kept, not run."""

    def __init__(self, fn, options):
        if not callable(fn):
            raise TypeError(f"gluon.jit applied to {fn!r}, not a function")
        self.fn = fn
        self.options = dict(options)
        self.__name__ = fn.__name__
        DECORATED.append(("jit", fn.__name__, self.options))

    def __getitem__(self, grid):
        raise RuntimeError("the stand-in Triton cannot launch a kernel")

    def __call__(self, *args, **kwargs):
        raise RuntimeError("the stand-in Triton cannot run a kernel")


def jit(fn=None, **options):
    """Both `@gluon.jit` and `@gluon.jit(do_not_specialize=[...], ...)`."""
    if fn is None:
        return lambda f: JITFunction(f, options)
    if options:
        raise TypeError("gluon.jit takes a function or keyword options, not both")
    return JITFunction(fn, {})


class Builtin:
    """What `@builtin` makes of a function: kept, not run."""

    def __init__(self, fn):
        if not callable(fn):
            raise TypeError(f"builtin applied to {fn!r}, not a function")
        self.fn = fn
        self.__name__ = fn.__name__
        DECORATED.append(("builtin", fn.__name__, {}))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("the stand-in Triton cannot run a builtin")


def builtin(fn):
    return Builtin(fn)


def module_getattr(module_name):
    """A module-level `__getattr__` handing out recorders for every public
    name (`from X import anything` works); dunders stay missing, as the
    import machinery expects."""

    def __getattr__(name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return Recorder(f"{module_name}.{name}")

    return __getattr__
