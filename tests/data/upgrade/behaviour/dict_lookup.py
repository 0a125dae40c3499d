import tvm
TARGETS = {"cpu": "llvm -mcpu=znver3", "gpu": "cuda -arch=sm_90"}
for key in ("cpu", "gpu"):
    t = tvm.target.Target(TARGETS[key])
    print(key, t.kind.name)
