"""Meaning that left the target: what a migrated target uses whose meaning moved or changed.

A migrated target can read the same in its new release and still mean something else. The
facts are ``targetlang/_data/moved-meaning.json`` (generated from the oracles and TVM's
sources by ``scripts/generate_moved_meaning.py``); each entry has a stable code:

* ``TM1xx``: the release compiles a kind differently (CUDA math and compile flags since 0.25;
  TVM TIRx's cuda without ``arch``);
* ``TM2xx``: an option TVM moved out of the target (``-system-lib``, ``-link-params``, ...),
  and where it went (or that nothing replaces it);
* ``TM3xx``: an option the release reads under another name (``-target`` is ``mtriple``).

:func:`notes_of` finds the entries that apply to one migration; ``migrate()`` warns with each
(a :class:`MeaningWarning` where the migrated target carries everything and only means it
otherwise; a :class:`~targetlang.MigrationWarning` for an option it leaves out), and
``targetlang.migration.meaning_notes()`` gives them to tools as :class:`MeaningNote` values.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._schema.facts import data_json

__all__ = ["MeaningNote", "notes_of", "table"]

DATA_FILE = "moved-meaning.json"


@dataclass(frozen=True, slots=True)
class MeaningNote:
    """One thing a migrated target uses whose meaning moved or changed in ``dialect``."""

    #: the note's stable code (``TM101``)
    code: str
    #: what the target uses: a kind (``cuda``), or an option as legacy text spells it, with
    #: its value where it left the target (``-system-lib=1``)
    option: str
    #: what changed, since which release and by which TVM change (the pull requests)
    message: str
    #: the line that keeps the old meaning in ``dialect``; None where nothing does
    line: str | None
    #: where in the target: ``""`` (the target itself), ``host``, ``devices[1]``, ...
    path: str
    #: the release the note is about (the migration's target dialect)
    dialect: str
    #: True when the migrated target carries everything of the source (the release means it
    #: otherwise, or reads it under another name); False when it leaves the option out
    kept: bool

    @property
    def compiles(self) -> bool:
        """A ``TM1xx`` note: what changed is how the release compiles the target's kind."""
        return self.code.startswith("TM1")

    def __str__(self) -> str:
        where = f" of {self.path}" if self.path else ""
        if self.line:
            add = f"; to keep TVM 0.21's meaning in {self.dialect}: {self.line}"
        elif self.code.startswith("TM1"):  # (a rename or a removal says what it is)
            add = f"; nothing in {self.dialect} keeps TVM 0.21's meaning"
        else:
            add = ""
        return f"{self.code} {self.option}{where}: {self.message}{add}"


@functools.cache
def table() -> tuple[Mapping[str, Any], ...]:
    """The entries of the data file."""
    return tuple(data_json(DATA_FILE)["meanings"])


def _levels(config: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each target of a TargetJSON (itself, its host, composite devices) with its path."""
    yield path, config
    host = config.get("host")
    if isinstance(host, Mapping):
        yield from _levels(host, f"{path}.host" if path else "host")
    for key, value in config.items():
        if key != "host" and isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, Mapping) and "kind" in item:
                    yield from _levels(item, f"{path}.{key}[{index}]" if path else
                                       f"{key}[{index}]")


def _spelled(text: str | None, option: str) -> bool:
    """Whether legacy ``text`` spells option ``option`` (``-target=``, ``--target=``)."""
    return text is not None and re.search(rf"(?:^|\s)--?{re.escape(option)}=", text) is not None


def notes_of(migrated: Mapping[str, Any], target_dialect: str, *,
             moved: Mapping[str, Mapping[str, Any]], renamed: Sequence[tuple[str, str, str]],
             source_kind: str, source_dialect: str, text: str | None) -> list[MeaningNote]:
    """The notes of one migration to ``target_dialect``: ``migrated`` is the TargetJSON it
    wrote, ``moved`` the options it left out (path -> {option: value}), ``renamed`` the
    attributes it renamed (path, old, new), ``text`` the legacy text it read (None: a dict
    or a Target), in ``source_dialect``, whose kind is ``source_kind``."""
    out: list[MeaningNote] = []
    levels = list(_levels(migrated))
    for entry in table():
        if target_dialect not in entry["dialects"] or source_dialect in entry["dialects"]:
            continue  # (a change between the two releases only)
        trigger = entry["trigger"]
        line = entry["lines"].get(target_dialect)

        def note(option: str, path: str, kept: bool, entry: Mapping[str, Any] = entry,
                 line: str | None = line) -> MeaningNote:
            return MeaningNote(entry["code"], option, entry["message"], line, path,
                               target_dialect, kept)

        if "kind" in trigger:
            for path, config in levels:
                if config.get("kind") == trigger["kind"] and \
                        trigger.get("without", "") not in config:
                    out.append(note(trigger["kind"], path, True))
                    break  # (one note a target: the line is the same for every level)
        elif "option" in trigger:
            for path, options in moved.items():
                value = options.get(trigger["option"])
                if value is not None and (trigger["values"] is None
                                          or value in trigger["values"]):
                    out.append(note(f"-{trigger['option']}={_shown(value)}", path, False))
        elif "renamed" in trigger:
            old, new = trigger["renamed"], trigger["to"]
            if any(o == old and n == new for _, o, n in renamed):
                out += [note(f"-{old}", path, True) for path, o, n in renamed
                        if o == old and n == new]
            elif source_kind in trigger["kinds"] and _alias(source_dialect, old) == new \
                    and _spelled(text, old):
                out.append(note(f"-{old}", "", True))  # an alias the release read as `new`
    return out


def _shown(value: Any) -> str:
    """An option's value as legacy text writes it (``1`` for true)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def _alias(dialect: str, option: str) -> str | None:
    """The attribute a release read option ``option`` as, by another name (TVM 0.6's
    ``-target`` for ``mtriple``: its facts' ``aliases``), or None."""
    if not dialect.startswith("tvm-"):
        return None
    try:
        aliases = data_json(f"releases/{dialect}.json").get("aliases", {})
    except FileNotFoundError:
        return None
    spec = aliases.get(option)
    return spec["attr"] if spec else None
