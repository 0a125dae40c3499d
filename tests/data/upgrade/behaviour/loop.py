import tvm
targets = ["llvm -mcpu=skylake", "cuda -arch=sm_75"]
for name in targets:
    t = tvm.target.Target(name)
    print(t.kind.name, sorted(k for k in ("mcpu", "arch") if k in t.attrs))
