"""The type of an attribute (or option): one small immutable model for every stage.

The data files spell types as TVM's registry does (``int``, ``bool``, ``str``, ``target``,
``array<str>``, ``array<target>``, ``map<str, int>``, ``map<str, any>``: ``any`` is any JSON
value, as TVM TIRx's ``Map<str, Any>`` options take); :func:`parse_type` reads such a
spelling once into an :class:`AttrType`, and ``str()`` gives it back. Types are interned:
there is one object per type, so stages compare them with ``is`` (``spec.type is STR``),
never by slicing strings. For users, a type also equals its spelling (``== "array<str>"``).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

__all__ = ["AttrType", "INT", "BOOL", "STR", "TARGET", "ANY", "array_of", "map_of", "parse_type"]

if TYPE_CHECKING:  # (typing's aliases cost start-up time when built at run time)
    from typing import Literal

    Kind = Literal["int", "bool", "str", "target", "any", "array", "map"]

#: How a message names a value of each kind (``expects an integer, but gets ...``).
_PHRASES = {"int": "an integer", "bool": "a boolean", "str": "a string",
            "target": "a target (string or object)", "any": "a JSON value", "array": "an array",
            "map": "an object"}


class AttrType:
    """A scalar (``int``, ``bool``, ``str``), a ``target``, ``any`` JSON value, an array of a
    type, or a map from strings to a type. Immutable and interned: make one with the module's constants,
    :func:`array_of`, :func:`map_of` or :func:`parse_type`."""

    __slots__ = ("kind", "element", "_text")

    kind: Kind
    element: AttrType | None  # the items of an array, the values of a map
    _text: str

    def __init__(self, kind: Kind, element: AttrType | None, text: str) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "element", element)
        object.__setattr__(self, "_text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("AttrType is immutable")

    def __repr__(self) -> str:
        return f"AttrType({self._text!r})"

    def __str__(self) -> str:
        return self._text

    # Public values (``targetlang.kinds()[k].attrs[a].type``) compare equal to their spelling,
    # as the strings they replaced did: ``spec.type == "str"`` keeps working for users.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return other == self._text
        return self is other

    def __hash__(self) -> int:
        return hash(self._text)

    def __reduce__(self) -> tuple[object, ...]:
        return (parse_type, (self._text,))

    @property
    def is_array(self) -> bool:
        return self.kind == "array"

    @property
    def is_integer(self) -> bool:
        """``int`` or ``bool``: TVM reads both as a 64-bit integer."""
        return self.kind == "int" or self.kind == "bool"

    @property
    def holds_target(self) -> bool:
        """Whether a value of this type is or contains a target."""
        return self.kind == "target" or (self.element is not None and self.element.holds_target)

    @property
    def phrase(self) -> str:
        """How messages name a value of this type (``an integer``)."""
        return _PHRASES[self.kind]


INT = AttrType("int", None, "int")
BOOL = AttrType("bool", None, "bool")
STR = AttrType("str", None, "str")
TARGET = AttrType("target", None, "target")
ANY = AttrType("any", None, "any")
_SCALARS = {t._text: t for t in (INT, BOOL, STR, TARGET, ANY)}


@functools.cache
def array_of(element: AttrType) -> AttrType:
    return AttrType("array", element, f"array<{element}>")


@functools.cache
def map_of(value: AttrType) -> AttrType:
    return AttrType("map", value, f"map<str, {value}>")


@functools.cache
def parse_type(text: str) -> AttrType:
    """The type a data file spells ``text`` (raises ValueError for an unknown spelling)."""
    scalar = _SCALARS.get(text)
    if scalar is not None:
        return scalar
    if text.startswith("array<") and text.endswith(">"):
        return array_of(parse_type(text[len("array<"):-1]))
    if text.startswith("map<str,") and text.endswith(">"):
        return map_of(parse_type(text[len("map<str,"):-1].strip()))
    raise ValueError(f"unknown attribute type {text!r}")
