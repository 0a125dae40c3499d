import tvm
from consts import *
t = tvm.target.Target(GPU)
print(t.attrs["arch"], t.attrs["max_threads_per_block"])
