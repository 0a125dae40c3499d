import tvm
target = "cuda -arch=sm_86 -max_num_threads=1024"
use_gpu = "cuda" in target
t = tvm.target.Target(target)
print(use_gpu, t.attrs["max_num_threads"])
