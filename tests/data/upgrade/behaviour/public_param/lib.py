import tvm
def build_target(target="llvm -mcpu=haswell"):
    t = tvm.target.Target(target)
    return t.kind.name, t.attrs["mcpu"]
