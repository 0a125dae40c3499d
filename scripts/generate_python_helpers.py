"""Generate the facts about TVM's Python target helpers (``tvm.target.cuda()``, ``arm_cpu()``, ...).

    python3 scripts/generate_python_helpers.py            # writes targetlang/_data/releases/python-helpers.json
    python3 scripts/generate_python_helpers.py --check    # exit 1 if the committed file differs

For every release 0.7 ... 0.26 (git tag ``v0.N.0`` in ``$TVM_GIT_DIR``): the public functions of
``python/tvm/target/target.py`` (name, parameters with their literal defaults, ``tag:path:line``)
and which of them ``python/tvm/target/__init__.py`` exports as ``tvm.target.<name>``. Then, per
helper, the releases that have it and the release that removed it (apache/tvm 283fd19683,
PR #18793, removed the constructors in 0.24). What each helper returns is not here: the helper's
body builds a legacy string (``targetlang.configuration.presets`` reproduces 0.21's results).
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from typing import Any

from generate_releases import render
from shelf import REPO, write_or_check
from shelf import tvm_source as src

OUT = REPO / "targetlang" / "_data" / "releases" / "python-helpers.json"
RELEASES = [f"0.{n}" for n in range(7, 27)]
PATH = "python/tvm/target/target.py"
INIT = "python/tvm/target/__init__.py"
# apache/tvm PR #18793 "[REFACTOR][TARGET] Further cleanup target python api": removed the
# constructors; "before" is its parent (main after v0.23.0, where 2030db36e4 had already
# changed some signatures).
REMOVING_COMMIT = "283fd196838710dfc11bc7605c26d1305279f06e"


def parameters(fn: ast.FunctionDef) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    args = fn.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for arg, default in zip(positional, defaults):
        entry: dict[str, Any] = {"name": arg.arg}
        if default is not None:
            entry["default"] = ast.literal_eval(default)
        out.append(entry)
    if args.vararg:
        out.append({"name": "*" + args.vararg.arg})
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        entry = {"name": arg.arg, "keyword_only": True}
        if default is not None:
            entry["default"] = ast.literal_eval(default)
        out.append(entry)
    if args.kwarg:
        out.append({"name": "**" + args.kwarg.arg})
    return out


def exported(tag: str) -> set[str]:
    """The names ``tvm/target/__init__.py`` imports from ``.target``."""
    names: set[str] = set()
    for node in ast.parse(show(tag, INIT)).body:
        if isinstance(node, ast.ImportFrom) and node.module == "target" and node.level == 1:
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def show(rev: str, path: str) -> str:
    """A file at a tag (``v0.N.0``) or a commit."""
    ref = f"refs/tags/{rev}" if rev.startswith("v") else rev
    done = subprocess.run(["git", "-C", str(src.TVM_GIT), "show", f"{ref}:{path}"],
                          check=True, stdout=subprocess.PIPE, text=True)
    return done.stdout


def helpers_at(release: str, rev: str | None = None) -> dict[str, Any]:
    tag = rev or f"v{release}.0"
    names = exported(tag)
    out: dict[str, Any] = {}
    for node in ast.parse(show(tag, PATH)).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            out[node.name] = {"parameters": parameters(node),
                              "source": f"{tag}:{PATH}:{node.lineno}",
                              "exported_as": f"tvm.target.{node.name}" if node.name in names
                              else None}
    return out


def generate() -> dict[str, Any]:
    per_release = {f"tvm-{r}": helpers_at(r) for r in RELEASES}
    summary: dict[str, Any] = {}
    for release in RELEASES:
        for name in per_release[f"tvm-{release}"]:
            entry = summary.setdefault(name, {"releases": []})
            entry["releases"].append(f"tvm-{release}")
    for entry in summary.values():
        last = entry["releases"][-1]
        following = RELEASES[RELEASES.index(last.removeprefix("tvm-")) + 1:]
        entry["removed_in"] = f"tvm-{following[0]}" if following else None
    removing = REMOVING_COMMIT + "^"
    return {
        "at_removal": {"commit": REMOVING_COMMIT, "before": helpers_at("", removing)},
        "source": "python/tvm/target/target.py and __init__.py at each tag v0.7.0 ... v0.26.0, "
                  "read by scripts/generate_python_helpers.py; the constructors were removed by "
                  "apache/tvm 283fd19683 (PR #18793) in 0.24",
        "helpers": dict(sorted(summary.items())),
        "by_release": per_release,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args()
    return write_or_check(OUT, render(generate()), check=args.check, source="TVM's source")


if __name__ == "__main__":
    sys.exit(main())
