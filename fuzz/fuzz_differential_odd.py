#!/usr/bin/env python3
"""libFuzzer target `differential_odd` (fuzz/targets.py): `python fuzz/fuzz_differential.py -runs=N [corpus ...]`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.engine import main  # noqa: E402

if __name__ == "__main__":
    main("differential_odd", __file__)
