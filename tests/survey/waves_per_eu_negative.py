import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def g_decode(x, y, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(y + offs, gl.load(x + offs))


def _configs():
    # waves_per_eu=0 is the compiler's default: no occupancy limit.
    waves = 0
    return [triton.Config({"BLOCK": b, "waves_per_eu": waves}, num_warps=4) for b in [512, 1024]]


@triton.autotune(configs=_configs(), key=["n"])
@gluon.jit
def g_tuned(x, n, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(x + offs, gl.load(x + offs) + 1)


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4, waves_per_eu=0)], key=["n"])
@gluon.jit
def g_tuned_literal(x, n, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(x + offs, gl.load(x + offs) + 1)


def launch(x, y, layout, fast):
    g_decode[(1,)](x, y, 1024, layout, waves_per_eu=0)
    wpe = 0
    g_decode[(1,)](x, y, 1024, layout, waves_per_eu=wpe)
    g_decode[(1,)](x, y, 1024, layout, waves_per_eu=0 if fast else 0)
    impl = g_decode
    impl[(1,)](x, y, 1024, layout, waves_per_eu=0)


def _launch_config(n):
    if n > 4096:
        return {"block": 1024, "waves_per_eu": 0}
    return {"block": 512, "waves_per_eu": 0}


def launch_from_builder(x, y, layout, n):
    config = _launch_config(n)
    g_decode[(1,)](x, y, config["block"], layout, waves_per_eu=config["waves_per_eu"])


def _tuned_launch_config(table, n):
    return {"block": table[n]["block"], "waves_per_eu": table[n].get("waves_per_eu", 0)}


@triton.jit
def t_decode(x, y, BLOCK: triton.language.constexpr):
    offs = triton.language.arange(0, BLOCK)
    triton.language.store(y + offs, triton.language.load(x + offs))


def launch_chosen(x, y, layout, table, n, use_gluon, persistent):
    # The Gluon kernels are launched only where the Gluon builder, which
    # hard-codes 0, chose the config; the tuned table feeds the Triton kernel.
    if use_gluon:
        config = _launch_config(n)
        wpe = 0
    else:
        config = _tuned_launch_config(table, n)
        wpe = table[n]["waves_per_eu"]
    if use_gluon and persistent:
        g_decode[(1,)](x, y, config["block"], layout, waves_per_eu=config["waves_per_eu"])
    elif use_gluon:
        g_decode[(1,)](x, y, config["block"], layout, waves_per_eu=wpe)
    else:
        t_decode[(1,)](x, y, config["block"], waves_per_eu=config["waves_per_eu"])
