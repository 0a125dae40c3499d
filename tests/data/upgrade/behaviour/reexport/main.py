import tvm
from pkg import HOST
t = tvm.target.Target("cuda -arch=sm_72", host=HOST)
print(t.host.attrs["mtriple"], t.attrs["arch"])
