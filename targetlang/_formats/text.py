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
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .._lower.dialects import load
from .._lower.plan import CODE_BOOL, CODE_INT, CODE_STR, CODE_STRS, plans, settles_to_itself
from .._memo import Memo
from .._syntax import rules
from .._syntax.tokens import is_plain
from ..errors import TargetError

if TYPE_CHECKING:
    from .._lower.plan import KindPlan
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
    """Lossless text: legacy syntax when ``parse`` reads it back as the same target, else JSON.

    (``Target.to_string`` asks ``plain_legacy`` first: it writes the same text, when it
    answers, without reading it back.)"""
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


#: (dialect, kind) -> the kind's one-pass plan and, by attribute it writes as a plain word,
#: the Python type of its value, its default and the default's word (None: no plan); made
#: once. Most attributes of a target hold their kind's default, the very object: its word
#: is written once (for an integer default; other attributes have ``_NO_DEFAULT``).
_WRITERS: Memo[tuple[str, str], Any] = Memo(1024)
_UNKNOWN: Any = object()
_NO_DEFAULT: Any = object()
_TYPE_OF_CODE = {CODE_STR: str, CODE_STRS: tuple, CODE_INT: int, CODE_BOOL: bool}


def _writer(dialect: str, kind: str) -> tuple[KindPlan, dict[str, tuple[type, Any, str]]] | None:
    plan = plans(load(dialect)).get(kind)
    if plan is None or plan.codes.get("keys") != CODE_STRS or plan.codes.get("tag") != CODE_STR:
        return None
    table: dict[str, tuple[type, Any, str]] = {}
    for key, code in plan.codes.items():
        want = _TYPE_OF_CODE[code]
        value = plan.defaults.get(key, _NO_DEFAULT)
        if isinstance(value, int) and 0 <= value < 10**18 and type(value) is want:
            table[key] = (want, value, f"-{key}={value:d}")
        else:
            table[key] = (want, _NO_DEFAULT, "")
    return plan, table


def plain_legacy(kind_name: str, dialect: str, tag: str, keys: tuple[str, ...],
                 attrs: Mapping[str, Any], settled: bool) -> str | None:
    """``_legacy(target)`` for a target without a host whose read-back is shown without
    reading the text, from its parts (``Target.to_string`` hands over its own: kind, dialect,
    tag, keys, attributes sorted by name, and whether ``settle`` made them).

    In a dialect with one-pass plans, for keys, tag and attributes that are plain words of
    their attribute's type (see ``_lower/plan.py``), the text is the plain words
    ``read_plain_text`` types back to these very values; what it then makes of them is
    ``settle``'s, as ``settles_to_itself`` shows without reading the text (hook, keys,
    defaults). Anything else returns None: ``canonical`` reads its text back.
    """
    writer = _WRITERS.get((dialect, kind_name), _UNKNOWN)
    if writer is _UNKNOWN:
        writer = _WRITERS.put((dialect, kind_name), _writer(dialect, kind_name))
    if writer is None or not keys or "" in keys:
        return None
    plan, table = writer
    commas = len(keys) - 1  # the commas the text holds: those between array items
    try:
        words = [kind_name, "-keys=" + ",".join(keys)]
    except TypeError:
        return None
    if tag:
        words.append("-tag=" + tag)
    append = words.append
    for key, value in attrs.items():
        entry = table.get(key)
        if entry is None:
            return None  # an attribute the reader does not take as a plain word
        want, default, word = entry
        if value is default:
            append(word)
            continue
        kind = type(value)
        if kind is not want:
            return None  # not a type the reader takes as a plain word: a null, a target, ...
        if kind is int:  # the reader takes up to 18 digits, and no sign
            if not 0 <= value < 10**18:
                return None
            append(f"-{key}={value}")
        elif kind is str:
            if not value:
                return None
            append(f"-{key}={value}")
        elif kind is bool:
            append(f"-{key}=1" if value else f"-{key}=0")
        else:  # a tuple (of strings: the join says)
            if not value or "" in value:
                return None
            try:
                append(f"-{key}={','.join(value)}")
            except TypeError:
                return None
            commas += len(value) - 1
    text = " ".join(words)
    # No value holds a space or a comma of its own (each would split it), nor a quote or an
    # escape (the reader's), a NUL, a lone surrogate or "mkldnn" (parse()'s before it; only
    # ASCII is let through, which has no surrogates).
    if text.count(" ") != len(words) - 1 or text.count(",") != commas \
            or not text.isascii() or not is_plain(text) or "\0" in text \
            or "mkldnn" in text:
        return None
    return text if settles_to_itself(plan, tag, keys, attrs, settled) else None


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
    return bool(text) and is_plain(text) and " " not in text and "," not in text
