"""What one legacy target value found in a project becomes in a target release.

Every file type ``targetlang upgrade`` reads (Python, notebooks, docs, configs, shell) asks
the same question of a string it found: is it a target TVM 0.21 read that the target
release refuses or reads differently, and if so, what does that release read instead? One
answer, here, so that every file type rewrites, keeps and reports alike.
"""

from __future__ import annotations

import copy
import json
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .._memo import ORDINARY_CHARS
from ..environment import Environment
from ..errors import TargetError
from ..target import Target, from_json, kinds, parse
from .meaning import MeaningNote
from .targets import (
    LEGACY_DIALECT,
    MeaningWarning,
    MigrationError,
    MigrationWarning,
    detect_dialect,
    meaning_changes,
    meaning_notes,
    migrate,
)

__all__ = ["NeedsPerson", "NotATarget", "Rewritten", "Unchanged", "SiteValue", "convert_value",
           "json_text", "meaning_report", "migrate_as_legacy", "minimal", "notes_of_legacy"]


@dataclass(frozen=True, slots=True)
class Unchanged:
    """The target release reads the value as it is, with the same meaning (a kind, a tag)."""


@dataclass(frozen=True, slots=True)
class NotATarget:
    """No release reads the value as a target; ``reason`` is the reader's error."""

    reason: str


@dataclass(frozen=True, slots=True)
class Rewritten:
    """The TargetJSON the target release reads with the value's legacy meaning; ``notes``:
    how the release compiles what the target uses otherwise than TVM 0.21 did (``TM1xx``)."""

    json: dict[str, Any]
    notes: tuple[MeaningNote, ...] = ()


@dataclass(frozen=True, slots=True)
class NeedsPerson:
    """A legacy target that cannot be rewritten without loss; ``reason`` says why.
    ``moved``: a note for each option moved out of the target (``TM2xx``), when they are
    the whole loss."""

    reason: str
    moved: tuple[MeaningNote, ...] = ()


SiteValue = Unchanged | NotATarget | Rewritten | NeedsPerson


def _reads(value: str, dialect: str) -> bool:
    """Whether release ``dialect`` reads the text ``value`` as it is (a tag, a kind name)."""
    try:
        parse(value, dialect=dialect)
    except TargetError:
        return False
    return True


def convert_value(value: str, *, target_dialect: str, full: bool = False,
                  environment: Environment | None = None) -> SiteValue:
    """What the target text ``value`` becomes in ``target_dialect``.

    ``full`` asks for the complete TargetJSON; otherwise only what the release would not
    fill in by itself. Answers for texts of ordinary size are remembered (a project writes
    the same few targets over and over); the ``json`` of an answer is shared: read it only.
    """
    if len(value) > ORDINARY_CHARS:
        return _convert(value, target_dialect, full, environment)
    return _remembered(value, target_dialect, full, environment)


@lru_cache(maxsize=4096)
def _remembered(value: str, target_dialect: str, full: bool,
                environment: Environment | None) -> SiteValue:
    return _convert(value, target_dialect, full, environment)


def _convert(value: str, target_dialect: str, full: bool,
             environment: Environment | None) -> SiteValue:
    try:
        detect_dialect(value)
    except TargetError as error:
        return NotATarget(error.message)
    if _reads(value, target_dialect) and not meaning_changes(value, target_dialect, environment):
        return Unchanged()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MigrationWarning)
        try:
            migrated = migrate_as_legacy(value, target_dialect, environment)
        except TargetError as error:
            return NeedsPerson(error.message)
    lost = [str(w.message) for w in caught if issubclass(w.category, MigrationWarning)
            and not issubclass(w.category, MeaningWarning)]  # (a meaning note is no loss)
    notes = notes_of_legacy(value, target_dialect, environment)
    if lost:
        moved = tuple(note for note in notes if not note.kept)
        return NeedsPerson(f"cannot be migrated without loss ({'; '.join(lost)}); "
                           "see targetlang.migrate_config",
                           moved if len(moved) == len(lost) else ())
    return Rewritten(migrated if full else minimal(migrated, target_dialect),
                     tuple(note for note in notes if note.compiles))


def notes_of_legacy(value: str | Target, target_dialect: str,
                    environment: Environment | None = None) -> list[MeaningNote]:
    """The moved-meaning notes of what a project that ran on TVM 0.21 meant by ``value``,
    read as :func:`migrate_as_legacy` reads it (none where nothing reads it)."""
    for source_dialect in (LEGACY_DIALECT, "auto"):
        try:
            return meaning_notes(value, source_dialect=source_dialect,
                                 target_dialect=target_dialect, environment=environment)
        except TargetError:
            continue
    return []


def meaning_report(note: MeaningNote, what: str) -> tuple[str, str]:
    """The report code and message of a moved-meaning note at a site (``what`` names it):
    a TM1xx note of a rewritten site, a TM2xx note of a site left as it is (an option that
    has no place in a target of the release)."""
    from ._upgrade.codes import moved_meaning_code  # (the codes' table reads the notes)

    where = f" (of its {note.path})" if note.path else ""
    keep = (f"to keep TVM 0.21's meaning in {note.dialect}: {note.line}" if note.line else
            f"nothing in {note.dialect} keeps TVM 0.21's meaning")
    if note.kept:
        text = (f"{what} is rewritten and reads the same, but {note.dialect} compiles it "
                f"otherwise: {note.option}{where}: {note.message}; {keep} ({note.code})")
    else:
        text = (f"{what} holds {note.option}{where}, which has no place in a target of "
                f"{note.dialect}: {note.message}; {keep}; left as it is: move the option "
                f"there, drop it from the target and upgrade again ({note.code})")
    return moved_meaning_code(note.code), text


def migrate_as_legacy(value: str | Mapping[str, Any] | Target, target_dialect: str,
                      environment: Environment | None = None) -> dict[str, Any]:
    """The complete TargetJSON in ``target_dialect`` of what a project that ran on TVM 0.21
    meant by ``value``: TVM 0.21's reading where it reads the value, JSON text included (it
    truncates a string at a NUL, where newer releases keep it); else the newest release that
    reads it (a dict written for a newer release, TopHub's ``-target=`` text); if none does,
    0.21's error. A kind the target release lacks is a :class:`MigrationError`.
    """
    try:
        return migrate(value, source_dialect=LEGACY_DIALECT, target_dialect=target_dialect,
                       environment=environment)
    except MigrationError:
        raise  # read, but no equivalent there (a kind the release dropped)
    except TargetError as legacy_error:
        try:
            return migrate(value, source_dialect="auto", target_dialect=target_dialect,
                           environment=environment)
        except TargetError:
            raise legacy_error from None


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


def json_text(value: dict[str, Any]) -> str:
    """The JSON text a string value holding a target becomes (``Target(str)`` reads it)."""
    return json.dumps(value, ensure_ascii=False)
