"""A module whose targets go many ways."""
from __future__ import annotations

import argparse

import tvm
from tvm import relay
from tvm.target import cuda, arm_cpu

TARGET = "cuda -arch=sm_80 -libs=cudnn"
HOST = "llvm -mtriple=aarch64-linux-gnu"
parser = argparse.ArgumentParser()
parser.add_argument("--target", default="llvm -mcpu=skylake")


def build(mod, target=TARGET, runtime_target=None):
    dev = tvm.device(str(runtime_target), 0)
    lib = relay.build(mod, target=tvm.target.Target(target, host=HOST))
    other = tvm.compile(mod, target=runtime_target)
    return lib, other, dev


def main(mod, name):
    args = parser.parse_args()
    gpu = cuda(model=name)
    board = arm_cpu("rasp4b")
    print(gpu.arch, board.mcpu, tvm.target.Target(args.target).mattr)
    if TARGET.startswith("cuda"):
        return build(mod, f"cuda -arch={name}")
    return build(mod)
