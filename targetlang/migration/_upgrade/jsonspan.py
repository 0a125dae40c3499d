"""JSON read with the place of every value, so that one string can be replaced in the
bytes of a file without writing the rest again (``json`` gives values, not places)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any, Union

__all__ = ["JArray", "JObject", "JScalar", "JString", "Node", "encoder_for", "keyed_strings",
           "parse", "strings"]


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


class JSONError(ValueError):
    """Where and why a text is not JSON (``lineno``, ``colno`` from 1, as ``json`` gives)."""

    def __init__(self, message: str, text: str, index: int) -> None:
        lineno = text.count("\n", 0, index) + 1
        colno = index - text.rfind("\n", 0, index)
        super().__init__(f"{message}: line {lineno} column {colno} (char {index})")
        self.lineno, self.colno = lineno, colno


def parse(text: str) -> Node:
    """The node tree of ``text``; raises ``ValueError`` where ``json.loads`` would (and
    reads nesting of any depth, which ``json.loads`` refuses past the recursion limit)."""
    try:
        json.loads(text)  # the judge of validity (and of its message)
    except RecursionError:
        pass  # deeper than Python recurses: the reader below, which does not recurse, judges
    except ValueError as error:
        if "digits" not in str(error):  # a huge number is JSON; Python's int() refuses it
            raise
    return _read(text)


_STRUCTURAL = re.compile(r"[ \t\n\r]*(.)", re.S)


def _read(text: str) -> Node:
    """The node tree, built without recursion (one explicit stack of open containers)."""
    # each open container: [kind, start, items, pending key]
    stack: list[list[Any]] = []
    index = _skip(text, 0)
    root: Node | None = None

    def fail(message: str, at: int) -> JSONError:
        return JSONError(message, text, at)

    expect_value = True
    while True:
        if expect_value:
            if index >= len(text):
                raise fail("Expecting value", index)
            char = text[index]
            if char == "{" or char == "[":
                stack.append([char, index, [], None])
                index = _skip(text, index + 1)
                closer = "}" if char == "{" else "]"
                if index < len(text) and text[index] == closer:
                    index += 1
                    node: Node = _close(stack.pop(), index)
                else:
                    if char == "{":
                        index = _key(text, index, stack[-1], fail)
                    continue
            elif char == '"':
                try:
                    value, end = scanstring(text, index + 1)
                except ValueError as error:
                    raise fail(str(error).split(":")[0], index) from None
                node, index = JString(index, end, value), end
            else:
                match = _SCALAR.match(text, index)
                if match is None:
                    raise fail("Expecting value", index)
                node, index = JScalar(index, match.end()), match.end()
            # a value is complete: it joins its container, or is the document
            while True:
                if not stack:
                    root = node
                    break
                top = stack[-1]
                if top[0] == "{":
                    top[2].append((top[3], node))
                else:
                    top[2].append(node)
                index = _skip(text, index)
                closer = "}" if top[0] == "{" else "]"
                if index < len(text) and text[index] == ",":
                    index = _skip(text, index + 1)
                    if top[0] == "{":
                        index = _key(text, index, top, fail)
                    break
                if index < len(text) and text[index] == closer:
                    index += 1
                    node = _close(stack.pop(), index)
                    continue
                raise fail("Expecting ',' delimiter", index)
            if root is not None:
                break
    index = _skip(text, index)
    if index != len(text):
        raise fail("Extra data", index)
    return root


def _key(text: str, index: int, top: list[Any], fail: Any) -> int:
    """Read an object's key and its colon; where its value starts."""
    if index >= len(text) or text[index] != '"':
        raise fail("Expecting property name enclosed in double quotes", index)
    try:
        value, end = scanstring(text, index + 1)
    except ValueError as error:
        raise fail(str(error).split(":")[0], index) from None
    top[3] = JString(index, end, value)
    index = _skip(text, end)
    if index >= len(text) or text[index] != ":":
        raise fail("Expecting ':' delimiter", index)
    return _skip(text, index + 1)


def _close(top: list[Any], end: int) -> Node:
    kind, start, items, _ = top
    return JObject(start, end, items) if kind == "{" else JArray(start, end, items)


def _skip(text: str, index: int) -> int:
    return _SPACE.match(text, index).end()  # type: ignore[union-attr]


def encoder_for(text: str) -> bool:
    """Whether a file escapes non-ASCII characters (``\\u00e9``) rather than writing them:
    the ``ensure_ascii`` its writer used, as far as the file shows."""
    if not text.isascii():
        return False
    return re.search(r"\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])[0-9a-fA-F]", text) is not None


def strings(node: Node) -> list[JString]:
    """Every string value under ``node`` (not the keys of objects), in file order."""
    return [string for string, _ in keyed_strings(node)]


def keyed_strings(node: Node) -> list[tuple[JString, tuple[str, ...]]]:
    """Every string value under ``node`` with the keys of the objects around it (outermost
    first; an array adds none), in file order."""
    found: list[tuple[JString, tuple[str, ...]]] = []
    stack: list[tuple[Node, tuple[str, ...]]] = [(node, ())]
    while stack:
        current, keys = stack.pop()
        if isinstance(current, JString):
            found.append((current, keys))
        elif isinstance(current, JArray):
            stack.extend((item, keys) for item in reversed(current.items))
        elif isinstance(current, JObject):
            stack.extend((value, (*keys, key.value)) for key, value in reversed(current.items))
    return found
