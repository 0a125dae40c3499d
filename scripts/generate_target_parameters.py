"""Generate targetlang/_data/releases/target-parameters.json: where TVM's Python API takes a
target by position.

    python3 scripts/generate_target_parameters.py [--tags v0.18.0 v0.21.0]

Reads every ``python/tvm/**/*.py`` of each tag of an apache/tvm git clone (``$TVM_GIT_DIR``,
default ``/work/.mirror/apache+tvm/repo``) without running it, and records for each public
module-level function and class (its ``__init__`` less ``self``) the positions of its
parameters named ``target`` and ``target_host``: ``tvm.meta_schedule.relax_integration.
extract_tasks(mod, target, params)`` -> ``{"1": "target"}``. A name whose positions differ
between the tags is left out (``tvm.build`` changed its signature in 0.20; pyscripts tells
its two forms apart by itself). ``targetlang.migration.pyscripts`` reads a string given there as a
target, as it reads ``target=`` given to any call into ``tvm``.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import subprocess
import sys
import tarfile

from shelf import REPO, TVM_GIT

OUT = REPO / "targetlang" / "_data" / "releases" / "target-parameters.json"
NAMES = ("target", "target_host")


def positions(arguments: ast.arguments, skip_self: bool) -> dict[str, str]:
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    if skip_self:
        names = names[1:]
    return {str(i): n for i, n in enumerate(names) if n in NAMES}


def read_tag(tag: str) -> dict[str, dict[str, str]]:
    archive = subprocess.run(["git", "-C", str(TVM_GIT), "archive", f"refs/tags/{tag}",
                              "python/tvm"], check=True, stdout=subprocess.PIPE).stdout
    found: dict[str, dict[str, str]] = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.endswith(".py"):
                continue
            parts = member.name[len("python/"):-len(".py")].split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if any(p.startswith("_") and p != "__init__" for p in parts[1:]):
                continue
            stream = tar.extractfile(member)
            assert stream is not None
            try:
                tree = ast.parse(stream.read())
            except SyntaxError:
                continue
            module = ".".join(parts)
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                        not node.name.startswith("_"):
                    where = positions(node.args, skip_self=False)
                elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    init = [n for n in node.body if isinstance(n, ast.FunctionDef)
                            and n.name == "__init__"]
                    where = positions(init[0].args, skip_self=True) if init else {}
                else:
                    continue
                if where:
                    found[f"{module}.{node.name}"] = where
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tags", nargs="+", default=["v0.18.0", "v0.21.0"])
    args = parser.parse_args()
    merged: dict[str, dict[str, str]] = {}
    conflicting: set[str] = set()
    for tag in args.tags:
        for name, where in read_tag(tag).items():
            if name in merged and merged[name] != where:
                conflicting.add(name)
            merged.setdefault(name, where)
    functions = {n: merged[n] for n in sorted(merged) if n not in conflicting}
    data = {"description": "Positions of the parameters named target / target_host of TVM's "
                           "public Python functions and classes (from the source of the tags; "
                           "names whose positions differ between them left out)",
            "generated_by": "scripts/generate_target_parameters.py", "tags": args.tags,
            "left_out": sorted(conflicting), "functions": functions}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(REPO)}: {len(functions)} functions, {len(conflicting)} left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
