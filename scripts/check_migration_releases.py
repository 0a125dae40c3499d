"""Check migrate() to every JSON release with oracles: accepted there, read as TVM 0.21 read it.

    python3 scripts/check_migration_releases.py            # writes the record below
    python3 scripts/check_migration_releases.py --check    # exit 1 if an oracle now answers otherwise

For every target TVM 0.21 accepted in the golden set (``tests/data/tvm-0.21/golden.jsonl``,
TopHub's targets included) and each release R of 0.25, 0.26, 0.27 and TVM TIRx 0.1
(``tirx-0.1``): ``migrate(text, source_dialect="tvm-0.21", target_dialect=R)`` (no
environment: values TVM detects from the machine are left for it), then ``Target(migrated)``
on the R oracle (query.py's accept mode). The oracle's ``export()`` is compared with TVM 0.21's; the differences allowed are

* attributes only one of the two releases defines for the kind,
* values the migration left for the machine to detect (a key TVM 0.21 filled from the
  machine, absent from the migrated dict: ``mtriple`` of a bare ``llvm``, ``arch`` of
  ``cuda``, which TVM TIRx leaves out on a machine without a GPU where 0.21 wrote ``sm_50``:
  the summary counts those, ``left_for_machine`` in each row names them),
* ``feature.*`` keys (0.25+ exports the target parser's features).

Writes ``tests/data/releases/migration-check.jsonl.xz``: one row per (text, release) with the
migrated dict (or why none), the oracle's answer, and the differences found; replayed by
``tests/golden/test_release_migration.py`` without TVM, which also reads each migrated dict
in targetlang's dialect of the release and compares the whole export with the oracle's,
``feature.*`` keys included (``migrate()`` writes none: the release derives them).
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

from shelf import REPO, require_oracle

import targetlang as tl

GOLDEN_021 = REPO / "tests" / "data" / "tvm-0.21" / "golden.jsonl"
OUT = REPO / "tests" / "data" / "releases" / "migration-check.jsonl.xz"
SHARED = Path(os.environ.get("TARGETLANG_SHARED_DIR", REPO.parent / "shared"))
RELEASES = ("0.25", "0.26", "0.27", "tirx-0.1")


def dialect(release: str) -> str:
    return release if release.startswith("tirx-") else f"tvm-{release}"


def accept(release: str, configs: list[Any]) -> list[dict[str, Any]]:
    lines = "".join(json.dumps(c) + "\n" for c in configs)
    done = subprocess.run([str(require_oracle(release)), str(SHARED / "oracle" / "query.py"),
                           "--mode", "accept"], input=lines, capture_output=True, text=True,
                          check=True, timeout=3000)
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answers) == len(configs), (release, len(answers), len(configs))
    return answers


def migrated(text: str, release: str) -> tuple[dict[str, Any] | None, str | None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return tl.migrate(text, source_dialect="tvm-0.21",
                              target_dialect=dialect(release)), None
        except (tl.TargetError, tl.MigrationError) as e:
            return None, f"{type(e).__name__}: {e}"


def differences(old: Any, new: Any, given: Any, kind_new: Any, path: str = "",
                machine: list[str] | None = None) -> list[str]:
    """Where the release's export ``new`` of the migrated ``given`` differs from 0.21's ``old``
    beyond the allowed differences (see the module's docstring); the values left for the
    machine that differ are added to ``machine``."""
    machine = [] if machine is None else machine
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        given = given if isinstance(given, list) and len(given) == len(old) else [None] * len(old)
        return [d for i, (o, n, g) in enumerate(zip(old, new, given))
                for d in differences(o, n, g, kind_new, f"{path}[{i}]", machine)]
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return [] if old == new else [f"{path or 'target'}: {old!r} -> {new!r}"]
    given = given if isinstance(given, dict) else {}
    kind = str(old.get("kind"))
    attrs_old = tl.kinds("tvm-0.21").get(kind)
    out: list[str] = []
    for key in sorted({*old, *new}, key=str):
        structural = key in ("kind", "tag", "keys", "host")
        if str(key).startswith("feature."):
            continue
        if not structural and (attrs_old is None or key not in attrs_old.attrs
                               or key not in kind_new(kind)):
            continue  # an attribute only one release defines
        if key in old and old[key] is None and "from_device" in old:
            continue  # TVM 0.21 asked the device (-from_device) and wrote its null answer
        if not structural and key not in given and old.get(key) != new.get(key):
            machine.append(f"{path}.{key}: {old.get(key)!r} -> {new.get(key)!r}")
            continue  # left for the machine to fill: not in the migrated dict
        if isinstance(old.get(key), (dict, list)):
            out += differences(old.get(key), new.get(key), given.get(key), kind_new,
                               f"{path}.{key}", machine)
        elif old.get(key) != new.get(key):
            out.append(f"{path}.{key}: {old.get(key)!r} -> {new.get(key)!r}")
    return out


def record() -> list[dict[str, Any]]:
    rows021 = [json.loads(line) for line in GOLDEN_021.read_text("utf-8").splitlines()]
    accepted = [r for r in rows021 if r["ok"]]
    out: list[dict[str, Any]] = []
    for release in RELEASES:
        kinds_new = tl.kinds(dialect(release))

        def kind_new(kind: str, kinds_new: Any = kinds_new) -> Any:
            return kinds_new[kind].attrs if kind in kinds_new else {}

        results = [migrated(r["input"], release) for r in accepted]
        sent = [m for m, _ in results if m is not None]
        answers = iter(accept(release, sent))
        for row, (mig, why) in zip(accepted, results):
            entry: dict[str, Any] = {"release": release, "input": row["input"], "migrated": mig,
                                     "not_migrated": why}
            if mig is not None:
                answer = next(answers)
                entry["ok"] = answer["ok"]
                entry["error"] = answer.get("error")
                entry["export"] = answer.get("export")
                machine: list[str] = []
                entry["differences"] = (differences(row["export"], answer["export"], mig,
                                                    kind_new, machine=machine)
                                        if answer["ok"] else None)
                entry["left_for_machine"] = machine
            out.append(entry)
    return out


def summary(rows: list[dict[str, Any]]) -> str:
    lines = []
    for release in RELEASES:
        mine = [r for r in rows if r["release"] == release]
        sent = [r for r in mine if r["migrated"] is not None]
        ok = [r for r in sent if r["ok"]]
        same = [r for r in ok if not r["differences"]]
        machine: dict[str, int] = {}
        for row in same:
            for item in row["left_for_machine"]:
                what = item.split(": ")[0].split(".")[-1] + ": " + item.split(": ", 1)[1]
                machine[what] = machine.get(what, 0) + 1
        lines.append(f"{dialect(release)}: {len(mine)} targets, {len(sent)} migrated, {len(ok)} "
                     f"accepted, {len(same)} read as TVM 0.21 read them; left for the machine "
                     "(0.21 on the oracle's machine -> the release there): "
                     + (", ".join(f"{k} ({n})" for k, n in sorted(machine.items())) or "none"))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    rows = record()
    data = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows).encode()
    print(summary(rows))
    if args.check:
        old = lzma.decompress(OUT.read_bytes())
        sys.exit(0 if old == data else 1)
    OUT.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))


if __name__ == "__main__":
    main()
