"""What a target text wrote, as written: kind, options, nested hosts and devices, with offsets.

``parse`` turns a text into a ``Target`` and forgets the spelling; the linter and ``explain``
need it (which attributes were written, how a value was spelt, where). This module reads the
text again with the same grammar and TVM's value rules, outside the parser proper, and maps
every character of every interpreted value back to the outermost source (as the lowering
does for errors). It assumes the text is valid: call it after ``parse`` succeeded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from . import _tvm_rules as rules
from ._grammar import parse_target_text
from ._schema import DialectSchema

#: index into a text being read -> offset in the outermost source (None: nowhere in it).
Where = Callable[[int], "int | None"]


def nowhere(_: int) -> int | None:
    return None


def _at(offset: int | None) -> Where:
    return lambda _: offset


@dataclass(frozen=True, slots=True)
class WrittenOption:
    """One attribute the text (or JSON) gave.

    For legacy text: ``raw`` is the word as written (None for a bare ``-flag``), ``text``
    its interpretation (``"1"`` for a flag) and ``where`` maps an index of ``text`` to the
    source. For JSON: ``value`` is the JSON value and ``where`` is ``nowhere``. (TVM 0.6 read
    an array's text without quotes or escapes: ``value`` holds its items.)
    """

    key: str
    type: str
    path: str
    key_offset: int | None
    raw: str | None = None
    text: str | None = None
    where: Where = nowhere
    value: Any = None


@dataclass(slots=True)
class WrittenTarget:
    """A target as written: by legacy text, JSON, or the name of a registered tag."""

    origin: Literal["text", "json", "tag"]
    kind: str | None
    path: str
    tag_name: str | None = None
    options: dict[str, WrittenOption] = field(default_factory=dict)
    host: WrittenTarget | None = None
    devices: list[WrittenTarget | None] | None = None


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


@dataclass(frozen=True, slots=True)
class Source:
    """A top-level text as TVM's Python wrapper handed it on: cut at a NUL, and with every
    ``mkldnn`` rewritten to ``dnnl`` once it contains ``-libs=mkldnn``."""

    text: str
    where: Where
    nul: int | None
    mkldnn: tuple[int, ...]


def prepare(source: str) -> Source:
    nul = source.find("\0")
    text = source if nul < 0 else source[:nul]
    if "-libs=mkldnn" not in text:
        return Source(text, lambda i: i, None if nul < 0 else nul, ())
    found: list[int] = []
    out: list[str] = []
    positions: list[int] = []
    i = 0
    while (j := text.find("mkldnn", i)) >= 0:
        found.append(j)
        out.append(text[i:j] + "dnnl")
        positions.extend([*range(i, j), j, j + 1, j + 2, j + 3])
        i = j + len("mkldnn")
    out.append(text[i:])
    positions.extend(range(i, len(text) + 1))
    return Source("".join(out), lambda k: positions[min(max(k, 0), len(positions) - 1)],
                  None if nul < 0 else nul, tuple(found))


def read_source(source: str, schema: DialectSchema) -> tuple[WrittenTarget, Source]:
    """A top-level target text as written, and how TVM's wrapper changed it first (as
    ``_lower.from_top_level_text``: another release's reader takes the text as it is)."""
    if schema.rules.reader is None:
        prepared = prepare(source)
    elif schema.rules.nul_ends == "text":  # cut at a NUL, no mkldnn rewrite
        nul = source.find("\0")
        prepared = Source(source if nul < 0 else source[:nul], lambda i: i,
                          None if nul < 0 else nul, ())
    else:
        prepared = Source(source, lambda i: i, None, ())
    return read_text(prepared.text, prepared.where, schema), prepared


def read_text(text: str, where: Where, schema: DialectSchema, path: str = "") -> WrittenTarget:
    """A target text (tag, JSON text or legacy text) as written."""
    if text in schema.tag_configs:
        config = schema.tag_configs[text]
        written = read_json(dict(config), schema, path)
        written.origin, written.tag_name = "tag", text
        return written
    if text[:1] == "{":
        return read_json(json.loads(text), schema, path)
    if schema.rules.reader == "tvm-0.6":
        return _read_text_06(text, where, schema, path)
    syntax = parse_target_text(text)
    kind = schema.kinds[syntax.kind.text]
    written = WrittenTarget("text", kind.name, path)
    for option in syntax.options:
        spec = kind.attrs[option.key]
        key_path = _join(path, option.key)
        if option.value is None:
            flag = WrittenOption(option.key, spec.type, key_path, where(option.key_offset),
                                 None, "1", _at(where(option.offset)))
            written.options[option.key] = flag
            continue
        value_text, positions = rules.interpret_each(option.value.text)
        start = option.value.offset

        def value_where(i: int, start: int = start, positions: list[int] = positions,
                        where: Where = where) -> int | None:
            return where(start + positions[min(max(i, 0), len(positions) - 1)])

        item = WrittenOption(option.key, spec.type, key_path, where(option.key_offset),
                             option.value.text, value_text, value_where)
        written.options[option.key] = item
        if spec.type == "target":
            written_host = read_text(value_text, value_where, schema, key_path)
            if option.key == "host":
                written.host = written_host
        elif spec.type == "array<target>":
            written.devices = [read_text(piece, piece_where, schema, _join(key_path, index))
                               for index, (piece, piece_where) in
                               enumerate(array_items(item))]
    return written


def _read_text_06(text: str, where: Where, schema: DialectSchema, path: str) -> WrittenTarget:
    """TVM 0.6's words: ``-key=value`` split on white space, ``-target=`` for ``-mtriple=``."""
    from ._dialects_legacy import _getline_split, option_words_06

    words = option_words_06(text)
    kind = schema.kinds[words[0][1]]
    written = WrittenTarget("text", kind.name, path)
    for attr, _, value, offset in words[1:]:
        spec = kind.attrs[attr]
        start = offset + len(text[offset:].partition("=")[0]) + 1

        def value_where(i: int, start: int = start) -> int | None:
            return where(start + i)

        items = _getline_split(value or "") if spec.type == "array<str>" else None
        written.options[attr] = WrittenOption(
            attr, spec.type, _join(path, attr), where(offset + 1),
            value, "1" if value is None else value,
            value_where if value is not None else _at(where(offset)), items)
    return written


def array_items(option: WrittenOption) -> list[tuple[str, Where]]:
    """The items of an array value written as text, each interpreted, with its ``where``."""
    assert option.text is not None
    items: list[tuple[str, Where]] = []
    for piece, start in rules.split_string(option.text, ","):
        item_text, positions = rules.interpret_each(piece)

        def item_where(i: int, start: int = start, positions: list[int] = positions,
                       outer: Where = option.where) -> int | None:
            return outer(start + positions[min(max(i, 0), len(positions) - 1)])

        items.append((item_text, item_where))
    return items


def read_json(config: Mapping[str, Any], schema: DialectSchema, path: str = "") -> WrittenTarget:
    """A TargetJSON object as written (strings for targets are read as text, with no offsets)."""
    kind = schema.kinds.get(config.get("kind", ""))
    written = WrittenTarget("json", kind.name if kind else None, path)
    if kind is None:
        return written
    for key, value in config.items():
        if key == "kind" or not isinstance(key, str) or key not in kind.attrs:
            continue
        spec = kind.attrs[key]
        key_path = _join(path, key)
        written.options[key] = WrittenOption(key, spec.type, key_path, None, value=value)
        if spec.type == "target" and value is not None:
            nested = _read_json_target(value, schema, key_path)
            if key == "host":
                written.host = nested
        elif spec.type == "array<target>" and isinstance(value, list):
            written.devices = [None if v is None else _read_json_target(v, schema,
                                                                         _join(key_path, i))
                               for i, v in enumerate(value)]
    return written


def _read_json_target(value: Any, schema: DialectSchema, path: str) -> WrittenTarget | None:
    if isinstance(value, str):
        return read_text(value, nowhere, schema, path)
    if isinstance(value, Mapping):
        return read_json(value, schema, path)
    return None
