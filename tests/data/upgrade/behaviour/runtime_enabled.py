import tvm
target = "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake"
if tvm.runtime.enabled(target):
    print(tvm.target.Target(target).attrs["mcpu"])
print(tvm.runtime.enabled("llvm -mcpu=skylake"))
