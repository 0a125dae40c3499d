"""Check targetlang.compat in each TVM oracle: the same meaning as TVM 0.21's own calls.

    python3 scripts/check_compat.py                      # ask the oracles, write the record
    python3 scripts/check_compat.py --check              # exit 1 if an oracle now answers otherwise
    python3 scripts/check_compat.py --collect TREE...    # helper calls of TVM source trees

The cases (``tests/data/compat/``): every target TVM 0.21 accepted in the golden set
(``tests/data/tvm-0.21/golden.jsonl``), every tag TVM 0.21 registered, targets with a host
beside them, and helper calls (``tvm.target.cuda(...)``, ``arm_cpu(...)``, ...): those of
``tests/data/presets/golden.jsonl`` and every call with literal arguments in TVM v0.21.0's
own Python files and older releases' (``helper-calls.json``, made by ``--collect`` from
checkouts of the tags, each a directory named after it: ``tvm-v0.21.0/``, ``tvm-v0.18.0/``,
``tvm-v0.12.0/``, ``tvm-v0.8.0/``; ``git archive`` of apache/tvm).

1. TVM 0.21 (``tvm021-python``) answers each case itself: ``Target(target, host)`` or
   ``tvm.target.<helper>(...)``, its ``export()``.
2. In the 0.25, 0.26 and 0.27 oracles and TVM TIRx's (``tirx-0.1``: the worker imports
   ``tvm_tirx``, as a program that runs on TIRx does, and compat must serve it without
   importing ``tvm``), ``targetlang.compat`` answers the same case
   (``compat.Target(...)``, ``compat.<helper>(...)``); its ``export()`` there is compared
   with TVM 0.21's after the rules of ``scripts/check_migration_releases.py`` (attributes only
   one release defines, values left to the machine to detect, ``feature.*``); the complete
   TargetJSON the migration wrote is the "given" dict of those rules.
3. In the 0.19 and 0.21 oracles (which read legacy text themselves), ``compat`` must pass the
   value through: its answer equals TVM's own, export for export (both refuse alike).

Texts TVM 0.21 refused that an older release read (``OLDER_CASES``: ``llvm --system-lib``,
``-target=``, ``-link-params``, ``-runtime=c``, ``c -executor=aot``, ...) are cases too: TVM
0.21 refuses them, compat reads them in that release and warns; each answer records the
``MigrationWarning`` messages compat gave.

Each oracle runs this file as a worker (``--worker compat|legacy``, PYTHONPATH = lark and this
checkout). Writes ``tests/data/compat/check.jsonl.xz``, one row per (case, release), replayed
by ``tests/golden/test_compat_check.py`` without TVM; prints the counts per release.
"""

from __future__ import annotations

import argparse
import ast
import collections.abc
import json
import lzma
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

from shelf import REPO, oracle_env, oracle_python

DATA = REPO / "tests" / "data" / "compat"
OUT = DATA / "check.jsonl.xz"
CALLS = DATA / "helper-calls.json"
GOLDEN_021 = REPO / "tests" / "data" / "tvm-0.21" / "golden.jsonl"
PRESETS = REPO / "tests" / "data" / "presets" / "golden.jsonl"
JSON_RELEASES = ("0.25", "0.26", "0.27", "tirx-0.1")
LEGACY_RELEASES = ("0.19", "0.21")
MARK = "@@answer@@ "
HELPERS = ("cuda", "rocm", "mali", "intel_graphics", "arm_cpu", "rasp", "bifrost", "riscv_cpu",
           "hexagon", "stm32", "adreno", "create")
#: a target with a host beside it (TVM 0.21: the host replaces the target's own)
HOST_CASES = [
    ("cuda -arch=sm_80", "llvm -mtriple=aarch64-linux-gnu"),
    ("cuda -host='llvm -mcpu=skylake'", "llvm -mtriple=aarch64-linux-gnu"),
    ("opencl -device=mali", "llvm -mtriple=aarch64-linux-gnu -mattr=+neon"),
    ("llvm -mtriple=aarch64-linux-gnu", "llvm"),
    ("nvidia/jetson-nano", "llvm -mtriple=aarch64-linux-gnu"),
    ("cuda", "nvidia/jetson-nano"),
    ("rocm -mcpu=gfx908", "llvm -mcpu=znver2"),
    ("vulkan -from_device=0", "llvm"),
    ('{"kind": "cuda", "arch": "sm_75"}', '{"kind": "llvm", "mcpu": "skylake"}'),
    ("hexagon -mcpu=hexagonv68", "llvm -mtriple=x86_64-linux-gnu"),
]
#: text TVM 0.21 refused that an older release read (options moved out of the target, renamed)
OLDER_CASES = ["llvm --system-lib", "llvm -system-lib", "llvm -target=aarch64-linux-gnu",
               "llvm -device=arm_cpu -target=aarch64-linux-gnu -mattr=+neon",
               "llvm -link-params=1", "llvm -mcpu=cortex-a72 -system-lib -link-params=1",
               "c -runtime=c", "c -executor=aot", "c -executor=aot -interface-api=c -unpacked-api=1",
               "llvm -runtime=c++ -system-lib=1", "cuda -shared_memory_per_block=1024",
               "cuda -arch=sm_80 -shared_memory_per_block=49152 -link-params=0"]


def dialect_of(release: str) -> str:
    return release if release.startswith("tirx-") else f"tvm-{release}"


# ---- the cases ------------------------------------------------------------------------------------

def collect(trees: list[Path]) -> list[dict[str, Any]]:
    """Every helper call with literal arguments in the Python files of TVM source trees."""
    found: dict[str, dict[str, Any]] = {}
    for tree, path in ((t, p) for t in trees for p in sorted(t.rglob("*.py"))):
        try:
            module = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        imported = {alias.asname or alias.name: alias.name for node in ast.walk(module)
                    if isinstance(node, ast.ImportFrom) and node.module in ("tvm.target",
                                                                            "tvm.target.target")
                    for alias in node.names if alias.name in HELPERS}
        for node in ast.walk(module):
            if not isinstance(node, ast.Call):
                continue
            name = _helper_name(node.func, imported)
            if name is None:
                continue
            try:
                args = [_constant(a) for a in node.args]
                kwargs = {k.arg: _constant(k.value) for k in node.keywords if k.arg}
            except ValueError:
                continue  # an argument known only at run time
            if any(k.arg is None for k in node.keywords) or \
                    any(isinstance(a, ast.Starred) for a in node.args):
                continue
            case = {"fn": name, "args": args, "kwargs": kwargs}
            key = json.dumps(case, sort_keys=True)
            where = f"{tree.name}/{path.relative_to(tree)}:{node.lineno}"
            found.setdefault(key, {**case, "where": where})
    return list(found.values())


def _constant(node: ast.expr) -> Any:
    """A literal, or arithmetic on numbers (``4 * 2**20``); ValueError for anything else."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        if all(isinstance(n, (ast.BinOp, ast.UnaryOp, ast.Constant, ast.operator, ast.unaryop))
               for n in ast.walk(node)) and \
                all(isinstance(n.value, (int, float)) for n in ast.walk(node)
                    if isinstance(n, ast.Constant)):
            return eval(compile(ast.Expression(node), "<arg>", "eval"), {"__builtins__": {}})
        raise


def _helper_name(func: ast.expr, imported: dict[str, str]) -> str | None:
    if isinstance(func, ast.Name):
        return imported.get(func.id)
    if isinstance(func, ast.Attribute) and func.attr in HELPERS:
        owner = func.value  # tvm.target.cuda, target.cuda, tvm.target.target.cuda
        if isinstance(owner, ast.Attribute) and owner.attr == "target":
            return func.attr
        if isinstance(owner, ast.Name) and owner.id == "target":
            return func.attr
    return None


def cases() -> list[dict[str, Any]]:
    import targetlang as tl

    out: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(case: dict[str, Any], source: str) -> None:
        key = json.dumps(case, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append({**case, "source": source})

    for name in sorted(tl.tags("tvm-0.21")):
        add({"target": name}, "tag")
    for line in GOLDEN_021.read_text("utf-8").splitlines():
        row = json.loads(line)
        if row["ok"]:
            add({"target": row["input"]}, "golden")
    for target, host in HOST_CASES:
        add({"target": target, "host": host}, "host")
    for text in OLDER_CASES:
        add({"target": text}, "older")
    for line in PRESETS.read_text("utf-8").splitlines():
        row = json.loads(line)
        if row["fn"] in HELPERS and row["ok"]:
            add({"fn": row["fn"], "args": row["args"], "kwargs": row["kwargs"]}, "presets")
    for call in json.loads(CALLS.read_text("utf-8")):
        add({"fn": call["fn"], "args": call["args"], "kwargs": call["kwargs"]},
            call["where"])
    return out


# ---- worker: runs inside an oracle interpreter -----------------------------------------------------

def plain(value: Any, target_type: type) -> Any:
    """TVM's values (Map, Array, String, IntImm, Target) as plain JSON."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, target_type):
        return plain(value.export(), target_type)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (int, float)):
        return value
    if hasattr(value, "dtype") and hasattr(value, "value"):
        return bool(value.value) if str(value.dtype) == "bool" else value.value
    if isinstance(value, collections.abc.Mapping) or hasattr(value, "items"):
        return {str(k): plain(v, target_type) for k, v in value.items()}
    return [plain(v, target_type) for v in value]


def worker(mode: str) -> None:
    try:
        import tvm
    except ImportError:  # TVM TIRx: a program that runs on it imports tvm_tirx, never tvm
        import tvm_tirx as tvm
        import tvm_tirx.target  # noqa: F401

    if mode == "compat":
        import targetlang.compat as api  # PYTHONPATH: oracle_env()
    else:
        api = tvm.target
    import targetlang

    for line in sys.stdin:
        case = json.loads(line)
        answer: dict[str, Any] = {"tvm_version": tvm.__version__}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if "fn" in case:
                    made = getattr(api, case["fn"])(*case["args"], **case["kwargs"])
                else:
                    made = api.Target(case["target"], case.get("host"))
                answer.update(ok=True, export=plain(made, tvm.target.Target),
                              module=type(made).__module__.split(".")[0])
            except Exception as error:  # noqa: BLE001 (every refusal is an answer)
                answer.update(ok=False, error=f"{type(error).__name__}: {str(error)[:300]}")
        said = [str(w.message) for w in caught
                if issubclass(w.category, targetlang.MigrationWarning)]
        if said:
            answer["warnings"] = said
        if "tvm_tirx" in sys.modules and "tvm" in sys.modules:
            answer["imported_both"] = True  # (TIRx aborts first: never reached)
        print(MARK + json.dumps(answer), flush=True)


def signature(function: Any) -> list[list[str]]:
    """A function's parameters as ``[name, kind, repr(default)]`` (``""``: none)."""
    import inspect

    function = function.__init__ if isinstance(function, type) else function
    return [[p.name, p.kind.name, "" if p.default is p.empty else repr(p.default)]
            for p in inspect.signature(function).parameters.values() if p.name != "self"]


def signatures() -> dict[str, list[list[str]]]:
    """TVM 0.21's ``tvm.target.Target`` and helpers: their parameters (in the 0.21 oracle)."""
    import tvm.target

    return {name: signature(getattr(tvm.target, name)) for name in (*HELPERS, "Target")}


def run(release: str, mode: str, todo: list[dict[str, Any]]) -> list[dict[str, Any]]:
    exe = oracle_python(release)
    if not exe.exists():
        raise SystemExit(f"no TVM {release} oracle at {exe}; run shared/oracle/install.sh")
    answers: list[dict[str, Any]] = []
    while len(answers) < len(todo):  # after a crash, the worker goes on past the case
        done = subprocess.run([str(exe), __file__, "--worker", mode],
                              input="".join(json.dumps(c) + "\n" for c in todo[len(answers):]),
                              capture_output=True, text=True, timeout=7200, check=False,
                              env=oracle_env())
        answers += [json.loads(line[len(MARK):]) for line in done.stdout.splitlines()
                    if line.startswith(MARK)]  # TVM prints to standard output too
        if done.returncode != 0 and len(answers) < len(todo):
            answers.append({"ok": False, "error": f"Crash: exit {done.returncode}"})
    return answers


# ---- driver ----------------------------------------------------------------------------------------

def requested(case: dict[str, Any], dialect: str) -> tuple[Any, dict[str, Any] | None]:
    """What compat hands the TVM of ``dialect`` for ``case`` (the minimal dicts), and the
    complete TargetJSON of the migration (the "given" dict of the comparison rules); the
    reason instead of the first where compat refuses."""
    import targetlang as tl
    from targetlang import compat

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if "fn" in case and case["fn"] != "create":
                legacy = compat._legacy_helper(case["fn"], case["args"], case["kwargs"])
                return (compat._config(legacy, dialect),
                        tl.migrate(legacy, target_dialect=dialect))
            target = case["args"][0] if "fn" in case else case["target"]
            sent: Any = compat._config(target, dialect)
            # (what TVM 0.21 refused, an older release read: as compat reads it)
            full = tl.migrate(target, source_dialect="tvm-0.21" if _read_by_021(target)
                              else "auto", target_dialect=dialect)
            if case.get("host") is not None:
                full["host"] = tl.migrate(case["host"], source_dialect="tvm-0.21",
                                          target_dialect=dialect)
                sent = {"target": sent, "host": compat._config(case["host"], dialect)}
            return sent, full
        except tl.TargetError as error:
            return f"{type(error).__name__}: {error.message}", None


def _read_by_021(text: str) -> bool:
    import targetlang as tl

    try:
        tl.parse(text)
    except tl.TargetError:
        return False
    return True


def record() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from check_migration_releases import differences

    import targetlang as tl

    todo = cases()
    legacy = run("0.21", "legacy", todo)
    rows: list[dict[str, Any]] = []
    for release in JSON_RELEASES:
        dialect = dialect_of(release)
        kinds_new = tl.kinds(dialect)

        def kind_new(kind: str, kinds_new: Any = kinds_new) -> Any:
            return kinds_new[kind].attrs if kind in kinds_new else {}

        for case, old, new in zip(todo, legacy, run(release, "compat", todo)):
            sent, full = requested(case, dialect)
            row: dict[str, Any] = {"release": release, "case": case, "tvm021": old,
                                   "answer": new, "sent": sent}
            if old["ok"] and new["ok"]:
                row["differences"] = differences(old["export"], new["export"], full, kind_new)
            rows.append(row)
    for release in LEGACY_RELEASES:
        own = legacy if release == "0.21" else run(release, "legacy", todo)
        for case, theirs, mine in zip(todo, own, run(release, "compat", todo)):
            rows.append({"release": release, "case": case, "tvm": theirs, "answer": mine,
                         "passed_through": theirs.get("export") == mine.get("export")
                         and theirs["ok"] == mine["ok"]})
    sigs = {"0.21": json.loads(_signatures_in("0.21"))}
    return rows, sigs


def _signatures_in(release: str) -> str:
    exe = oracle_python(release)
    return subprocess.run([str(exe), __file__, "--signatures"], capture_output=True, text=True,
                          check=True, env=oracle_env()).stdout


def verdict(row: dict[str, Any]) -> str:
    """``same``, ``different``, ``error`` (compat refused what TVM 0.21 accepted) or ``both
    refused``; for a legacy release ``passed through`` or ``not passed through``."""
    if "passed_through" in row:
        return "passed through" if row["passed_through"] else "not passed through"
    old, new = row["tvm021"], row["answer"]
    if not old["ok"]:
        return "both refused" if not new["ok"] else "tvm 0.21 refused"
    if not new["ok"]:
        return "error"
    return "different" if row["differences"] else "same"


def summary(rows: list[dict[str, Any]]) -> str:
    lines = []
    for release in (*JSON_RELEASES, *LEGACY_RELEASES):
        mine = [r for r in rows if r["release"] == release]
        counts = collections.Counter(verdict(r) for r in mine)
        sources = collections.Counter(r["case"]["source"].split(":")[0].split("/")[0]
                                      for r in mine)
        lines.append(f"{dialect_of(release)}: {len(mine)} cases ({dict(sorted(sources.items()))}): "
                     + ", ".join(f"{n} {what}" for what, n in sorted(counts.items())))
        why = collections.Counter()
        for row in mine:
            if verdict(row) in ("different", "error", "not passed through"):
                reason = row.get("differences") or row["answer"].get("error")
                why[str(reason).split(" (its kinds")[0]] += 1
        lines += [f"    {n} x {reason}" for reason, n in why.most_common()]
        if release in LEGACY_RELEASES:
            refused = sum(1 for r in mine if r["passed_through"] and not r["tvm"]["ok"])
            lines.append(f"    (of those passed through, {refused} refused alike by TVM and compat)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--collect", type=Path, nargs="+", metavar="TREE")
    parser.add_argument("--worker", choices=("compat", "legacy"))
    parser.add_argument("--signatures", action="store_true")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if args.signatures:
        print(json.dumps(signatures(), indent=1, sort_keys=True))
        return
    if args.collect:
        calls = collect(args.collect)
        CALLS.write_text(json.dumps(calls, indent=1) + "\n", "utf-8")
        print(f"{len(calls)} helper calls with literal arguments")
        return
    rows, sigs = record()
    data = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows).encode()
    print(summary(rows))
    if args.check:
        old = lzma.decompress(OUT.read_bytes())
        old_sigs = json.loads((DATA / "signatures.json").read_text("utf-8"))
        sys.exit(0 if old == data and old_sigs == sigs else 1)
    OUT.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    (DATA / "signatures.json").write_text(json.dumps(sigs, indent=1, sort_keys=True) + "\n",
                                          "utf-8")


if __name__ == "__main__":
    main()
