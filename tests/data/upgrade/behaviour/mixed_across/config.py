TARGET = "llvm -mcpu=znver3"
