import sys
import tvm
def main(target):
    t = tvm.target.Target(target)
    print(t.kind.name, t.attrs["arch"])
main(sys.argv[1] if len(sys.argv) > 1 else "cuda -arch=sm_61")
