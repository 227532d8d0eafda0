try:
    from triton.language.extra.hip import sched_barrier, set_prio
except ImportError:
    def sched_barrier(mask):
        pass

    set_prio = lambda p: None
