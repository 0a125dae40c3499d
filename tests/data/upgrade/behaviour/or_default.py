import os
import tvm
target = os.environ.get("NO_SUCH_TARGET_VARIABLE") or "llvm -mcpu=znver2"
print(tvm.target.Target(target).attrs["mcpu"])
