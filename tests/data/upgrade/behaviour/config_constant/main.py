import tvm
from config import TARGET
t = tvm.target.Target(TARGET)
print(t.kind.name, t.attrs["mcpu"], t.attrs["num-cores"])
