import os

os.environ["TRITON_HIP_USE_BLOCK_PINGPONG"] = "1"
os.environ["TRITON_CACHE_DIR"] = "/tmp/cache"
note = "we do not use TRITON_GLUON_PINGPONG here"
