"""Memos that remember only inputs of ordinary size.

Target strings repeat (a tuning log holds a few, millions of times), so their reads are
memoized; but an LRU memo counts entries, not bytes, and 16,384 entries of megabyte texts are
gigabytes. A call whose text arguments are longer than ``ORDINARY_CHARS`` in all is computed
afresh every time and never kept: the memo holds at most ``maxsize * ORDINARY_CHARS``
characters of input (and what was read from them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: The longest input (characters of text, summed over a call's arguments) a memo keeps. Real
#: target strings are under 300 characters; TopHub's longest is 246.
ORDINARY_CHARS = 2048


def _size(values: tuple[Any, ...]) -> int:
    """Characters of text in ``values`` and the tuples in them (a loop, not a generator: it
    runs on every call of a memoized function)."""
    total = 0
    for value in values:
        if isinstance(value, str):
            total += len(value)
        elif isinstance(value, tuple):
            total += _size(value)
    return total


class BoundedMemo(Generic[P, R]):
    """``functools.lru_cache(maxsize)`` for calls whose text is at most ``ORDINARY_CHARS``."""

    def __init__(self, function: Callable[P, R], maxsize: int) -> None:
        self._function = function
        self._cached = functools.lru_cache(maxsize=maxsize)(function)
        functools.update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if _size(args) + (_size(tuple(kwargs.values())) if kwargs else 0) > ORDINARY_CHARS:
            return self._function(*args, **kwargs)
        return self._cached(*args, **kwargs)  # type: ignore[arg-type]  # hashable, as lru_cache needs

    def cache_clear(self) -> None:
        self._cached.cache_clear()

    def cache_info(self) -> Any:
        return self._cached.cache_info()


def bounded_memo(maxsize: int) -> Callable[[Callable[P, R]], BoundedMemo[P, R]]:
    return lambda function: BoundedMemo(function, maxsize)
