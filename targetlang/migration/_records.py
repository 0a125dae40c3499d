"""What the two readers of tuning logs share (logs: AutoTVM records; _metaschedule:
MetaSchedule databases): a record's target read as TVM 0.21's, the bounded memo of each
spelling's result, and JSON's white space skipped in a record's text."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any

from .._memo import Memo
from ..environment import Environment
from ..errors import TargetError
from . import LEGACY_DIALECT, MeaningWarning, MigrationWarning, migrate

#: At most this many distinct spellings are remembered (memory stays flat on any log).
CACHE_LIMIT = 1 << 16

def loads(text: bytes | str) -> Any:
    """``json.loads``, with nesting too deep for Python's parser a ``ValueError`` too."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply to read") from None



def skip_json_space(text: str, at: int) -> int:
    """The index of the first character at or after ``at`` that is not JSON white space."""
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _decode(literal: bytes) -> str | dict[str, Any]:
    value = loads(literal)
    if not isinstance(value, (str, dict)):
        raise ValueError("a target is a string or an object")
    return value


def as_021(literal: bytes, environment: Environment | None) -> dict[str, Any]:
    """The target of a log record as TVM 0.21's TargetJSON; lossy reads are errors."""

    value = _decode(literal)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MigrationWarning)
        # A log's strings mean what every migration reads (migrate's "auto": TVM 0.21's
        # meaning, else an older release's); its dicts are what TVM 0.21 exported.
        try:
            out = migrate(value, source_dialect="auto" if isinstance(value, str)
                          else LEGACY_DIALECT, target_dialect="tvm-0.21", environment=environment)
        except TargetError:
            if isinstance(value, str):
                raise
            out = migrate(value, target_dialect="tvm-0.21", environment=environment)
    lost = [str(w.message) for w in caught if issubclass(w.category, MigrationWarning)
            and not issubclass(w.category, MeaningWarning)]  # (a meaning note is no loss)
    if lost:
        raise TargetError(f"cannot be written in tvm-0.21 without loss: {'; '.join(lost)}")
    return out



def why(error: Exception) -> str:
    """One line saying why a record's target could not be read."""
    if isinstance(error, (TargetError, ValueError, TypeError)) and str(error):
        return str(error).splitlines()[0]
    if isinstance(error, RecursionError):
        return "nested too deeply to read"
    return f"{type(error).__name__}: {error}".splitlines()[0]



class RecordMemo:
    """Per-spelling results, bounded: a log of millions of records has few distinct targets."""

    def __init__(self, compute: Callable[[bytes], Any]) -> None:
        self._compute = compute
        self.cache: Memo[bytes, tuple[bool, Any]] = Memo(CACHE_LIMIT)

    def __call__(self, literal: bytes) -> tuple[bool, Any]:
        hit = self.cache.get(literal)
        if hit is None:
            try:
                hit = (True, self._compute(literal))
            except Exception as error:  # noqa: BLE001 - a bad record is kept and reported, always
                hit = (False, why(error))
            self.cache.put(literal, hit)
        return hit
