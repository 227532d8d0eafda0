import os

os.environ["TRITON_GLUON_SWP_PIPELINE"] = "1"
os.environ.setdefault("TRITON_ENABLE_LLIR_SCHED", "1")
if os.getenv("TRITON_GLUON_PINGPONG"):
    pass
