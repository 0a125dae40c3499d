import tvm
cpu, gpu = "llvm -mcpu=apple-m1", "metal -max_num_threads=256"
print(tvm.target.Target(cpu).attrs["mcpu"], tvm.target.Target(gpu).kind.name)
