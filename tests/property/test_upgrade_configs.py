"""Issue 21: the config scanners against real emitters. Any document PyYAML or json writes
(block or flow style, any quoting they choose) upgrades to a document that reads the same
but for the values holding legacy targets, each now the JSON text convert_value gives."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from targetlang.migration._sites import Rewritten, convert_value, json_text
from targetlang.upgrade import Options, upgrade_text

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


def expected(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: expected(v) for k, v in value.items()}
    if isinstance(value, list):
        return [expected(v) for v in value]
    return EXPECTED.get(value, value) if isinstance(value, str) else value


@given(documents, st.sampled_from([None, False, True]), st.booleans())
def test_yaml_documents_read_the_same_but_their_targets(document: Any, flow: bool | None,
                                                        unicode: bool) -> None:
    yaml = pytest.importorskip("yaml")
    text = yaml.safe_dump({"root": document}, default_flow_style=flow, width=10_000,
                          allow_unicode=unicode)
    result = upgrade_text(text, path="c.yaml", file_type="yaml", options=Options())
    assert result.invalid is None, result.invalid
    # compared with what PyYAML reads back of its own output (it folds a raw \x85 in a key)
    assert yaml.safe_load(result.text) == expected(yaml.safe_load(text)), (text, result.text)


@given(documents, st.sampled_from([None, 1, 2, "\t"]), st.booleans())
def test_json_documents_read_the_same_but_their_targets(document: Any, indent: int | str | None,
                                                        ascii_only: bool) -> None:
    text = json.dumps({"root": document}, indent=indent, ensure_ascii=ascii_only)
    result = upgrade_text(text, path="c.json", file_type="json", options=Options())
    assert json.loads(result.text) == {"root": expected(document)}
