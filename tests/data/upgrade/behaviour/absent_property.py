import tvm
t = tvm.target.Target("cuda -arch=sm_80")
print(repr(t.mcpu), list(t.mattr), repr(t.model))
