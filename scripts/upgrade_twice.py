"""Upgrade real projects as CI would: the diff applied with ``git apply``, the upgrade run
again (nothing may change), and the SARIF output checked against the SARIF 2.1.0 schema.

    python3 scripts/upgrade_twice.py NAME=TREE ... [--jobs N] [--runtime]
    python3 scripts/upgrade_twice.py tvm=/work/.mirror/apache+tvm/repo@v0.21.0

Each project is a directory or ``GIT_DIR@REV`` (as ``scripts/upgrade_projects.py`` takes
them). It is copied into a temporary git repository and committed; then, with the
``targetlang`` command of this checkout:

1. ``targetlang upgrade .`` (a diff) is applied with ``git apply`` and committed;
2. ``targetlang upgrade --write .`` must change nothing after that (the diff was the whole
   upgrade), and a second ``--write`` must change nothing either: bytes changed are counted;
3. ``targetlang upgrade --format sarif .`` is validated against
   ``tests/data/sarif/sarif-schema-2.1.0.json`` (jsonschema).

Prints per project: files, files the diff changed, reports by code, bytes the second run
changed, whether ``git apply`` took the diff and whether the SARIF log is valid.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from shelf import REPO
from upgrade_projects import tree_of

SCHEMA = REPO / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json"


def targetlang(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A run of this checkout's command line; its output as text, line endings kept (a
    diff of a file with CRLF lines must keep them for git apply)."""
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-m", "targetlang", *argv], cwd=cwd, env=env,
                          capture_output=True, timeout=3600, check=False)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "surrogateescape"),
                                       done.stderr.decode("utf-8", "surrogateescape"))


def git(*argv: str, cwd: Path) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *argv], cwd=cwd,
                          capture_output=True, text=True, check=True).stdout


def one(name: str, spec: str, extra: list[str]) -> dict[str, object]:
    import jsonschema

    with tempfile.TemporaryDirectory() as work:
        tree, commit = tree_of(spec, Path(work) / "tree")
        git("init", "-q", cwd=tree)
        git("add", "-A", "-f", cwd=tree)
        git("commit", "-qm", "before", "--no-verify", cwd=tree)
        diff = targetlang("upgrade", *extra, ".", cwd=tree)
        patch = Path(work) / "upgrade.diff"
        patch.write_bytes(diff.stdout.encode("utf-8", "surrogateescape"))
        applied = subprocess.run(["git", "apply", "--allow-empty", "--whitespace=nowarn",
                                  str(patch)], cwd=tree, capture_output=True, text=True)
        changed = len(git("diff", "--name-only", cwd=tree).split())
        codes = collections.Counter(line.split(": ")[1].split()[0] for line in
                                    diff.stderr.splitlines() if ": TL" in line)
        git("add", "-A", "-f", cwd=tree)
        git("commit", "-qm", "upgraded", "--no-verify", "--allow-empty", cwd=tree)
        second = targetlang("upgrade", "--write", *extra, ".", cwd=tree)
        after_apply = git("diff", "--stat", cwd=tree).strip()
        git("add", "-A", "-f", cwd=tree)
        git("commit", "-qm", "written", "--no-verify", "--allow-empty", cwd=tree)
        third = targetlang("upgrade", "--write", *extra, ".", cwd=tree)
        bytes_changed = len(git("diff", cwd=tree).encode())
        sarif = targetlang("upgrade", "--format", "sarif", *extra, ".", cwd=tree)
        try:
            jsonschema.validate(json.loads(sarif.stdout),
                                json.loads(SCHEMA.read_text(encoding="utf-8")))
            valid = "valid"
        except (ValueError, jsonschema.ValidationError) as error:
            valid = f"INVALID: {str(error)[:200]}"
        files = int(git("ls-files", cwd=tree).count("\n"))
    tracebacks = sum("Traceback" in run.stderr for run in (diff, second, third, sarif))
    return {"project": name, "commit": commit, "files": files, "diff changed": changed,
            "git apply": "ok" if applied.returncode == 0 else applied.stderr.strip()[:300],
            "write after apply": after_apply or "nothing", "second write bytes": bytes_changed,
            "reports": dict(sorted(codes.items())), "sarif": valid, "tracebacks": tracebacks,
            "exit codes": [diff.returncode, second.returncode, third.returncode]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="+", metavar="NAME=TREE")
    parser.add_argument("--runtime", action="store_true")
    parser.add_argument("--jobs", default="1")
    args = parser.parse_args()
    extra = ["--jobs", args.jobs] + (["--runtime"] if args.runtime else [])
    total = collections.Counter[str]()
    for spec in args.projects:
        name, _, where = spec.partition("=")
        found = one(name, where, extra)
        print(json.dumps(found), flush=True)
        total["projects"] += 1
        total["files changed"] += int(found["diff changed"])  # type: ignore[call-overload]
        total["second write bytes"] += int(found["second write bytes"])  # type: ignore[call-overload]
        total["apply failures"] += found["git apply"] != "ok"
        total["write after apply"] += found["write after apply"] != "nothing"
        total["invalid sarif"] += found["sarif"] != "valid"
        total["tracebacks"] += int(found["tracebacks"])  # type: ignore[call-overload]
        for code, count in found["reports"].items():  # type: ignore[union-attr]
            total[f"report {code}"] += count
    print(json.dumps(dict(total)))


if __name__ == "__main__":
    main()
