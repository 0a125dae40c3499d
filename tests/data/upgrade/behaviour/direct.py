import tvm
t = tvm.target.Target("cuda -arch=sm_80 -libs=cudnn")
print(t.kind.name, t.attrs["arch"], list(t.attrs["libs"]))
