"""Inputs from TVM itself: the TopHub targets, the strings of TVM's own tests, every tag."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

from .common import Schema, kinds_of


def cases_tophub(shared: Path) -> List[str]:
    path = shared / "corpora" / "tophub-targets.txt"
    return path.read_text(encoding="utf-8").splitlines()


# ---------------------------------------------------------------------------
# tvm-tests: target inputs used by TVM v0.21.0's own tests, extracted by hand
# (git -C <tvm> show refs/tags/v0.21.0:<file>). JSON configs are kept as JSON text.
# ---------------------------------------------------------------------------

def _j(obj: Dict[str, Any]) -> str:
    return json.dumps(obj)


TVM_TEST_INPUTS: List[str] = [
    # tests/python/target/test_target_target.py
    "cuda -model=unknown -libs=cublas,cudnn",
    "vulkan -device_name='Name of GPU with spaces' -device_type=discrete",
    "llvm -cl-opt='-unroll-threshold:uint=100,-unroll-count:uint=3'",
    "llvm -jit=mcjit",
    "llvm -jit=orcjit",
    "llvm -vector-width=256",
    "llvm -vector-width=1024",
    _j({"kind": "llvm", "keys": ["arm_cpu", "cpu"], "device": "arm_cpu", "libs": ["cblas"],
        "mfloat-abi": "hard", "mattr": ["+neon", "-avx512f"]}),
    _j({"kind": "llvm", "libs": {"a": "b", "c": "d"}}),
    "composite --host=llvm --devices=cuda,opencl",
    "nvidia/geforce-rtx-2080-ti",
    "nvidia/jetson-nano",
    _j({"kind": "llvm"}),
    _j({"kind": "llvm", "host": "nvidia/jetson-nano"}),
    "cuda --host llvm",
    "cuda --host nvidia/jetson-nano",
    "cuda",
    "llvm",
    "vulkan --supports_float16=True",
    "vulkan --supports_float16=true",
    "vulkan --supports_float16=False",
    "vulkan --supports_float16=false",
    "nvidia/nvidia-a100",
    "nvidia/geforce-rtx-4090",
    "test",
    # ... strings built by the tvm.target helpers that test_target_target.py calls
    # (python/tvm/target/target.py: cuda(), rocm(), mali(), intel_graphics(),
    # arm_cpu("rk3399"), bifrost())
    "cuda -model=unknown",
    "rocm -model=unknown",
    "opencl -device=mali -model=unknown",
    "opencl -device=intel_graphics -model=unknown -thread_warp_size=16",
    "llvm -keys=arm_cpu,cpu -device=arm_cpu -model=rk3399 -mtriple=aarch64-linux-gnu -mattr=+neon",
    "opencl -device=bifrost -model=unknown",
    # tests/cpp/target_test.cc (TestStringKind etc. are registered only in the C++ test
    # binary: here they are unknown kinds)
    "TestTargetParser -mcpu=woof",
    "TestTargetKind",
    "TestAttrsPreprocessor -mattr=cake",
    "TestClashingPreprocessor -mcpu=woof -mattr=cake",
    "TestStringKind -single='\\'string with single quote'",
    "TestStringKind -single='\\'\\\\\\'blah\\\\\\'\\''",
    "TestStringKind -array=-danny,-sammy=1,-kirby='string with space'",
    "TestStringKind -array='fred, foo, bar',baz",
    "TestStringKind -array='fr\\'ed','f\\'oo',' bar,baz '",
    "TestStringKind -nested-array='foo0,foo1,foo2','bar0,bar1,bar2','baz0,baz1'",
    "TestStringKind -nested2-array="
    "'\\'foo0,foo1\\',\\'bar0,bar1\\',\\'baz0,baz1\\'',"
    "'\\'zing0,zing1\\',\\'fred\\''",
    "llvm -cl-opt='---unroll-factor:uint=0'",
    "llvm -cl-opt='-option:'",
    "llvm -cl-opt='-option:='",
    "llvm -cl-opt='-option:bool'",
    "llvm -cl-opt='-option:bool='",
    "llvm -cl-opt='-option:invalidtype=xyz'",
    "llvm -cl-opt='-option=2'",
    "llvm -cl-opt='-option=fred'",
    "llvm -cl-opt='-option:bool=2'",
    "llvm -cl-opt='-option:int=haha'",
    "llvm -cl-opt='-option:uint=haha'",
    "llvm -cl-opt=-not-an-option:uint=123",
    "llvm -cl-opt=-print-after-all",
    _j({"my_bool": True, "your_names": ["junru", "jian"], "kind": "TestTargetKind",
        "her_maps": {"a": 1, "b": 2}}),
    _j({"my_bool": "true", "your_names": ["junru", "jian"], "kind": "TestTargetKind",
        "her_maps": {"a": 1, "b": 2}}),
    _j({"my_bool": "true", "your_names": ["junru", "jian"], "her_maps": {"a": 1, "b": 2}}),
    _j({"kind": "TestTargetParser", "mcpu": "woof", "features": {"test": True}}),
    _j({"kind": "llvm", "keys": ["cpu", "arm_cpu"], "device": "arm_cpu"}),
    # tests/cpp/target/virtual_device_test.cc
    "cuda -max_threads_per_block=4096",
    # tests/cpp/target/parsers/aprofile_test.cc (JSON configs; arch_attr values from the
    # parameter lists there)
    _j({"kind": "llvm", "keys": ["cpu"]}),
    _j({"kind": "llvm", "mtriple": "arm-unknown-linux-gnu"}),
    _j({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": [""]}),
    _j({"kind": "llvm", "mtriple": "armv7a-arm-none-eabi", "mattr": [""]}),
    _j({"kind": "llvm", "mtriple": "armv8a-arm-none-eabi", "mattr": [""]}),
    _j({"kind": "llvm", "mtriple": "arm-unknown-linux-gnu", "mattr": [""]}),
    _j({"kind": "llvm", "mtriple": "armv7a-arm-none-eabi", "mattr": [""], "mcpu": "cortex-a53"}),
    _j({"kind": "llvm", "mtriple": "armv8a-arm-none-eabi", "mattr": [""], "mcpu": "cortex-a53"}),
    _j({"kind": "llvm", "mtriple": "arm-unknown-linux-gnu", "mattr": [""], "mcpu": "cortex-a53"}),
    _j({"kind": "llvm", "mtriple": "armv7a-arm-none-eabi", "mattr": [""], "mcpu": "cortex-m33"}),
    _j({"kind": "llvm", "mtriple": "armv8a-arm-none-eabi", "mattr": []}),
    _j({"kind": "llvm", "mtriple": "armv8a-arm-none-eabi", "mattr": ["+simd"]}),
    _j({"kind": "llvm", "mtriple": "armv8a-arm-none-eabi", "mattr": ["+neon"]}),
    _j({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": ["+v8.6a", "-i8mm"]}),
    _j({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": ["+v8.2a", "+i8mm"]}),
    _j({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": ["+v8.4a", "-dotprod"]}),
    _j({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": ["+v8.2a", "+dotprod"]}),
    _j({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": ["+v8.2a", "+sve"]}),
    _j({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": ["+v8.2a", "+fullfp16"]}),
    _j({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": ["+v9.2a", "+sme"]}),
    _j({"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+sve2"]}),
    _j({"kind": "c"}),
    # tests/cpp/target/parsers/mprofile_test.cc (kind-less configs there; mcpu values here
    # on kind c as a legacy string)
    "c -mcpu=cortex-m55+nomve",
    "c -mcpu=cortex-m4+nodsp",
    "c -mcpu=cortex-m55+nodsp+nomve",
    "c -mcpu=cortex-m0 -mattr=+nomve",
    # tests/python/target/test_arm_target.py
    "c -mcpu=cortex-m4",
    "c -mcpu=cortex-m7",
    "c -mcpu=cortex-m33",
    "c -mcpu=cortex-m55",
    "c -mcpu=cortex-m3",
    "llvm -mtriple=arm-linux-gnueabi -mattr=+neon",
    "llvm -mtriple=arm-linux-gnueabi",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+v8.4a,+dotprod",
    "llvm -mtriple=aarch64-linux-gnu",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+neon",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+sve",
    # tests/python/target/test_llvm_features_info.py
    "llvm -mtriple=x86_64-linux-gnu -mcpu=dummy",
    "llvm -mtriple=x86_64-- -mcpu=sandybridge",
    "llvm -mtriple=x86_64-- -mcpu=ivybridge",
    "llvm -mtriple=aarch64-- -mcpu=cortex-a55",
    "llvm -mtriple=arm-- -mcpu=cortex-a55",
    # tests/python/target/test_riscv_features.py
    "llvm -device=riscv_cpu -mtriple=riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+i,+m",
    "llvm -device=riscv_cpu -mtriple=riscv32-linux-gnu -mcpu=generic-rv32 -mattr=+64bit,+a,+c,+d,+f,+m",  # noqa: E501
    "llvm -device=riscv_cpu -mtriple=riscv32-linux-gnu -mcpu=generic-rv32 -mattr=+i,+m,+v",
    "llvm -device=riscv_cpu -mtriple=riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+64bit,+a,+c,+d,+f,+m,+v",  # noqa: E501
    "llvm -device=riscv_cpu -mtriple=riscv32-linux-gnu -mcpu=generic-rv32 -mattr=+i,+m,+v,+zvl64b",
    "llvm -device=riscv_cpu -mtriple=riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+64bit,+a,+c,+d,+f,+m,+v,+zvl256b",  # noqa: E501
    "llvm -device=riscv_cpu -mtriple=riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+64bit,+a,+c,+d,+f,+m,+v,+zvl512b",  # noqa: E501
    "llvm -device=riscv_cpu -mtriple=riscv64-linux-gnu -mcpu=sifive-x280",
    "llvm -device=riscv_cpu -mtriple=riscv64-linux-gnu -mcpu=sifive-p670",
    "llvm -device=riscv_cpu -mtriple=riscv64-linux-gnu -mcpu=spacemit-x60",
    # tests/python/target/test_target_parser_mprofile.py
    "llvm -mcpu=cortex-m55",
    "llvm -mcpu=cortex-m7",
    "llvm -mcpu=cortex-m3",
    "llvm -mcpu=cortex-m55 -mattr=+nomve,+woof",
    # tests/python/target/test_x86_features.py (the -mcpu list, then the -mattr cases)
    *[f"llvm -mtriple=x86_64-- -mcpu={cpu}" for cpu in (
        "btver2", "penryn", "silvermont", "slm", "goldmont", "goldmont-plus", "tremont",
        "nehalem", "corei7", "westmere", "bdver1", "bdver2", "bdver3", "x86-64-v2",
        "sandybridge", "corei7-avx", "ivybridge", "core-avx-i", "haswell", "core-avx2",
        "broadwell", "skylake", "bdver4", "znver1", "znver2", "znver3", "x86-64-v3",
        "skylake-avx512", "skx", "knl", "knm", "x86-64-v4", "cannonlake", "alderlake",
        "cascadelake", "icelake-client", "icelake-server", "rocketlake", "tigerlake",
        "cooperlake", "sapphirerapids")],
    "llvm -mtriple=x86_64-- -mcpu=x86-64 -mattr=+sse4.1,+avx2",
    "llvm -mtriple=x86_64-- -mcpu=ivybridge -mattr=-ssse3",
    "llvm -mtriple=x86_64-- -mcpu=cascadelake -mattr=-avx512f",
    # tests/python/codegen/test_target_codegen*.py
    "vulkan -from_device=0",                    # test_target_codegen.py, _device.py, _vulkan.py
    "llvm -mtriple=armv7l-none-linux-gnueabihf -mcpu=cortex-a53 -mattr=+neon",  # _arm.py
    "llvm -mtriple=armv7-none-linux-gnueabihf",  # _cross_llvm.py
    "llvm -mtriple=i386-pc-linux-gnu",           # _cross_llvm.py
    "vulkan -supports_int64=1",                  # _gpu_common.py
    "llvm -mtriple=x86_64-apple-darwin-macho",   # _llvm.py
    "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake -mattr=+avx512f",  # _llvm.py
    "llvm -device=riscv_cpu -mtriple=riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+64bit,+a,+c,+d,+f,+m",  # noqa: E501 - _riscv.py
    "llvm -device=riscv_cpu -mtriple=riscv32-linux-gnu -mcpu=generic-rv32 -mattr=+i,+m",  # noqa: E501 - _riscv.py
    "opencl -device=adreno",                     # _opencl.py
    "llvm -mcpu=core-avx2",                      # _x86.py
    "llvm -mcpu=skylake-avx512",                 # _x86.py
    "llvm -mcpu=skylake-avx512 -mattr=-avx512f",  # _x86.py
    "llvm -mcpu=skylake-avx512 -mattr=-f16c,-avx512f",  # _x86.py
    "opencl", "rocm", "metal", "vulkan", "c", "nvptx",  # bare kinds used across codegen tests
]


def cases_tvm_tests(schema: Schema) -> List[str]:
    # test_all_targets_device_type_verify: Target(k) for every kind name
    return TVM_TEST_INPUTS + kinds_of(schema)



def cases_tags(schema: Schema) -> List[str]:
    tags = sorted(schema["tags"])
    out = list(tags)
    step = max(1, len(tags) // 20)
    picked = tags[::step][:20]
    for must in ("nvidia/jetson-nano", "raspberry-pi/4b-aarch64", "aws/cpu/c5.large",
                 "apple/m1-gpu", "nvidia/geforce-gt-730-ddr3,128bit"):
        if must in tags and must not in picked:
            picked.append(must)
    for tag in picked:
        out += [
            f"{tag} ",                   # trailing space
            f" {tag}",                   # leading space
            f"{tag} -model=x",           # tag followed by attributes
            f"{tag} -arch=sm_80",
            tag.upper(),                 # case change
            f"'{tag}'",                  # quoted
            f"{tag}\t",
        ]
    kind_of_tag = {t: schema["tags"][t]["export"].get("kind") for t in picked
                   if isinstance(schema["tags"][t]["export"], dict)}
    for tag, kind in kind_of_tag.items():
        if kind:
            out.append(f"{kind} -tag={tag}")             # a tag name as the tag attribute
            out.append(f"llvm -host={tag}")              # a tag as host
    return out
