import argparse
import tvm
parser = argparse.ArgumentParser()
parser.add_argument("--target", default="llvm -mcpu=skylake-avx512")
args = parser.parse_args([])
print(args.target.split()[0], tvm.target.Target(args.target).kind.name)
