"""``python fuzz/run.py``: the same as ``python -m fuzz``, from any directory."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.runner import main  # noqa: E402

sys.exit(main())
