import tvm
target = "llvm -mcpu=skylake -num-cores=4"
kind = target.split()[0]
t = tvm.target.Target(target)
print(kind, t.kind.name, t.attrs["mcpu"])
