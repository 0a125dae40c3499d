import tvm


def build(mod, target):
    return tvm.compile(mod, target=target)
