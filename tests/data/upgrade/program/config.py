# the one place the project names its target
TARGET = "llvm -mcpu=skylake-avx512 -num-cores=8"
