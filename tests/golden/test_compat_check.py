"""targetlang.compat in the TVM oracles, as scripts/check_compat.py recorded it.

In 0.25, 0.26 and 0.27 and TVM TIRx 0.1 (a program that imports ``tvm_tirx``: compat serves
it without importing ``tvm``), ``compat.Target(x)`` and ``compat.<helper>(...)`` over the
golden legacy corpus, every tag, hosts and the helper calls of TVM's own code mean what TVM
0.21's own answer meant (the comparison rules of scripts/check_migration_releases.py); in 0.19
and 0.21 the value goes through unchanged. Text TVM 0.21 refused that an older release read
(``llvm --system-lib``, ``-target=``, ...) is read as that release read it, with a warning
naming each option moved out of the target or renamed. Replayed here without TVM; the live re-run is marked
``oracle``.
"""

from __future__ import annotations

import functools
import json
import lzma
import sys
import warnings
from collections import Counter
from typing import Any

import pytest
from conftest import REPO, TESTS

import targetlang as tl
from targetlang import compat

DATA = TESTS / "data" / "compat"
JSON_RELEASES = ("0.25", "0.26", "0.27", "tirx-0.1")
LEGACY_RELEASES = ("0.19", "0.21")


def dialect(release: str) -> str:
    return release if release.startswith("tirx-") else f"tvm-{release}"


@functools.cache
def rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in lzma.open(DATA / "check.jsonl.xz", "rt", encoding="utf-8")]


def sent(case: dict[str, Any], dialect: str) -> Any:
    """What compat hands the TVM of ``dialect`` today (the record's ``sent``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if "fn" in case and case["fn"] != "create":
                return compat._helper_config(case["fn"], dialect, case["args"], case["kwargs"])
            target = compat._config(case["args"][0] if "fn" in case else case["target"], dialect)
            if case.get("host") is None:
                return target
            return {"target": target, "host": compat._config(case["host"], dialect)}
        except tl.TargetError as error:
            return f"{type(error).__name__}: {error.message}"


def test_the_record_covers_the_corpus_every_tag_hosts_and_helper_calls() -> None:
    sources = Counter(r["case"]["source"].split("/")[0] for r in rows() if r["release"] == "0.27")
    assert sources["golden"] > 3000
    assert sources["tag"] == len(tl.tags("tvm-0.21"))
    assert sources["host"] >= 10 and sources["presets"] > 150
    assert sources["tvm-v0.21.0"] > 10
    helpers = {r["case"]["fn"] for r in rows() if "fn" in r["case"]}
    assert helpers == set(compat.__all__) - {"Target", "release_dialect"}


@pytest.mark.parametrize("release", JSON_RELEASES)
def test_compat_means_what_tvm_0_21_meant(release: str) -> None:
    mine = [r for r in rows() if r["release"] == release and r["case"]["source"] != "older"]
    assert all(r["tvm021"]["ok"] for r in mine)  # only cases TVM 0.21 accepted
    kinds = tl.kinds(dialect(release))
    refused = [r for r in mine if not r["answer"]["ok"]]
    for row in refused:  # only what has no equivalent there: a kind the release dropped
        kind = tl.parse(row["case"]["target"]).kind
        assert row["answer"]["error"].startswith("MigrationError"), row
        if kind == "composite":  # TIRx refuses the null device TVM 0.21 kept
            assert release == "tirx-0.1" and "null" in row["answer"]["error"], row
            continue
        assert kind not in kinds, row
    assert len(refused) < 200
    different = [(r["case"], r["differences"]) for r in mine if r["answer"]["ok"]
                 and r["differences"]]
    assert different == []


@pytest.mark.parametrize("release", JSON_RELEASES)
def test_compat_still_sends_what_the_oracles_checked(release: str) -> None:
    for row in [r for r in rows() if r["release"] == release][::7]:
        assert sent(row["case"], dialect(release)) == row["sent"], row["case"]


@pytest.mark.parametrize("release", LEGACY_RELEASES)
def test_a_release_reading_legacy_text_gets_the_value_unchanged(release: str) -> None:
    mine = [r for r in rows() if r["release"] == release]
    assert len(mine) > 3000
    assert all(r["passed_through"] for r in mine)
    assert sum(r["tvm"]["ok"] for r in mine) > 3000


def test_the_helpers_have_tvm_0_21s_signatures() -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    from check_compat import signature

    recorded = json.loads((DATA / "signatures.json").read_text("utf-8"))["0.21"]
    assert set(recorded) == {*compat.__all__} - {"release_dialect"}
    for name, parameters in recorded.items():
        assert signature(getattr(compat, name)) == parameters, name


@pytest.mark.oracle
@pytest.mark.parametrize("release", JSON_RELEASES + LEGACY_RELEASES)
def test_the_oracles_still_answer_as_recorded(release: str) -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    import check_compat

    exe = check_compat.oracle_python(release)
    if not exe.exists():
        pytest.skip(f"no TVM {release} oracle at {exe}")
    sample = [r for r in rows() if r["release"] == release][::25]
    answers = check_compat.run(release, "compat", [r["case"] for r in sample])
    for row, answer in zip(sample, answers):
        assert answer == row["answer"], row["case"]


@pytest.mark.parametrize("release", JSON_RELEASES)
def test_text_tvm_0_21_refused_is_read_as_an_older_release_read_it_and_said(
        release: str) -> None:
    """``llvm --system-lib`` and the like: TVM 0.21 refused them; compat reads each as the
    release that read it did, and a MigrationWarning names each option moved out of the
    target (with the line that keeps its meaning) or renamed; text no release read is
    refused."""
    older = {r["case"]["target"]: r for r in rows()
             if r["release"] == release and r["case"]["source"] == "older"}
    assert len(older) >= 12 and not any(r["tvm021"]["ok"] for r in older.values())
    for text, row in older.items():
        answer = row["answer"]
        if "-link-params=0" in text and text.startswith("cuda"):  # no release read it
            assert not answer["ok"] and answer["error"].startswith("UnknownAttributeError")
            continue
        assert answer["ok"], text
        said = " | ".join(answer["warnings"])
        for word in text.split()[1:]:
            option = word.lstrip("-").split("=")[0]
            if option in ("system-lib", "link-params", "runtime", "executor",
                          "interface-api", "unpacked-api", "target", "shared_memory_per_block"):
                assert f"-{option}" in said, (text, said)
    assert "TM201 -system-lib=1" in " ".join(older["llvm --system-lib"]["answer"]["warnings"])
    assert "TM301 -target" in " ".join(
        older["llvm -target=aarch64-linux-gnu"]["answer"]["warnings"])
    assert older["llvm -target=aarch64-linux-gnu"]["answer"]["export"]["mtriple"] == \
        "aarch64-linux-gnu"


def test_a_program_on_tirx_got_tirx_targets_and_never_imported_tvm() -> None:
    mine = [r for r in rows() if r["release"] == "tirx-0.1"]
    assert len(mine) > 3000
    made = [r["answer"] for r in mine if r["answer"]["ok"]]
    assert len(made) > 3000 and all(a["module"] == "tvm_tirx" for a in made)
    assert all(a["tvm_version"] == "0.1.0a4" for a in made)
    assert not any("imported_both" in r["answer"] for r in rows())
