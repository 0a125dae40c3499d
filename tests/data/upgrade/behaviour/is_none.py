import tvm
target = "vulkan -max_num_threads=256"
if target is not None and target:
    t = tvm.target.Target(target)
    print(t.kind.name, t.attrs["max_num_threads"])
