"""Generate the facts of every TVM release 0.6 ... 0.27, and the families they fall into.

    python3 scripts/generate_releases.py            # writes targetlang/_data/releases/*.json
    python3 scripts/generate_releases.py --check    # exit 1 if a committed file differs

One file per release, ``targetlang/_data/releases/tvm-0.N.json``:

* ``kinds``: every target kind a default build registers: DLPack device type, default keys,
  hooks (``target_parser``, ``attrs_preprocessor``, ``target_canonicalizer``: the C++ function
  that rewrites a target's attributes when it is made), attributes (type, registered default,
  ``validator`` where 0.24+ checks the value with a function), each with ``source``
  (``tag:path:line``). ``optional_kinds``: kinds only an optional CMake component registers
  (``build_condition``), absent from a default build.
* ``tags``: every registered tag's ``config`` (what the registration says) and ``source``;
  ``condition`` when it is registered only under an ``#if`` (evaluated for an LLVM 22 build
  with AArch64, as the oracles were built). ``tag_exports``: what each tag means, the tag's
  ``Target.export()``: asked of the release's oracle, else of the nearest oracle whose kinds
  agree with this release's on every kind the tag uses (``tag_exports_from`` says which).
* ``text`` and ``json``: how the release reads a string and a dict, each fact with the source
  line that makes it so (see ``SYNTAX``).

``renamed`` (where a release renamed an attribute): ``{kind: {old name: new name}}``, from
``RENAMED`` below (each with the commit that did it); ``migrate()`` follows it.

Where the facts come from: for 0.6, ``scripts/shelf/tvm06.py``'s transcription of
``v0.6.0`` (no kind registry then); for 0.7 ... 0.26, TVM's source at the release's git tag
(``$TVM_GIT_DIR``, default the mirror ``/work/.mirror/apache+tvm/repo``), read by
``scripts/shelf/tvm_source.py``; for the releases with an oracle (0.19, 0.21, 0.25, 0.26, 0.27), the
oracle's answers (``kinds`` from ``TargetKind.options_from_name`` and ``Target({"kind": k})``,
``tag_exports`` from ``list_tags()``) replace the transcription's where both exist;
``scripts/check_releases.py`` compares the two. 0.27 has no git tag in the mirror: its tag
configs are read from the Python files of the 0.27 wheel the oracle installed.

``tirx-0.1.json``: TVM TIRx 0.1 (``apache-tvm-tirx``, imported as ``tvm_tirx``), TVM's TIR
compiler as its own package with its own copy of the target model (see ``PRODUCTS``): kinds and
tag exports from its oracle, tag configs from its wheel's Python files, text and JSON rules and
hooks as the TVM release it continues (0.27), which its goldens check; also from its oracle,
what its parsers fill in on a machine without GPUs (``no_gpu_fills``: no cuda ``arch``) and
the triple architectures its llvm canonicalizer knows (``llvm_canonicalizer_arches``: only
those get Arm features). It is no member of the release families.

``families.json``: the releases grouped into families (consecutive releases whose facts are
equal), each boundary with the differences that make it, and every release's changes from the
previous one.
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

from shelf import ORACLE_DIR, RELEASES_DATA, import_tvm, oracle_python, render_json, write_or_check
from shelf import plain as plain_json
from shelf import tvm_source as src
from shelf.tvm06 import generate_06

OUT = RELEASES_DATA
RELEASES = [f"0.{n}" for n in range(6, 28)]
ORACLES = ("0.19", "0.21", "0.25", "0.26", "0.27")
NO_GIT_TAG = {"0.27"}  # the mirror has v0.27.dev0 only; the oracle's wheel stands in
#: Products with their own copy of TVM's target model, each from its oracle and wheel (no git):
#: dialect -> its wheel's package, the TVM release whose code (text and JSON rules, hooks) it
#: continues, and what to call it.
PRODUCTS: dict[str, dict[str, str]] = {
    "tirx-0.1": {"package": "tvm_tirx", "continues": "0.27",
                 "name": "TVM TIRx 0.1 oracle (apache-tvm-tirx 0.1.0a4)"},
}

# DLPack's device types (3rdparty/dlpack is a submodule the mirror does not hold; the values are
# DLPack's ABI and the oracles confirm them); TVM's own enum in c_runtime_api.h overrides.
DLPACK = {"kDLCPU": 1, "kDLGPU": 2, "kDLCUDA": 2, "kDLCPUPinned": 3, "kDLCUDAHost": 3,
          "kDLOpenCL": 4, "kDLVulkan": 7, "kDLMetal": 8, "kDLVPI": 9, "kDLROCM": 10,
          "kDLROCMHost": 11, "kDLExtDev": 12, "kDLCUDAManaged": 13, "kDLOneAPI": 14,
          "kDLWebGPU": 15, "kDLHexagon": 16, "kDLMAIA": 17, "kDLTrn": 18}

# Attributes a release renamed (the old name gone, the new one added by the same change):
# release -> (kind -> {old: new}, the change that did it).
RENAMED: dict[str, tuple[dict[str, dict[str, str]], str]] = {
    "0.9": ({"cuda": {"shared_memory_per_block": "max_shared_memory_per_block"}},
            "apache/tvm 8729f6b67a (#10501, in v0.9.0): cuda's shared_memory_per_block option "
            "became max_shared_memory_per_block (src/target/target_kind.cc, the tags with it)"),
}

# What a kind's target parser fills in from the machine when it is missing: pinned while the
# oracle is asked for defaults, so that what remains are registered defaults.
PARSER_FILLED = {
    "llvm": {"mcpu": "generic"},
    "cuda": {"arch": "sm_50"},
    "nvptx": {"mcpu": "sm_50", "mtriple": "nvptx64-nvidia-cuda"},
    "rocm": {"mcpu": "gfx900", "mtriple": "amdgcn-amd-amdhsa-hcc"},
}

# How each era reads text and dicts: (fact, value, [(first release, last release, path, the
# line that makes it so)]). Every needle is checked to be in the file at each cited release.
SYNTAX: list[tuple[str, str, Any, list[tuple[str, str, str, str]]]] = [
    ("text", "legacy_strings", True,
     [("0.7", "0.23", "src/target/target.cc",
       "return TargetInternal::FromRawString(tag_or_config_or_target_str);")]),
    ("text", "legacy_strings", False,
     [("0.24", "0.26", "src/target/target.cc", "is no longer supported")]),
    ("text", "tag_names", True,
     [("0.7", "0.26", "src/target/target.cc", "TargetTag::Get(tag_or_config_or_target_str)")]),
    ("text", "json_text", True,
     [("0.7", "0.26", "src/target/target.cc", "tag_or_config_or_target_str.data()[0] == '{'")]),
    # A value in single quotes is read as one value (spaces kept, quotes dropped) from 0.10;
    # 0.8 and 0.9 only quote when printing.
    ("text", "quoted_values", True,
     [("0.10", "0.23", "src/target/target.cc", "str[start] != quote")]),
    ("text", "unknown_option_error", "Cannot recognize",
     [("0.7", "0.23", "src/target/target.cc", ": Cannot recognize")]),
    ("text", "libs_mkldnn_becomes_dnnl", True,
     [("0.9", "0.23", "python/tvm/target/target.py", 'target = target.replace("mkldnn", "dnnl")')]),
    # Given keys: the kind's default keys are appended all the same (0.7-0.9), or only when
    # no keys are given (0.10 on).
    ("text", "default_keys_with_given_keys", True,
     [("0.7", "0.9", "src/target/target.cc", "    // add default keys")]),
    ("text", "default_keys_with_given_keys", False,
     [("0.10", "0.23", "src/target/target.cc", "if (!has_user_keys) {")]),
    ("json", "default_keys_with_given_keys", False,
     [("0.24", "0.26", "src/target/target.cc", "if (!has_keys) {")]),
    ("json", "tag_with_overrides", True,
     [("0.24", "0.26", "src/target/target.cc",
       'If "tag" is present without "kind", look up the tag config and merge overrides')]),
    ("json", "feature_keys_kept", True,
     [("0.24", "0.26", "src/target/target.cc", 'key_str.compare(0, 8, "feature.") == 0')]),
    ("json", "unknown_key_error", "Unknown config option",
     [("0.24", "0.26", "include/tvm/ir/config_schema.h", "Unknown config option '")]),
    ("json", "wrong_type_error", "expected type",
     [("0.24", "0.26", "include/tvm/ir/config_schema.h", "': expected type '")]),
    # Which JSON values an attribute of each type takes: tvm-ffi's try_cast (a bool is an int,
    # an int a bool; no float, no null, no string for a number); the goldens of 0.25-0.27 agree.
    ("json", "value_casts", {"int": ["int", "bool"], "bool": ["bool", "int"], "str": ["str"],
                             "array<str>": ["array of str"], "target": ["str", "object"],
                             "array<target>": ["array of str or object"]},
     [("0.24", "0.26", "include/tvm/ir/config_schema.h", "auto opt = val.try_cast<T>();")]),
    ("json", "bare_kind_name", True,
     [("0.24", "0.26", "src/target/target.cc", "Treat as bare kind name")]),
    ("json", "target_getattr", True,
     [("0.25", "0.26", "python/tvm/target/target.py", "def __getattr__(self, name: str):")]),
]


def release_tuple(release: str) -> tuple[int, int]:
    major, minor = release.split(".")
    return int(major), int(minor)


def in_range(release: str, first: str, last: str) -> bool:
    return release_tuple(first) <= release_tuple(release) <= release_tuple(last)


def git_tag(release: str) -> str:
    return f"v{release}.0"


# ---- oracle probe (runs inside an oracle interpreter) -------------------------------------------

def probe() -> dict[str, Any]:
    tvm = import_tvm()  # (TVM TIRx's tvm_tirx as tvm)
    from tvm.target import Target, TargetKind  # type: ignore[import-not-found]

    def plain(v: Any) -> Any:
        return plain_json(v, Target)

    scalar = {"int": "int", "runtime.BoxInt": "int", "IntImm": "int", "bool": "bool",
              "runtime.BoxBool": "bool", "str": "str", "ffi.String": "str",
              "runtime.String": "str", "target.Target": "target", "Target": "target",
              "Array<str>": "array<str>", "Array<target.Target>": "array<target>",
              "Map<str, Any>": "map<str, any>"}
    kinds: dict[str, Any] = {}
    for name in sorted(str(k) for k in Target.list_kinds()):
        options = {str(a): str(t) for a, t in TargetKind.options_from_name(name).items()}
        pinned = PARSER_FILLED.get(name, {})
        target = Target({"kind": name, **pinned})
        exported = plain(target.export())
        attrs: dict[str, Any] = {}
        for attr, type_key in sorted(options.items()):
            if type_key in scalar:
                type_name = scalar[type_key]
            else:  # an array: its element type by probing
                sample = plain(Target({"kind": name, **pinned, attr: ["llvm"]}).export())[attr]
                type_name = "array<target>" if isinstance(sample[0], dict) else "array<str>"
            spec: dict[str, Any] = {"type": type_name}
            if attr in exported and attr not in pinned and attr not in ("kind", "tag", "keys"):
                spec["default"] = exported[attr]
            attrs[attr] = spec
        kinds[name] = {"device_type": int(target.kind.default_device_type),
                       "default_keys": [str(k) for k in target.kind.default_keys],
                       "attrs": attrs}
        derived = sorted(k for k in exported if k.startswith("feature."))
        if derived:
            kinds[name]["derived_keys"] = derived
    tags = {str(n): plain(t.export()) for n, t in sorted((tvm.target.tag.list_tags() or {}).items())}
    # What the parsers fill in on this machine (no GPU) where nothing is pinned.
    fills = {}
    for name, attr in (("cuda", "arch"), ("nvptx", "mcpu"), ("rocm", "mcpu"),
                       ("llvm", "mtriple")):
        fills[name] = {attr: plain(Target({"kind": name}).export()).get(attr)}
    # TVM TIRx picks the llvm canonicalizer by the triple's architecture, from those it
    # registers as global functions (0.27 asks the triple's prefix instead).
    prefix = "codegen.llvm.canonicalize_target."
    try:
        import tvm_ffi  # type: ignore[import-not-found]

        names = [str(n) for n in tvm_ffi.registry.list_global_func_names()]
    except ImportError:
        names = []
    arches = sorted(n[len(prefix):] for n in names if n.startswith(prefix))
    return {"tvm_version": str(tvm.__version__), "kinds": kinds, "tag_exports": tags,
            "no_gpu_fills": fills, "llvm_canonicalizer_arches": arches}


def export_configs(configs: dict[str, Any]) -> dict[str, Any]:
    """Runs inside an oracle: ``Target(config).export()`` of each config (or the error)."""
    from tvm.target import Target  # type: ignore[import-not-found]

    out: dict[str, Any] = {}
    for name, config in configs.items():
        try:
            out[name] = plain_json(Target(config).export(), Target)
        except Exception as exc:  # noqa: BLE001 - a refusal is an answer
            out[name] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return out


def in_oracle(release: str, action: str, payload: Any = None) -> Any:
    exe = oracle_python(release)
    if not exe.exists():
        raise SystemExit(f"no TVM {release} oracle at {exe}; run shared/oracle/install.sh")
    done = subprocess.run([str(exe), __file__, f"--{action}"], input=json.dumps(payload),
                          check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return json.loads(done.stdout)


# ---- transcription ----------------------------------------------------------------------------

def device_enum(release: str) -> dict[str, int]:
    enum = dict(DLPACK)
    path = "include/tvm/runtime/c_runtime_api.h"
    tag = git_tag(release)
    if src.git_has(tag, path):
        for name, value in re.findall(r"\b(k\w+) = (\d+)", src.git_show(tag, path)):
            if name.startswith(("kDL", "kOpenGL")) and name != "kDLDevice":
                enum[name] = int(value)
    return enum


def transcribe_kinds(release: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(kinds of a default build, optional kinds) at the release's tag."""
    tag = git_tag(release)
    kinds, files = src.kinds_at(tag)
    enum = device_enum(release)
    conditions = {path: src.cmake_condition(tag, path) for path in files}
    built: dict[str, Any] = {}
    optional: dict[str, Any] = {}
    for name, spec in kinds.items():
        path = spec["source"].split(":")[1]
        spec = dict(spec)
        spec["device_type"] = enum[spec["device_enum"]]
        condition, where = conditions[path]
        if condition is None:
            built[name] = spec
        else:
            spec["build_condition"] = f"{condition} ({where})"
            optional[name] = spec
    return built, optional


def python_tag_files(release: str) -> list[tuple[str, str]]:
    if release in NO_GIT_TAG or release in PRODUCTS:
        venv, package, wheel = ((release, PRODUCTS[release]["package"], f"{release} wheel")
                                if release in PRODUCTS else
                                (f"tvm-{release}", "tvm", f"apache-tvm {release} wheel"))
        site = next((ORACLE_DIR / venv / "lib").glob(f"python3*/site-packages/{package}"))
        files = []
        for path in sorted(site.rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            rel = path.relative_to(site.parent).as_posix()
            if "register_tag(" in text and not rel.endswith("tag_registry/registry.py"):
                files.append((f"{wheel}:{rel}", text))
        return files
    return src.python_tag_files_at(git_tag(release))


def transcribe_tags(release: str) -> dict[str, Any]:
    tags: dict[str, Any] = {}
    if release not in NO_GIT_TAG and release not in PRODUCTS:
        tags.update(src.cpp_tags_at(git_tag(release)))
    for name, entry in src.python_tags(python_tag_files(release)).items():
        if name in tags:  # Python registers after C++ (at import); override is required
            entry["registered_twice"] = tags[name]["source"]
        tags[name] = entry
    return dict(sorted(tags.items()))


def syntax_facts(release: str) -> dict[str, dict[str, Any]]:
    facts: dict[str, dict[str, Any]] = {"text": {}, "json": {}}
    if release == "0.6":
        build = "src/codegen/build_module.cc"
        text = src.git_show("v0.6.0", build)
        return {"text": {
            "legacy_strings": {"value": True, "source": src.cite(
                f"v0.6.0:{build}", text, "Target CreateTarget(const std::string& target_name,")},
            "tag_names": {"value": False, "source": "v0.6.0 had no tag registry"},
            # CreateTarget appends the kind's keys after those of -keys= and -device=
            "default_keys_with_given_keys": {"value": True, "source": src.cite(
                f"v0.6.0:{build}", text, 't->keys_array.push_back(ir::StringImm::make("cpu"));')},
        }, "json": {}}
    tag = git_tag(release) if release not in NO_GIT_TAG else git_tag("0.26")
    for group, fact, value, eras in SYNTAX:
        for first, last, path, needle in eras:
            if in_range(release, first, last) or (release in NO_GIT_TAG and last == "0.26"):
                where = src.cite(f"{tag}:{path}", src.git_show(tag, path), needle)
                if release in NO_GIT_TAG:
                    where += " (0.27: as 0.26, by the 0.27 oracle's goldens)"
                facts[group][fact] = {"value": value, "source": where}
    if facts["text"].get("legacy_strings", {}).get("value"):
        facts["text"].update(text_value_parsing(tag))
    return facts


def text_value_parsing(tag: str) -> dict[str, Any]:
    """How ``TargetInternal::ParseType`` reads an int or bool option value from text: the C++
    type it reads into (its range), whether ``true``/``false`` are taken, the error wording."""
    path = "src/target/target.cc"
    lines = src.git_show(tag, path).splitlines()
    start = next(i for i, line in enumerate(lines)
                 if re.match(r"\w+ TargetInternal::ParseType\(const std::string& str", line))
    end = next(i for i in range(start + 1, len(lines)) if "TargetInternal::ParseType(" in lines[i]
               and not lines[i].startswith(" "))
    where = f"{tag}:{path}"
    out: dict[str, Any] = {}
    for number in range(start, end):
        line = lines[number]
        m = re.match(r"\s+(int|int64_t) v;", line)
        if m and "integer_bits" not in out:
            out["integer_bits"] = {"value": 32 if m.group(1) == "int" else 64,
                                   "source": f"{where}:{number + 1}"}
        if 'lower == "true"' in line and "true_false_words" not in out:
            out["true_false_words"] = {"value": True, "source": f"{where}:{number + 1}"}
        m = re.search(r'"(: )?(Cannot parse [^"\\]*(?:\\"Integer\\"[^"]*)?)"', line)
        if m and "integer_error" not in out:
            out["integer_error"] = {"value": m.group(2).replace('\\"', '"').strip(),
                                    "source": f"{where}:{number + 1}"}
    if "true_false_words" not in out:
        out["true_false_words"] = {"value": False,
                                   "source": f"{where}:{start + 1} (ParseType has no such case)"}
    return out


# ---- one release ----------------------------------------------------------------------------

def transcribed(release: str) -> dict[str, Any]:
    """The facts as read from the release's source alone (no oracle)."""
    if release == "0.6":
        data = generate_06()
        return {"kinds": data["kinds"], "optional_kinds": {}, "aliases": data["aliases"],
                "tags": {}}
    if release in NO_GIT_TAG:
        return {"kinds": {}, "optional_kinds": {}, "tags": transcribe_tags(release)}
    kinds, optional = transcribe_kinds(release)
    return {"kinds": kinds, "optional_kinds": optional, "tags": transcribe_tags(release)}


def merge_oracle(facts: dict[str, Any], found: dict[str, Any]) -> None:
    """The oracle's kinds replace the transcription's, keeping its citations."""
    kinds: dict[str, Any] = {}
    for name, spec in found["kinds"].items():
        old = facts["kinds"].get(name) or facts["optional_kinds"].get(name) or {}
        entry = dict(spec)
        entry["source"] = old.get("source", f"TVM {found['tvm_version']} oracle")
        for hook in ("hooks", "hook_code"):
            if hook in old:
                entry[hook] = old[hook]
        for attr, attr_spec in entry["attrs"].items():
            old_attr = old.get("attrs", {}).get(attr, {})
            if "source" in old_attr:
                attr_spec["source"] = old_attr["source"]
            if old_attr.get("validator"):
                attr_spec["validator"] = True
        kinds[name] = entry
    facts["kinds"] = kinds
    facts["optional_kinds"] = {k: v for k, v in facts["optional_kinds"].items() if k not in kinds}
    facts["tag_exports"] = found["tag_exports"]
    facts["tag_exports_from"] = f"TVM {found['tvm_version']} oracle: tvm.target.tag.list_tags()"


def kinds_used(config: dict[str, Any]) -> set[str]:
    used = {str(config.get("kind"))}
    host = config.get("host")
    if isinstance(host, dict):
        used |= kinds_used(host)
    elif isinstance(host, str):
        used.add(host.split()[0])
    return used


def comparable_kind(spec: dict[str, Any]) -> Any:
    """What decides how a kind reads a config: attributes, types, defaults, keys, hooks."""
    return (spec["device_type"], spec["default_keys"],
            {a: (s["type"], s.get("default")) for a, s in spec["attrs"].items()},
            sorted(spec.get("hooks", {}).values()))


def fill_tag_exports(release: str, facts: dict[str, Any], all_facts: dict[str, Any]) -> None:
    """For a release without an oracle: each tag's export from the nearest oracle that reads
    every kind the tag uses exactly as this release does (and the same hook functions)."""
    if not facts["tags"]:
        facts["tag_exports"] = {}
        return
    exports: dict[str, Any] = {}
    origin: dict[str, str] = {}
    nearest = sorted(ORACLES, key=lambda o: (abs(release_tuple(o)[1] - release_tuple(release)[1]),
                                             o))
    pending = dict(facts["tags"])
    for oracle in nearest:
        if oracle not in all_facts:
            continue
        other = all_facts[oracle]
        fits = {}
        for name, entry in pending.items():
            used = kinds_used(entry["config"])
            if all(k in facts["kinds"] and k in other["kinds"]
                   and comparable_kind(facts["kinds"][k]) == comparable_kind(other["kinds"][k])
                   for k in used):
                fits[name] = entry["config"]
        if not fits:
            continue
        for name, export in in_oracle(oracle, "export", fits).items():
            exports[name] = export
            origin[name] = oracle
            del pending[name]
    facts["tag_exports"] = dict(sorted(exports.items()))
    facts["tag_exports_from"] = {
        "rule": "Target(config).export() in the nearest oracle whose kinds (attributes, types, "
                "defaults, keys, hooks) equal this release's for every kind the tag uses",
        "oracle_of_tag": dict(sorted(origin.items())),
        "no_oracle_fits": sorted(pending)}


def inherit_unreadable(facts: dict[str, Any], previous: dict[str, Any],
                       note: str = "as v0.26.0 (0.27 has no git tag in the mirror)",
                       fewer_attrs: bool = False) -> None:
    """0.27 has no git tag: what only its C++ source could say (hooks, validators, citations)
    is taken from 0.26 for every kind the 0.27 oracle registers with the same attributes, and
    marked so; the 0.27 oracle's goldens check the behaviour. (A product takes them from the
    release it continues, ``fewer_attrs`` also where its kind dropped an attribute.)"""
    for name, spec in facts["kinds"].items():
        old = previous["kinds"].get(name)
        if old is None or (set(old["attrs"]) - set(spec["attrs"]) and not fewer_attrs):
            continue
        if "hooks" in old:
            spec["hooks"] = old["hooks"]
            spec["hook_code"] = old["hook_code"]
            spec["hooks_source"] = note
        for attr, attr_spec in spec["attrs"].items():
            if old["attrs"].get(attr, {}).get("validator"):
                attr_spec["validator"] = True
                attr_spec["validator_source"] = note


def drop_enum_names(facts: dict[str, Any]) -> None:
    for spec in list(facts["kinds"].values()) + list(facts["optional_kinds"].values()):
        spec.pop("device_enum", None)


def generate_product(product: str, continued: dict[str, Any]) -> dict[str, Any]:
    """The facts of a product (``PRODUCTS``): kinds and tag exports from its oracle, tag configs
    from its wheel, the rules and hooks of the TVM release it continues (``continued``)."""
    spec = PRODUCTS[product]
    facts: dict[str, Any] = {"kinds": {}, "optional_kinds": {}, "tags": transcribe_tags(product)}
    found = in_oracle(product, "probe")
    merge_oracle(facts, found)
    drop_enum_names(facts)
    # (its hooks are the release's by name; what they fill in without a GPU is its own)
    facts["no_gpu_fills"] = found["no_gpu_fills"]
    facts["llvm_canonicalizer_arches"] = found["llvm_canonicalizer_arches"]
    like = f"as tvm-{spec['continues']} (its goldens check it)"
    for group in ("text", "json"):
        facts[group] = {fact: {"value": entry["value"], "source": f"{entry['source']}; {like}"}
                        for fact, entry in continued[group].items()}
    inherit_unreadable(facts, continued, note=like, fewer_attrs=True)
    by_file: dict[str, int] = {}
    for entry in facts["tags"].values():
        path = entry["source"].split(":")[1]
        by_file[path] = by_file.get(path, 0) + 1
    facts["tags_by_file"] = dict(sorted(by_file.items()))
    return {"release": product, "dialect": product,
            "source": f"{spec['name']} and its wheel's tag registry, by "
                      "scripts/generate_releases.py",
            "continues": f"tvm-{spec['continues']}", "facts_from": "oracle",
            **{k: facts[k] for k in sorted(facts)}}


def generate(releases: list[str]) -> dict[str, dict[str, Any]]:
    all_facts: dict[str, dict[str, Any]] = {}
    for release in RELEASES:
        facts = transcribed(release)
        if release in ORACLES:
            merge_oracle(facts, in_oracle(release, "probe"))
        drop_enum_names(facts)
        facts.update(syntax_facts(release))
        if release in RENAMED:
            facts["renamed"], facts["renamed_source"] = RENAMED[release]
        all_facts[release] = facts
    inherit_unreadable(all_facts["0.27"], all_facts["0.26"])
    for release in RELEASES:
        if release not in ORACLES:
            fill_tag_exports(release, all_facts[release], all_facts)
    out = {}
    for release in releases:
        facts = all_facts[release]
        source = ("TVM 0.27 oracle (apache-tvm 0.27.0.post1) and its wheel's tag registry"
                  if release in NO_GIT_TAG else
                  f"TVM v{release}.0 source" + (f" and the TVM {release} oracle"
                                                if release in ORACLES else ""))
        by_file: dict[str, int] = {}
        for entry in facts["tags"].values():  # where the tags live: C++ or Python
            path = entry["source"].split(" ")[0].split(":")[1] if release not in NO_GIT_TAG \
                else entry["source"].split(":")[1]
            by_file[path] = by_file.get(path, 0) + 1
        facts["tags_by_file"] = dict(sorted(by_file.items()))
        out[release] = {"release": release, "dialect": f"tvm-{release}",
                        "source": source + ", by scripts/generate_releases.py",
                        "facts_from": "oracle" if release in ORACLES else "git",
                        **{k: facts[k] for k in sorted(facts)}}
    return out


# ---- families ---------------------------------------------------------------------------------

def fingerprint(facts: dict[str, Any]) -> Any:
    """What a family shares: everything but citations and the release's name."""
    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()
                    if k not in ("source", "registered_twice", "tag_exports_from",
                                 "hooks_source", "validator_source", "hook_code")}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean({k: facts[k] for k in ("kinds", "tags", "tag_exports", "text", "json",
                                        "aliases") if k in facts})


def reader_fingerprint(facts: dict[str, Any]) -> Any:
    """What decides how a release reads a target, tags aside."""
    full = fingerprint(facts)
    return {k: v for k, v in full.items() if k not in ("tags", "tag_exports")}


def rules_fingerprint(facts: dict[str, Any]) -> Any:
    return {grp: {k: v["value"] for k, v in facts[grp].items()} for grp in ("text", "json")}


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The changes from one release's facts to the next's, one line each, with the source line
    that makes the change (the new release's, or the old one's for what was removed)."""
    def at(spec: dict[str, Any] | None) -> str:
        return f" [{spec['source']}]" if spec and spec.get("source") else ""

    out: list[str] = []
    ok, nk = old["kinds"], new["kinds"]
    out += [f"kind {k} added{at(nk[k])}" for k in sorted(set(nk) - set(ok))]
    out += [f"kind {k} removed (was{at(ok[k])})" for k in sorted(set(ok) - set(nk))]
    for k in sorted(set(ok) & set(nk)):
        a, b = ok[k], nk[k]
        for field in ("device_type", "default_keys"):
            if a[field] != b[field]:
                out.append(f"kind {k}: {field} {a[field]} -> {b[field]}{at(b)}")
        if a.get("hooks") != b.get("hooks"):
            out.append(f"kind {k}: hooks {a.get('hooks')} -> {b.get('hooks')}{at(b)}")

        for attr in sorted(set(b["attrs"]) - set(a["attrs"])):
            spec = b["attrs"][attr]
            default = f", default {spec['default']!r}" if "default" in spec else ""
            out.append(f"{k}.{attr} added ({spec['type']}{default}){at(spec)}")
        for attr in sorted(set(a["attrs"]) - set(b["attrs"])):
            out.append(f"{k}.{attr} removed (was{at(a['attrs'][attr])})")
        for attr in sorted(set(a["attrs"]) & set(b["attrs"])):
            x, y = a["attrs"][attr], b["attrs"][attr]
            for field in ("type", "default", "validator"):
                if x.get(field) != y.get(field):
                    out.append(f"{k}.{attr}: {field} {x.get(field)!r} -> {y.get(field)!r}{at(y)}")
    ot, nt = old["tags"], new["tags"]
    out += [f"tag {t} added{at(nt[t])}" for t in sorted(set(nt) - set(ot))]
    out += [f"tag {t} removed (was{at(ot[t])})" for t in sorted(set(ot) - set(nt))]
    oe, ne = old.get("tag_exports", {}), new.get("tag_exports", {})
    for t in sorted(set(ot) & set(nt)):
        if ot[t]["config"] != nt[t]["config"]:
            changed = sorted(k for k in set(ot[t]["config"]) | set(nt[t]["config"])
                             if ot[t]["config"].get(k) != nt[t]["config"].get(k))
            out.append(f"tag {t}: config changed ({', '.join(changed)}){at(nt[t])}")
        elif t in oe and t in ne and oe[t] != ne[t]:
            changed = sorted(k for k in set(oe[t]) | set(ne[t]) if oe[t].get(k) != ne[t].get(k))
            out.append(f"tag {t}: export changed ({', '.join(changed)}; same config)")
    for group in ("text", "json"):
        for fact in sorted(set(old.get(group, {})) | set(new.get(group, {}))):
            x = old.get(group, {}).get(fact)
            y = new.get(group, {}).get(fact)
            if (x or {}).get("value") != (y or {}).get("value"):
                out.append(f"{group}.{fact}: {(x or {}).get('value')!r} -> "
                           f"{(y or {}).get('value')!r}{at(y or x)}")
    return out


def hook_code_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The hooks whose code changed (normalized; refactors that rename types still count)."""
    out = []
    for k in sorted(set(old["kinds"]) & set(new["kinds"])):
        a, b = old["kinds"][k].get("hook_code", {}), new["kinds"][k].get("hook_code", {})
        for hook, code in sorted(b.items()):
            if hook in a and a[hook]["sha256"] != code["sha256"]:
                out.append(f"kind {k}: {new['kinds'][k]['hooks'][hook]} [{code['of']}]")
    return out


def families(all_facts: dict[str, dict[str, Any]]) -> dict[str, Any]:
    groups: list[list[str]] = []
    for release in RELEASES:
        if groups and fingerprint(all_facts[groups[-1][-1]]) == fingerprint(all_facts[release]):
            groups[-1].append(release)
        else:
            groups.append([release])
    changes = {release: differences(all_facts[prev], all_facts[release])
               for prev, release in zip(RELEASES, RELEASES[1:])}
    family_list = []
    reader_groups: list[list[str]] = []
    for release in RELEASES:
        if reader_groups and reader_fingerprint(all_facts[reader_groups[-1][-1]]) == \
                reader_fingerprint(all_facts[release]):
            reader_groups[-1].append(release)
        else:
            reader_groups.append([release])
    eras: list[list[str]] = []
    for release in RELEASES:
        if eras and rules_fingerprint(all_facts[eras[-1][-1]]) == rules_fingerprint(
                all_facts[release]):
            eras[-1].append(release)
        else:
            eras.append([release])
    for group in groups:
        name = f"tvm-{group[-1]}"
        first = group[0]
        family_list.append({
            "family": name, "releases": [f"tvm-{r}" for r in group],
            "boundary": (None if first == RELEASES[0]
                         else {"previous": f"tvm-{RELEASES[RELEASES.index(first) - 1]}",
                               "changes": changes[first]}),
        })
    return {
        "source": "scripts/generate_releases.py: consecutive releases whose facts (kinds, "
                  "attributes, defaults, keys, hooks, tags and what they export, text and JSON "
                  "rules) are equal form one family, named after its newest release",
        "families": family_list,
        "reader_families": [
            {"family": f"tvm-{g[-1]}", "releases": [f"tvm-{r}" for r in g],
             "boundary": (None if g[0] == RELEASES[0] else [
                 c for c in changes[g[0]] if not c.startswith("tag ")])}
            for g in reader_groups],
        "reader_families_source": "consecutive releases that read targets alike (kinds, "
                                  "attributes, types, defaults, keys, hooks, text and JSON "
                                  "rules equal) but may register different tags",
        "eras": [{"era": f"tvm-{g[0]}..tvm-{g[-1]}", "releases": [f"tvm-{r}" for r in g],
                  "rules": {grp: {k: v["value"] for k, v in all_facts[g[0]][grp].items()}
                            for grp in ("text", "json")}}
                 for g in eras],
        "eras_source": "consecutive releases with the same text and JSON rules (text.*, json.*)",
        "changes": {f"tvm-{r}": c for r, c in changes.items()},
        "hook_code_changes": {
            f"tvm-{r}": hook_code_changes(all_facts[p], all_facts[r])
            for p, r in zip(RELEASES, RELEASES[1:])},
        "hook_code_changes_source": "hooks whose code (comments, whitespace and namespace "
                                    "qualifiers aside) differs from the previous release's; "
                                    "not part of the families: many are refactors, review them "
                                    "(the goldens of 0.19/0.21/0.25/0.26/0.27 are the check)",
    }


render = render_json


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files")
    ap.add_argument("--out", type=Path, default=OUT, metavar="DIR",
                    help="write (or --check) the files in DIR instead (default: %(default)s)")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--export", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe or args.export:
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # TVM's own prints go to stderr, the protocol to our copy of stdout
        out.write(json.dumps(probe() if args.probe else export_configs(json.load(sys.stdin))))
        out.close()
        return 0
    all_facts = generate(RELEASES)
    status = 0
    for release, facts in all_facts.items():
        status |= write_or_check(args.out / f"tvm-{release}.json", render(facts),
                                 check=args.check)
    status |= write_or_check(args.out / "families.json", render(families(all_facts)),
                             check=args.check)
    for product, spec in PRODUCTS.items():
        facts = generate_product(product, all_facts[spec["continues"]])
        status |= write_or_check(args.out / f"{product}.json", render(facts), check=args.check)
    return status


if __name__ == "__main__":
    sys.exit(main())
