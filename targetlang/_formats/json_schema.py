"""The JSON Schema (draft 2020-12) of TargetJSON in a dialect: ``targetlang schema``.

One definition per kind lists exactly the attributes the kind has, with their types and
registered defaults, so an editor can complete and check a target document; a document is
matched to its kind's definition by ``kind``. Beside what ``to_json()`` writes, the schema
admits what ``from_json`` reads: a bool attribute may be an integer (as in TVM), a target may
be a text (legacy string, tag or JSON text) or, for ``host``, null. The export of a queried
target (``-from_device``) has every attribute not found null, with ``from_device`` itself
null; its own definition allows that.
"""

from __future__ import annotations

from typing import Any

from .._schema.facts import AttrSpec, KindSpec
from .._schema.types import ANY, BOOL, INT, STR, TARGET, AttrType
from ..target import DEFAULT_DIALECT, kinds

__all__ = ["json_schema"]

_INT64 = {"minimum": -(2**63), "maximum": 2**63 - 1}
_TARGET_TEXT = {"type": "string",
                "description": "a target text: legacy string, registered tag or JSON text"}


def _target(nullable: bool = False) -> dict[str, Any]:
    choices: list[dict[str, Any]] = [{"$ref": "#/$defs/target"}, _TARGET_TEXT]
    if nullable:
        choices.append({"type": "null"})
    return {"anyOf": choices}


def _type(spec: AttrSpec) -> dict[str, Any]:
    out = _typed(spec.type, nullable=spec.name == "host")
    if spec.has_default:
        out["default"] = spec.default
    return out


def _typed(type_: AttrType, nullable: bool = False) -> dict[str, Any]:
    if type_ is INT:
        return {"type": "integer", **_INT64}
    if type_ is BOOL:
        return {"type": ["boolean", "integer"], **_INT64,
                "description": "a bool; TVM also reads an integer (any but 0 is true)"}
    if type_ is STR:
        return {"type": "string"}
    if type_ is TARGET:
        return _target(nullable=nullable)
    if type_ is ANY:
        return {"description": "any JSON value"}
    assert type_.element is not None
    # Arrays of targets are composite devices: TVM keeps a null device.
    items = _typed(type_.element, nullable=True)
    if type_.is_array:
        return {"type": "array", "items": items}
    return {"type": "object", "additionalProperties": items}


def _kind(kind: KindSpec, queried: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {"kind": {"const": kind.name}}
    for name, spec in sorted(kind.attrs.items()):
        typed = _type(spec)
        if queried and name != "host":
            typed = {"anyOf": [typed, {"type": "null"}]}
        properties[name] = typed
    properties.setdefault("tag", {"type": "string"})
    properties.setdefault("keys", {"type": "array", "items": {"type": "string"}})
    properties.setdefault("host", _target(nullable=True))
    out: dict[str, Any] = {"type": "object", "required": ["kind"], "properties": properties,
                           "additionalProperties": False}
    if queried:
        out["description"] = (f"the export of a queried {kind.name} target (-from_device): "
                              "attributes not found are null")
    return out


def json_schema(dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
    """The JSON Schema of TargetJSON in ``dialect`` (a fresh dict)."""
    specs = kinds(dialect)
    queried = {"required": ["from_device"], "properties": {"from_device": {"type": "null"}}}
    defs: dict[str, Any] = {
        "target": {
            "type": "object",
            "required": ["kind"],
            "properties": {"kind": {"enum": sorted(specs),
                                    "description": "the target kind"}},
            "allOf": [
                {"if": {"required": ["kind"], "properties": {"kind": {"const": name}}},
                 "then": {"if": queried, "then": {"$ref": f"#/$defs/{name}.queried"},
                          "else": {"$ref": f"#/$defs/{name}"}}}
                for name in sorted(specs)
            ],
        },
    }
    for name, kind in sorted(specs.items()):
        defs[name] = _kind(kind, queried=False)
        defs[f"{name}.queried"] = _kind(kind, queried=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:targetlang:{dialect}:target",
        "title": f"TargetJSON ({dialect})",
        "description": (f"A compilation target as TargetJSON, the shape of TVM's "
                        f"Target.export(), in the targetlang dialect {dialect!r}."),
        "$ref": "#/$defs/target",
        "$defs": defs,
    }
