import tvm
target = "rocm -mcpu=gfx908"
if target.startswith("rocm"):
    print("AMD")
print(tvm.target.Target(target).attrs["mcpu"])
