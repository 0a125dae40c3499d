#!/usr/bin/env python3
"""libFuzzer target `tools_bytes` (fuzz/targets.py): `python fuzz/fuzz_tools_bytes.py -runs=N [corpus ...]`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.engine import main  # noqa: E402

if __name__ == "__main__":
    main("tools_bytes", __file__)
