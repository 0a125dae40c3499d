"""API.md's promise holds in every dialect: a public function returns or raises a TargetError.

Over the golden corpus (strings TVM 0.21 was asked about) and the TopHub target strings
(shipped in tests/data/tophub/), ``lint``, ``explain``, ``diff`` and ``check --strict`` are
run in every dialect of ``targetlang.dialects()``; anything but a ``TargetError`` fails.
"""

from __future__ import annotations

import io
import json
from functools import cache

import pytest
from conftest import REPO
from golden import records

import targetlang as tl
from targetlang._inspect.diff import diff
from targetlang._inspect.explain import explain
from targetlang.cli import main


@cache
def texts() -> tuple[str, ...]:
    golden = [r["input"] for r in records() if isinstance(r["input"], str)]
    tophub = (REPO / "tests" / "data" / "tophub" / "tophub-targets.txt").read_text("utf-8")
    migration = [json.loads(line)["input"] for line in
                 (REPO / "tests" / "data" / "migration" / "golden.jsonl").open(encoding="utf-8")]
    seen = dict.fromkeys(golden + tophub.splitlines() + [m for m in migration
                                                          if isinstance(m, str)])
    return tuple(t for t in seen if t)


@pytest.mark.parametrize("dialect", list(tl.dialects()))
def test_lint_explain_diff_keep_the_promise_in_every_dialect(dialect: str) -> None:
    read = 0
    for text in texts():
        try:
            target = tl.parse(text, dialect=dialect)
        except tl.TargetError:
            target = None
        for call in (lambda text=text: tl.lint(text, dialect=dialect),
                     lambda text=text: explain(text, dialect=dialect)):
            try:
                call()
            except tl.TargetError:
                assert target is None, text  # what parse reads, lint and explain read
        if target is not None:
            read += 1
            assert diff(target, target) == []
    assert read > 0


@pytest.mark.parametrize("dialect", list(tl.dialects()))
def test_check_strict_answers_every_text_in_every_dialect(dialect: str) -> None:
    stdin = "".join(t + "\n" for t in texts() if "\n" not in t and "\r" not in t)
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", "--strict", "--dialect", dialect], stdin=io.StringIO(stdin),
                  stdout=out, stderr=err, environ={})
    assert status in (0, 1), err.getvalue()[-2000:]
    assert "Traceback" not in err.getvalue()
