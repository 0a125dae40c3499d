"""Differential tests against the live TVM 0.21 oracle (skipped when it is not installed)."""

from __future__ import annotations

import json
import random
import subprocess

import pytest
from conftest import ORACLE_QUERY, ORACLE_TVM021, TESTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import targetlang as tl
from targetlang.strategies import malformed_strings, target_strings

ENV = tl.Environment.no_gpu()
QUERY = ORACLE_QUERY


def ask_tvm(texts: list[str]) -> list[dict[str, object]]:
    lines = [json.dumps({"target": t}) for t in texts]
    done = subprocess.run([str(ORACLE_TVM021), str(QUERY), "--timeout", "30"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=600, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def agree(text: str, answer: dict[str, object]) -> None:
    if not answer["ok"]:
        with pytest.raises(tl.TargetError):
            tl.parse(text, environment=ENV)
        return
    target = tl.parse(text, environment=ENV)
    assert target.to_json() == answer["export"], text
    assert dict(target.features) == answer["features"], text
    if answer["str_error"] is None:
        assert target.to_string(style="tvm") == answer["str"], text


def draw_texts(count: int) -> list[str]:
    """Seeded draws from the public strategies (no shrinking: each oracle call is costly)."""
    texts: list[str] = []

    @settings(max_examples=count, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(target_strings(), malformed_strings()))
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    return texts


@pytest.mark.oracle
def test_generated_strings_agree_with_tvm() -> None:
    texts = draw_texts(400)
    disagreements = []
    for text, answer in zip(texts, ask_tvm(texts)):
        try:
            agree(text, answer)
        except AssertionError as e:
            disagreements.append((text, answer.get("error"), str(e)[:200]))
        except pytest.fail.Exception as e:
            disagreements.append((text, answer.get("error"), str(e)[:200]))
    assert not disagreements, disagreements[:5]


@pytest.mark.oracle
def test_golden_corpus_is_still_what_tvm_says() -> None:
    """A random sample of the committed golden corpus, asked again."""
    golden = TESTS / "data" / "tvm-0.21" / "golden.jsonl"
    records = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines()]
    sample = random.Random(21).sample(records, 200)
    for record, answer in zip(sample, ask_tvm([r["input"] for r in sample])):
        assert (answer["ok"], answer["export"], answer["str"]) == \
            (record["ok"], record["export"], record["str"]), record["input"]
