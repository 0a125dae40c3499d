"""The one bounded memo of the package: remembers only inputs of ordinary size, and only so many.

Target strings repeat (a tuning log holds a few, millions of times), so their reads are
memoized; but a memo that counts entries, not bytes, keeps 16,384 megabyte texts as
gigabytes. A ``Memo`` is bounded both ways: at most ``maxsize`` entries, and never a key
holding more than ``ORDINARY_CHARS`` characters of text (such a call is computed afresh
every time and never kept). So a memo holds at most ``maxsize * ORDINARY_CHARS`` characters
of input (and what was read from them).

Every memo of user input uses it (``Memo`` directly where the hot path looks a key up
itself, ``memoized`` as a decorator): ``parse``'s reads, the attribute orders and tuning keys
of ``target.py``, the hooks' answers (``Hook.keeps``, ``_lower/hooks.py``), the Arm tables'
answers (``_lower/arm.py``), the per-spelling results of the log
tools (``logs.py``), ``compat``'s configs, the schemas, JSON contexts and plain writers by
dialect (``target.py``, ``_formats/text.py``) and the Python rewriter's property tables.

Kept as they are, because they are not memos of user input (their size is that of the
package's data, whatever the input): ``functools.cache`` on loaders of fixed data, which take
no argument or one drawn from a fixed set (a registered dialect, a data file, a type named in
a data file): ``dialects.load``, ``arm.tables``, ``grammar``'s parsers,
``types.array_of``/``map_of``/``parse_type``, ``facts.data_json``, ``lint._known``,
``target._tags``, ``tvmc``'s codegens, ``components``' and ``presets``' tables,
``_metaschedule``'s instructions, ``_upgrade``'s first words, ``cli._browse``'s device names and
``strategies``' strategy builders; and per-table dicts filled from the data alone (an Arm
table's feature closures, ``_pyflow``'s fields of each AST class). ``_lower/plan.py``'s plans
live on their ``DialectSchema``, made once per dialect.

Eviction is constant-time: the entries are kept in order of arrival (an ``OrderedDict``,
whose oldest entry comes out in one step), so the read that finds the memo full pays the
same as any other. (Taking the first key of a plain dict skips every entry deleted before
it: with the oldest dropped first, thousands of them, on every put.)

Thread safety (CPython's GIL): a hit is one ``dict.get``; a miss computes outside any lock
(two threads may both compute an answer: the answers are equal), then stores it under the
memo's lock, which also guards the eviction of the oldest entries. No reader ever sees a
half-made entry.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: The longest input (characters of text, summed over a key's strings) a memo keeps. Real
#: target strings are under 300 characters; TopHub's longest is 246.
ORDINARY_CHARS = 2048


def text_size(value: Any) -> int:
    """Characters of text (or bytes) in ``value``, and in the tuples in it (a loop, not a
    generator: it runs on every miss of a memo)."""
    kind = type(value)
    if kind is str or kind is bytes:
        return len(value)
    total = 0
    if kind is tuple:
        for item in value:
            item_kind = type(item)
            if item_kind is str or item_kind is bytes:
                total += len(item)
            elif item_kind is tuple:
                total += text_size(item)
    elif isinstance(value, (str, bytes)):  # (subclasses)
        return len(value)
    return total


class Memo(Generic[K, V]):
    """A dict of at most ``maxsize`` entries, the oldest dropped first, that never keeps a
    key of more than ``ORDINARY_CHARS`` characters of text.

    ``get(key)`` is the dict's own (``None`` when absent, or a default); ``put(key, value)``
    keeps an answer and gives it back.
    """

    __slots__ = ("get", "maxsize", "_entries", "_lock")

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("a memo keeps at least one entry")
        self._entries: OrderedDict[K, V] = OrderedDict()
        #: the dict's own ``get``: a hit costs one call in C
        self.get = self._entries.get
        self.maxsize = maxsize
        self._lock = threading.Lock()

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (unless the key's text is too long); ``value`` back.
        Raises ``TypeError`` for an unhashable key, as a dict does."""
        if text_size(key) > ORDINARY_CHARS:
            return value
        entries = self._entries
        with self._lock:
            if key not in entries:
                while len(entries) >= self.maxsize:
                    entries.popitem(last=False)  # the oldest kept, in one step
            entries[key] = value
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries


_MISSING: Any = object()


class Memoized(Generic[P, R]):
    """A function memoized in a ``Memo`` by its positional arguments; keyword arguments or
    an unhashable argument: computed, not kept."""

    def __init__(self, function: Callable[P, R], maxsize: int) -> None:
        self._function = function
        self.memo: Memo[tuple[Any, ...], R] = Memo(maxsize)
        functools.update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            return self._function(*args, **kwargs)
        try:
            hit = self.memo.get(args, _MISSING)
        except TypeError:  # an unhashable argument
            return self._function(*args, **kwargs)
        if hit is _MISSING:
            return self.memo.put(args, self._function(*args, **kwargs))
        return hit  # type: ignore[no-any-return]

    def cache_clear(self) -> None:
        self.memo.clear()


def memoized(maxsize: int) -> Callable[[Callable[P, R]], Memoized[P, R]]:
    """``@memoized(maxsize)``: the decorator form of ``Memo``."""
    return lambda function: Memoized(function, maxsize)


#: (the name the Arm tables' memos were written with)
bounded_memo = memoized
