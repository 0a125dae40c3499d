HOST = "llvm -mtriple=aarch64-linux-gnu"
