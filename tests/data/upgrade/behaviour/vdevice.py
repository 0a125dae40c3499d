from tvm.script import ir as I, relax as R
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("cuda -arch=sm_80", 0)]})
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        return x
target = Module.global_infos["vdevice"][0].target
print(target.kind.name, target.attrs["arch"])
