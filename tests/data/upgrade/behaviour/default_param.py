import tvm
def build(target="llvm -mcpu=cascadelake"):
    t = tvm.target.Target(target)
    return t.kind.name, t.attrs["mcpu"]
print(build())
