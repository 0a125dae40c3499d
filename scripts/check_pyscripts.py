"""Check ``targetlang migrate --py`` over a tree of Python files (TVM's own tutorials and tests).

    python3 scripts/check_pyscripts.py DIR...      # e.g. a checkout of TVM v0.21.0's docs/ tests/

To get TVM v0.21.0's files from a git mirror:

    git -C TVM_GIT archive refs/tags/v0.21.0 docs tests/python apps | tar -x -C /tmp/tvm021

For every file it checks, independently of the rewriting code: the rewritten file compiles;
every difference from the original lies inside a rewritten literal; each new literal,
evaluated (a minimal dict), reads in TVM 0.27 as ``targetlang.migrate()`` of the old one. With the TVM 0.27 oracle installed
(``../shared/oracle``) it also asks TVM 0.27 to accept every new literal. Prints a summary;
exit 1 on any failure.
"""

from __future__ import annotations

import ast
import difflib
import json
import subprocess
import sys
import warnings
from pathlib import Path

from shelf import ORACLE_DIR, REPO

SHARED = REPO.parent / "shared" if (REPO.parent / "shared").exists() else Path("/work/shared")


def main() -> int:
    import targetlang as tl
    from targetlang.migration.pyscripts import migrate_file

    files = sorted(p for root in sys.argv[1:] for p in Path(root).rglob("*.py"))
    failures: list[str] = []
    literals: list[dict[str, object]] = []
    changed = rewrites = findings = 0
    for path in files:
        result = migrate_file(path)
        findings += len(result.findings)
        if not result.changed:
            continue
        changed += 1
        rewrites += len(result.rewrites)
        try:
            compile(result.text, str(path), "exec", dont_inherit=True)
        except SyntaxError as error:
            failures.append(f"{path}: does not compile: {error}")
        olds = set()
        for rewrite in result.rewrites:
            old = ast.literal_eval(rewrite.old)
            new = ast.literal_eval(rewrite.new)
            olds.add(rewrite.old)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                # minimal output: TVM 0.27 must read it as the complete migrated dict
                if tl.from_json(new, dialect="tvm-0.27").to_json() != tl.migrate(old):
                    failures.append(f"{path}:{rewrite.line}: {rewrite.old} != migrate()")
            literals.append(new)
        # Every change must sit inside a rewritten literal: compare the texts line by line
        # (not our edits), and each differing block must turn into the new one by replacing
        # old literals with new ones and nothing else.
        before = result.original.splitlines(keepends=True)
        after = result.text.splitlines(keepends=True)
        pairs = sorted({(r.old, r.new) for r in result.rewrites}, key=lambda p: -len(p[0]))
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal":
                continue
            old_block, new_block = "".join(before[a0:a1]), "".join(after[b0:b1])
            for old_text, new_text in pairs:
                old_block = old_block.replace(old_text, new_text)
            if old_block != new_block:
                failures.append(f"{path}:{a0 + 1}: a change outside the rewritten literals")
    accepted = "not asked (no TVM 0.27 oracle)"
    python = ORACLE_DIR / "bin" / "tvm027-python"
    if python.exists() and literals:
        done = subprocess.run([str(python), str(SHARED / "oracle" / "query.py"), "--mode",
                               "accept"], input="".join(json.dumps(x) + "\n" for x in literals),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              check=True)
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        refused = [a for a in answers if not a["ok"]]
        accepted = f"{len(answers) - len(refused)} of {len(answers)} accepted by TVM 0.27"
        failures += [f"TVM 0.27 refused {a['input']}: {a['error']}" for a in refused]
    print(f"{len(files)} files, {changed} rewritten, {rewrites} literals rewritten, "
          f"{findings} places reported; {accepted}")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
