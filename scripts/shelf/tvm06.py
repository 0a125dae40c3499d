"""TVM 0.6, transcribed from its source: it had no attribute schema, so no kind registry to read.

A target was its kind name and the list of option words (``CreateTarget`` in
``src/codegen/build_module.cc`` at ``v0.6.0``). The attributes here are the options TVM 0.6's
code read, transcribed below with the line that reads each (every cited line is checked to be
in the cited file), and the per-kind fields ``CreateTarget`` set (keys, device type,
``max_num_threads``, ``thread_warp_size``), which no text could change (``"fixed": true``).
Used by ``scripts/generate_releases.py`` for ``releases/tvm-0.6.json``.
"""

from __future__ import annotations

from typing import Any

from .tvm_source import git_show


def cite(tag: str, path: str, text: str, needle: str) -> str:
    """``tag:path:line`` of the first line holding ``needle`` (which must be there)."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return f"{tag}:{path}:{number}"
    raise SystemExit(f"{tag}:{path} no longer says {needle!r}")



# Every kind CreateTarget knew, with the fields it set: (device type enum, keys it appended
# after the -device= and -keys= keys, max_num_threads, thread_warp_size). An unknown name was
# logged and became stackvm; targetlang refuses it instead.
KINDS_06: dict[str, tuple[str, tuple[str, ...], int | None, int]] = {
    "c": ("kDLCPU", ("cpu",), None, 1),
    "llvm": ("kDLCPU", ("cpu",), None, 1),
    "cuda": ("kDLGPU", ("cuda", "gpu"), 1024, 32),
    "nvptx": ("kDLGPU", ("cuda", "gpu"), 1024, 32),
    "rocm": ("kDLROCM", ("rocm", "gpu"), 256, 1),
    "opencl": ("kDLOpenCL", ("opencl", "gpu"), 256, 1),
    "metal": ("kDLMetal", ("metal", "gpu"), 256, 1),
    "vulkan": ("kDLVulkan", ("vulkan", "gpu"), 256, 1),
    "sdaccel": ("kDLOpenCL", ("sdaccel", "hls"), None, 1),
    "aocl": ("kDLAOCL", ("aocl", "hls"), None, 1),
    "aocl_sw_emu": ("kDLAOCL", ("aocl", "hls"), None, 1),
    "opengl": ("kOpenGL", ("opengl",), None, 1),
    "stackvm": ("kDLCPU", (), None, 1),
    "ext_dev": ("kDLExtDev", (), None, 1),
    "hybrid": ("kDLCPU", (), None, 1),
}
DEVICE_06 = {"kDLCPU": 1, "kDLGPU": 2, "kDLOpenCL": 4, "kDLAOCL": 5, "kDLVulkan": 7,
             "kDLMetal": 8, "kDLROCM": 10, "kOpenGL": 11, "kDLExtDev": 12}

# The options TVM 0.6 read, with (file, the line that reads it). Options of every kind come
# from CreateTarget; the LLVM ones from ParseLLVMTargetOptions, which refused any other option
# (LOG(FATAL) "unknown option") when an llvm target was compiled.
COMMON_06 = {
    "device": ("str", "src/codegen/build_module.cc", 'std::string device_flag = "-device=";'),
    "model": ("str", "python/tvm/target.py", "if opt.value.startswith('-model='):"),
    "libs": ("array<str>", "src/codegen/build_module.cc", 'std::string libs_flag = "-libs=";'),
    "keys": ("array<str>", "src/codegen/build_module.cc", 'std::string keys_flag = "-keys=";'),
}
LLVM_06 = {
    "mtriple": ("str", "src/codegen/llvm/llvm_common.cc", 'key == "-mtriple") {'),
    "mcpu": ("str", "src/codegen/llvm/llvm_common.cc", '} else if (key == "-mcpu") {'),
    "mattr": ("array<str>", "src/codegen/llvm/llvm_common.cc", '} else if (key == "-mattr") {'),
    "mfloat-abi": ("str", "src/codegen/llvm/llvm_common.cc", '} else if (key == "-mfloat-abi") {'),
    "system-lib": ("bool", "src/codegen/llvm/llvm_module.cc",
                   'bool system_lib = (target.find("-system-lib") != std::string::npos);'),
}
# -target=X was LLVM's other spelling of -mtriple=X (the same branch reads both).
ALIASES_06 = {"target": ("mtriple", "src/codegen/llvm/llvm_common.cc", 'if (key == "-target" ||')}


def generate_06() -> dict[str, Any]:
    tag = "v0.6.0"
    files: dict[str, str] = {}

    def source(path: str) -> str:
        if path not in files:
            files[path] = git_show(tag, path)
        return files[path]

    build = "src/codegen/build_module.cc"
    kinds: dict[str, Any] = {}
    for name, (device, keys, threads, warp) in KINDS_06.items():
        where = cite(tag, build, source(build), f'target_name == "{name}"')
        attrs: dict[str, Any] = {}
        for attr, (type_, path, needle) in COMMON_06.items():
            attrs[attr] = {"type": type_, "source": cite(tag, path, source(path), needle)}
        if name == "llvm":
            for attr, (type_, path, needle) in LLVM_06.items():
                attrs[attr] = {"type": type_, "source": cite(tag, path, source(path), needle)}
        if threads is not None:
            attrs["max_num_threads"] = {"type": "int", "default": threads, "fixed": True,
                                        "source": cite(tag, build, source(build),
                                                       "t->max_num_threads = ")}
        attrs["thread_warp_size"] = {"type": "int", "default": warp, "fixed": True,
                                     "source": cite(tag, build, source(build),
                                                    "t->thread_warp_size = ")}
        if name == "opencl":
            # CreateTarget: thread_warp_size 16 when -device=intel_graphics.
            attrs["thread_warp_size"]["intel_graphics"] = 16
        kinds[name] = {"device_type": DEVICE_06[device], "default_keys": list(keys),
                       "attrs": dict(sorted(attrs.items())), "source": where}
    aliases = {alias: {"attr": attr, "kinds": ["llvm"],
                       "source": cite(tag, path, source(path), needle)}
               for alias, (attr, path, needle) in ALIASES_06.items()}
    return {
        "dialect": "tvm-0.6",
        "source": f"TVM {tag} source ({build}, src/codegen/llvm/llvm_common.cc, "
                  "python/tvm/target.py), transcribed by scripts/shelf/tvm06.py; no TVM 0.6 "
                  "oracle installs on Python 3.11",
        "tvm_version": "0.6.0",
        "kinds": kinds,
        "aliases": aliases,
        "tags": {},
        "tag_source": "TVM 0.6 had no target tags",
    }

