"""The config scanners against real emitters. Any document PyYAML or json writes
(block or flow style, any quoting they choose) upgrades to a document that reads the same
but for the values holding legacy targets, each now the JSON text convert_value gives."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from targetlang.migration._sites import Rewritten, convert_value, json_text
from targetlang.migration._upgrade.common import key_role
from targetlang.migration.upgrade import Options, upgrade_text

TARGETS = ["cuda -libs=cudnn,cublas", "llvm -mcpu=skylake-avx512", "llvm", "nvidia/jetson-nano",
           "llvm -device=arm_cpu -mtriple=aarch64-linux-gnu -mattr=+neon",
           "opencl -device=adreno", "cuda -model=it's", "c -keys=x # not a comment"]
EXPECTED = {}
for value in TARGETS:
    answer = convert_value(value, target_dialect="tvm-0.27")
    EXPECTED[value] = json_text(answer.json) if isinstance(answer, Rewritten) else value

scalars = st.one_of(st.sampled_from(TARGETS), st.text(max_size=12), st.integers(),
                    st.booleans(), st.none())
keys = st.text(min_size=1, max_size=8)
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)), max_leaves=12)


def expected(value: Any, keys: tuple[str, ...] = ()) -> Any:
    """The document with each legacy target rewritten where its keys name a target (the
    others are reported, not rewritten)."""
    if isinstance(value, dict):
        return {k: expected(v, (*keys, k)) for k, v in value.items()}
    if isinstance(value, list):
        return [expected(v, keys) for v in value]
    if isinstance(value, str) and key_role(list(keys)) is None:
        return EXPECTED.get(value, value)
    return value


@given(documents, st.sampled_from([None, False, True]), st.booleans(),
       st.sampled_from(["targets", "root"]))
def test_yaml_documents_read_the_same_but_their_targets(document: Any, flow: bool | None,
                                                        unicode: bool, top: str) -> None:
    yaml = pytest.importorskip("yaml")
    text = yaml.safe_dump({top: document}, default_flow_style=flow, width=10_000,
                          allow_unicode=unicode)
    result = upgrade_text(text, path="c.yaml", file_type="yaml", options=Options())
    assert result.invalid is None, result.invalid
    # compared with what PyYAML reads back of its own output (it folds a raw \x85 in a key)
    assert yaml.safe_load(result.text) == expected(yaml.safe_load(text)), (text, result.text)
    assert upgrade_text(result.text, path="c.yaml", file_type="yaml",
                        options=Options()).text == result.text  # idempotent


@given(documents, st.sampled_from([None, 1, 2, "\t"]), st.booleans(),
       st.sampled_from(["targets", "root"]))
def test_json_documents_read_the_same_but_their_targets(document: Any, indent: int | str | None,
                                                        ascii_only: bool, top: str) -> None:
    text = json.dumps({top: document}, indent=indent, ensure_ascii=ascii_only)
    result = upgrade_text(text, path="c.json", file_type="json", options=Options())
    assert json.loads(result.text) == {top: expected(document, (top,))}
