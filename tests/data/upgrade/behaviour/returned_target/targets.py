import tvm
def jetson():
    return tvm.target.Target("cuda -arch=sm_72 -libs=cudnn", host="llvm -mtriple=aarch64-linux-gnu")
