"""Reading the golden corpus recorded from TVM 0.21 (tests/data/tvm-0.21/golden.jsonl)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "tvm-0.21"


@cache
def records() -> tuple[dict[str, Any], ...]:
    with open(DATA / "golden.jsonl", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f)
