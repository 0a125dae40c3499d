import tvm
def _target_of(target):
    return tvm.target.Target(target)
def board():
    return _target_of("llvm -mtriple=aarch64-linux-gnu -mattr=+neon")
