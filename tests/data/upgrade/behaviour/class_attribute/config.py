class Config:
    tvm_target = "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72"
    name = "pi4"
