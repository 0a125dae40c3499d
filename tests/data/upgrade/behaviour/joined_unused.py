import tvm
target = "cuda -arch=sm_80"
label = "-".join([target, "fp16"])
t = tvm.target.Target(target)
print(t.kind.name, len(label) > 0)
