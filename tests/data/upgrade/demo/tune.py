import tvm

target = tvm.target.Target("cuda -libs=cudnn,cublas", host="llvm -mcpu=skylake-avx512")
