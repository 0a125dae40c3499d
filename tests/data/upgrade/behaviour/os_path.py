import os
import tvm
target = "opencl -device=mali"
path = os.path.join("logs", target)
print(path.count("/"), tvm.target.Target(target).kind.name)
