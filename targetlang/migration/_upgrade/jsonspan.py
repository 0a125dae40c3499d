"""JSON read with the place of every value, so that one string can be replaced in the
bytes of a file without writing the rest again (``json`` gives values, not places)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Union

__all__ = ["JArray", "JObject", "JScalar", "JString", "Node", "encoder_for", "parse", "strings"]


@dataclass(frozen=True, slots=True)
class JString:
    start: int
    end: int
    value: str


@dataclass(frozen=True, slots=True)
class JScalar:
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class JArray:
    start: int
    end: int
    items: list[Node]


@dataclass(frozen=True, slots=True)
class JObject:
    start: int
    end: int
    items: list[tuple[JString, Node]]

    def get(self, key: str) -> Node | None:
        found = None
        for name, value in self.items:
            if name.value == key:
                found = value  # the last one wins, as in json.loads
        return found


Node = Union[JString, JScalar, JArray, JObject]

_SPACE = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null|NaN|"
                     r"-?Infinity")


def parse(text: str) -> Node:
    """The node tree of ``text``; raises ``ValueError`` where ``json.loads`` would."""
    json.loads(text)  # the judge of validity (and of its message)
    node, end = _value(text, _SPACE.match(text, 0).end())  # type: ignore[union-attr]
    return node


def _skip(text: str, index: int) -> int:
    return _SPACE.match(text, index).end()  # type: ignore[union-attr]


def _value(text: str, index: int) -> tuple[Node, int]:
    char = text[index]
    if char == '"':
        value, end = scanstring(text, index + 1)
        return JString(index, end, value), end
    if char == "{":
        items: list[tuple[JString, Node]] = []
        at = _skip(text, index + 1)
        if text[at] == "}":
            return JObject(index, at + 1, items), at + 1
        while True:
            key, at = _value(text, at)
            at = _skip(text, at) + 1  # the colon
            value, at = _value(text, _skip(text, at))
            assert isinstance(key, JString)
            items.append((key, value))
            at = _skip(text, at)
            if text[at] == "}":
                return JObject(index, at + 1, items), at + 1
            at = _skip(text, at + 1)  # the comma
    if char == "[":
        elements: list[Node] = []
        at = _skip(text, index + 1)
        if text[at] == "]":
            return JArray(index, at + 1, elements), at + 1
        while True:
            value, at = _value(text, at)
            elements.append(value)
            at = _skip(text, at)
            if text[at] == "]":
                return JArray(index, at + 1, elements), at + 1
            at = _skip(text, at + 1)
    match = _SCALAR.match(text, index)
    assert match is not None  # json.loads accepted the text
    return JScalar(index, match.end()), match.end()


def encoder_for(text: str) -> bool:
    """Whether a file escapes non-ASCII characters (``\\u00e9``) rather than writing them:
    the ``ensure_ascii`` its writer used, as far as the file shows."""
    if not text.isascii():
        return False
    return re.search(r"\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])[0-9a-fA-F]", text) is not None


def strings(node: Node) -> list[JString]:
    """Every string value under ``node`` (not the keys of objects), in file order."""
    found: list[JString] = []
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, JString):
            found.append(current)
        elif isinstance(current, JArray):
            stack.extend(reversed(current.items))
        elif isinstance(current, JObject):
            stack.extend(reversed([value for _, value in current.items]))
    return found
