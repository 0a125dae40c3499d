"""Each oracle release's dialect against that release's goldens (tests/data/releases/).

The goldens were answered by the real TVM 0.19, 0.25, 0.26 and 0.27 and TVM TIRx 0.1
(scripts/record_release_goldens.py); this replays them without TVM, under the environment the
oracles had (no GPU; the system triple of each wheel's LLVM):

* ``tvm-0.19`` on the 4607 legacy strings of the TVM 0.21 golden set: accept/reject,
  ``to_json()`` (TVM's ``export()``) and ``str()``;
* ``tvm-0.19``, ``tvm-0.25``, ``tvm-0.26``, ``tvm-0.27`` and ``tirx-0.1`` on the 7160 dict
  cases (kinds,
  attributes, wrong types, unknown and ``feature.*`` keys, tags, tag overrides, exports of
  other releases): accept/reject and the whole export. The JSON-only releases export the
  target parser's features as ``feature.*`` keys, from the LLVM each wheel links: they are
  compared too (targetlang derives them from each release's recorded tables,
  ``targetlang/_data/arm-features-0.N.json``); the white-space cases also by error class;
* ``tvm-0.25``, ``tvm-0.26``, ``tvm-0.27`` and ``tirx-0.1`` on the 5700 Arm targets of TVM
  0.21's features table as dicts: accept/reject and the export with its ``feature.*`` keys.

Every case must agree: a disagreement is listed with its input. The tests marked ``oracle``
ask the installed releases a sample again (they skip without them).
"""

from __future__ import annotations

import functools
import json
import lzma
from typing import Any

import pytest
from conftest import TESTS

import targetlang as tl

GOLDENS = TESTS / "data" / "releases"
LEGACY_CASES = TESTS / "data" / "tvm-0.21" / "cases.jsonl"
# The oracles' machines: TVM 0.19 links an LLVM built for the plain Linux triple, the
# apache-tvm wheels (0.25 and later) one built by conda.
SYSTEM_TRIPLE = {"0.19": "x86_64-unknown-linux-gnu", "0.21": "x86_64-unknown-linux-gnu",
                 "0.25": "x86_64-conda-linux-gnu",
                 "0.26": "x86_64-conda-linux-gnu", "0.27": "x86_64-conda-linux-gnu",
                 "tirx-0.1": "x86_64-unknown-linux-gnu"}
#: The releases with dict goldens, and those with Arm goldens.
JSON_RELEASES = ["0.19", "0.25", "0.26", "0.27", "tirx-0.1"]
ARM_RELEASES = ["0.25", "0.26", "0.27", "tirx-0.1"]


def dialect(release: str) -> str:
    """The dialect of an oracle release: ``tvm-0.N``, or a product's own (``tirx-0.1``)."""
    return release if release.startswith("tirx-") else f"tvm-{release}"


@functools.cache
def xz_lines(name: str) -> list[Any]:
    return [json.loads(line) for line in lzma.open(GOLDENS / name, "rt", encoding="utf-8")]


def environment(release: str) -> tl.Environment:
    return tl.Environment.no_gpu(system_triple=SYSTEM_TRIPLE[release])


def read(source: Any, release: str) -> tl.Target | None:
    """What the dialect of ``release`` reads, or None where it refuses."""
    try:
        if isinstance(source, str):
            return tl.parse(source, dialect=dialect(release), environment=environment(release))
        return tl.from_json(source, dialect=dialect(release), environment=environment(release))
    except (tl.TargetError, TypeError):  # TypeError: not a dict at all (TVM refuses it too)
        return None


def test_tvm_0_19_reads_every_legacy_string_as_tvm_0_19_did() -> None:
    cases = [json.loads(line)["input"] for line in LEGACY_CASES.read_text("utf-8").splitlines()]
    golden = xz_lines("tvm-0.19/legacy-golden.jsonl.xz")
    assert len(cases) == len(golden) == 4607
    disagreements = []
    for text, answer in zip(cases, golden):
        target = read(text, "0.19")
        if (target is not None) != answer["ok"]:
            disagreements.append((text, "accepted" if target else "refused"))
        elif target is not None and target.to_json() != answer["export"]:
            disagreements.append((text, target.to_json()))
        elif target is not None and not answer["str_error"]:
            if target.to_string(style="tvm") != answer["str"]:
                disagreements.append((text, target.to_string(style="tvm")))
    assert disagreements == [], f"{len(disagreements)} of {len(cases)} disagree"


@pytest.mark.parametrize("release", JSON_RELEASES)
def test_every_dict_case_is_read_as_the_release_read_it(release: str) -> None:
    cases = xz_lines("json-cases.jsonl.xz")
    golden = xz_lines(f"{dialect(release)}/json-golden.jsonl.xz")
    assert len(cases) == len(golden) == 7160
    disagreements = []
    for case, answer in zip(cases, golden):
        target = read(case["input"], release)
        if (target is not None) != answer["ok"]:
            disagreements.append((case, "accepted" if target else "refused", answer["error"]))
        elif target is not None and target.to_json() != answer["export"]:
            disagreements.append((case, target.to_json(), answer["export"]))
    assert disagreements == [], f"{len(disagreements)} of {len(cases)} disagree"
    assert sum(a["ok"] for a in golden) > 1000 and sum(not a["ok"] for a in golden) > 1000


@pytest.mark.parametrize("release", ARM_RELEASES)
def test_every_arm_target_exports_the_features_the_release_exported(release: str) -> None:
    """TVM 0.21's features table (each Arm CPU and alias, triple variant, ``-mattr`` list,
    M-profile target and input TVM dies on) as dicts, read by each JSON release: accepted
    exactly where it accepted, and exported with the same ``feature.*`` keys."""
    cases = xz_lines("arm-cases.jsonl.xz")
    golden = xz_lines(f"{dialect(release)}/arm-golden.jsonl.xz")
    assert len(cases) == len(golden) > 5000
    disagreements = []
    for case, answer in zip(cases, golden):
        target = read(case["input"], release)
        if (target is not None) != answer["ok"]:
            disagreements.append((case, "accepted" if target else "refused", answer["error"]))
        elif target is not None and target.to_json() != answer["export"]:
            disagreements.append((case, target.to_json(), answer["export"]))
    assert disagreements == [], f"{len(disagreements)} of {len(cases)} disagree"
    with_features = [a for a in golden if a["ok"] and "feature.has_asimd" in a["export"]]
    assert len(with_features) > 4000


def _tvm_message(error: str) -> str:
    """TVM's message without 0.19's traceback (the C++ frames, then "ValueError: ...")."""
    return error.rpartition("Error: ")[2] if error.startswith("Traceback") else error


def _tvm_error_class(message: str) -> type[tl.TargetError] | None:
    """targetlang's error class for a refusal of a text, by the shape of TVM's message."""
    if message.startswith("Target kind "):
        return tl.UnknownKindError
    if message.startswith(("Cannot parse target string", "Cannot load config dict",
                           "Failed to parse target JSON", "Check failed: target_str.length()",
                           "Attribute keys should start")):
        return tl.TargetSyntaxError
    return None  # (a crash carries no message of its own)


@pytest.mark.parametrize("release", ["0.19", "0.21", "0.25", "0.26", "0.27", "tirx-0.1"])
def test_white_space_around_text_is_refused_as_the_release_refused_it(release: str) -> None:
    """JSON text is text whose first character is "{" (nothing stripped): with white space
    first it is legacy text, whose unknown kind (the first word) is the error in TVM 0.21,
    and a kind name or a refused string in 0.24+. The error class follows TVM's message."""
    cases = xz_lines("json-cases.jsonl.xz")
    golden = xz_lines(f"{dialect(release)}/json-golden.jsonl.xz")
    mine = [(c["input"], a) for c, a in zip(cases, golden) if c["category"] == "whitespace"]
    assert len(mine) > 100
    checked = 0
    for text, answer in mine:
        message = _tvm_message(answer["error"] or "")
        expected = _tvm_error_class(message) if not answer["ok"] else None
        try:
            read(text, release) if answer["ok"] else tl.parse(
                text, dialect=dialect(release), environment=environment(release))
        except tl.TargetError as error:
            assert not answer["ok"], text
            if expected is not None:
                checked += 1
                assert type(error) is expected, (text, error, answer["error"])
                if expected is tl.UnknownKindError:  # the same word named as the kind
                    name = message[len('Target kind "'):].split('" is not defined')[0]
                    assert error.message.startswith(f"unknown target kind {name!r}"), text
        else:
            assert answer["ok"], text
    assert checked > 100


# ---- live: the oracles answer a sample again ---------------------------------------------------

def _oracle(release: str) -> list[str]:
    from conftest import ORACLE_DIR, ORACLE_QUERY

    exe = ORACLE_DIR / "bin" / (f"tirx{release[5:].replace('.', '')}-python"
                                if release.startswith("tirx-") else
                                f"tvm0{release.split('.')[1]}-python")
    if not exe.exists() or not ORACLE_QUERY.is_file():
        pytest.skip(f"no TVM {release} oracle at {exe} (set TARGETLANG_ORACLE_DIR)")
    return [str(exe), str(ORACLE_QUERY)]


@pytest.mark.oracle
@pytest.mark.parametrize("release", JSON_RELEASES)
def test_a_sample_of_dict_cases_agrees_with_the_live_oracle(release: str) -> None:
    import subprocess

    command = _oracle(release)
    cases = xz_lines("json-cases.jsonl.xz")[::23]
    lines = "".join(json.dumps(c["input"]) + "\n" for c in cases)
    done = subprocess.run([*command, "--mode", "accept"], input=lines, capture_output=True,
                          text=True, timeout=600, check=True)
    answers = [json.loads(line) for line in done.stdout.split("\n") if line.strip()]
    assert len(answers) == len(cases)
    for case, answer in zip(cases, answers):
        target = read(case["input"], release)
        assert (target is not None) == answer["ok"], case
        if target is not None:
            assert target.to_json() == answer["export"], case
