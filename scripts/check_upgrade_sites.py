"""Check the Python upgrade engine over a tree: what it rewrites means, to TVM 0.25/0.26/0.27,
what the original meant to TVM 0.21.

    python3 scripts/check_upgrade_sites.py TREE... [--to tvm-0.27] [--full] [--no-oracle]

Runs ``targetlang.migration.pyscripts.migrate_source`` on every ``*.py`` file under each TREE (for
example ``git archive v0.21.0`` of apache/tvm, unpacked), and checks

* every result compiles, and applying ``edits`` to the original gives the result;
* every rewritten string site (a legacy literal -> a dict display, or a string of JSON text):
  the old text is read by the TVM 0.21 oracle (``query.py``), the new value by the 0.25, 0.26
  and 0.27 oracles (``query.py --mode accept``), and the exports are compared as
  ``scripts/check_migration_releases.py`` compares them (its ``differences``);
* every rewritten helper call with literal arguments (``tvm.target.cuda("v100")``): the same,
  with the helper's TVM 0.21 result (``targetlang.configuration.presets``, checked against 0.21 by
  ``tests/unit/tools/test_presets.py``) as the old text.

Prints the counts: files, files changed, sites rewritten / bridged / reported (reports by
class), unique values checked, accepted and read alike per release, and every difference.
``--no-oracle`` skips the oracles (the counts and the compile checks only).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

from check_migration_releases import RELEASES, SHARED, accept, differences
from shelf import require_oracle

import targetlang as tl
from targetlang.configuration import presets
from targetlang.migration._program import Program
from targetlang.migration.pyscripts import NEWEST_RELEASE, apply_edits, migrate_file

#: The JSON releases of TVM a rewritten value is checked on (TVM TIRx is another product:
#: a tree is upgraded for it with --to tirx-0.1, and checked by check_migration_releases.py).
TVM_RELEASES = [release for release in RELEASES if not release.startswith("tirx")]
#: Classes of reports, by what their message says.
CLASSES = [
    ("moved meaning: a rewritten target compiled otherwise (TL71x)",
     re.compile(r"compiles it otherwise")),
    ("moved meaning: an option that left the target (TL72x)", re.compile(r"has no place in a target")),
    ("the text of a Target used as text: JSON since 0.24 (TL506)",
     re.compile(r"the text of the Target")),
    ("across modules: a cycle (TL801)", re.compile(r"leads back where it started")),
    ("across modules: a module that cannot be read (TL802)", re.compile(r"cannot be read as Python")),
    ("across modules: a module not in the run (TL803)", re.compile(r"not among the files of this run")),
    ("a parameter of an importable function (TL804)", re.compile(r"other modules can import and call")),
    ("a parameter pytest gives from a fixture not in the program",
     re.compile(r"which pytest gives at run time")),
    ("a parameter of a method", re.compile(r"is the parameter '[^']*' of the method")),
    ("a parameter whose known callers pass run-time values", re.compile(r"whose callers pass values")),
    ("run time: the command line", re.compile(r"the command-line option|is read by Target at run time")),
    ("run time: f-string / computed string", re.compile(r"f-string|computed string")),
    ("run time: a call's result", re.compile(r"the result of ")),
    ("run time: a variable bound more than once", re.compile(r"bound more than once")),
    ("run time: an attribute", re.compile(r"is the attribute |, the attribute ")),
    ("run time: an item of a collection only run time fills", re.compile(r"an item of ")),
    ("run time: a removed helper's run-time arguments", re.compile(r"has arguments known only at run time")),
    ("run time: other expression", re.compile(r"only run time knows")),
    ("legacy string of unknown use", re.compile(r"whose use here is not known")),
    ("property of something that looks like a Target", re.compile(r"looks like a Target")),
    ("property computed by TVM 0.21", re.compile(r"is a Target, and")),
    ("kept: also a device name, compared, a string, formatted (TL30x)",
     re.compile(r"is also used as something else")),
    ("tvm.runtime.enabled of a legacy text (TL504)", re.compile(r"reads a bare kind name there")),
    ("cannot be migrated without loss", re.compile(r"without loss")),
    ("helper import kept", re.compile(r"removed from tvm.target in TVM 0.24")),
    ("not a target in any release", re.compile(r"not a target in any release")),
]


def classify(message: str) -> str:
    for name, pattern in CLASSES:
        if pattern.search(message):
            return name
    return "other: " + message[:60]


def query_021(texts: list[str]) -> list[dict[str, Any]]:
    lines = "".join(json.dumps({"target": t}) + "\n" for t in texts)
    done = subprocess.run([str(require_oracle("0.21")), str(SHARED / "oracle" / "query.py")],
                          input=lines, capture_output=True, text=True, check=True, timeout=3000)
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answers) == len(texts)
    return answers


def helper_text(old: str) -> str | None:
    """TVM 0.21's target text of a helper call with literal arguments, else None."""
    try:
        call = ast.parse(old.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(call, ast.Call):
        return None
    name = call.func.attr if isinstance(call.func, ast.Attribute) else \
        call.func.id if isinstance(call.func, ast.Name) else ""
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
    except ValueError:
        return None  # arguments through names: checked by the unit tests, not here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if name == "create":
                return str(tl.parse(*args, dialect="tvm-0.21"))
            helper = getattr(presets, name, None)
            if helper is None:
                return None
            import inspect

            reads = set(inspect.signature(helper).parameters)
            kwargs = {k: v for k, v in kwargs.items() if k in reads}
            return str(helper(*args, **kwargs, dialect="tvm-0.21"))
        except (tl.TargetError, TypeError, ValueError):
            return None


def site_value(old: str, new: str) -> tuple[str, dict[str, Any]] | None:
    """(TVM 0.21's text, the new TargetJSON) of one rewritten site, or None (not a value)."""
    try:
        written = ast.literal_eval(new)
    except (ValueError, SyntaxError):
        call = None
        try:
            call = ast.parse(new.strip(), mode="eval").body
        except SyntaxError:
            return None
        if not (isinstance(call, ast.Call) and call.args and
                isinstance(call.func, ast.Attribute | ast.Name)):
            return None
        try:
            written = ast.literal_eval(call.args[0])
        except ValueError:
            return None
        text = helper_text(old)
        return (text, written) if text is not None and isinstance(written, dict) else None
    try:
        original = ast.literal_eval(old)
    except (ValueError, SyntaxError):
        return None
    if not isinstance(original, str):
        return None
    if isinstance(written, str):
        written = json.loads(written)
    return (original, written) if isinstance(written, dict) else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--to", default=NEWEST_RELEASE)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--runtime", action="store_true")
    parser.add_argument("--no-oracle", action="store_true")
    parser.add_argument("--each-file", action="store_true",
                        help="read each file on its own (not the tree as one program)")
    parser.add_argument("--list", type=Path, help="write every report (PATH:LINE: CODE message)")
    args = parser.parse_args()
    files = sorted(p for tree in args.trees for p in tree.rglob("*.py") if p.is_file())
    program = None if args.each_file else Program.of_files(
        [str(p) for p in files], roots=[str(t) for t in args.trees], target_dialect=args.to)
    listing: list[str] = []
    changed = 0
    kinds: Counter[str] = Counter()
    reports: Counter[str] = Counter()
    broken: list[str] = []
    values: dict[tuple[str, str], dict[str, Any]] = {}
    unchecked: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    for path in files:
        result = migrate_file(path, target_dialect=args.to, full=args.full,
                              runtime=args.runtime, program=program)
        for finding in result.findings:
            reports[classify(finding.message)] += 1
            codes[finding.code] += 1
            listing.append(f"{finding.path}:{finding.line}: {finding.code} {finding.message}")
        if not result.changed:
            continue
        changed += 1
        if apply_edits(result.original, result.edits) != result.text:
            broken.append(f"{path}: edits do not give the text")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile(result.text, str(path), "exec", dont_inherit=True)
        except SyntaxError as error:
            broken.append(f"{path}: does not compile: {error}")
        for rewrite in result.rewrites:
            kinds[rewrite.kind] += 1
            if rewrite.kind != "rewritten":
                continue
            pair = site_value(rewrite.old, rewrite.new)
            if pair is None:
                shape = ("property read" if ".attrs" in rewrite.new else
                         "import" if rewrite.old.lstrip().startswith("from") else "other")
                unchecked[shape] += 1
                continue
            values.setdefault((pair[0], json.dumps(pair[1], sort_keys=True)), pair[1])
    print(f"{len(files)} files, {changed} changed; sites: " +
          ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) +
          f"; {sum(reports.values())} reported" +
          (" (each file on its own)" if args.each_file else " (the tree as one program)"))
    for name, count in reports.most_common():
        print(f"  reported {count:5d}  {name}")
    print("  by code: " + ", ".join(f"{code} {n}" for code, n in sorted(codes.items())))
    if args.list:
        args.list.write_text("".join(line + "\n" for line in listing), encoding="utf-8")
    print(f"rewritten sites that are no target value (not sent to the oracles): "
          f"{dict(unchecked)}")
    for line in broken:
        print("BROKEN", line)
    if args.no_oracle or not values:
        return 1 if broken else 0
    keys = list(values)
    old_answers = query_021([text for text, _ in keys])
    problems = 0
    for release in TVM_RELEASES:
        kinds_new = tl.kinds(f"tvm-{release}")

        def kind_new(kind: str, kinds_new: Any = kinds_new) -> Any:
            return kinds_new[kind].attrs if kind in kinds_new else {}

        answers = accept(release, [values[k] for k in keys])
        accepted = same = 0
        for key, old, new in zip(keys, old_answers, answers):
            if not old["ok"]:
                print(f"  TVM 0.21 refuses {key[0]!r}: {old.get('error')}")
                problems += 1
                continue
            if not new["ok"]:
                print(f"  tvm-{release} refuses {key[1]} (for {key[0]!r}): {new.get('error')}")
                problems += 1
                continue
            accepted += 1
            found = differences(old["export"], new["export"], values[key], kind_new)
            if found:
                print(f"  tvm-{release} reads {key[1]} otherwise than 0.21 read {key[0]!r}: "
                      f"{found}")
                problems += 1
            else:
                same += 1
        print(f"tvm-{release}: {len(keys)} unique rewritten values, {accepted} accepted, {same} "
              f"read as TVM 0.21 read the original")
    return 1 if broken or problems else 0


if __name__ == "__main__":
    sys.exit(main())
