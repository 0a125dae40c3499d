"""The whole corpus: every category in order, de-duplicated (the first category keeps an input)."""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Iterable, List

from .common import Case, Schema
from .inputs_generated import cases_generated
from .inputs_json import cases_json
from .inputs_kind_attr import cases_kind_attr
from .inputs_malformed import cases_malformed
from .inputs_quoting import cases_quoting
from .inputs_tvm import cases_tags, cases_tophub, cases_tvm_tests


def build_cases(schema: Schema, shared: Path) -> List[Case]:
    """All cases, de-duplicated (first category wins), in a stable order."""
    cases: "collections.OrderedDict[str, str]" = collections.OrderedDict()

    def add(category: str, inputs: Iterable[str]) -> None:
        for s in inputs:
            if s not in cases:
                cases[s] = category

    add("tophub", cases_tophub(shared))
    add("tvm-tests", cases_tvm_tests(schema))
    add("tags", cases_tags(schema))
    add("kind-attr", cases_kind_attr(schema))
    add("quoting", cases_quoting(schema))
    add("json", cases_json(schema))
    mutation_bases = [s for s, c in cases.items() if c in ("tophub", "tvm-tests", "quoting")]
    add("malformed", cases_malformed(schema, mutation_bases, cases))
    add("generated", cases_generated(schema))
    return [(category, s) for s, category in cases.items()]
