"""Check migrate --py on TVM's own Python files that call the target helpers TVM 0.24 removed.

    python3 scripts/check_helper_rewrites.py [--repo PATH] [--tag v0.21.0] [--to tvm-0.27]

Reads every ``*.py`` file at the tag of an apache/tvm git clone (default:
``shelf.TVM_GIT``, ``$TVM_GIT_DIR``) that calls ``tvm.target.cuda(...)``, ``arm_cpu``, ``mali``,
``hexagon``, ... (the helpers of ``targetlang/_data/releases/python-helpers.json``), and for
each: ``migrate_source(text, target_dialect=...)``; checks that the result compiles, that
every line outside the rewritten calls is byte-identical, and that each rewritten call's dict
is read by the target release as the helper's TVM 0.21 result migrated there. Prints the
counts (files, literal calls rewritten, non-literal calls reported with file:line:col).
Needs git, not TVM.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import warnings
from pathlib import Path

from shelf import TVM_GIT

import targetlang as tl
from targetlang.migration.pyscripts import migrate_source

HELPERS = r"(cuda|rocm|mali|intel_graphics|arm_cpu|rasp|bifrost|riscv_cpu|hexagon|stm32|adreno|create)"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=TVM_GIT)
    parser.add_argument("--tag", default="v0.21.0")
    parser.add_argument("--to", default="tvm-0.27")
    args = parser.parse_args()
    ref = f"refs/tags/{args.tag}"
    files = git(args.repo, "grep", "-l", "-E", rf"target\.{HELPERS}\(", ref, "--",
                "*.py").split()
    rewritten = reported = problems = 0
    for entry in files:
        path = entry.split(":", 1)[1]
        text = git(args.repo, "show", f"{ref}:{path}")
        result = migrate_source(text, path=path, target_dialect=args.to)
        try:
            compile(result.text, path, "exec", dont_inherit=True)
        except SyntaxError as error:
            print(f"{path}: does not compile: {error}")
            problems += 1
        lines = set()
        for rewrite in result.rewrites:
            count = rewrite.old.count("\n")
            lines.update(range(rewrite.line, rewrite.line + count + 1))
            if re.match(rf"[\w.]*\b{HELPERS}\(", rewrite.old):
                rewritten += 1
                call = ast.parse(rewrite.new, mode="eval").body
                assert isinstance(call, ast.Call)
                written = ast.literal_eval(call.args[0])
                old_call = ast.parse(rewrite.old, mode="eval").body
                assert isinstance(old_call, ast.Call) and isinstance(old_call.func, ast.Attribute)
                helper = old_call.func.attr
                from targetlang.configuration import presets
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    pos = [ast.literal_eval(a) for a in old_call.args]
                    kw = {k.arg: ast.literal_eval(k.value) for k in old_call.keywords if k.arg}
                    made = (tl.parse(*pos, **kw, dialect="tvm-0.21") if helper == "create"
                            else getattr(presets, helper)(*pos, **kw, dialect="tvm-0.21"))
                    expected = tl.from_json(tl.migrate(made, target_dialect=args.to),
                                            dialect=args.to)
                if tl.from_json(written, dialect=args.to) != expected:
                    print(f"{path}:{rewrite.line}: {rewrite.old} reads otherwise")
                    problems += 1
        old_lines, new_lines = text.splitlines(), result.text.splitlines()
        if len(old_lines) == len(new_lines):
            for number, (old, new) in enumerate(zip(old_lines, new_lines), start=1):
                if old != new and number not in lines:
                    print(f"{path}:{number}: changed outside a rewrite")
                    problems += 1
        for finding in result.findings:
            if "removed in TVM 0.24" in finding.message:
                reported += 1
                print(f"  {finding}")
    print(f"{args.tag} -> {args.to}: {len(files)} files, {rewritten} literal helper calls "
          f"rewritten, {reported} other helper calls reported, {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
