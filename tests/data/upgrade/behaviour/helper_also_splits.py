import tvm
def _describe(target):
    t = tvm.target.Target(target)
    return t.kind.name, target.split()[1]
print(_describe("cuda -arch=sm_89"))
