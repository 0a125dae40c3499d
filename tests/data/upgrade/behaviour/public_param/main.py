from lib import build_target
print(build_target("llvm -mcpu=icelake-server"), build_target())
