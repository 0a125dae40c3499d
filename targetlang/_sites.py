"""What one legacy target value found in a project becomes in a target release.

Every file type ``targetlang upgrade`` reads (Python, notebooks, docs, configs, shell) asks
the same question of a string it found: is it a target TVM 0.21 read that the target
release refuses or reads differently, and if so, what does that release read instead? One
answer, here, so that every file type rewrites, keeps and reports alike.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from typing import Any

from .environment import Environment
from .errors import TargetError
from .migration import MigrationWarning, detect_dialect, meaning_changes, migrate
from .target import parse

__all__ = ["NeedsPerson", "NotATarget", "Rewritten", "Unchanged", "SiteValue", "convert_value",
           "json_text", "minimal"]


@dataclass(frozen=True, slots=True)
class Unchanged:
    """The target release reads the value as it is, with the same meaning (a kind, a tag)."""


@dataclass(frozen=True, slots=True)
class NotATarget:
    """No release reads the value as a target; ``reason`` is the reader's error."""

    reason: str


@dataclass(frozen=True, slots=True)
class Rewritten:
    """The TargetJSON the target release reads with the value's legacy meaning."""

    json: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NeedsPerson:
    """A legacy target that cannot be rewritten without loss; ``reason`` says why."""

    reason: str


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
    fill in by itself.
    """
    try:
        detect_dialect(value)
    except TargetError as error:
        return NotATarget(error.message)
    if _reads(value, target_dialect) and not meaning_changes(value, target_dialect, environment):
        return Unchanged()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MigrationWarning)
        try:  # a project's value means what migrate()'s source rule reads (0.21's meaning)
            migrated = migrate(value, target_dialect=target_dialect, environment=environment)
        except TargetError as error:
            return NeedsPerson(error.message)
    lost = [str(w.message) for w in caught if issubclass(w.category, MigrationWarning)]
    if lost:
        return NeedsPerson(f"cannot be migrated without loss ({'; '.join(lost)}); "
                           "see targetlang.migrate_config")
    return Rewritten(migrated if full else minimal(migrated, target_dialect))


def minimal(target_json: dict[str, Any], target_dialect: str) -> dict[str, Any]:
    """Only what release ``target_dialect`` would not fill in by itself of ``target_json``
    (its complete TargetJSON): the same target to that release, for a person to read."""
    return target_json  # TODO(issue 21): drop defaults, default keys and the empty tag


def json_text(value: dict[str, Any]) -> str:
    """The JSON text a string value holding a target becomes (``Target(str)`` reads it)."""
    return json.dumps(value, ensure_ascii=False)
