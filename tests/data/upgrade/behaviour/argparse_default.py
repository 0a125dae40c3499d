import argparse
import tvm
parser = argparse.ArgumentParser()
parser.add_argument("--target", default="llvm -mcpu=skylake-avx512")
args = parser.parse_args([])
t = tvm.target.Target(args.target)
print(t.kind.name, t.attrs["mcpu"])
