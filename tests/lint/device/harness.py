"""Runs one of the lint device kernels and reports what it did.

Each kernel module (proxy_fence.py, mbarrier_phase.py, nan_rows.py) holds a
few small Gluon kernels, each a Case: the variant that trips a lint rule, or
its fixed version. `python3 MODULE.py CASE TTGIR_DIR` compiles and launches
that case, writes the compiled kernel's TTGIR to TTGIR_DIR/<rule>_<case>.ttgir
before waiting for it (so a kernel that hangs still leaves its dump), waits
with a deadline, compares with a torch reference and prints one JSON line:

  rule, case, variant (trip | fixed), lint_expected (flagged | clean),
  outcome: correct | wrong values | NaN | hang-timeout | compile error |
           launch error | device fault (the kernel faulted: an illegal address or a launch failure),
  launches / bad_launches, max_error, nan_count, ptx_fence_proxy_async (how
  many fence.proxy.async the compiler's PTX holds), seconds, detail.

A race need not show: a case that reads shared memory before it is ready is
launched several times and every launch is compared. `MODULE.py --list`
prints the cases. The JSON line is the result; the exit status is 0 whenever
one was printed, 64 for a bad command line.
"""

import json
import math
import os
import sys
import time
import traceback

# How long one launch may take before it counts as hung (seconds). The
# kernels take microseconds; the first launch also pays module loading.
FIRST_LAUNCH_DEADLINE = 20.0
LAUNCH_DEADLINE = 5.0


class Case:
    """One kernel of a pair.

    setup() -> state (inputs on the device, the reference)
    launch(state) -> the compiled kernel (the return value of kernel[grid](...))
    reset(state) -> refill the outputs before a launch
    check(state) -> dict(max_error=float, nan_count=int, bad=bool, **extra)
    """

    def __init__(self, rule, variant, what, setup, launch, check, reset=None, launches=1):
        assert variant in ("trip", "fixed")
        self.rule = rule
        self.variant = variant
        self.what = what
        self.setup = setup
        self.launch = launch
        self.check = check
        self.reset = reset
        self.launches = launches


def emit(record):
    print(json.dumps(record), flush=True)


def compare(out, ref, tol):
    """max |out - ref| over the finite outputs, NaNs counted apart."""
    import torch

    out = out.float()
    ref = ref.float()
    nan = int(torch.isnan(out).sum().item())
    finite = torch.isfinite(out)
    diff = (out - ref).abs()
    diff = torch.where(finite, diff, torch.zeros_like(diff))
    max_error = float(diff.max().item()) if diff.numel() else 0.0
    inf = int((~finite & ~torch.isnan(out)).sum().item())
    return {
        "max_error": max_error,
        "nan_count": nan,
        "inf_count": inf,
        "bad": nan > 0 or inf > 0 or max_error > tol,
    }


def _wait(torch, deadline):
    """True when the work queued so far finished before the deadline."""
    done = torch.cuda.Event()
    done.record()
    end = time.monotonic() + deadline
    while not done.query():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def _last_line(exc):
    """The exception's first and last lines: a compiler error names the failing
    pass or construct first and the reason last."""
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        return type(exc).__name__
    said = lines[0] if len(lines) == 1 else lines[0] + " ... " + lines[-1]
    return said[:400]


def run(case_name, case, ttgir_dir):
    started = time.monotonic()
    record = {
        "rule": case.rule,
        "case": case_name,
        "variant": case.variant,
        "lint_expected": "flagged" if case.variant == "trip" else "clean",
        "what": case.what,
        "outcome": None,
        "launches": 0,
        "bad_launches": 0,
        "max_error": None,
        "nan_count": None,
        "ptx_fence_proxy_async": None,
        "ttgir": None,
        "seconds": None,
        "detail": None,
    }

    def finish(outcome, detail=None):
        record["outcome"] = outcome
        record["detail"] = detail
        record["seconds"] = round(time.monotonic() - started, 2)
        emit(record)

    try:
        import torch
        import triton  # noqa: F401

        record["triton"] = triton.__version__
        record["device"] = torch.cuda.get_device_name()
        state = case.setup()
        if case.reset:
            case.reset(state)
        compiled = case.launch(state)
    except Exception as exc:  # the kernel did not build or could not be queued
        finish("compile error", _last_line(exc))
        return

    # The dump first: a hung kernel must still leave its TTGIR behind.
    ttgir_name = "{}_{}.ttgir".format(case.rule.replace("-", "_"), case_name.replace("-", "_"))
    try:
        asm = compiled.asm
        os.makedirs(ttgir_dir, exist_ok=True)
        with open(os.path.join(ttgir_dir, ttgir_name), "w") as f:
            f.write(asm["ttgir"])
        record["ttgir"] = ttgir_name
        ptx = asm.get("ptx") or ""
        record["ptx_fence_proxy_async"] = ptx.count("fence.proxy.async")
    except Exception as exc:
        record["detail"] = "no TTGIR: " + _last_line(exc)

    worst = {"max_error": 0.0, "nan_count": 0}
    extras = {}
    for i in range(case.launches):
        if i > 0:
            if case.reset:
                case.reset(state)
            try:
                case.launch(state)
            except Exception as exc:
                finish("launch error", "launch {}: {}".format(i, _last_line(exc)))
                return
        try:
            finished = _wait(torch, FIRST_LAUNCH_DEADLINE if i == 0 else LAUNCH_DEADLINE)
        except Exception as exc:  # the kernel faulted: the context is lost
            record["launches"] = i + 1
            finish("device fault", "launch {}: {}".format(i, _last_line(exc)))
            os._exit(0)
        if not finished:
            record["launches"] = i + 1
            finish(
                "hang-timeout",
                "launch {} did not finish within {:g} s".format(
                    i, FIRST_LAUNCH_DEADLINE if i == 0 else LAUNCH_DEADLINE),
            )
            # The kernel still runs: leave without the interpreter's teardown,
            # which would wait for it; the driver ends it with the context.
            os._exit(0)
        try:
            torch.cuda.synchronize()
            result = case.check(state)
        except Exception as exc:  # a fault in the kernel surfaces here
            record["launches"] = i + 1
            finish("device fault", "launch {}: {}".format(i, _last_line(exc)))
            os._exit(0)
        record["launches"] = i + 1
        if result.pop("bad"):
            record["bad_launches"] += 1
        worst["max_error"] = max(worst["max_error"], result.pop("max_error"))
        worst["nan_count"] = max(worst["nan_count"], result.pop("nan_count"))
        for k, v in result.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                extras[k] = max(extras.get(k, v), v)
            else:
                extras.setdefault(k, v)
    record["max_error"] = worst["max_error"] if math.isfinite(worst["max_error"]) else str(
        worst["max_error"])
    record["nan_count"] = worst["nan_count"]
    record.update(extras)
    if record["bad_launches"] == 0:
        finish("correct")
    elif worst["nan_count"] > 0:
        finish("NaN")
    else:
        finish("wrong values")


def main(cases, argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--list"]:
        print("\n".join(cases))
        return 0
    if len(argv) != 2 or argv[0] not in cases:
        print("usage: {} CASE TTGIR_DIR | --list (cases: {})".format(
            os.path.basename(sys.argv[0]), ", ".join(cases)),
              file=sys.stderr)
        return 64
    run(argv[0], cases[argv[0]], argv[1])
    return 0
