import tvm
t = tvm.target.Target("cuda -arch=sm_72", host="llvm -mtriple=aarch64-linux-gnu")
print(t.kind.name, t.host.kind.name, t.host.attrs["mtriple"])
