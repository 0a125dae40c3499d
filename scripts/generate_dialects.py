"""Generate the historical dialects' schema data: ``tvm-0.6``, ``tvm-0.8`` and ``tvm-0.27``.

    python3 scripts/generate_dialects.py            # writes targetlang/_data/tvm-{0.6,0.8,0.27}.json
    python3 scripts/generate_dialects.py --check    # exit 1 if a committed file differs

Where each fact comes from (every data file says it again, per kind and per tag):

* ``tvm-0.27``: asked of the TVM 0.27 oracle (``../shared/oracle``; re-runs itself under
  ``$TARGETLANG_ORACLE_DIR/bin/tvm027-python --probe``): ``TargetKind.options_from_name`` for
  types, ``Target({"kind": k, **pinned}).export()`` for defaults (``pinned`` sets what the
  kind's target parser would fill from the machine), ``tvm.target.tag.list_tags()`` for tags
  (their exports without the derived ``feature.*`` keys).
* ``tvm-0.8``: no TVM 0.8 wheel installs on Python 3.11 (PyPI has ``apache-tvm`` from 0.25
  only), so the facts are read from TVM's git history (``$TVM_GIT_DIR``, default the mirror at
  ``/work/.mirror/apache+tvm/repo``): every ``TVM_REGISTER_TARGET_KIND`` block of
  ``src/target/target_kind.cc`` at ``v0.8.0`` (with the options the macro in
  ``include/tvm/target/target_kind.h`` adds to every kind), the device-type enum of
  ``include/tvm/runtime/c_runtime_api.h`` and DLPack's, the ``TVM_REGISTER_CUDA_TAG`` lines of
  ``src/target/tag.cc`` and the ``register_tag`` calls of ``python/tvm/target/tag.py``.
* ``tvm-0.22``, ``tvm-0.23``: ``tvm-0.21.json`` (the 0.21 oracle's facts) with the changes
  that ``src/target/target_kind.cc`` and ``src/target/tag.cc`` made from ``v0.21.0`` to
  ``v0.22.0``/``v0.23.0`` (kinds removed, attributes added or removed with their defaults,
  CUDA tags added), read with the same transcription, which is first checked against the
  oracle's 0.21 facts.
* ``tvm-0.6``: TVM 0.6 had no attribute schema: a target was its kind name and the list of
  option words (``CreateTarget`` in ``src/codegen/build_module.cc`` at ``v0.6.0``). The
  attributes here are the options TVM 0.6's code read, transcribed below with the line that
  reads each (the script checks that every cited line is still in the cited file), and the
  per-kind fields ``CreateTarget`` set (keys, device type, ``max_num_threads``,
  ``thread_warp_size``), which no text could change (``"fixed": true``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generated import plain as plain_json  # noqa: E402
from _generated import write_or_check  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "targetlang" / "_data"
ORACLE_DIR = Path(os.environ.get("TARGETLANG_ORACLE_DIR", Path.home() / ".cache/targetlang-oracle"))
ORACLE_027 = ORACLE_DIR / "bin" / "tvm027-python"
TVM_GIT = Path(os.environ.get("TVM_GIT_DIR", "/work/.mirror/apache+tvm/repo"))

# ---- tvm-0.27: from the oracle -----------------------------------------------------------------

# What TVM 0.27's target parsers fill in from the machine when missing; pinned while probing
# defaults so that what remains are registered defaults.
PARSER_FILLED_027 = {
    "llvm": {"mcpu": "generic"},
    "cuda": {"arch": "sm_50"},
    "nvptx": {"mcpu": "sm_50", "mtriple": "nvptx64-nvidia-cuda"},
    "rocm": {"mcpu": "gfx900", "mtriple": "amdgcn-amd-amdhsa-hcc"},
}

TYPES_027 = {"int": "int", "bool": "bool", "str": "str", "target.Target": "target",
             "Array<str>": "array<str>", "Array<target.Target>": "array<target>"}


def probe_027() -> dict[str, Any]:
    """Runs inside the TVM 0.27 oracle interpreter."""
    import tvm  # type: ignore[import-not-found]
    import tvm.target.tag  # type: ignore[import-not-found]
    from tvm.target import Target, TargetKind  # type: ignore[import-not-found]

    def plain(v: Any) -> Any:
        return plain_json(v, Target)

    def no_features(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: no_features(x) for k, x in v.items() if not k.startswith("feature.")}
        if isinstance(v, list):
            return [no_features(x) for x in v]
        return v

    kinds: dict[str, Any] = {}
    for name in sorted(str(k) for k in Target.list_kinds()):
        options = {str(a): str(t) for a, t in TargetKind.options_from_name(name).items()}
        pinned = PARSER_FILLED_027.get(name, {})
        target = Target({"kind": name, **pinned})
        exported = plain(target.export())
        attrs: dict[str, Any] = {}
        for attr, type_key in sorted(options.items()):
            spec: dict[str, Any] = {"type": TYPES_027[type_key]}
            if attr in exported and attr not in pinned and attr not in ("kind", "tag", "keys"):
                spec["default"] = exported[attr]
            attrs[attr] = spec
        features = sorted(k[len("feature."):] for k in exported if k.startswith("feature."))
        kinds[name] = {
            "device_type": int(target.kind.default_device_type),
            "default_keys": [str(k) for k in target.kind.default_keys],
            "attrs": attrs,
            "source": f"TVM {tvm.__version__} oracle: TargetKind.options_from_name, "
                      f"Target({{'kind': {name!r}}}).export()",
        }
        if features:
            kinds[name]["features"] = features
    tags = {str(n): no_features(plain(t.export()))
            for n, t in sorted(tvm.target.tag.list_tags().items())}
    return {
        "dialect": "tvm-0.27",
        "source": f"TVM {tvm.__version__} oracle (apache-tvm on PyPI), recorded by "
                  "scripts/generate_dialects.py",
        "tvm_version": str(tvm.__version__),
        "kinds": kinds,
        "tags": tags,
        "tag_source": "tvm.target.tag.list_tags() of the oracle; feature.* keys left out "
                      "(TVM derives them)",
    }


def generate_027() -> dict[str, Any]:
    if not ORACLE_027.exists():
        sys.exit(f"no TVM 0.27 oracle at {ORACLE_027}; run ../shared/oracle/install.sh")
    done = subprocess.run([str(ORACLE_027), __file__, "--probe"], check=True,
                          stdout=subprocess.PIPE, text=True)
    data: dict[str, Any] = json.loads(done.stdout)
    return data


# ---- git history ---------------------------------------------------------------------------------

def git_show(tag: str, path: str) -> str:
    return subprocess.run(["git", "-C", str(TVM_GIT), "show", f"refs/tags/{tag}:{path}"],
                          check=True, stdout=subprocess.PIPE, text=True).stdout


def cite(tag: str, path: str, text: str, needle: str) -> str:
    """``tag:path:line`` of the first line holding ``needle`` (which must be there)."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return f"{tag}:{path}:{number}"
    raise SystemExit(f"{tag}:{path} no longer says {needle!r}")


# ---- tvm-0.8: target_kind.cc, tag.cc, tag.py ---------------------------------------------------

TYPES_08 = {"Array<String>": "array<str>", "String": "str", "Bool": "bool", "Integer": "int",
            "Target": "target", "Array<Target>": "array<target>"}

# DLPack v0.x's device types (TVM 0.8 included DLPack as 3rdparty/dlpack, a submodule the
# mirror does not hold) as TVM 0.8's own headers use them; kDLCUDA = kDLGPU = 2.
DLPACK_08 = {"kDLCPU": 1, "kDLCUDA": 2, "kDLOpenCL": 4, "kDLVulkan": 7, "kDLMetal": 8,
             "kDLVPI": 9, "kDLROCM": 10, "kDLExtDev": 12}


def _value_08(type_name: str, text: str) -> Any:
    match = re.fullmatch(r"(?:Bool|Integer)\((\w+)\)", text.strip())
    if match is None:
        raise SystemExit(f"cannot read the default {text!r}")
    literal = match.group(1)
    if type_name == "bool":
        return {"true": True, "false": False}[literal]
    return int(literal)


def generate_08() -> dict[str, Any]:
    tag, kinds_path = "v0.8.0", "src/target/target_kind.cc"
    source = git_show(tag, kinds_path)
    header_path = "include/tvm/target/target_kind.h"
    header = git_show(tag, header_path)
    macro = header[header.index("#define TVM_REGISTER_TARGET_KIND"):]
    macro = macro[:macro.index("\n\n")]
    common = re.findall(r'add_attr_option<([\w<>]+)>\("([\w-]+)"\)', macro)
    runtime_path = "include/tvm/runtime/c_runtime_api.h"
    runtime_api = git_show(tag, runtime_path)
    device_enum = dict(DLPACK_08)
    for name, value in re.findall(r"(k\w+) = (\d+),?", runtime_api):
        if name.startswith(("kDL", "kOpenGL")):
            device_enum[name] = int(value)
    common_cite = cite(tag, header_path, header, 'add_attr_option<Array<String>>("keys")')
    kinds: dict[str, Any] = {}
    blocks = re.split(r"(?=TVM_REGISTER_TARGET_KIND\(\")", source)[1:]
    for block in blocks:
        block = block[:block.index(";")]
        head = re.match(r'TVM_REGISTER_TARGET_KIND\("(\w+)", (\w+)\)', block)
        assert head is not None
        name, device = head.group(1), head.group(2)
        attrs: dict[str, Any] = {}
        for type_text, attr in common:
            attrs[attr] = {"type": TYPES_08[type_text]}
        for type_text, attr, default in re.findall(
                r'add_attr_option<([\w<>]+)>\("([\w-]+)"(?:,\s*([^)]*\)))?\)', block):
            spec: dict[str, Any] = {"type": TYPES_08[type_text]}
            if default:
                spec["default"] = _value_08(spec["type"], default)
            attrs[attr] = spec
        keys_match = re.search(r"set_default_keys\(\{([^}]*)\}\)", block)
        keys = re.findall(r'"(\w+)"', keys_match.group(1)) if keys_match else []
        kinds[name] = {
            "device_type": device_enum[device],
            "default_keys": keys,
            "attrs": dict(sorted(attrs.items())),
            "source": cite(tag, kinds_path, source, f'TVM_REGISTER_TARGET_KIND("{name}"')
            + "; common options: " + common_cite + f"; {device} = {device_enum[device]}",
        }
        preprocessor = re.search(r"set_attrs_preprocessor\((\w+)\)", block)
        if preprocessor:
            kinds[name]["preprocessor"] = preprocessor.group(1)
    tags_path = "src/target/tag.cc"
    tag_source = git_show(tag, tags_path)
    tags: dict[str, Any] = {}
    for name, arch, shared, regs in re.findall(
            r'TVM_REGISTER_CUDA_TAG\("([^"]+)", "(\w+)", (\d+), (\d+)\);', tag_source):
        tags[name] = {"kind": "cuda", "arch": arch, "shared_memory_per_block": int(shared),
                      "registers_per_block": int(regs), "max_threads_per_block": 1024,
                      "thread_warp_size": 32}
    py_path = "python/tvm/target/tag.py"
    py_source = git_show(tag, py_path)
    tail = py_source[py_source.index("list_tags()\n"):]
    for name, body in re.findall(r'register_tag\(\s*"([^"]+)",\s*config=(\{.*?\}),\s*\)', tail,
                                 re.S):
        tags[name] = json.loads(re.sub(r",\s*}", "}", body))
    return {
        "dialect": "tvm-0.8",
        "source": f"TVM {tag} source ({kinds_path}, {tags_path}, {py_path}), transcribed by "
                  "scripts/generate_dialects.py; no TVM 0.8 oracle installs on Python 3.11",
        "tvm_version": "0.8.0",
        "kinds": dict(sorted(kinds.items())),
        "tags": dict(sorted(tags.items())),
        "tag_source": f"{tag}:{tags_path} (TVM_REGISTER_CUDA_TAG; a tag registered twice "
                      f"keeps its one config) and {tag}:{py_path} (register_tag)",
    }


# ---- tvm-0.6: build_module.cc and the code that read the options ---------------------------------

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
                  "python/tvm/target.py), transcribed by scripts/generate_dialects.py; no TVM 0.6 "
                  "oracle installs on Python 3.11",
        "tvm_version": "0.6.0",
        "kinds": kinds,
        "aliases": aliases,
        "tags": {},
        "tag_source": "TVM 0.6 had no target tags",
    }


# ---- tvm-0.22, tvm-0.23: tvm-0.21 and the changes of target_kind.cc and tag.cc since v0.21.0 ----

TYPES_CC = {"int64_t": "int", "int": "int", "Integer": "int", "bool": "bool", "Bool": "bool",
            "String": "str", "Array<String>": "array<str>", "Target": "target",
            "Array<Target>": "array<target>"}


def _default_cc(type_name: str, text: str) -> Any:
    literal = re.sub(r"^(?:Integer|Bool|runtime::Int|runtime::Bool)\((.*)\)$", r"\1", text.strip())
    if type_name == "bool":
        return {"true": True, "false": False}[literal]
    return int(literal)


def _calls(text: str, head: str) -> list[tuple[str, str]]:
    """``(template argument, call arguments)`` of every ``head...>(...)`` in ``text``."""
    found = []
    at = text.find(head)
    while at >= 0:
        i, depth = at + len(head), 1
        while depth:
            depth += {"<": 1, ">": -1}.get(text[i], 0)
            i += 1
        template = text[at + len(head):i - 1]
        assert text[i] == "("
        j, depth = i + 1, 1
        while depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        found.append((template, text[i + 1:j - 1]))
        at = text.find(head, j)
    return found


def kinds_cc(tag: str) -> dict[str, dict[str, tuple[str, Any]]]:
    """Every kind's ``add_attr_option`` (type, default or None) of ``target_kind.cc`` at ``tag``."""
    source = git_show(tag, "src/target/target_kind.cc").replace("ffi::", "")
    kinds: dict[str, dict[str, tuple[str, Any]]] = {}
    for block in re.split(r"(?=TVM_REGISTER_TARGET_KIND\(\")", source)[1:]:
        block = block[:block.index(";")]
        name = re.match(r'TVM_REGISTER_TARGET_KIND\("(\w+)"', block)
        assert name is not None
        attrs: dict[str, tuple[str, Any]] = {}
        for type_text, args in _calls(block, "add_attr_option<"):
            attr, _, default = args.partition(",")
            type_name = TYPES_CC[type_text]
            attrs[attr.strip().strip('"')] = (
                type_name, _default_cc(type_name, default) if default.strip() else None)
        kinds[name.group(1)] = attrs
    return kinds


def cuda_tags_cc(tag: str) -> dict[str, dict[str, Any]]:
    """The ``TVM_REGISTER_CUDA_TAG`` lines of ``tag.cc`` at ``tag``, as the macro's config."""
    source = git_show(tag, "src/target/tag.cc")
    return {name: {"kind": "cuda", "keys": ["cuda", "gpu"], "arch": arch,
                   "max_shared_memory_per_block": int(shared), "max_threads_per_block": 1024,
                   "thread_warp_size": 32, "registers_per_block": int(regs)}
            for name, arch, shared, regs in re.findall(
                r'TVM_REGISTER_CUDA_TAG\("([^"]+)", "(\w+)", (\d+), (\d+)\)', source)}


def generate_since_021(tag: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "tvm-0.21.json").read_text(encoding="utf-8"))
    old, new = kinds_cc("v0.21.0"), kinds_cc(tag)
    # The transcription must see what the oracle saw at v0.21.0 (the common options of the
    # registration macro are not in target_kind.cc's blocks).
    for kind, attrs in old.items():
        assert set(attrs) <= set(data["kinds"][kind]["attrs"]), kind
        for attr, (_, default) in attrs.items():
            assert default is None or data["kinds"][kind]["attrs"][attr]["default"] == default
    changes: list[str] = []
    for kind in sorted(set(old) - set(new)):
        del data["kinds"][kind]
        changes.append(f"kind {kind} removed")
    if set(new) - set(old):
        raise SystemExit(f"new kinds at {tag}: {sorted(set(new) - set(old))}; not transcribed")
    for kind, attrs in new.items():
        spec = data["kinds"][kind]
        for attr in sorted(set(attrs) - set(old[kind])):
            type_name, default = attrs[attr]
            spec["attrs"][attr] = {"type": type_name}
            if default is not None:
                spec["attrs"][attr]["default"] = default
            changes.append(f"{kind}.{attr} added ({type_name}, default {default})")
        for attr in sorted(set(old[kind]) - set(attrs)):
            del spec["attrs"][attr]
            changes.append(f"{kind}.{attr} removed")
        spec["attrs"] = dict(sorted(spec["attrs"].items()))
    old_tags, new_tags = cuda_tags_cc("v0.21.0"), cuda_tags_cc(tag)
    for name in sorted(set(new_tags) - set(old_tags)):
        data["tags"][name] = new_tags[name]
        changes.append(f"tag {name} added")
    for name in sorted(set(old_tags) - set(new_tags)):
        del data["tags"][name]
        changes.append(f"tag {name} removed")
    version = tag.lstrip("v").rsplit(".", 1)[0]
    data["dialect"] = f"tvm-{version}"
    data["source"] = (f"tvm-0.21.json (TVM 0.21 oracle) with the changes of "
                      f"src/target/target_kind.cc and src/target/tag.cc from v0.21.0 to {tag}, "
                      "transcribed by scripts/generate_dialects.py: " + "; ".join(changes))
    data["tvm_version"] = tag.lstrip("v")
    data["changes_since_0.21"] = changes
    return data


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


GENERATORS = {"tvm-0.6": generate_06, "tvm-0.8": generate_08, "tvm-0.27": generate_027,
              "tvm-0.22": lambda: generate_since_021("v0.22.0"),
              "tvm-0.23": lambda: generate_since_021("v0.23.0")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("dialects", nargs="*", default=list(GENERATORS), help="which to generate")
    args = ap.parse_args()
    if args.probe:
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # TVM's own prints go to stderr, the protocol to our copy of stdout
        out.write(json.dumps(probe_027()))
        out.close()
        return 0
    status = 0
    for dialect in args.dialects:
        path = DATA / f"{dialect}.json"
        text = render(GENERATORS[dialect]())
        status |= write_or_check(path, text, check=args.check)
    return status


if __name__ == "__main__":
    sys.exit(main())
