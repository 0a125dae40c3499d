import tvm
target = "cuda -model=v100"
log_name = f"tune-{target}.log"
t = tvm.target.Target(target)
print(len(log_name.split()), t.kind.name, t.attrs["model"])
