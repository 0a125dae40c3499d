"""Arm features against the live TVM 0.21 oracle (skipped when it is not installed).

TVM's own feature-test inputs are asked again, and a seeded random differential (the one
``scripts/check_arm_features.py`` runs at full size) runs at a small size.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest
from conftest import ORACLE_QUERY, REPO

import targetlang as tl

sys.path.insert(0, str(REPO / "scripts"))
import check_arm_features as check  # noqa: E402

ENV = tl.Environment.no_gpu()


def tvm_test_inputs() -> list[str]:
    """The targets TVM's A/M-profile tests build (aprofile_test.cc, mprofile_test.cc, ...)."""
    configs: list[dict[str, Any]] = []
    versions = ["+v8a"] + [f"+v8.{i}a" for i in range(1, 10)] + ["+v9a", "+v8.4b"]
    for mattr in [[""], []] + [[v] for v in versions] + [
            [v, x] for v in versions for x in ("+i8mm", "-i8mm", "+dotprod", "-dotprod", "+sve",
                                               "+fullfp16", "+sme")]:
        configs.append({"kind": "llvm", "mtriple": "aarch64-arm-none-eabi", "mattr": mattr})
    for triple in ("armv7a-arm-none-eabi", "armv8a-arm-none-eabi", "arm-unknown-linux-gnu"):
        for mcpu in (None, "cortex-a53", "cortex-m33"):
            for mattr in ([""], [], ["+simd"], ["+neon"]):
                config: dict[str, Any] = {"kind": "llvm", "mtriple": triple, "mattr": mattr}
                if mcpu:
                    config["mcpu"] = mcpu
                configs.append(config)
    configs += [{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+sve2"]},
                {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "keys": ["cpu"]},
                {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "keys": ["cpu", "arm_cpu"]},
                {"kind": "c", "mtriple": "aarch64-linux-gnu"}]
    for cpu in ("cortex-m55", "cortex-m85", "cortex-m4", "cortex-m7", "cortex-m33",
                "cortex-m35p", "cortex-m0", "cortex-m3", "cake"):
        for suffix in ("", "+nomve", "+nodsp", "+nodsp+nomve", "+nomve+nodsp", "+nodsp+woofles"):
            configs.append({"kind": "c", "mcpu": cpu + suffix})
            for mattr in ([""], ["+nomve"], ["+nodsp"], ["+nodsp", "+nomve"]):
                configs.append({"kind": "llvm", "mcpu": cpu + suffix, "mattr": mattr})
    strings = [f"{k} -mcpu={c}" for k in ("c", "llvm")
               for c in ("cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55", "cortex-m3")]
    strings += ["llvm -mcpu=cortex-m55 -mattr=+nomve,+woof", "test",
                "llvm -mtriple=arm-linux-gnueabi -mattr=+neon", "llvm -mtriple=arm-linux-gnueabi",
                "llvm -mtriple=aarch64-linux-gnu -mattr=+v8.4a,+dotprod",
                "llvm -mtriple=aarch64-linux-gnu", "llvm -mtriple=aarch64-linux-gnu -mattr=+neon",
                "llvm -mtriple=aarch64-linux-gnu -mattr=+sve"]
    return [json.dumps(c) for c in configs] + strings


@pytest.mark.oracle
def test_tvm_feature_test_inputs_agree_with_tvm() -> None:
    texts = tvm_test_inputs()
    answers = check.ask_query(texts, ORACLE_QUERY)
    for text, answer in zip(texts, answers):
        problem = check.compare_target(text, answer)
        assert problem is None, problem


@pytest.mark.oracle
def test_random_arm_differential_agrees_with_tvm() -> None:
    for name, run in (("triples", lambda rng: check.check_triples(rng, 2000)),
                      ("sets", lambda rng: check.check_sets(rng, 2000)),
                      ("targets", lambda rng: check.check_targets(rng, 150, ORACLE_QUERY))):
        total, bad, *_ = run(random.Random(f"pytest-{name}"))
        assert total > 100
        assert bad == [], f"{name}: {bad[:5]}"
