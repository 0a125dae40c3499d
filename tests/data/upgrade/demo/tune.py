import tvm

target = tvm.target.Target("rocm -libs=miopen,rocblas", host="llvm -mcpu=skylake-avx512")
