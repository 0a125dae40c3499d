import tvm
from config import TARGET
t = tvm.target.Target(TARGET)
kind = TARGET.split()[0]
print(t.attrs["mcpu"], kind)
