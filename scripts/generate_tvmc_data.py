"""Generate the facts behind ``targetlang.parse_tvmc`` (tvmc's BYOC codegens) from TVM's history.

    python3 scripts/generate_tvmc_data.py            # writes targetlang/_data/tvmc.json
    python3 scripts/generate_tvmc_data.py --check    # exit 1 if the committed file differs

Source: TVM's git history (``shelf.TVM_GIT``, ``$TVM_GIT_DIR``, a
clone of github.com/apache/tvm). tvmc existed from v0.7.0 to v0.19.0 (TVM 0.20 deleted it with
Relay); its BYOC codegens are the ``REGISTERED_CODEGEN`` table of
``python/tvm/driver/tvmc/composite_target.py``, read here with ``ast`` at every release tag.
Each codegen is defined by the newest release that registered it (``ethos-u``, ``cmsis-nn``
and ``ethos-n`` by v0.18.0, ``ethos-n77``/``ethos-n78`` by v0.8.0).

A codegen's options are what tvmc passed on for it: with a ``config_key``, tvmc put the
options into ``PassContext(config={config_key: options})``, and TVM built the attributes node
registered under that key (``TVM_REGISTER_PASS_CONFIG_OPTION``), refusing a field it does not
have; so the options are that node's ``TVM_ATTR_FIELD``s, read from the C++ source of the same
release, with their types and defaults. Without a ``config_key`` the options went only to the
partition function as keyword arguments: its explicit keyword parameters are the documented
options, and a ``**kwargs`` parameter means any other option is accepted too (``open``).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from typing import Any

from shelf import REPO, tvm_git, tvm_show, write_or_check

OUTPUT = REPO / "targetlang" / "_data" / "tvmc.json"
COMPOSITE = "python/tvm/driver/tvmc/composite_target.py"

# C++ member types of the attributes nodes -> option types.
CXX_TYPES = {"String": "str", "Bool": "bool", "bool": "bool", "IntImm": "int", "Integer": "int",
             "int": "int", "runtime::Int": "int", "runtime::Bool": "bool"}


def release_tags() -> list[str]:
    """Every release tag vX.Y.Z (no rc, no dev), oldest first."""
    tags = [t for t in tvm_git("tag").split() if re.fullmatch(r"v0\.\d+\.\d+", t)]
    return sorted(tags, key=lambda t: tuple(int(p) for p in t[1:].split(".")))


# ---- composite_target.py ----------------------------------------------------------------------

def registered_codegens(source: str) -> dict[str, dict[str, Any]]:
    """``REGISTERED_CODEGEN`` of one release: name -> config_key, pass_default, ... and the
    partition function (module and name, from the file's imports)."""
    tree = ast.parse(source)
    imports: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                imports[alias.asname or alias.name] = node.module
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "REGISTERED_CODEGEN" for t in node.targets):
            assert isinstance(node.value, ast.Dict)
            table: dict[str, dict[str, Any]] = {}
            for key, value in zip(node.value.keys, node.value.values):
                assert isinstance(key, ast.Constant) and isinstance(value, ast.Dict)
                entry: dict[str, Any] = {}
                for field, item in zip(value.keys, value.values):
                    assert isinstance(field, ast.Constant)
                    if isinstance(item, ast.Name):
                        entry[field.value] = {"module": imports.get(item.id, ""), "name": item.id}
                    else:
                        entry[field.value] = ast.literal_eval(item)
                table[key.value] = entry
            return table
    sys.exit("REGISTERED_CODEGEN not found")


# ---- C++ attribute nodes --------------------------------------------------------------------

def _balanced(text: str, start: int) -> tuple[str, int]:
    """The text inside the parentheses opening at ``text[start]`` and the index after them."""
    assert text[start] == "("
    depth, i, quoted = 0, start, False
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
        i += 1
    sys.exit("unbalanced parentheses")


def _strings(expr: str) -> str:
    """The C string literals of an expression, concatenated."""
    return "".join(bytes(m, "utf-8").decode("unicode_escape")
                   for m in re.findall(r'"((?:[^"\\]|\\.)*)"', expr))


def _default(option_type: str, expr: str) -> Any:
    expr = expr.strip()
    if option_type == "str":
        return _strings(expr)
    if option_type == "bool":
        found = re.search(r"\b(true|false)\b", expr)
        assert found, expr
        return found.group(1) == "true"
    numbers = re.findall(r"-?\d+", expr.replace("Int(64)", "").replace("Int(32)", ""))
    assert numbers, expr
    return int(numbers[-1])


def attrs_node(tag: str, config_key: str) -> dict[str, Any] | None:
    """The fields of the attributes node registered under ``config_key`` at ``tag``."""
    found = tvm_git("grep", "-n", "-F", f'TVM_REGISTER_PASS_CONFIG_OPTION("{config_key}",',
                f"refs/tags/{tag}", "--", "src").strip().splitlines()
    if not found:
        return None
    ref, path = found[0].split(":")[0], found[0].split(":")[1]
    registration = found[0].split(":", 3)[3]
    type_name = re.search(r",\s*([\w:]+)\)", registration)
    assert type_name, registration
    node = type_name.group(1).split("::")[-1] + "Node"
    files = [path] + [line.split(":")[1] for line in tvm_git(
        "grep", "-l", f"struct {node}", ref, "--", "src").splitlines()]
    for file in files:
        source = tvm_show(tag, file) or ""
        start = source.find(f"struct {node}")
        if start >= 0:
            break
    else:
        sys.exit(f"struct {node} not found at {tag}")
    body = source[start:source.find("\n};", start)]
    declare = body.find("TVM_DECLARE_ATTRS")
    members = {m.group(2): m.group(1) for m in re.finditer(
        r"^\s*([\w:]+)\s+(\w+)\s*(?:=[^;]*)?;", body[:declare], re.M)}
    options: dict[str, Any] = {}
    for field in re.finditer(r"TVM_ATTR_FIELD\((\w+)\)", body):
        name = field.group(1)
        chain_end = body.find(";", field.end())
        # The chain may contain ';' only inside strings; walk calls instead of slicing.
        i, calls = field.end(), {}
        while True:
            call = re.match(r"\s*\.(\w+)", body[i:])
            if call is None:
                break
            inner, i = _balanced(body, i + call.end())
            calls[call.group(1)] = inner
        del chain_end
        option_type = CXX_TYPES[members[name]]
        option: dict[str, Any] = {"type": option_type}
        if "set_default" in calls:
            option["default"] = _default(option_type, calls["set_default"])
        if "describe" in calls and _strings(calls["describe"]):
            option["description"] = _strings(calls["describe"])
        options[name] = option
    return {"node": f"{node} ({path})", "options": options}


# ---- partition functions ------------------------------------------------------------------

def partition_parameters(tag: str, module: str, name: str) -> tuple[dict[str, Any], bool]:
    """The keyword parameters of a partition function beyond (mod, params, mod_name), and
    whether it takes ``**kwargs``."""
    source = tvm_show(tag, "python/" + module.replace(".", "/") + ".py")
    assert source is not None, (tag, module)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            args = node.args
            names = [a.arg for a in args.args]
            defaults = [None] * (len(names) - len(args.defaults)) + list(args.defaults)
            options: dict[str, Any] = {}
            for arg, default in zip(names, defaults):
                if arg in ("mod", "params", "mod_name"):
                    continue
                value = ast.literal_eval(default) if default is not None else None
                option: dict[str, Any] = {"type": "array<str>" if isinstance(value, list) else "str"}
                if value is not None:
                    option["default"] = value
                options[arg] = option
            return options, args.kwarg is not None
    sys.exit(f"{module}.{name} not found at {tag}")


# ---- all together ---------------------------------------------------------------------------

def facts() -> dict[str, Any]:
    seen: dict[str, list[str]] = {}
    newest: dict[str, tuple[str, dict[str, Any]]] = {}
    for tag in release_tags():
        source = tvm_show(tag, COMPOSITE)
        if source is None:
            continue
        for name, entry in registered_codegens(source).items():
            seen.setdefault(name, []).append(tag)
            newest[name] = (tag, entry)
    codegens: dict[str, Any] = {}
    for name, (tag, entry) in newest.items():
        pipeline = entry["pass_pipeline"]
        out: dict[str, Any] = {
            "releases": [seen[name][0], seen[name][-1]],
            "defined_by": tag,
            "config_key": entry.get("config_key"),
            "pass_default": entry.get("pass_default", False),
            "default_target": entry.get("default_target"),
            "partition_function": f"{pipeline['module']}.{pipeline['name']}",
        }
        node = attrs_node(tag, entry["config_key"]) if entry.get("config_key") else None
        if node is not None:
            out["options_from"] = f"{entry['config_key']}: {node['node']}"
            out["open"] = False
            out["options"] = node["options"]
        else:
            options, has_kwargs = partition_parameters(tag, pipeline["module"], pipeline["name"])
            out["options_from"] = f"keyword parameters of {out['partition_function']}"
            out["open"] = has_kwargs
            out["options"] = options
        codegens[name] = dict(sorted(out.items()))
    tags = release_tags()
    with_tvmc = [t for t in tags if tvm_show(t, "python/tvm/driver/tvmc/target.py") is not None]
    return {
        "source": (f"apache/tvm {COMPOSITE} at every release that has it "
                   f"({with_tvmc[0]} .. {with_tvmc[-1]}); options from the attributes nodes "
                   "registered under each config_key (src/relay/backend/contrib) or from the "
                   "partition function's parameters; written by scripts/generate_tvmc_data.py"),
        "tvmc_releases": [with_tvmc[0], with_tvmc[-1]],
        "codegens": dict(sorted(codegens.items())),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file")
    args = parser.parse_args()
    text = json.dumps(facts(), indent=1, sort_keys=False, ensure_ascii=False) + "\n"
    return write_or_check(OUTPUT, text, check=args.check, source="TVM's history")


if __name__ == "__main__":
    sys.exit(main())
