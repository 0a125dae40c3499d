import tvm
def _describe(target):
    t = tvm.target.Target(target)
    return f"{t.kind.name}:{t.attrs['arch']}"
print(_describe("cuda -arch=sm_89"))
