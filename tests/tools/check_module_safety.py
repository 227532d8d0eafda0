#!/usr/bin/env python3
"""check_module_safety.py MODULE.py [--expect-kernel NAME] [--expect-string TEXT]...

Checks that a Python module written by `tilexform transcribe` or
`tilexform recover --out` is safe to import and holds only what tilexform
writes. A dump is input from anywhere; whatever it holds must reach the
module as an identifier, a comment's text or a string literal's value, never
as code.

1. Bytes: UTF-8, no NUL, no character Python or `str.splitlines` takes for a
   line break other than `\\n` (CR, VT, FF, FS, GS, RS, NEL, U+2028, U+2029),
   no other control character and no bidirectional override (text that
   reads differently from how it runs), and no source-encoding declaration
   other than UTF-8 in the first two lines.
2. Structure (`ast`): the top level is only `from triton... import ...` /
   `import triton... as ...`, `NAME = gl.constexpr(<literal>)`,
   `NUM_WARPS = <int>`, functions decorated with exactly `@gluon.jit`,
   `@gluon.jit(<literal options>)` or `@builtin`, and an undecorated
   `def launch`; every module-level name is bound once; no function binds a
   module-level name locally, nor calls a name it binds; no module-level
   name is a dunder and no dunder attribute is read; the module compiles
   (a number as a receiver, `1024.to(...)`, or a name Python cannot bind,
   `__debug__`, does not).
3. Import: the module runs with the stand-in Triton (`standin/` beside this
   file) first on `sys.path`, under an audit hook that fails on anything
   but the module's own code being executed and `triton` imports (no
   `open`, `exec`, `compile`, `os.system`, `subprocess`, `socket`, `ctypes`
   ...), and under a profiler that fails if any function of the module
   runs. Afterwards its namespace must hold exactly the names the allowed
   statements bind, each of the kind its statement makes.

--expect-kernel NAME: the module must define the kernel NAME (a `gluon.jit`
function that `launch` launches). --expect-string TEXT (Python backslash
escapes decoded): some string literal of the module must have exactly that
value (a dump's string, decoded from MLIR's escapes, written as Python's).

Prints one line, `OK MODULE` or `UNSAFE MODULE: reason`, and exits 0 or 1
(2 on a usage error). Standard library only.
"""
import argparse
import ast
import builtins
import codecs
import pathlib
import re
import sys
import types
import unicodedata
import warnings

STANDIN = pathlib.Path(__file__).resolve().parent / "standin"

# The modules tilexform imports from, with the names it may import from each
# (None: any public name), and `import X as Y` spellings.
ALLOWED_FROM = {
    "triton.experimental": {"gluon"},
    "triton.experimental.gluon": {"language"},
    "triton.language.core": {"builtin"},
    "triton.language.extra": {"libdevice"},
    "triton.experimental.gluon.language.nvidia.hopper": None,
    "triton.experimental.gluon.language.nvidia.ampere": None,
    "triton.experimental.gluon.language.nvidia.blackwell": None,
    "triton.experimental.gluon.language.amd": {"cdna3", "cdna4", "rdna3", "rdna4"},
    "triton.experimental.gluon.language.amd.cdna3": None,
    "triton.experimental.gluon.language.amd.cdna4": None,
    "triton.experimental.gluon.language.amd.rdna3": None,
    "triton.experimental.gluon.language.amd.rdna4": None,
    "triton.experimental.gluon.nvidia.hopper": {"TensorDescriptor"},
}
ALLOWED_IMPORT = {"triton.language": "tl", "triton.experimental.gluon.language": "gl"}

# Line breaks for Python's tokenizer or for str.splitlines, besides "\n".
LINE_BREAKS = {
    "\r": "a carriage return",
    "\v": "a vertical tab",
    "\f": "a form feed",
    "\x1c": "a file separator (a line break for str.splitlines)",
    "\x1d": "a group separator (a line break for str.splitlines)",
    "\x1e": "a record separator (a line break for str.splitlines)",
    "\x85": "a next-line character (NEL)",
    "\u2028": "a line separator (U+2028)",
    "\u2029": "a paragraph separator (U+2029)",
}
# Bidirectional overrides and isolates: the text reads in another order
# than it runs ("Trojan Source").
BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")

# Audit events allowed while the module's own code runs, besides the exec
# of that code and imports of triton modules.
ALLOWED_EVENTS = {"sys.setprofile"}


class Unsafe(Exception):
    pass


def shown(text, limit=80):
    """Text from the module, made one printable line."""
    text = ascii(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------
# 1. Bytes


def check_bytes(data):
    """The module's text, or raises Unsafe."""
    for n, line in enumerate(data.split(b"\n")[:2], 1):
        m = CODING.match(line)
        if not m:
            continue
        name = m.group(1).decode("ascii", "replace")
        try:
            utf8 = codecs.lookup(name).name == "utf-8"
        except LookupError:
            raise Unsafe(f"line {n} declares the unknown source encoding {shown(name)}")
        if not utf8:
            raise Unsafe(f"line {n} declares the source encoding {shown(name)}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise Unsafe(f"line {line}: not UTF-8 ({e.reason})")
    for n, line in enumerate(text.split("\n"), 1):
        for c in line:
            if c == "\0":
                raise Unsafe(f"line {n}: a NUL character")
            if c in LINE_BREAKS:
                raise Unsafe(f"line {n}: {LINE_BREAKS[c]} (U+{ord(c):04X}) inside a line")
            if c in BIDI:
                raise Unsafe(f"line {n}: a bidirectional control character (U+{ord(c):04X})")
            if c != "\t" and unicodedata.category(c) == "Cc":
                raise Unsafe(f"line {n}: a control character (U+{ord(c):04X})")
    return text


# ---------------------------------------------------------------------------
# 2. Structure


def dotted(node):
    """`a.b.c` for an attribute chain rooted at a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def is_dunder(name):
    return name.startswith("__") and name.endswith("__") and len(name) > 4


class ModuleShape:
    """What the statements of a module bind: name -> kind."""

    def __init__(self):
        self.bound = {}
        self.functions = []  # (name, kind, node) in order; kind jit | builtin | launch
        self.strings = []


def check_literal(node, constants, where):
    """A constant expression as a layout or shape is written: numbers,
    strings, booleans, lists, `gl.X` / `gl.X(...)` and earlier constants."""
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, (int, float, str, bool, type(None))):
            raise Unsafe(f"{where}: a {type(node.value).__name__} literal")
        return
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return check_literal(node.operand, constants, where)
    if isinstance(node, (ast.List, ast.Tuple)):
        for e in node.elts:
            check_literal(e, constants, where)
        return
    if isinstance(node, ast.Name):
        if node.id not in constants:
            raise Unsafe(f"{where}: {shown(node.id)} is no constant defined before it")
        return
    if isinstance(node, ast.Attribute):
        d = dotted(node)
        if d is None or not d.startswith("gl."):
            raise Unsafe(f"{where}: an attribute outside gl")
        return
    if isinstance(node, ast.Call):
        d = dotted(node.func)
        if d is None or not d.startswith("gl.") or d == "gl.constexpr":
            raise Unsafe(f"{where}: a call of {shown(ast.unparse(node.func))} in a constant")
        for a in node.args:
            check_literal(a, constants, where)
        for k in node.keywords:
            if k.arg is None:
                raise Unsafe(f"{where}: ** in a constant")
            check_literal(k.value, constants, where)
        return
    raise Unsafe(f"{where}: {type(node).__name__} in a constant")


def check_decorators(fn):
    where = f"line {fn.lineno}: def {fn.name}"
    if fn.name == "launch":
        if fn.decorator_list:
            raise Unsafe(f"{where} is decorated")
        return "launch"
    if len(fn.decorator_list) != 1:
        raise Unsafe(f"{where} has {len(fn.decorator_list)} decorators, not one")
    d = fn.decorator_list[0]
    if isinstance(d, ast.Name) and d.id == "builtin":
        return "builtin"
    if dotted(d) == "gluon.jit":
        return "jit"
    if isinstance(d, ast.Call) and dotted(d.func) == "gluon.jit" and not d.args:
        for k in d.keywords:
            if k.arg is None:
                raise Unsafe(f"{where}: ** in gluon.jit's options")
            check_literal(k.value, set(), f"{where}: gluon.jit option {k.arg}")
        return "jit"
    raise Unsafe(f"{where}: decorator {shown(ast.unparse(d))} is not gluon.jit or builtin")


def check_signature(fn):
    where = f"line {fn.lineno}: def {fn.name}"
    a = fn.args
    for d in a.defaults + [d for d in a.kw_defaults if d is not None]:
        check_literal(d, set(), f"{where}: a default")
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
        if arg.annotation is not None and dotted(arg.annotation) != "gl.constexpr":
            raise Unsafe(f"{where}: annotation {shown(ast.unparse(arg.annotation))}")
    if fn.returns is not None:
        raise Unsafe(f"{where}: a return annotation")


def bind(shape, name, kind, line):
    if not name.isascii():
        raise Unsafe(f"line {line}: {shown(name)} is no ASCII identifier")
    if is_dunder(name):
        raise Unsafe(f"line {line}: binds the dunder {shown(name)}")
    if name in shape.bound:
        raise Unsafe(f"line {line}: rebinds {shown(name)} (already a {shape.bound[name]})")
    shape.bound[name] = kind


def local_bindings(fn):
    """Names a function binds in its own scope (not nested functions')."""
    names = {}
    a = fn.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
        names.setdefault(arg.arg, arg.lineno)

    def walk(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.setdefault(child.name, child.lineno)
                continue  # its own scope
            if isinstance(child, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                continue
            if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                names.setdefault(child.id, child.lineno)
            elif isinstance(child, ast.alias):
                names.setdefault((child.asname or child.name).split(".")[0], node.lineno)
            elif isinstance(child, ast.ExceptHandler) and child.name:
                names.setdefault(child.name, child.lineno)
            walk(child)

    for stmt in fn.body:
        walk(ast.Module(body=[stmt], type_ignores=[]))
    return names


def called_names(fn):
    return {n.func.id for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def loaded_names(fn):
    return {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


FORBIDDEN_IN_BODIES = (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ClassDef,
                       ast.AsyncFunctionDef, ast.Await, ast.Yield, ast.YieldFrom, ast.Delete)
FORBIDDEN_CALLS = {"eval", "exec", "compile", "open", "__import__", "getattr", "setattr",
                   "delattr", "globals", "locals", "vars", "breakpoint", "input", "memoryview"}


def check_structure(text, filename):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # `0.index` warns before it fails
            tree = ast.parse(text, filename)
    except SyntaxError as e:
        raise Unsafe(f"line {e.lineno}: does not parse: {e.msg}")
    except ValueError as e:
        raise Unsafe(f"does not parse: {e}")
    shape = ModuleShape()
    constants = set()
    for stmt in tree.body:
        line = stmt.lineno
        if isinstance(stmt, ast.ImportFrom):
            if stmt.level != 0 or stmt.module not in ALLOWED_FROM:
                raise Unsafe(f"line {line}: imports from {shown('.' * stmt.level + (stmt.module or ''))}")
            allowed = ALLOWED_FROM[stmt.module]
            for a in stmt.names:
                if a.name == "*" or (allowed is not None and a.name not in allowed) or a.name.startswith("_"):
                    raise Unsafe(f"line {line}: imports {shown(a.name)} from {stmt.module}")
                if a.asname is not None and not (stmt.module == "triton.experimental.gluon" and a.asname == "gl"):
                    raise Unsafe(f"line {line}: imports {a.name} as {shown(a.asname)}")
                bind(shape, a.asname or a.name, "import", line)
        elif isinstance(stmt, ast.Import):
            for a in stmt.names:
                if a.name not in ALLOWED_IMPORT or ALLOWED_IMPORT[a.name] != a.asname:
                    raise Unsafe(f"line {line}: import {shown(a.name)}")
                bind(shape, a.asname, "import", line)
        elif isinstance(stmt, ast.Assign):
            if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                raise Unsafe(f"line {line}: an assignment to {shown(ast.unparse(stmt.targets[0]))}")
            name = stmt.targets[0].id
            v = stmt.value
            if name == "NUM_WARPS":
                if not (isinstance(v, ast.Constant) and type(v.value) is int):
                    raise Unsafe(f"line {line}: NUM_WARPS = {shown(ast.unparse(v))}")
                bind(shape, name, "int", line)
                continue
            if not (isinstance(v, ast.Call) and dotted(v.func) == "gl.constexpr" and len(v.args) == 1
                    and not v.keywords):
                raise Unsafe(f"line {line}: {shown(name)} = {shown(ast.unparse(v))} is no gl.constexpr")
            check_literal(v.args[0], constants, f"line {line}: {name}")
            bind(shape, name, "constant", line)
            constants.add(name)
        elif isinstance(stmt, ast.FunctionDef):
            kind = check_decorators(stmt)
            check_signature(stmt)
            bind(shape, stmt.name, kind, line)
            shape.functions.append((stmt.name, kind, stmt))
        else:
            raise Unsafe(f"line {line}: a {type(stmt).__name__} statement at module level")
    if "launch" in shape.bound and shape.bound["launch"] != "launch":
        raise Unsafe("launch is not the launch function")

    builtin_names = set(dir(builtins))
    everywhere_called = set()
    for name, kind, fn in shape.functions:
        called = called_names(fn)
        everywhere_called |= called
        nested = {n.name for n in ast.walk(fn) if isinstance(n, ast.FunctionDef) and n is not fn}
        locals_bound = local_bindings(fn)
        for local, line in locals_bound.items():
            if not local.isascii():
                raise Unsafe(f"line {line}: {shown(local)} is no ASCII identifier")
            if local in shape.bound:
                raise Unsafe(f"line {line}: {fn.name} binds {shown(local)}, the module's "
                             f"{shape.bound[local]} of that name, locally")
            # tilexform calls builtins (float, range) and module functions by
            # name, never a local value: a call of a name bound locally means
            # a value took the name of what it was meant to call.
            if local in called and local not in nested:
                raise Unsafe(f"line {line}: {fn.name} calls {shown(local)}, a name it binds locally")
        for node in ast.walk(fn):
            if node is not fn and isinstance(node, FORBIDDEN_IN_BODIES):
                raise Unsafe(f"line {node.lineno}: a {type(node).__name__} in {fn.name}")
            if isinstance(node, ast.Name) and node.id in FORBIDDEN_CALLS and node.id not in locals_bound:
                raise Unsafe(f"line {node.lineno}: {fn.name} uses {node.id}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("__"):
            raise Unsafe(f"line {node.lineno}: reads the attribute {shown(node.attr)}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            shape.strings.append(node.value)
    for name in shape.bound:
        if name in builtin_names and name in everywhere_called:
            raise Unsafe(f"the module binds {shown(name)}, a builtin its functions call")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(tree, filename, "exec")
    except SyntaxError as e:
        raise Unsafe(f"line {e.lineno}: does not compile: {e.msg}")
    return tree, shape


def structural_problem(data, filename="<module>"):
    """For other tools: None when the bytes and the structure are safe, else
    the reason."""
    try:
        check_structure(check_bytes(data), filename)
    except Unsafe as e:
        return str(e)
    return None


# ---------------------------------------------------------------------------
# 3. Import


def check_import(text, path, shape, expect_kernel):
    sys.path.insert(0, str(STANDIN))
    sys.dont_write_bytecode = True
    import importlib

    # Every stand-in module first, so that the module's imports find them
    # loaded and the hook sees no file opened.
    for f in sorted(STANDIN.rglob("*.py")):
        parts = f.relative_to(STANDIN).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        importlib.import_module(".".join(parts))
    from triton import _standin

    filename = str(path)
    code = compile(text, filename, "exec")
    module = types.ModuleType("tilexform_emitted_module")
    module.__file__ = filename
    baseline = set(vars(module)) | {"__builtins__"}
    violations = []
    ran = []
    state = {"active": False, "profiling": False}

    def hook(event, args):
        if not state["active"] or state["profiling"]:
            return
        if event == "exec" and args and args[0] is code:
            return
        if event == "import" and args and isinstance(args[0], str) and \
                (args[0] == "triton" or args[0].startswith("triton.")):
            return
        if event in ALLOWED_EVENTS:
            return
        violations.append(f"{event} {shown(args, 120)}")
        raise RuntimeError(f"check_module_safety: audit event {event} refused")

    def profile(frame, event, arg):
        if event != "call":
            return
        # Reading a frame's code is itself an audit event: the profiler's own.
        state["profiling"] = True
        f_code = frame.f_code
        state["profiling"] = False
        if f_code.co_filename == filename and f_code.co_name != "<module>":
            ran.append(f_code.co_name)

    sys.addaudithook(hook)
    error = None
    sys.setprofile(profile)
    state["active"] = True
    try:
        exec(code, module.__dict__)
    except BaseException as e:  # noqa: B902 -- anything the module raises is a finding
        error = e
    finally:
        sys.setprofile(None)
        state["active"] = False
    if violations:
        raise Unsafe(f"at import: {violations[0]}")
    if ran:
        raise Unsafe(f"at import: function {shown(ran[0])} ran")
    if error is not None:
        raise Unsafe(f"import raised {type(error).__name__}: {shown(str(error), 160)}")

    names = set(vars(module)) - baseline
    extra = names - set(shape.bound)
    missing = set(shape.bound) - names
    if extra:
        raise Unsafe(f"after import the module binds {shown(sorted(extra)[0])}, which no statement binds")
    if missing:
        raise Unsafe(f"after import {shown(sorted(missing)[0])} is missing")
    ns = vars(module)
    for name, kind in shape.bound.items():
        v = ns[name]
        ok = {
            "import": isinstance(v, (types.ModuleType, _standin.Recorder, type)) or callable(v),
            "int": type(v) is int,
            "constant": isinstance(v, _standin.constexpr),
            "jit": isinstance(v, _standin.JITFunction) and v.fn.__code__.co_filename == filename
            and v.fn.__name__ == name,
            "builtin": isinstance(v, _standin.Builtin) and v.fn.__code__.co_filename == filename
            and v.fn.__name__ == name,
            "launch": isinstance(v, types.FunctionType) and v.__code__.co_filename == filename,
        }[kind]
        if not ok:
            raise Unsafe(f"after import {shown(name)} is {shown(type(v).__name__)}, not the {kind} its statement makes")
    decorated = [(k, n) for k, n, _ in _standin.DECORATED]
    expected = [(kind, name) for name, kind, _ in shape.functions if kind != "launch"]
    if decorated != expected:
        raise Unsafe(f"the decorators ran for {shown(decorated)}, not for {shown(expected)}")

    if expect_kernel is not None:
        if shape.bound.get(expect_kernel) != "jit":
            raise Unsafe(f"no gluon.jit kernel named {shown(expect_kernel)}")
        launch = [fn for name, kind, fn in shape.functions if kind == "launch"]
        if not launch or expect_kernel not in loaded_names(launch[0]):
            raise Unsafe(f"launch does not launch {shown(expect_kernel)}")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("module")
    p.add_argument("--expect-kernel")
    p.add_argument("--expect-string", action="append", default=[])
    a = p.parse_args(argv)
    path = pathlib.Path(a.module)
    label = a.module if a.module.isprintable() and a.module.isascii() else ascii(a.module)
    try:
        data = path.read_bytes()
    except OSError as e:
        print(f"UNSAFE {label}: cannot read: {e.strerror}")
        return 1
    try:
        if not data.strip():
            raise Unsafe("empty")
        text = check_bytes(data)
        _, shape = check_structure(text, str(path.resolve()))
        for want in a.expect_string:
            value = codecs.decode(want, "unicode_escape")
            if value not in shape.strings:
                raise Unsafe(f"no string literal is {shown(value)}")
        check_import(text, path.resolve(), shape, a.expect_kernel)
    except Unsafe as e:
        print(f"UNSAFE {label}: {e}")
        return 1
    print(f"OK {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
