import tvm
target = "cuda -arch=sm_80"
print(len(target) > 5, tvm.target.Target(target).kind.name)
