"""Hypothesis strategies for the configuration layer: related targets and configurations.

Targets drawn at random from the whole schema are almost never related; these draw from a
small pool of values per attribute so that specializations (and equal targets) are common.
"""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

import targetlang as tl

#: Half the examples of the loaded profile, for properties whose examples are costly
#: (each builds several targets); the order laws keep the full count.
HALF = settings(settings.default, max_examples=max(10, settings.default.max_examples // 2))

#: Per kind, a few values for a few attributes (compiler only exists in collage).
POOL: dict[str, dict[str, list[Any]]] = {
    "cuda": {"arch": ["sm_80", "sm_86"], "libs": [["cudnn"], ["cudnn", "cublas"]],
             "model": ["a100", "h100"], "max_num_threads": [1024, 512],
             "compiler": ["tensorrt", "cutlass"]},
    "llvm": {"mcpu": ["cortex-a72", "skylake"], "mattr": [["+neon"], ["+avx2"]],
             "num-cores": [4, 8], "model": ["rpi", "pc"], "compiler": ["cmsis-nn"]},
    "opencl": {"device": ["mali", "adreno"], "max_num_threads": [256, 128],
               "compiler": ["clml"]},
}
KEYS = [None, ["cpu"], ["arm_cpu", "cpu"], ["cuda", "gpu"], ["gpu"], ["mali", "opencl", "gpu"]]
HOSTS = [None, {"kind": "llvm"}, {"kind": "llvm", "mcpu": "cortex-a72"},
         {"kind": "llvm", "mcpu": "cortex-a72", "num-cores": 4}]


@st.composite
def related_targets(draw: st.DrawFn, kind: str | None = None) -> tl.Target:
    """A target from the small pool (kind, dialect, tag, keys, host, attributes)."""
    dialect = draw(st.sampled_from(["tvm-0.21", "collage"]))
    kind = kind or draw(st.sampled_from(sorted(POOL)))
    config: dict[str, Any] = {"kind": kind}
    for name, values in POOL[kind].items():
        if name == "compiler" and dialect != "collage":
            continue
        if draw(st.booleans()):
            config[name] = draw(st.sampled_from(values))
    keys = draw(st.sampled_from(KEYS))
    if keys is not None:
        config["keys"] = keys
    if draw(st.integers(0, 5)) == 0:
        config["tag"] = "vendor/board"
    host = draw(st.sampled_from(HOSTS))
    if host is not None:
        config["host"] = host
    return tl.from_json(config, dialect=dialect)


#: Text for the targets of configurations (a few kinds, hosts and backends).
CONFIG_TARGETS = ["cuda -arch=sm_80", "cuda -arch=sm_80 -compiler=tensorrt", "llvm",
                  "llvm -mcpu=cortex-a72", "opencl -device=mali", "c -mcpu=cortex-m4",
                  "rocm -mcpu=gfx908", "vulkan"]


@st.composite
def configs(draw: st.DrawFn) -> tl.CompilationConfig:
    """A configuration: plain or labelled targets, a host or none, an executor and runtime."""
    texts = draw(st.lists(st.sampled_from(CONFIG_TARGETS), min_size=1, max_size=4))
    dialect = draw(st.sampled_from(["collage", None])) if not any(
        "-compiler" in t for t in texts) else "collage"
    host = draw(st.sampled_from([None, "llvm", "llvm -mcpu=cortex-a53", "c"]))
    executor = draw(st.sampled_from([None, "graph", "vm",
                                     {"name": "aot", "attrs": {"unpacked-api": True}},
                                     {"name": "graph", "attrs": {"link-params": True}}]))
    runtime = draw(st.sampled_from([None, "cpp", "c", {"name": "crt",
                                                       "attrs": {"system-lib": True}}]))
    if isinstance(executor, dict) and runtime in ("cpp",):
        runtime = "crt"  # unpacked-api needs the C runtime
    flow = draw(st.sampled_from([None, {"link-params": True}, {"enable-byoc": ["cmsis-nn"],
                                                               "opt": {"level": 3}}]))
    targets: Any = texts
    if draw(st.booleans()):
        targets = {f"t{i}": text for i, text in enumerate(texts)}
        if host is not None and draw(st.booleans()):
            host = "t0"
    return tl.CompilationConfig(target_host=host, targets=targets, executor=executor,
                                runtime=runtime, flow_config=flow, dialect=dialect)


@st.composite
def composites(draw: st.DrawFn) -> tl.CompilationConfig:
    """An A1a composite: labelled targets and one to three executor groups over them."""
    labels = {f"t{i}": text for i, text in enumerate(
        draw(st.lists(st.sampled_from([t for t in CONFIG_TARGETS if "-compiler" not in t]),
                      min_size=1, max_size=4)))}
    groups: dict[str, Any] = {}
    for index in range(draw(st.integers(1, 3))):
        chosen = draw(st.lists(st.sampled_from(sorted(labels)), min_size=1, unique=True))
        group: dict[str, Any] = {"targets": chosen,
                                 "executor": draw(st.sampled_from(["graph", "aot", "vm"])),
                                 "runtime": draw(st.sampled_from(["cpp", "crt", "c++"]))}
        if draw(st.booleans()):
            group["target_host"] = draw(st.sampled_from(sorted(labels)))
        if group["executor"] == "aot" and group["runtime"] != "crt":
            group["runtime"] = "crt"
        groups[f"g{index}"] = group
    return tl.CompilationConfig.composite(targets=labels, executors=groups)
