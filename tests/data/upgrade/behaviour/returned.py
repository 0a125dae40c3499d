import tvm
def _pick():
    return "cuda -libs=cublas,cudnn"
t = tvm.target.Target(_pick())
print(t.kind.name, list(t.attrs["libs"]))
