"""Room on the Python stack for a read, wherever the caller stands.

Inputs are limited explicitly (``_lower.MAX_TARGET_DEPTH``, ``MAX_JSON_DEPTH``), so the
recursion a read needs is bounded. A caller deep in its own recursion may still leave less
room than that; then the read runs again with the recursion limit raised by that bound, so
that the answer is the same from any stack depth (and a refusal is never an accident of
where it was asked).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: Frames the deepest input the limits allow needs (about 650 measured), with a wide margin.
STACK_ROOM = 5_000


def with_stack_room(function: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except RecursionError:
            pass
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(limit + STACK_ROOM)  # process-wide, for this one call
        try:
            return function(*args, **kwargs)
        finally:
            sys.setrecursionlimit(limit)

    return wrapper


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def caller_level() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside targetlang (the
    caller's line), however many of targetlang's own frames (a decorator, a helper) lie
    between: for a ``warnings.warn`` called by the function that calls this."""
    frame = sys._getframe(1)  # the function about to warn
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level
