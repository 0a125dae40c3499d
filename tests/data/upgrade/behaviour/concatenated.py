import tvm
base = "llvm -mcpu=cortex-a72"
t = tvm.target.Target(base + " -mattr=+neon")
u = tvm.target.Target(base)
print(t.kind.name, list(t.attrs["mattr"]), u.attrs["mcpu"])
