"""``python -m fuzz``: run the fuzz campaigns (see fuzz/runner.py)."""

import sys

from fuzz.runner import main

sys.exit(main())
