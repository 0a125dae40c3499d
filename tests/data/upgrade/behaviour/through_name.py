import tvm
TARGET = "llvm -mtriple=aarch64-linux-gnu -mattr=+neon"
t = tvm.target.Target(TARGET)
print(t.kind.name, t.attrs["mtriple"], list(t.attrs["mattr"]))
