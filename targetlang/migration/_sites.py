"""What one legacy target value found in a project becomes in a target release.

Every file type ``targetlang upgrade`` reads (Python, notebooks, docs, configs, shell) asks
the same question of a string it found: is it a target TVM 0.21 read that the target
release refuses or reads differently, and if so, what does that release read instead? One
answer, here, so that every file type rewrites, keeps and reports alike.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .._memo import ORDINARY_CHARS
from ..environment import Environment
from ..errors import TargetError
from ..target import Target, parse
from . import (
    LEGACY_DIALECT,
    MeaningWarning,
    MigrationError,
    MigrationWarning,
    detect_dialect,
    meaning_changes,
    meaning_notes,
    migrate,
)
from ._minimal import minimal
from .meaning import MeaningNote

__all__ = ["NeedsPerson", "NotATarget", "Rewritten", "Unchanged", "SiteValue", "convert_value",
           "json_text", "meaning_report", "migrate_as_legacy", "notes_of_legacy"]


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


def json_text(value: dict[str, Any]) -> str:
    """The JSON text a string value holding a target becomes (``Target(str)`` reads it)."""
    return json.dumps(value, ensure_ascii=False)
