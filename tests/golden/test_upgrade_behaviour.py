"""The upgrade never changes what a working program does (scripts/record_upgrade_behaviour.py
recorded it with the TVM 0.21 and 0.27 oracles).

Each program of tests/data/upgrade/behaviour/ (a ``.py`` file, or a directory of modules
read as one program and run as ``main.py``) ran under TVM 0.21; upgraded (default mode and
``--runtime``), it either ran under TVM 0.27 with the same observable output, or was left
byte for byte as it was and reported. Replayed here without TVM: the upgrade must give the
text that was run; the live re-run is marked ``oracle``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REPO, TESTS

sys.path.insert(0, str(REPO / "scripts"))
from record_upgrade_behaviour import MODES, programs, sources, upgrade  # noqa: E402

PROGRAMS = TESTS / "data" / "upgrade" / "behaviour"
RECORD = json.loads((TESTS / "data" / "upgrade" / "behaviour.json").read_text(encoding="utf-8"))
CASES = [(name, mode) for name in sorted(RECORD["programs"]) for mode in MODES]


def test_every_program_is_recorded() -> None:
    assert sorted(p.name for p in programs()) == sorted(RECORD["programs"])


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_same_output_or_byte_for_byte_and_reported(name: str, mode: str) -> None:
    program = PROGRAMS / name
    entry = RECORD["programs"][name]
    recorded = entry[mode]
    modules = sources(program)
    upgraded, codes = upgrade(program, MODES[mode])
    shown = upgraded if program.is_dir() else upgraded[name]
    assert shown == recorded["upgraded"], "re-record: scripts/record_upgrade_behaviour.py"
    assert codes == recorded["codes"]
    assert entry["tvm-0.21"]["status"] == 0  # a working program
    changed = upgraded != modules
    if changed and recorded["tvm-0.27"] != entry["tvm-0.21"]:
        # only where the program relies on an API TVM 0.24 changed, and the upgrade says so
        assert any(code.startswith("TL5") for code in recorded["codes"])
    elif changed:
        assert recorded["tvm-0.27"] == entry["tvm-0.21"]
    else:
        assert codes  # left as it was, and said so
    if not program.is_dir():  # idempotent (a directory's: tests/property/)
        again = upgrade_again(upgraded[name], name, mode)
        assert again == upgraded[name]


def upgrade_again(text: str, name: str, mode: str) -> str:
    from targetlang.upgrade import upgrade_text

    return upgrade_text(text, path=name, file_type="python", options=MODES[mode]).text


def test_the_counts() -> None:
    """41 programs (9 of several modules). By default: 26 upgraded with the same output,
    15 left byte for byte and reported. With --runtime: 40 upgraded with the same output
    (their mixed uses bridged), 1 upgraded and reported (it calls tvm.runtime.enabled with a
    legacy text, which no release from 0.24 reads: TL504)."""
    same = {mode: sum(1 for e in RECORD["programs"].values()
                      if e[mode]["tvm-0.27"] == e["tvm-0.21"]) for mode in MODES}
    left = {mode: sum(1 for e in RECORD["programs"].values() if e[mode]["tvm-0.27"] is None)
            for mode in MODES}
    several = sum(1 for p in programs() if p.is_dir())
    assert (len(RECORD["programs"]), several) == (41, 9)
    assert same == {"default": 26, "runtime": 40} and left == {"default": 15, "runtime": 0}


@pytest.mark.oracle
def test_live_against_the_oracles() -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "record_upgrade_behaviour.py"),
                           "--check"], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
