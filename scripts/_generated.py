"""What the scripts that generate data from the oracles have in common."""

from __future__ import annotations

from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def write_or_check(path: Path, text: str, *, check: bool, source: str = "its source") -> int:
    """Write ``text`` to ``path``; or, with ``check``, say whether the file already holds it.

    Returns the exit status: 1 when checking finds the file out of date, else 0.
    """
    if check:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        print(f"{path.relative_to(REPO)}: " + ("up to date" if same else f"differs from {source}"))
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(REPO)} ({len(text.encode()):,} bytes)")
    return 0


def plain(value: Any, target_class: type) -> Any:
    """A TVM value (Map, Array, String, IntImm, Target) as plain JSON; runs in an oracle."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, target_class):
        return plain(value.export(), target_class)  # type: ignore[attr-defined]
    if hasattr(value, "dtype") and hasattr(value, "value"):
        return bool(value.value) if str(value.dtype) == "bool" else value.value
    if hasattr(value, "items"):
        return {str(k): plain(x, target_class) for k, x in value.items()}
    return [plain(x, target_class) for x in value]
