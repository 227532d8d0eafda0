import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def g_decode(x, y, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(y + offs, gl.load(x + offs))


@gluon.jit
def g_decode_wide(x, y, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(y + offs, gl.load(x + offs) * 2)


def decode(x, y, layout, wide):
    # The kernel is picked into a local, then launched.
    if wide:
        impl = g_decode_wide
    else:
        impl = g_decode
    impl[(1,)](x, y, 1024, layout, num_warps=4, waves_per_eu=2)


def _configs():
    return [triton.Config({"BLOCK": 1024, "waves_per_eu": w}, num_warps=4) for w in [0, 2]]


@triton.autotune(configs=_configs(), key=["n"])
@gluon.jit
def g_tuned(x, n, BLOCK: gl.constexpr, LAYOUT: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=LAYOUT)
    gl.store(x + offs, gl.load(x + offs) + 1)


def occupancy(x, y, layout, wpe):
    g_decode[(1,)](x, y, 1024, layout, waves_per_eu=wpe)


def _launch_config(table, n):
    tuned = table.get(n)
    if tuned is not None:
        return {"block": tuned["block"], "waves_per_eu": tuned.get("waves_per_eu", 0)}
    return {"block": 512, "waves_per_eu": 0}


def launch_from_table(x, y, layout, table, n):
    config = _launch_config(table, n)
    g_decode[(1,)](x, y, config["block"], layout, waves_per_eu=config["waves_per_eu"])


def _gluon_launch_config(n):
    return {"block": 1024 if n > 4096 else 512, "waves_per_eu": 0}


def _tuned_launch_config(table, n):
    return {"block": table[n]["block"], "waves_per_eu": table[n].get("waves_per_eu", 0)}


def launch_chosen(x, y, layout, table, n, use_gluon):
    # The tuned table's config reaches the Gluon launch in the else branch.
    if use_gluon:
        config = _gluon_launch_config(n)
    else:
        config = _tuned_launch_config(table, n)
    if not use_gluon:
        g_decode[(1,)](x, y, config["block"], layout, waves_per_eu=config["waves_per_eu"])
    elif n > 0:
        g_decode[(1,)](x, y, config["block"], layout, waves_per_eu=2)
