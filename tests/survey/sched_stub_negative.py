from triton.language.extra.hip import sched_group_barrier

try:
    from triton.language.extra.hip import sched_barrier
except ImportError as e:
    raise RuntimeError("this Triton has no sched_barrier") from e
