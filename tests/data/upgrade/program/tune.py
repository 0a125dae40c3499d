import argparse

import tvm
from config import TARGET
from lib import build

parser = argparse.ArgumentParser()
parser.add_argument("--host", default="llvm -mtriple=x86_64-linux-gnu")
args = parser.parse_args()
lib = build(None, tvm.target.Target(TARGET, host=args.host))
