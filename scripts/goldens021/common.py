"""What every piece of the TVM 0.21 golden corpus shares: where it goes, its fields, and the
legacy syntaxes an attribute is written in."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from shelf import REPO

DATA_DIR = REPO / "tests" / "data" / "tvm-0.21"
SEED = 21_0_21  # fixed: the random categories must not change between runs
QUERY_TIMEOUT_S = 20
EXPECTED_TVM = "0.21.0"
GOLDEN_FIELDS = ("category", "input", "ok", "export", "str", "str_error", "host_str",
                 "features", "error_type", "error")
RESULT_FIELDS = GOLDEN_FIELDS[2:]

Case = Tuple[str, str]          # (category, input)
Schema = Dict[str, Any]         # introspect.py output

# Attribute value syntaxes: `-k=v`, `--k=v`, `-k v`, and bare `-k` (value "1").
SYNTAXES = ("eq", "dasheq", "space")


def attr_text(key: str, value: Optional[str], syntax: str) -> str:
    """Render one attribute in one of the legacy syntaxes (value None: bare key)."""
    if value is None or syntax == "bare":
        return f"-{key}"
    if syntax == "eq":
        return f"-{key}={value}"
    if syntax == "dasheq":
        return f"--{key}={value}"
    if syntax == "space":
        return f"-{key} {value}"
    raise ValueError(syntax)


def kinds_of(schema: Schema) -> List[str]:
    return sorted(schema["kinds"])


def options_of(schema: Schema, kind: str) -> Dict[str, str]:
    opts = schema["kinds"][kind]["options"]
    if not isinstance(opts, dict):
        raise SystemExit(f"introspect.py gave no options for kind {kind!r}: {opts}")
    return dict(sorted(opts.items()))
