"""Where a cold read's time goes, per stage: ``python3 benchmarks/bench.py --only stages``.

The cold read (``parse`` -> ``to_json()``, every string new to the memo) runs under cProfile;
each function's own time is given to the stage its module and name belong to, and the shares
are scaled to the cold time measured without the profiler (cProfile's overhead per call
inflates small functions, so the split is approximate; the total is not).
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import targetlang as tl  # noqa: E402
from targetlang.target import _parse_uncached  # noqa: E402

ENV = tl.Environment.no_gpu()

#: (stage, where): the first whose ``where`` is in "file:function" (or a builtin's name) wins.
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("to_json", ("target.py:to_json", "target.py:_export", "target.py:_make_template",
                 "target.py:_plain")),
    ("Target construction", ("target.py:_create", "target.py:__init__", "TargetFeatures")),
    ("trace", ("trace.py:",)),
    ("one-pass plain-text reader (words, values, config)", ("plan.py:read_plain_text",)),
    ("errors (refused strings)", ("errors.py:", "core.py:_fail")),
    ("target-parser hooks", ("hooks.py:", "arm.py:")),
    ("split (words)", ("_syntax/grammar.py:", "lark", "Lark")),
    ("interpret (values)", ("_syntax/rules.py:", "core.py:plain_value", "core.py:value_from_text",
                            "core.py:_read_word", "plan.py:_value")),
    ("schema lookups", ("core.py:_kind", "core.py:_attr", "facts.py:", "plan.py:plan",
                        "dialects.py:")),
    ("tag / JSON text", ("core.py:from_tag", "core.py:from_config_string", "json", "loads",
                         "dumps", "core.py:truncate_strings", "core.py:json_depth")),
    ("FromConfig (keys, host, attrs, defaults)", ("core.py:_from_config", "core.py:from_config",
                                                  "plan.py:", "core.py:_reimport")),
    ("text to config (one pass over words)", ("core.py:from_raw_string",)),
)


def _stage(file: str, name: str) -> str:
    where = f"{file.replace(chr(92), '/')}:{name}"
    for stage, marks in STAGES:
        if any(mark in where for mark in marks):
            return stage
    return "entry (parse, dispatch, stack room)"


def _read_all(texts: Sequence[str]) -> None:
    for text in texts:
        try:
            _parse_uncached(text, environment=ENV).to_json()
        except tl.TargetError:
            pass


def breakdown(texts: Sequence[str], repeats: int) -> tuple[float, dict[str, float]]:
    """The cold time per target (µs, best of ``repeats``) and each stage's share of it."""
    _read_all(texts)  # warm the lazily built tables (plans, parsers) first
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        _read_all(texts)
        best = min(best, time.perf_counter() - start)
    profile = cProfile.Profile()
    profile.runcall(_read_all, texts)
    stats = pstats.Stats(profile)
    own: dict[str, float] = {}
    for (file, _line, name), row in stats.stats.items():  # type: ignore[attr-defined]
        if name == "_read_all":
            continue
        if file == "~" and row[4]:
            # A builtin (dict.get, isinstance, sorted...): its time goes to its callers' stages.
            calls = row[4]
            weight = sum(c[2] for c in calls.values()) or 1.0
            for (c_file, _c_line, c_name), c_row in calls.items():
                stage = _stage(c_file, c_name)
                own[stage] = own.get(stage, 0.0) + row[2] * (c_row[2] / weight)
            continue
        stage = _stage(file, name)
        own[stage] = own.get(stage, 0.0) + row[2]
    total = sum(own.values())
    return best / len(texts) * 1e6, {k: v / total for k, v in own.items()}


def section_stages(named: dict[str, list[str]], repeats: int) -> list[str]:
    results = {name: breakdown(texts, repeats) for name, texts in named.items()}
    stages = [s for s, _ in STAGES] + ["entry (parse, dispatch, stack room)"]
    lines = ["| stage | " + " | ".join(f"{name} µs" for name in named) + " |",
             "|---|" + "---:|" * len(named)]
    for stage in stages:
        if not any(stage in shares for _, shares in results.values()):
            continue
        lines.append(f"| {stage} | " + " | ".join(
            f"{cold * shares.get(stage, 0.0):.2f}" for cold, shares in results.values()) + " |")
    lines.append("| **cold total** | " + " | ".join(
        f"**{cold:.2f}**" for cold, _ in results.values()) + " |")
    return lines
