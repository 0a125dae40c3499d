import tvm
target = "cuda -arch=sm_80"
t = tvm.target.Target(target)
if target == "cuda -arch=sm_80":
    print("the A100 build")
print(t.kind.name)
