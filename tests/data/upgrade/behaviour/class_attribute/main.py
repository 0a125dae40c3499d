import tvm
from config import Config
cfg = Config()
t = tvm.target.Target(cfg.tvm_target)
print(cfg.name, t.attrs["mcpu"], tvm.target.Target(Config.tvm_target).attrs["mtriple"])
