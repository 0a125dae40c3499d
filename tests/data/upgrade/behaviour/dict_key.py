import tvm
SPEEDUP = {"cuda -arch=sm_80": 2.0}
target = "cuda -arch=sm_80"
print(SPEEDUP[target], tvm.target.Target(target).kind.name)
