"""targetlang.compat in the TVM oracles, as scripts/check_compat.py recorded it.

In 0.25, 0.26 and 0.27, ``compat.Target(x)`` and ``compat.<helper>(...)`` over the golden
legacy corpus, every tag, hosts and the helper calls of TVM's own code mean what TVM 0.21's
own answer meant (the comparison rules of scripts/check_migration_releases.py); in 0.19 and
0.21 the value goes through unchanged. Replayed here without TVM; the live re-run is marked
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
from targetlang.migration import compat

DATA = TESTS / "data" / "compat"
JSON_RELEASES = ("0.25", "0.26", "0.27")
LEGACY_RELEASES = ("0.19", "0.21")


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
    mine = [r for r in rows() if r["release"] == release]
    assert all(r["tvm021"]["ok"] for r in mine)  # only cases TVM 0.21 accepted
    kinds = tl.kinds(f"tvm-{release}")
    refused = [r for r in mine if not r["answer"]["ok"]]
    for row in refused:  # only what has no equivalent there: a kind the release dropped
        kind = tl.parse(row["case"]["target"]).kind
        assert kind not in kinds, row
        assert row["answer"]["error"].startswith("MigrationError"), row
    assert len(refused) < 200
    different = [(r["case"], r["differences"]) for r in mine if r["answer"]["ok"]
                 and r["differences"]]
    assert different == []


@pytest.mark.parametrize("release", JSON_RELEASES)
def test_compat_still_sends_what_the_oracles_checked(release: str) -> None:
    for row in [r for r in rows() if r["release"] == release][::7]:
        assert sent(row["case"], f"tvm-{release}") == row["sent"], row["case"]


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

    exe = check_compat.ORACLE_DIR / "bin" / f"tvm0{release.split('.')[1]}-python"
    if not exe.exists():
        pytest.skip(f"no TVM {release} oracle at {exe}")
    sample = [r for r in rows() if r["release"] == release][::25]
    answers = check_compat.run(release, "compat", [r["case"] for r in sample])
    for row, answer in zip(sample, answers):
        assert answer == row["answer"], row["case"]
