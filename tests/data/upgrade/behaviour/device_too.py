import tvm
target = "cuda -arch=sm_80"
dev = tvm.device(target, 0)
t = tvm.target.Target(target)
print(dev is not None, t.kind.name)
