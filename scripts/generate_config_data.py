"""Generate the facts behind targetlang's configuration layer and presets from TVM itself.

    python3 scripts/generate_config_data.py            # writes targetlang/_data/{compilation,presets}.json
    python3 scripts/generate_config_data.py --check    # exit 1 if the committed files differ

Two sources, both TVM's own:

* TVM's git history (``shelf.TVM_GIT``, ``$TVM_GIT_DIR``, a clone
  of github.com/apache/tvm; ``git clone --bare https://github.com/apache/tvm`` makes one):
  - executors and runtimes with their attribute options, from the registrations in
    ``src/relay/backend/{executor,runtime}.cc``. TVM 0.20 deleted Relay, so the newest
    release that has them (v0.19.0) defines each name; a name registered only earlier
    (``vm`` in v0.8.0) comes from the newest release that still registered it;
  - the names the legacy ``-runtime=`` target attribute used for the two runtimes
    (``include/tvm/target/target_kind.h``: ``kTvmRuntimeCpp = "c++"``, ``kTvmRuntimeCrt =
    "c"``) next to the Runtime names (``include/tvm/relay/runtime.h``: ``cpp``, ``crt``);
  - the tables inside TVM 0.21's ``python/tvm/target/target.py`` that are local to a
    function (``arm_cpu``'s and ``riscv_cpu``'s model tables, ``hexagon``'s versions, VTCM
    sizes and HVX lengths), read with ``ast`` without running any of that code.
* The TVM 0.21 oracle (``$TARGETLANG_ORACLE_DIR/bin/tvm021-python``): the module-level tables
  ``MICRO_SUPPORTED_MODELS`` and ``STM32_SUPPORTED_SERIES`` (checked against the source) and
  ``Device.DEVICE_NAME_TO_TYPE``.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from typing import Any

from shelf import ORACLE_DIR, REPO, tvm_file

DATA = REPO / "targetlang" / "_data"
ORACLE_PYTHON = ORACLE_DIR / "bin" / "tvm021-python"

PRESETS_TAG = "v0.21.0"
# Releases that registered executors and runtimes, newest first: the first that registers a
# name defines it.
RELAY_TAGS = ("v0.19.0", "v0.8.0")

# C++ option types in the registrations -> our attribute types.
CXX_TYPES = {"Bool": "bool", "runtime::Bool": "bool", "String": "str", "Integer": "int",
             "runtime::Int": "int"}


# ---- executors and runtimes ----------------------------------------------------------------

_REGISTRATION = re.compile(r"TVM_REGISTER_(EXECUTOR|RUNTIME)\((\"?[\w:]+\"?)\)(.*?);", re.S)
_OPTION = re.compile(r"\.add_attr_option<([\w:]+)>\(\"([\w-]+)\"(?:,\s*([\w:]+)\((\w+)\))?\)")


def _constant(source: str, name: str) -> str:
    found = re.search(rf"{name}\s*=\s*\"([^\"]*)\"", source)
    if found is None:
        sys.exit(f"constant {name} not found")
    return found.group(1)


def _default(cxx_type: str, literal: str) -> Any:
    if CXX_TYPES[cxx_type] == "bool":
        return {"true": True, "false": False}[literal]
    if CXX_TYPES[cxx_type] == "int":
        return int(literal)
    return literal


def registrations(tag: str) -> dict[str, dict[str, Any]]:
    """``{"executor": {name: {attr: spec}}, "runtime": {...}}`` as registered at ``tag``."""
    runtime_h = tvm_file(tag, "include/tvm/relay/runtime.h") if tag != "v0.8.0" else ""
    out: dict[str, dict[str, Any]] = {"executor": {}, "runtime": {}}
    for what in ("executor", "runtime"):
        source = tvm_file(tag, f"src/relay/backend/{what}.cc")
        for kind, raw_name, chain in _REGISTRATION.findall(source):
            if raw_name.startswith('"'):
                name = raw_name.strip('"')
            else:  # a constant such as kTvmRuntimeCrt, defined in relay/runtime.h
                name = _constant(runtime_h, raw_name)
            attrs: dict[str, Any] = {}
            for cxx_type, attr, _ctor, literal in _OPTION.findall(chain):
                spec: dict[str, Any] = {"type": CXX_TYPES[cxx_type]}
                if literal:
                    spec["default"] = _default(cxx_type, literal)
                attrs[attr] = spec
            out[kind.lower()][name] = {"attrs": attrs, "source": f"{tag}:src/relay/backend/{what}.cc"}
    return out


def compilation_facts(devices: dict[str, int]) -> dict[str, Any]:
    executors: dict[str, Any] = {}
    runtimes: dict[str, Any] = {}
    for tag in RELAY_TAGS:
        found = registrations(tag)
        for name, spec in found["executor"].items():
            executors.setdefault(name, spec)
        for name, spec in found["runtime"].items():
            runtimes.setdefault(name, spec)
    # The legacy -runtime= target attribute spelled the two runtimes differently.
    kind_h = tvm_file("v0.19.0", "include/tvm/target/target_kind.h")
    runtime_h = tvm_file("v0.19.0", "include/tvm/relay/runtime.h")
    aliases = {_constant(kind_h, c): _constant(runtime_h, c) for c in ("kTvmRuntimeCpp", "kTvmRuntimeCrt")}
    # v0.8.0 registered the C runtime as "c" before it became "crt": an alias, not a runtime.
    for legacy, name in aliases.items():
        if legacy in runtimes and name in runtimes:
            del runtimes[legacy]
    return {
        "source": f"TVM git {', '.join(RELAY_TAGS)} (executors, runtimes); TVM 0.21 oracle "
                  "(device names); scripts/generate_config_data.py",
        "executors": dict(sorted(executors.items())),
        "runtimes": dict(sorted(runtimes.items())),
        "runtime_aliases": dict(sorted(aliases.items())),
        "device_types": dict(sorted(devices.items())),
    }


# ---- preset tables ---------------------------------------------------------------------------

def _literal(node: ast.AST, names: dict[str, Any]) -> Any:
    """A literal, allowing names bound earlier and integer arithmetic (``one_mb // 4``)."""
    if isinstance(node, ast.Name):
        return names[node.id]
    if isinstance(node, ast.BinOp):
        left, right = _literal(node.left, names), _literal(node.right, names)
        ops = {ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
               ast.Pow: lambda a, b: a ** b, ast.Add: lambda a, b: a + b}
        return ops[type(node.op)](left, right)
    if isinstance(node, ast.Dict):
        return {_literal(k, names): _literal(v, names) for k, v in zip(node.keys, node.values)
                if k is not None}
    if isinstance(node, ast.List):
        return [_literal(e, names) for e in node.elts]
    return ast.literal_eval(node)


def _literal_entries(node: ast.Dict, names: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in zip(node.keys, node.values):
        try:
            out[_literal(key, names) if key is not None else None] = _literal(value, names)
        except (ValueError, KeyError, TypeError):
            pass  # computed by code, which we do not carry over
    return out


def _assignments(body: list[ast.stmt]) -> dict[str, Any]:
    """Every ``name = <literal>`` in a function body (nested functions included)."""
    names: dict[str, Any] = {}
    for node in body:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and \
                    isinstance(sub.targets[0], ast.Name):
                try:
                    names[sub.targets[0].id] = _literal(sub.value, names)
                except (ValueError, KeyError, TypeError):
                    if isinstance(sub.value, ast.Dict):  # keep the literal entries
                        names[sub.targets[0].id] = _literal_entries(sub.value, names)
    return names


def preset_facts(oracle: dict[str, Any]) -> dict[str, Any]:
    source = tvm_file(PRESETS_TAG, "python/tvm/target/target.py")
    module = ast.parse(source)
    functions = {n.name: n for n in module.body if isinstance(n, ast.FunctionDef)}
    top = _assignments([n for n in module.body if isinstance(n, ast.Assign)])
    for name in ("MICRO_SUPPORTED_MODELS", "STM32_SUPPORTED_SERIES"):
        if top[name] != oracle[name]:
            sys.exit(f"{name}: the source at {PRESETS_TAG} and the oracle disagree")
    hexagon = _assignments(functions["hexagon"].body)
    return {
        "source": f"TVM {PRESETS_TAG} python/tvm/target/target.py (checked against the TVM 0.21 "
                  "oracle); scripts/generate_config_data.py",
        "arm_cpu_models": _assignments(functions["arm_cpu"].body)["trans_table"],
        "riscv_cpu_models": _assignments(functions["riscv_cpu"].body)["trans_table"],
        "micro_models": oracle["MICRO_SUPPORTED_MODELS"],
        "stm32_series": oracle["STM32_SUPPORTED_SERIES"],
        "hexagon": {
            "versions": hexagon["valid_hex"],
            "vtcm_sizes": hexagon["default_vtcm_sizes"],
            "hvx_lengths": hexagon["valid_hvx"],
            "defaults": hexagon["config"],
        },
    }


# ---- the oracle ------------------------------------------------------------------------------

def probe() -> dict[str, Any]:
    """Runs inside the oracle interpreter."""
    import tvm  # type: ignore[import-not-found]  # noqa: F401
    from tvm.runtime import Device  # type: ignore[import-not-found]
    from tvm.target import target  # type: ignore[import-not-found]

    return {
        "tvm_version": tvm.__version__,
        "MICRO_SUPPORTED_MODELS": target.MICRO_SUPPORTED_MODELS,
        "STM32_SUPPORTED_SERIES": target.STM32_SUPPORTED_SERIES,
        "DEVICE_NAME_TO_TYPE": {str(k): int(v) for k, v in Device.DEVICE_NAME_TO_TYPE.items()},
    }


def ask_oracle() -> dict[str, Any]:
    if not ORACLE_PYTHON.exists():
        sys.exit(f"no TVM 0.21 oracle at {ORACLE_PYTHON}: run ../shared/oracle/install.sh")
    done = subprocess.run([str(ORACLE_PYTHON), __file__, "--probe"], capture_output=True,
                          text=True, check=True)
    answer: dict[str, Any] = json.loads(done.stdout)
    if answer["tvm_version"] != "0.21.0":
        sys.exit(f"the oracle is TVM {answer['tvm_version']}, not 0.21.0")
    return answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files")
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        print(json.dumps(probe()))
        return 0
    oracle = ask_oracle()
    outputs = {
        DATA / "compilation.json": compilation_facts(oracle["DEVICE_NAME_TO_TYPE"]),
        DATA / "presets.json": preset_facts(oracle),
    }
    status = 0
    for path, facts in outputs.items():
        text = json.dumps(facts, indent=1, sort_keys=False) + "\n"
        if args.check:
            if path.read_text(encoding="utf-8") != text:
                print(f"{path.relative_to(REPO)} differs from what TVM says", file=sys.stderr)
                status = 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
