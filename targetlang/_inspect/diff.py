"""``targetlang diff``: the semantic difference of two targets, however each was written.

Two texts are compared by what they mean: their ``to_json()`` (defaults, keys and the
values TVM derives included), so ``cuda -arch=sm_80`` and ``{"kind": "cuda", "arch":
"sm_80"}`` are the same target, and ``-max_num_threads=1024`` on a cuda target changes
nothing. Each difference has a JSON path (``host.mtriple``, ``devices[1].arch``), and,
read from each target's trace, where the value on either side came from (``written``,
``default``, ``environment``, ...; ``targetlang diff --origins``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from .._stack import with_stack_room
from ..errors import json_path
from ..target import Target, kinds

__all__ = ["Change", "diff", "render"]

_FIELDS = ("kind", "tag", "keys", "host")
_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class Change:
    """One difference: ``path`` in TargetJSON, what happened, the values before and after
    (``None`` for the side that lacks the member)."""

    path: str
    change: Literal["added", "removed", "changed"]
    old: Any = None
    new: Any = None
    #: where the old and the new value came from (the targets' traces), when known
    origins: tuple[str | None, str | None] = field(default=(None, None), compare=False)

    def to_json(self, origins: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "change": self.change}
        if self.change != "added":
            out["old"] = self.old
            if origins:
                out["old_source"] = self.origins[0]
        if self.change != "removed":
            out["new"] = self.new
            if origins:
                out["new_source"] = self.origins[1]
        return out



def _order(keys: set[str]) -> list[str]:
    return [k for k in _FIELDS if k in keys] + sorted(k for k in keys if k not in _FIELDS)


def _same(a: Any, b: Any) -> bool:
    # JSON tells true from 1, Python's == does not.
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _walk(a: Any, b: Any, path: str, out: list[Change]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in _order(set(a) | set(b)):
            _walk(a.get(key, _MISSING), b.get(key, _MISSING), json_path(path, key), out)
    elif path.endswith("devices") and isinstance(a, list) and isinstance(b, list) \
            and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            _walk(x, y, json_path(path, index), out)
    elif a is _MISSING:
        out.append(Change(path, "added", None, b))
    elif b is _MISSING:
        out.append(Change(path, "removed", a, None))
    elif not _same(a, b):
        out.append(Change(path, "changed", a, b))


@with_stack_room
def diff(a: Target, b: Target) -> list[Change]:
    """What changes from ``a`` to ``b`` (empty when they are equal)."""
    out: list[Change] = []
    if a.dialect != b.dialect:
        out.append(Change("dialect", "changed", a.dialect, b.dialect))
    _walk(a.to_json(), b.to_json(), "", out)
    return [Change(c.path, c.change, c.old, c.new, (origin(a, c.path), origin(b, c.path)))
            for c in out]


_STEP = re.compile(r"([^.\[\]]+)(?:\[(\d+)\])?")


def origin(target: Target, path: str) -> str | None:
    """Where the attribute at ``path`` of ``target`` came from (its trace), or None for
    what is not one attribute's value (the kind, the tag, the keys, a whole host)."""
    steps = path.split(".")
    current: Target | None = target
    for step in steps[:-1]:
        match = _STEP.fullmatch(step)
        if current is None or match is None:
            return None
        name, index = match.groups()
        if name == "host" and index is None:
            current = current.host
            continue
        value = current.attrs.get(name)
        if index is None or not isinstance(value, tuple) or int(index) >= len(value):
            return None
        item = value[int(index)]
        current = item if isinstance(item, Target) else None
    name = steps[-1]
    if current is None or name in _FIELDS or name not in current.attrs:
        return None
    defaults = kinds(current.dialect)[current.kind].defaults
    return current._trace.attr_origin(name, current.attrs[name], defaults)


Paint = Callable[[str, str], str]
_MARK = {"added": ("+", "green"), "removed": ("-", "red"), "changed": ("~", "yellow")}


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def render(changes: list[Change], paint: Paint | None = None, origins: bool = False) -> str:
    """One line per change: ``+ path: new``, ``- path: old``, ``~ path: old -> new``; with
    ``origins``, where each side came from: ``(written -> default)``."""
    paint = paint or (lambda text, style: text)
    lines = []
    for change in changes:
        mark, style = _MARK[change.change]
        if change.change == "added":
            body = f"{change.path}: {_show(change.new)}"
        elif change.change == "removed":
            body = f"{change.path}: {_show(change.old)}"
        else:
            body = f"{change.path}: {_show(change.old)} -> {_show(change.new)}"
        if origins and change.origins != (None, None):
            old, new = (o or "-" for o in change.origins)
            body += f"  ({new if change.change == 'added' else old if change.change == 'removed' else f'{old} -> {new}'})"
        lines.append(paint(f"{mark} {body}", style))
    return "\n".join(lines)
