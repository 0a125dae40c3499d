"""Target -> text, in two styles.

* ``tvm``: byte for byte what TVM 0.21's ``str(target)`` prints (``TargetNode::str``):
  kind, ``-keys=``, then every non-empty attribute sorted by name; no tag, no host.
* ``canonical``: lossless. Legacy syntax wherever it can say the target exactly (keys, tag,
  host and every attribute written out, so nothing depends on defaults or the machine),
  otherwise compact JSON text. ``parse(canonical, dialect=t.dialect) == t`` is checked for
  every target printed, so the choice between the two is decided in one place (``canonical``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .._lower.dialects import load
from .._syntax import rules
from ..errors import TargetError

if TYPE_CHECKING:
    from ..target import Target

#: Hosts and devices nested deeper than this are written as JSON: each level of legacy
#: quoting doubles the backslashes.
MAX_LEGACY_DEPTH = 3


# ---- the TVM style -------------------------------------------------------------------------

def tvm_string(target: Target) -> str:
    """``TargetNode::str()`` of TVM 0.21."""
    text = target.kind
    if target.keys:
        text += " -keys=" + ",".join(target.keys)
    parts = []
    for key in sorted(target.attrs):
        value = target.attrs[key]
        if value is None:
            continue
        try:
            if isinstance(value, tuple):
                written = rules.stringify_array(value)
            else:
                written = rules.stringify_atomic(value)
        except rules.RuleError as e:
            raise TargetError(f"{e.message} in attribute {key!r}: TVM 0.21's str() fails "
                              "here; use the canonical style") from None
        if written:
            parts.append(f"-{key}={written}")
    return text + " " + " ".join(parts)


# ---- the canonical style -------------------------------------------------------------------

def canonical(target: Target, parse: Callable[..., Target]) -> str:
    """Lossless text: legacy syntax when ``parse`` reads it back as the same target, else JSON."""
    legacy = _legacy(target)
    if legacy is not None:
        try:
            again = parse(legacy, dialect=target.dialect)
        except TargetError:
            pass
        else:
            # Target equality (same dialect, same JSON) without writing the JSON text.
            if again is target or (again.dialect == target.dialect
                                   and _same_json(again.to_json(), target.to_json())):
                return legacy
    return json_text(target)


def _same_json(a: Any, b: Any) -> bool:
    """Whether two exports write the same JSON text (dict equality, then the types: JSON
    tells ``true`` from ``1``, where ``==`` does not)."""
    return a == b and _same_types(a, b)


def _same_types(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return all(_same_types(value, b[key]) for key, value in a.items())
    if type(a) is list:
        return all(map(_same_types, a, b))
    return True


def json_text(target: Target) -> str:
    """Compact JSON text of ``to_json()`` that ``parse`` reads back unchanged."""
    text = json.dumps(target.to_json(), ensure_ascii=False, separators=(",", ":"))
    # parse() rewrites "mkldnn" everywhere once the text holds "-libs=mkldnn" (TVM's Python
    # wrapper does); an escaped letter keeps JSON text out of that rewrite.
    return text.replace("mkldnn", "\\u006dkldnn")


def _legacy(target: Target, depth: int = 0) -> str | None:
    """The legacy spelling of ``target``, or None when it has none."""
    if depth > MAX_LEGACY_DEPTH:
        return None
    try:
        return " ".join(_legacy_words(target, depth))
    except _NoLegacy:
        return None


class _NoLegacy(Exception):
    """A value that legacy text cannot say."""


def _legacy_words(target: Target, depth: int) -> Iterator[str]:
    yield target.kind
    if target.keys:
        yield "-keys=" + _array(target.keys, depth)
    elif load(target.dialect).kinds[target.kind].default_keys:
        yield "-keys=,"  # no keys at all, where a bare kind would get its default keys
    if target.tag:
        yield "-tag=" + _word(_string(target.tag))
    queried = None in target.attrs.values()
    for key in sorted(target.attrs):
        value = target.attrs[key]
        if value is None:
            continue
        yield f"-{key}=" + _value(value, depth)
    if queried:
        # -from_device=N on a CPU kind: TVM sets every attribute not given to null.
        yield "-from_device=0"
    if target.host is not None:
        yield "-host=" + _nested(target.host, depth)


def _is_target(value: object) -> bool:
    # Attribute values are bool, int, str, tuples, None or a Target (the only class with a
    # to_json); the Target class itself lives above this stage.
    return hasattr(value, "to_json") and hasattr(value, "attrs")


def _value(value: Any, depth: int) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _word(_string(value))
    if _is_target(value):
        return _nested(value, depth)
    if isinstance(value, tuple):
        return _array(value, depth)
    raise _NoLegacy


def _string(value: str) -> str:
    """A string value as one array item or word before quoting: refuse what trimming would change."""
    if value != value.strip(" "):
        raise _NoLegacy
    return value


def _item(value: Any, depth: int) -> str:
    """One array item: plain, or quoted so that neither commas nor quotes split it."""
    if _is_target(value):
        text = _legacy(value, depth + 1)
        text = json_text(value) if text is None else text
    elif isinstance(value, str):
        text = _string(value)
    else:
        raise _NoLegacy  # a null item
    return text if _is_plain(text) else rules.quote(rules.uninterpret(text))


def _array(items: tuple[Any, ...], depth: int) -> str:
    if not items:
        return ","  # splits into no items at all
    joined = ",".join(_item(item, depth) for item in items)
    # Items are plain or quoted; the whole needs quoting only if TVM's first interpretation
    # of the value would change it (a single quoted item loses its quotes).
    if rules.interpret(joined)[0] == joined:
        return joined
    return rules.quote(rules.uninterpret(joined))


def _nested(target: Target, depth: int) -> str:
    text = _legacy(target, depth + 1)
    text = json_text(target) if text is None else text
    return rules.quote(rules.uninterpret(text))


def _word(text: str) -> str:
    """A value word whose interpretation is exactly ``text``."""
    return text if _is_plain(text) else rules.quote(rules.uninterpret(text))


def _is_plain(text: str) -> bool:
    return bool(text) and " " not in text and "'" not in text and "," not in text \
        and "\\" not in text
