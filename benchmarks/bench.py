"""Time targetlang against TVM 0.21 in one run, on the same corpora and machine.

    python3 benchmarks/bench.py              # all sections; TVM too when its oracle is installed
    python3 benchmarks/bench.py --quick      # fewer repeats (a smoke run)
    python3 benchmarks/bench.py --only corpora --corpus odd --corpus tophub   # some corpora

The corpora section times ``parse -> to_json()`` per target on TopHub's target strings, simple
non-Arm strings, the golden corpus, long strings, every shape, every spelling and every odd
spelling (each class on its own too): cold (every string new to targetlang's memo), warm (the
memo hit, and parse then to_json), against TVM 0.21's ``Target(text).export()`` in one
long-lived process of the oracle (TVM has no cache). Each figure is the median of 15
repetitions; in each repetition the two tools take one pass over the corpus one after the
other (which goes first alternates), so a shared machine's slow moments land on both; the
load average is printed. Beside each corpus, how many of its strings reach the general path
(counted). The other sections: a million distinct strings in one process
(``bench_distinct.py``); the serializers on their own (to_json, to_string, from_json against
export(), str() and Target(dict)); the cold read by stage; the scaling series (time against
input size); deep JSON nesting; ``import targetlang`` time (those keep the best of
``--rounds`` rounds).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = Path(os.environ.get("TARGETLANG_SHARED_DIR", REPO.parent / "shared"))
ORACLE = Path(os.environ.get("TARGETLANG_ORACLE_DIR", Path.home() / ".cache/targetlang-oracle"))
TVM021 = ORACLE / "bin" / "tvm021-python"

sys.path.insert(0, str(REPO))
from generate_any_shape import read as read_any_shape  # noqa: E402  (benchmarks/)
from generate_odd_spellings import read as read_odd_spellings  # noqa: E402  (benchmarks/)
from generate_spellings import read as read_spellings  # noqa: E402  (benchmarks/)

import targetlang as tl  # noqa: E402
from targetlang.target import _parse_memo, _parse_uncached  # noqa: E402

ENV = tl.Environment.no_gpu()

# TVM's side: one long-lived process of the oracle's interpreter, which times one pass over a
# corpus (each string read and exported, `loops` times) each time it is asked, so that the two
# tools alternate pass by pass in one run. Its answers are marked: TVM prints notes of its own.
TVM_WORKER = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
from tvm.target import Target
corpora = json.loads(sys.stdin.readline())
print("ready", flush=True)
for line in sys.stdin:
    name, loops = json.loads(line)
    texts = corpora[name]
    start = time.perf_counter()
    for _ in range(loops):
        for text in texts:
            try:
                Target(text).export()
            except Exception:
                pass
    print("seconds", json.dumps((time.perf_counter() - start) / (loops * len(texts))),
          flush=True)
"""


# The serializers on their own, on targets already read: export(), str() and Target(dict).
# TVM's str() keeps the text it makes: its first call on a target makes it (timed on targets
# read afresh for every repeat), later calls return it ("again"). TVM's export() answers an
# FFI Map, which Target() takes without converting anything: Target(dict) is timed on the
# export as a plain Python dict (what json.load gives a user), and those very dicts are sent
# back for targetlang's from_json(); Target(Map) is timed too, for the record.
TVM_SERIALIZERS = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
import tvm
from tvm.target import Target
corpora, repeats = json.load(sys.stdin)
out, configs = {}, {}
def plain(value):
    if isinstance(value, str):
        return str(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    return [plain(v) for v in value]
def best_of(call, items):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            call(item)
        best = min(best, time.perf_counter() - start)
    return best / len(items)
def first_call(call, texts):
    best = float("inf")
    for _ in range(repeats):
        fresh = [Target(text) for text in texts]
        start = time.perf_counter()
        for target in fresh:
            call(target)
        best = min(best, time.perf_counter() - start)
    return best / len(texts)
for name, texts in corpora.items():
    targets, valid = [], []
    for text in texts:
        try:
            targets.append(Target(text))
            valid.append(text)
        except Exception:
            pass
    maps, dicts = [], []
    for target in targets:
        try:
            exported = target.export()
            config = plain(exported)
            Target(exported)
            Target(config)
        except Exception:
            continue
        maps.append(exported)
        dicts.append(config)
    out[name] = {"to_json": best_of(lambda t: t.export(), targets),
                 "to_string": first_call(str, valid),
                 "to_string_again": best_of(str, targets),
                 "from_json": best_of(Target, dicts),
                 "from_map": best_of(Target, maps)}
    configs[name] = dicts
print(json.dumps({"times": out, "configs": configs}))
"""


def corpora() -> dict[str, list[str]]:
    tophub = [line for line in (REPO / "tests" / "data" / "tophub" / "tophub-targets.txt")
              .read_text(encoding="utf-8").splitlines() if line]
    # Generated from TVM 0.21's schema with a fixed seed (scripts/generate_bench_corpora.py).
    simple = (HERE / "corpora" / "simple.txt").read_text("utf-8").splitlines()
    golden = [json.loads(line)["input"] for line in
              (REPO / "tests" / "data" / "tvm-0.21" / "golden.jsonl").read_text("utf-8").splitlines()]
    # Inputs that crash TVM's process cannot be timed there.
    crashes = {json.loads(line)["input"] for line in
               (REPO / "tests" / "data" / "tvm-0.21" / "golden.jsonl").read_text("utf-8").splitlines()
               if json.loads(line)["error_type"] == "Crash"}
    golden = [g for g in golden if g not in crashes and "\0" not in g]
    long = (HERE / "corpora" / "long.txt").read_text("utf-8").splitlines()
    named = {"tophub": tophub, "simple": simple, "golden": golden, "long": long}
    # Every shape: hosts in quotes, JSON text, tags, any spelling (generate_any_shape.py).
    named["any shape"] = read_any_shape()
    # Every spelling of an option (benchmarks/generate_spellings.py): whole, then each alone.
    spellings = read_spellings()
    named["spellings"] = [text for texts in spellings.values() for text in texts]
    named.update({f"spellings: {name}": texts for name, texts in spellings.items()})
    # The odd spellings TVM 0.21 reads (benchmarks/generate_odd_spellings.py): whole, then by class.
    odd = read_odd_spellings()
    named["odd spellings"] = [text for texts in odd.values() for text in texts]
    named.update({f"odd: {name}": texts for name, texts in odd.items()})
    return named


def time_ours(texts: Sequence[str], read: Callable[[str], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for text in texts:
            try:
                read(text)
            except tl.TargetError:
                pass
        best = min(best, time.perf_counter() - start)
    return best / len(texts)


def cold(text: str) -> object:
    return _parse_uncached(text, environment=ENV).to_json()


def warm(text: str) -> object:
    return tl.parse(text, environment=ENV).to_json()


def memo_hit(text: str) -> object:
    return tl.parse(text, environment=ENV)


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.2f}"


class TvmWorker:
    """TVM 0.21's side of the corpora section: ``one_pass(name, loops)`` is the time per
    target of one pass over a corpus in the oracle's long-lived process (None: no oracle)."""

    def __init__(self, named: dict[str, list[str]]) -> None:
        self.process: subprocess.Popen[str] | None = None
        if TVM021.exists():
            self.process = subprocess.Popen([str(TVM021), "-c", TVM_WORKER], text=True,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL)
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(json.dumps(named) + "\n")
            self.process.stdin.flush()
            if self.process.stdout.readline().strip() != "ready":
                raise RuntimeError("the TVM 0.21 oracle did not start")

    def one_pass(self, name: str, loops: int) -> float | None:
        if self.process is None:
            return None
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps([name, loops]) + "\n")
        self.process.stdin.flush()
        while True:  # (TVM prints notes of its own: "ROCm not detected, ...")
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the TVM 0.21 oracle stopped")
            if line.startswith("seconds "):
                seconds: float = json.loads(line[8:])
                return seconds

    def close(self) -> None:
        if self.process is not None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait()


def one_pass(texts: Sequence[str], read: Callable[[str], object], loops: int) -> float:
    """Seconds per target of one pass over ``texts`` (each read ``loops`` times)."""
    start = time.perf_counter()
    for _ in range(loops):
        for text in texts:
            try:
                read(text)
            except tl.TargetError:
                pass
    return (time.perf_counter() - start) / (loops * len(texts))


def general_share(texts: Sequence[str]) -> int:
    """How many of ``texts`` reach the general path (the grammar's parse tree) at any level of
    a cold read: the one-pass reader of legacy text or of TargetJSON handed over (counted by
    wrapping the two readers where the lowering calls them)."""
    from targetlang._lower import core

    handed: list[bool] = []

    def counted(reader: Callable[..., Any]) -> Callable[..., Any]:
        def read(*args: Any, **kwargs: Any) -> Any:
            target = reader(*args, **kwargs)
            if target is None:
                handed.append(True)
            return target
        return read

    readers = core.read_plain_text, core.read_plain_config
    core.read_plain_text, core.read_plain_config = (counted(r) for r in readers)  # type: ignore[assignment]
    try:
        reached = 0
        for text in texts:
            handed.clear()
            try:
                cold(text)
            except tl.TargetError:
                pass
            reached += bool(handed)
    finally:
        core.read_plain_text, core.read_plain_config = readers  # type: ignore[assignment]
    return reached


#: Strings read per pass at least: a pass over a small corpus reads it several times.
MIN_READS = 2000


def section_corpora(repetitions: int, only: Sequence[str] | None = None) -> list[str]:
    """Medians of ``repetitions`` passes per corpus, TVM 0.21 and targetlang alternating pass
    by pass (which goes first alternates too); cold, the memo hit, and parse -> to_json()."""
    named = corpora()
    if only:
        named = {k: v for k, v in named.items() if any(k.startswith(o) for o in only)}
    load_before = os.getloadavg()
    tvm = TvmWorker(named)
    samples: dict[str, dict[str, list[float]]] = {
        name: {"tvm": [], "cold": [], "hit": [], "warm": []} for name in named}
    valid = {name: [t for t in texts if not _refused(t)] for name, texts in named.items()}
    try:
        for repetition in range(repetitions):
            for name, texts in named.items():
                loops = -(-MIN_READS // len(texts))
                for side in ("tvm", "cold") if repetition % 2 == 0 else ("cold", "tvm"):
                    seconds = tvm.one_pass(name, loops) if side == "tvm" else \
                        one_pass(texts, cold, loops)
                    if seconds is not None:
                        samples[name][side].append(seconds)
                # Warm: the valid targets read again (what a tuning log repeats; each memo
                # holds them from the cold section's first warm() call).
                if valid[name]:
                    warm_loops = -(-MIN_READS // len(valid[name]))
                    samples[name]["hit"].append(one_pass(valid[name], memo_hit, warm_loops))
                    samples[name]["warm"].append(one_pass(valid[name], warm, warm_loops))
    finally:
        tvm.close()
    load_after = os.getloadavg()
    lines = [f"Medians of {repetitions} repetitions. In each, TVM 0.21's `Target(text).export()` "
             "(in one long-lived process of the oracle) and targetlang's cold read take one "
             "pass each over the corpus, one after the other (which goes first alternates); "
             f"a pass reads at least {MIN_READS:,} strings (a small corpus several times). "
             "Cold: `parse -> to_json()` of a string new to the memo (`_parse_uncached`). "
             "Warm: the memo hit, `parse(text)` of a string read before; and "
             "`parse(text).to_json()`. General path: the strings whose cold read reaches the "
             "grammar's parse tree (the one-pass readers handed over), counted.",
             f"Load average (1, 5, 15 min) at the start: "
             f"{', '.join(f'{x:.2f}' for x in load_before)}; at the end: "
             f"{', '.join(f'{x:.2f}' for x in load_after)} ({os.cpu_count()} cores).", "",
             "| corpus | targets | general path | TVM 0.21 µs (min-max) | targetlang cold µs | "
             "cold / TVM | warm: memo hit µs | warm: parse -> to_json() µs |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, texts in named.items():
        row = samples[name]
        reached = general_share(texts)
        theirs = statistics.median(row["tvm"]) if row["tvm"] else None
        ours_cold = statistics.median(row["cold"])
        spread = f" ({us(min(row['tvm']))}-{us(max(row['tvm']))})" if row["tvm"] else ""
        hit = us(statistics.median(row["hit"])) if row["hit"] else "n/a"
        warm_json = us(statistics.median(row["warm"])) if row["warm"] else "n/a"
        lines.append(f"| {name} | {len(texts)} | {reached} ({reached / len(texts):.0%}) | "
                     f"{us(theirs) + spread if theirs else 'n/a'} | {us(ours_cold)} | "
                     f"{f'{ours_cold / theirs:.3f}' if theirs else 'n/a'} | {hit} | "
                     f"{warm_json} |")
    refused = [t for t in named.get("tophub", []) if _refused(t)]
    if refused:
        lines.append("")
        lines.append(f"Warm, refused strings ({len(refused)} TopHub strings with TVM 0.6's "
                     f"-target=, a fresh TargetError each): "
                     f"{us(one_pass(refused, warm, -(-MIN_READS // len(refused))))} µs")
    return lines


def section_warm_distinct(repeats: int, rounds: int) -> list[str]:
    """Warm reads of equal-but-distinct strings: parse() of a text read before, handed over as
    a new str object equal to the old one (so its hash is not cached yet), as a program that
    reads the same target strings from a file again and again does."""
    lines = ["| corpus | targets | environment | warm, equal-but-distinct µs | "
             "warm, the same object µs |", "|---|---:|---|---:|---:|"]
    for name, texts in corpora().items():
        valid = [text for text in texts if not _refused(text)]
        for label, environment in (("no_gpu()", ENV), ("None", None)):
            for text in valid:
                tl.parse(text, environment=environment)
            distinct = same = float("inf")
            for _ in range(rounds * repeats):
                copies = [text.encode().decode() for text in valid]  # new objects, equal
                start = time.perf_counter()
                for text in copies:
                    tl.parse(text, environment=environment)
                distinct = min(distinct, time.perf_counter() - start)
                start = time.perf_counter()
                for text in valid:
                    tl.parse(text, environment=environment)
                same = min(same, time.perf_counter() - start)
            lines.append(f"| {name} | {len(valid)} | {label} | {us(distinct / len(valid))} | "
                         f"{us(same / len(valid))} |")
    return lines


def section_serializers(repeats: int, rounds: int) -> list[str]:
    """to_json(), to_string() and from_json() each on its own, against TVM's export(), str()
    and Target(dict) on the same targets. A Target keeps its JSON and text once made, and
    TVM's keeps its str(): the first call on a target is timed on targets read afresh for
    every repeat, on both sides; "again" times a later call on the same targets. from_json()
    reads the very dicts TVM's Target(dict) reads (its exports as plain dicts); without
    TVM, targetlang's own exports."""
    named = {k: v for k, v in corpora().items() if k in ("tophub", "simple", "long")}
    theirs: dict[str, dict[str, float]] = {}
    ours: dict[str, dict[str, float]] = {}
    configs: dict[str, list[dict[str, Any]]] = {}
    members = ("to_json", "to_string", "to_string_again", "from_json", "from_map")
    for _ in range(rounds):
        if TVM021.exists():
            done = subprocess.run([str(TVM021), "-c", TVM_SERIALIZERS],
                                  input=json.dumps([named, repeats]), capture_output=True,
                                  text=True, check=True)
            now = json.loads(done.stdout.splitlines()[-1])
            for name, row in now["times"].items():
                theirs[name] = {k: min(v, theirs.get(name, {}).get(k, v)) for k, v in row.items()}
            configs = now["configs"]
        for name, texts in named.items():
            valid = [t for t in texts if not _refused(t)]
            dicts = configs.get(name) or [tl.parse(t, environment=ENV).to_json() for t in valid]
            row = dict.fromkeys(members, float("inf"))
            for _ in range(repeats):
                for member, call in (("to_json", tl.Target.to_json),
                                     ("to_string", tl.Target.to_string)):
                    fresh = [_parse_uncached(t, environment=ENV) for t in valid]
                    start = time.perf_counter()
                    for target in fresh:
                        call(target)
                    row[member] = min(row[member], (time.perf_counter() - start) / len(fresh))
                    if member == "to_string":
                        start = time.perf_counter()
                        for target in fresh:
                            call(target)
                        row["to_string_again"] = min(row["to_string_again"],
                                                     (time.perf_counter() - start) / len(fresh))
                start = time.perf_counter()
                for config in dicts:
                    tl.from_json(config, environment=ENV)
                row["from_json"] = min(row["from_json"], (time.perf_counter() - start) / len(dicts))
            row["from_map"] = row["from_json"]
            ours[name] = {k: min(v, ours.get(name, {}).get(k, v)) for k, v in row.items()}
    lines = ["| corpus | operation | TVM 0.21 µs | targetlang µs | ratio |",
             "|---|---|---:|---:|---:|"]
    tvm_names = {"to_json": "export()", "to_string": "str(), first call",
                 "to_string_again": "str(), again", "from_json": "Target(dict)",
                 "from_map": "Target(export()), its own Map"}
    our_names = {"to_json": "to_json()", "to_string": "to_string(), first call",
                 "to_string_again": "to_string(), again", "from_json": "from_json()",
                 "from_map": "from_json()"}
    for name in named:
        for member in members:
            mine = ours[name][member]
            other = theirs.get(name, {}).get(member)
            lines.append(f"| {name} | {our_names[member]} vs {tvm_names[member]} | "
                         f"{us(other) if other else 'n/a'} | {us(mine)} | "
                         f"{f'{mine / other:.3f}' if other else 'n/a'} |")
    return lines


def _refused(text: str) -> bool:
    try:
        warm(text)
    except tl.TargetError:
        return True
    return False


def section_scaling(repeats: int) -> list[str]:
    lines = ["| input | size | time ms | µs per KB |", "|---|---:|---:|---:|"]
    series: list[tuple[str, Callable[[int], str]]] = [
        ("long -model value", lambda n: "llvm -model=" + "x" * n),
        ("long quoted value", lambda n: "llvm -model='" + "a b " * (n // 4) + "'"),
        ("-libs with many items", lambda n: "llvm -libs=" + ",".join(["lib"] * (n // 4))),
        ("JSON text, long value", lambda n: json.dumps({"kind": "llvm", "model": "x" * n})),
    ]
    for label, make in series:
        for size in (1_000, 10_000, 100_000, 1_000_000):
            text = make(size)
            best = float("inf")
            for _ in range(max(1, repeats // 2)):
                _parse_memo.clear()
                start = time.perf_counter()
                tl.parse(text).to_json()
                best = min(best, time.perf_counter() - start)
            lines.append(f"| {label} | {len(text):,} B | {best * 1e3:,.2f} | "
                         f"{best * 1e6 / (len(text) / 1024):,.2f} |")
    many = " ".join(f"-{i}=x" for i in range(10_000))
    start = time.perf_counter()
    try:
        tl.parse("llvm " + many)
    except tl.TargetError as e:
        lines.append(f"| 10,000 attributes (unknown: refused at the first) | {len(many):,} B | "
                     f"{(time.perf_counter() - start) * 1e3:,.2f} | {type(e).__name__} |")
    return lines


def section_nesting() -> list[str]:
    lines = []
    for depth in (100, 1000, 10_000):
        text = '{"kind": "llvm", "host": ' * depth + '{"kind": "llvm"}' + "}" * depth
        start = time.perf_counter()
        try:
            tl.parse(text)
            outcome = "a Target"
        except tl.TargetError as e:
            outcome = f"{type(e).__name__}: {e.message}"
        except RecursionError:
            outcome = "RecursionError (a bug)"
        lines.append(f"- JSON hosts nested {depth:,} deep: {outcome} "
                     f"({(time.perf_counter() - start) * 1e3:.1f} ms)")
    return lines


def section_import() -> list[str]:
    from bench_import import best_seconds  # benchmarks/ (as a user imports: cached bytecode)

    plain, first = "import targetlang", "import targetlang; targetlang.parse('cuda -arch=sm_80')"
    best = best_seconds([REPO], ("pass", plain, first), rounds=7)
    base = best[REPO, "pass"]
    return [f"- `import targetlang`: {(best[REPO, plain] - base) * 1e3:.0f} ms "
            "(interpreter start-up subtracted)",
            f"- import and first parse (builds the LALR parser from Lark's cache): "
            f"{(best[REPO, first] - base) * 1e3:.0f} ms"]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    ap.add_argument("--repetitions", type=int, default=15,
                    help="corpora: passes per side whose median is taken (default 15)")
    ap.add_argument("--corpus", action="append", metavar="NAME",
                    help="corpora: only the corpora whose name starts with NAME (repeatable)")
    ap.add_argument("--rounds", type=int, help="other sections: rounds alternating TVM and "
                    "targetlang, best kept (default 3)")
    ap.add_argument("--only", choices=["corpora", "serializers", "stages", "warm-distinct",
                                       "import", "distinct"], help="one section only")
    args = ap.parse_args(argv)
    repeats = 2 if args.quick else 7
    rounds = args.rounds or (1 if args.quick else 3)
    repetitions = 3 if args.quick else args.repetitions
    print(f"targetlang {tl.__version__}, Python {sys.version.split()[0]}, "
          f"{'TVM 0.21 oracle at ' + str(TVM021) if TVM021.exists() else 'no TVM oracle'}\n")
    if args.only:
        sections = {"serializers": section_serializers, "warm-distinct": section_warm_distinct}
        if args.only == "corpora":
            print("\n".join(section_corpora(repetitions, args.corpus)))
        elif args.only == "distinct":
            from bench_distinct import section_distinct  # benchmarks/bench_distinct.py

            print("\n".join(section_distinct()))
        elif args.only == "stages":
            from stages import section_stages  # benchmarks/stages.py

            print("\n".join(section_stages(corpora(), repeats)))
        elif args.only == "import":
            print("\n".join(section_import()))
        else:
            print("\n".join(sections[args.only](repeats, rounds)))
        return 0
    print("## parse -> to_json(), per target\n")
    print("\n".join(section_corpora(repetitions, args.corpus)))
    print("\n## A million distinct strings, per read\n")
    from bench_distinct import section_distinct  # benchmarks/bench_distinct.py

    print("\n".join(section_distinct()))
    print("\n## Warm reads of equal-but-distinct string objects, per target\n")
    print("\n".join(section_warm_distinct(repeats, rounds)))
    print("\n## Serializers on their own, per target\n")
    print("\n".join(section_serializers(repeats, rounds)))
    print("\n## Cold read by stage (profile shares scaled to the cold time)\n")
    from stages import section_stages  # benchmarks/stages.py

    print("\n".join(section_stages({k: v for k, v in corpora().items()}, repeats)))
    print("\n## Scaling\n")
    print("\n".join(section_scaling(repeats)))
    print("\n## Deep nesting\n")
    print("\n".join(section_nesting()))
    print("\n## Import\n")
    print("\n".join(section_import()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
