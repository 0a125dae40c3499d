"""The minimal TargetJSON: only what a release would not fill in by itself, the dict
``targetlang upgrade`` writes and ``targetlang.migrate(..., minimal=True)`` returns. It depends
on reading targets only, so that the migration package and its tools share it."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..environment import Environment
from ..errors import TargetError
from ..target import from_json, kinds

__all__ = ["minimal"]


#: The machines a minimal dict is read on before it is trusted: none (the pure reading; nothing
#: detected, so a detected value dropped from the dict shows as missing), no GPU, and one that
#: detects everything differently (another triple, GPUs, an old ROCm API).
_READERS = (None, Environment.no_gpu(),
            Environment(system_triple="aarch64-unknown-linux-gnu", cuda_arch="sm_86",
                        rocm_arch="gfx1030", rocm_api_version=300))
_STRUCTURE = ("kind", "tag", "keys")

#: where a value sits in a TargetJSON: keys and list indices from the top
KeyPath = tuple[str | int, ...]


def minimal(target_json: dict[str, Any], target_dialect: str) -> dict[str, Any]:
    """Only what release ``target_dialect`` would not fill in by itself of ``target_json``
    (its complete TargetJSON): the same target to that release, for a person to read.

    Dropped, at every level (``host``, composite ``devices``): the empty tag, ``keys`` the
    release derives itself, attributes at the kind's default and any other value the release
    derives. Each drop is kept only when the release reads the smaller dict exactly as the
    complete one (``from_json(..., dialect=target_dialect).to_json()``), and reads its
    attributes the same on every machine (:data:`_READERS`), so a value the machine would
    detect differently stays. Order: ``kind``, ``tag``, ``keys``, the attributes, ``host`` last.
    A dict the release refuses is returned as it is.
    """
    try:
        reading = _readings(target_json, target_dialect)
    except TargetError:
        return target_json
    likely, others = _candidates(target_json, target_dialect, ())
    dropped: set[KeyPath] = set()

    def reads_same(trial: set[KeyPath]) -> bool:
        try:
            return _readings(_kept(target_json, trial, ()), target_dialect) == reading
        except TargetError:
            return False

    if likely and reads_same(set(likely)):
        dropped.update(likely)
    else:
        others = likely + others
    for path in others:  # one at a time: the ones the release fills in by some other rule
        if reads_same(dropped | {path}):
            dropped.add(path)
    return _kept(target_json, dropped, ())


def _readings(config: dict[str, Any], dialect: str) -> list[Any]:
    """How ``dialect`` reads ``config`` on each of :data:`_READERS`.

    Keys count on the pure reading only: on a machine, keys the release derives from what it
    detected (``arm_cpu`` for an Arm system triple) follow that machine, as they did when the
    legacy text was read there.
    """
    pure, *machines = [from_json(config, dialect=dialect, environment=environment).to_json()
                       for environment in _READERS]
    return [pure, *(_without_keys(reading) for reading in machines)]


def _without_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_keys(v) for k, v in value.items() if k != "keys"}
    if isinstance(value, list):
        return [_without_keys(v) for v in value]
    return value


def _is_target(value: Any) -> bool:
    return isinstance(value, dict) and "kind" in value


def _candidates(config: dict[str, Any], dialect: str,
                path: KeyPath) -> tuple[list[KeyPath], list[KeyPath]]:
    """The drops to try in ``config``: those expected to hold (the empty tag, keys, values at
    the kind's default), and every other attribute; nested targets' first."""
    kind = kinds(dialect).get(str(config.get("kind")))
    defaults: Mapping[str, Any] = kind.defaults if kind is not None else {}
    likely: list[KeyPath] = []
    others: list[KeyPath] = []
    for key, value in config.items():
        here = (*path, key)
        if _is_target(value):
            inner = _candidates(value, dialect, here)
            likely += inner[0]
            others += inner[1]
        elif isinstance(value, list) and value and all(_is_target(v) for v in value):
            for index, item in enumerate(value):
                inner = _candidates(item, dialect, (*here, index))
                likely += inner[0]
                others += inner[1]
        if key == "kind":
            continue
        if (key == "tag" and value == "") or key == "keys" or \
                (key in defaults and _plain(defaults[key]) == value):
            likely.append(here)
        elif key != "tag":
            others.append(here)
    return likely, others


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _kept(config: dict[str, Any], dropped: set[KeyPath], path: KeyPath) -> dict[str, Any]:
    """``config`` without the ``dropped`` paths, in the readable order."""
    def value_at(key: str, value: Any) -> Any:
        here = (*path, key)
        if _is_target(value):
            return _kept(value, dropped, here)
        if isinstance(value, list) and value and all(_is_target(v) for v in value):
            return [_kept(v, dropped, (*here, i)) for i, v in enumerate(value)]
        return copy.deepcopy(value)  # the caller's dict stays its own

    kept = {k: v for k, v in config.items() if (*path, k) not in dropped}
    out = {k: value_at(k, kept[k]) for k in _STRUCTURE if k in kept}
    out.update((k, value_at(k, v)) for k, v in kept.items()
               if k not in _STRUCTURE and k != "host")
    if "host" in kept:
        out["host"] = value_at("host", kept["host"])
    return out
