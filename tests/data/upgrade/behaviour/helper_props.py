import tvm
gpu = tvm.target.cuda(model="v100", arch="sm_70")
print(gpu.kind.name, gpu.arch, gpu.model)
