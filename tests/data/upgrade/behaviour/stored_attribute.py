import tvm
class Config:
    pass
cfg = Config()
target = "cuda -arch=sm_80"
cfg.target = target
print(tvm.target.Target(target).kind.name)
