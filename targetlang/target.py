"""The ``Target`` value and the functions that read one: ``parse`` and ``from_json``."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from ._lower.core import (
    _TARGETS,
    MAX_JSON_DEPTH,
    MAX_TARGET_DEPTH,
    Context,
    Place,
    TooDeep,
    UnencodableString,
    from_config,
    from_top_level_text,
    read_json_host,
    target_depth,
    truncate_strings,
)
from ._lower.dialects import DIALECTS, families, load
from ._lower.plan import read_plain_config
from ._lower.trace import NO_TRACE
from ._memo import ORDINARY_CHARS, Memo, memoized
from ._schema.facts import DialectSchema, KindSpec
from ._stack import with_stack_room

if TYPE_CHECKING:
    from ._lower.trace import Trace
from . import errors as _errors
from .environment import Environment
from .errors import TargetError, TargetSyntaxError, type_name

__all__ = ["Target", "TargetFeatures", "parse", "from_json", "kinds", "tags", "dialects",
           "release_families", "DEFAULT_DIALECT"]

#: The dialect ``parse`` and ``from_json`` read in when none is given: TVM 0.21, the newest
#: release on PyPI that read legacy target strings.
DEFAULT_DIALECT = "tvm-0.21"

AttrValue = Any  # int | bool | str | tuple[...] | Target | None


class TargetFeatures(Mapping[str, object]):
    """What the kind's target parser derived; a feature not derived reads as None."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, object] | None) -> None:
        self._values: Mapping[str, object] = MappingProxyType(dict(values or {}))

    def __getitem__(self, name: str) -> object:
        # As TVM's TargetGetFeature: any name reads, a feature not derived as None. ``in``,
        # ``len``, iteration and ``get(name, default)`` see only the derived ones.
        if not isinstance(name, str):
            raise KeyError(name)
        return self._values.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def get(self, name: str, default: object = None) -> object:
        """The feature ``name``, or ``default`` when the kind's parser did not derive it."""
        return self._values.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._values.get(name)

    def __repr__(self) -> str:
        return f"TargetFeatures({dict(self._values)!r})"


_NO_FEATURES = TargetFeatures(None)


#: attribute names in the order a reader gave them -> the same names sorted, as the keys of a
#: dict to copy and fill in (None: sorted already). Readers give the few orders of their plans
#: and configs again and again: sorting each target's names anew is a measurable part of a
#: cold read, and filling in a copy costs half of building the dict in order.
_ORDERS: Memo[tuple[str, ...], dict[str, None] | None] = Memo(4096)
_UNSEEN: Any = object()


def _order(names: tuple[str, ...]) -> dict[str, None] | None:
    ranked = tuple(sorted(names))
    return _ORDERS.put(names, None if ranked == names else dict.fromkeys(ranked))


class Target:
    """A compilation target: kind, keys, host and typed attributes, read in one dialect.

    Immutable and hashable; two targets are equal exactly when their ``dialect`` and
    ``to_json()`` are equal. Read one with :func:`parse` or :func:`from_json`.
    """

    __slots__ = ("_kind", "_dialect", "_tag", "_keys", "_host", "_attrs", "_features",
                 "_identity", "_canonical", "_template", "_arrays", "_deep", "_array_keys",
                 "_traced",
                 "_settled")

    _kind: str
    _dialect: str
    _tag: str
    _keys: tuple[str, ...]
    _host: Target | None
    #: (a dict that nothing changes once made: the ``attrs`` property hands out a read-only
    #: view of it; lookups on a view cost twice those on the dict)
    _attrs: dict[str, AttrValue]
    _features: TargetFeatures
    _identity: str | None
    _canonical: str | None
    _template: dict[str, Any] | None
    #: what to_json() copies of the template: the keys of arrays of strings (as lists), and
    #: those of values holding targets (through _plain)
    _arrays: tuple[str, ...]
    _deep: tuple[str, ...]
    #: the attributes that are arrays of strings, where the reader knows them (the one-pass
    #: readers: no other value holds anything to copy); None: found by their types
    _array_keys: tuple[str, ...] | list[str] | None
    _traced: Trace  # (not part of the value; its lazy fields read on first use: _trace)
    #: made by ``settle`` (the one-pass readers of ``_lower/plan.py``) from these very
    #: values: its defaults and keys are as a reading of its own plain text makes them
    _settled: bool

    def __init__(self, *args: object, **kwargs: object) -> None:
        # tvm.target.Target(text, host) is what a TVM user types first: point them the right way.
        raise TypeError("read a Target with targetlang.parse() or targetlang.from_json()")

    @classmethod
    def _create(cls, kind: str, dialect: str, tag: str, keys: tuple[str, ...],
                host: Target | None, attrs: Mapping[str, AttrValue],
                features: Mapping[str, object] | None,
                trace: Trace = NO_TRACE, settled: bool = False,
                array_keys: tuple[str, ...] | list[str] | None = None,
                ordered: bool = False) -> Target:
        self = object.__new__(cls)
        self._kind = kind
        self._dialect = dialect
        self._tag = tag
        self._keys = keys
        self._host = host
        # (a dict in order is kept as it is: nothing changes a target's attributes, and
        # every caller hands over a dict of its own or another target's; ``ordered``: the
        # caller sorted it)
        if ordered:
            self._attrs = attrs  # type: ignore[assignment]
        else:
            names = tuple(attrs)
            order = _ORDERS.get(names, _UNSEEN)
            if order is _UNSEEN:
                order = _order(names)
            if order is None:
                self._attrs = attrs if type(attrs) is dict else dict(attrs)
            else:
                self._attrs = in_order = order.copy()
                in_order.update(attrs)
        self._features = _NO_FEATURES if not features else TargetFeatures(features)
        self._identity = None
        self._canonical = None
        self._template = None
        self._traced = trace
        self._settled = settled
        self._array_keys = array_keys
        return self

    # ---- members -------------------------------------------------------------------------

    @property
    def kind(self) -> str:
        """The target kind (``"cuda"``)."""
        return self._kind

    @property
    def dialect(self) -> str:
        """The dialect the target was read in (``"tvm-0.21"``)."""
        return self._dialect

    @property
    def tag(self) -> str:
        """The ``tag`` field as TVM sets it: from ``-tag=`` or a JSON ``tag``; else ``""``."""
        return self._tag

    @property
    def keys(self) -> tuple[str, ...]:
        """Dispatch keys, in TVM's order."""
        return self._keys

    @property
    def host(self) -> Target | None:
        """The host target, if any."""
        return self._host

    @property
    def attrs(self) -> Mapping[str, AttrValue]:
        """Typed attributes, defaults included (``int``, ``bool``, ``str``, tuples, targets)."""
        return MappingProxyType(self._attrs)

    @property
    def features(self) -> TargetFeatures:
        """What the kind's target parser derived (``has_dsp``, ``is_test``, ...); in the JSON
        releases (0.24+) also each ``feature.NAME`` key given that the parser does not
        derive, as TVM's ``TargetGetFeature`` reads it (and ``to_json()`` writes them all)."""
        return self._features

    @property
    def _trace(self) -> Trace:
        """Where each value came from, as the lowering read it (see ``_lower/trace.py``)."""
        traced = self._traced
        if type(traced) is tuple:  # (revived from the memo of reads: that reading, again)
            traced = _read_again(traced)
        traced = self._traced = traced.complete()  # (its lazy fields, made once)
        return traced

    # ---- serializers ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Canonical TargetJSON, the shape of TVM's ``Target.export()`` (a fresh dict)."""
        template = self._template
        if template is _EXPORTED_ONCE:
            template = self._template = self._make_template()
        elif template is None:
            # Most targets are exported once: build that dict straight away, and keep a
            # template (copied on each later call) only for a target exported again.
            self._template = _EXPORTED_ONCE
            return self._export()
        out = template.copy()
        for key in self._arrays:  # arrays of strings: list copies
            out[key] = [*out[key]]
        if self._deep:
            for key in self._deep:
                out[key] = _plain(out[key])
        return out

    def _export(self) -> dict[str, Any]:
        """``to_json()`` built directly (``_make_template`` and a copy make the same dict)."""
        out: dict[str, Any] = {"kind": self._kind, "tag": self._tag, "keys": [*self._keys]}
        if self._host is not None:
            out["host"] = self._host.to_json()
        out.update(self._attrs)  # attributes override the fields, as in TVM
        if self._array_keys is not None:
            for key in self._array_keys:  # (list copies: nothing else holds anything)
                out[key] = [*out[key]]
        else:
            for key, value in self._attrs.items():  # (then arrays and targets made plain)
                kind = type(value)
                if kind is str or kind is int or kind is bool:
                    continue
                if kind is tuple:
                    # An array is typed: one of strings holds only strings (a list copy).
                    out[key] = [*value] if not value or type(value[0]) is str else _plain(value)
                elif isinstance(value, Target):
                    out[key] = value.to_json()
                elif kind is MappingProxyType:  # a map option (TVM TIRx's backend_config)
                    out[key] = _plain(value)
        if self._features is not _NO_FEATURES and _exports_features(self._dialect):
            for name, value in self._features.items():
                out["feature." + name] = _plain(value)
        return out

    def _make_template(self) -> dict[str, Any]:
        """The export with arrays and targets left as they are; to_json() copies those."""
        out: dict[str, Any] = {"kind": self._kind, "tag": self._tag, "keys": self._keys}
        if self._host is not None:
            out["host"] = self._host
        out.update(self._attrs)  # attributes override the fields, as in TVM's Export()
        if self._features and _exports_features(self._dialect):
            out.update(("feature." + name, value) for name, value in self._features.items())
        # Arrays of strings are copied as lists; anything holding a target (or a feature's
        # list or object) goes through _plain.
        arrays, deep = [], []
        for key, value in out.items():
            if type(value) is tuple and all(type(item) is str for item in value):
                arrays.append(key)
            elif isinstance(value, (tuple, Target, list, dict, MappingProxyType)):
                deep.append(key)
        self._arrays, self._deep = tuple(arrays), tuple(deep)
        return out

    def to_string(self, style: Literal["canonical", "tvm"] = "canonical") -> str:
        """``"canonical"``: lossless text; ``"tvm"``: byte-identical to TVM 0.21's ``str()``."""
        if style == "canonical":
            text = self._canonical
            if text is None:
                formats = _TEXT or _text_module()
                # The plain writer takes a target's parts (a host: the general writer's).
                if self._host is None:
                    text = formats.plain_legacy(self._kind, self._dialect, self._tag,
                                                self._keys, self._attrs, self._settled)
                text = self._canonical = text or formats.canonical(self, parse)
            return text
        if style == "tvm":
            return (_TEXT or _text_module()).tvm_string(self)  # type: ignore[no-any-return]
        raise ValueError(f"unknown style {style!r}: use 'canonical' or 'tvm'")

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"<Target({self.to_string()!r})>"

    # ---- value semantics -----------------------------------------------------------------

    def _key(self) -> str:
        # Equality and hashing both come from the canonical JSON: two targets are the same
        # exactly when TVM would export the same dict (API.md), whatever text they came from.
        if self._identity is None:
            self._identity = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return self._identity

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Target):
            return NotImplemented
        return self is other or (self._dialect == other._dialect and self._key() == other._key())

    def __hash__(self) -> int:
        return hash((self._dialect, self._key()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle, (self.to_json(), self._dialect))

    # ---- relations -------------------------------------------------------------------------

    def specializes(self, other: Target) -> bool:
        """Whether this target is ``other`` with more fixed: more attributes, keys or host.

        ``cuda -arch=sm_80 -compiler=tensorrt`` (dialect ``collage``) specializes
        ``cuda -arch=sm_80``. A partial order; the rule is in ``targetlang/_lower/specialize.py``.
        """
        from ._lower.specialize import specializes  # on first use: kept out of start-up

        return specializes(self, other)

    def tuning_key(self) -> str:
        """The canonical text of only what can influence autotuning.

        Kind, keys and every codegen attribute (``arch``, ``mcpu``, ``libs``, ``model``,
        ``compiler``, ...) are in it; the host, the tag, ``from_device`` and the deployment
        options (``executor``, ``runtime``, ``link-params``, ``system-lib``,
        ``interface-api``, ``unpacked-api``) are not.
        """
        return _tuning_key(self)

    # ---- copies ----------------------------------------------------------------------------

    @with_stack_room
    def with_host(self, host: Target | str | Mapping[str, Any] | None) -> Target:
        """A copy with the host replaced (a Target, text or dict; None removes it)."""
        if host is not None and not isinstance(host, Target):
            host = parse(host, dialect=self._dialect) if isinstance(host, str) else \
                from_json(host, dialect=self._dialect)
        if host is not None and target_depth(host) >= MAX_TARGET_DEPTH:
            raise TargetSyntaxError(f"targets nested more than {MAX_TARGET_DEPTH} deep (hosts "
                                    "and devices)")
        return Target._create(kind=self._kind, dialect=self._dialect, tag=self._tag,
                              keys=self._keys, host=host, attrs=self._attrs,
                              features=self._features, trace=self._traced,
                              array_keys=self._array_keys)

    @with_stack_room
    def with_attrs(self, changes: Mapping[str, Any]) -> Target:
        """A copy with attributes set (None removes one), validated like :func:`from_json`."""
        config = self.to_json()
        for key, value in changes.items():
            if value is None:
                config.pop(key, None)
            else:
                config[key] = _plain(value)
        return from_json(config, dialect=self._dialect)


#: ``targetlang._formats.text``, imported on first use (kept out of start-up; an import
#: statement in ``to_string`` would cost each call a lookup).
_TEXT: Any = None


def _text_module() -> Any:
    global _TEXT
    from ._formats import text  # on first use: kept out of start-up

    _TEXT = text
    return text


#: ``Target._template`` of a target exported once (no template kept yet).
_EXPORTED_ONCE: dict[str, Any] = {}


def _plain(value: AttrValue) -> Any:
    if isinstance(value, Target):
        return value.to_json()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, (dict, MappingProxyType)):  # a feature's value, as given (TVM 0.24+
        # keep any), or a map option's (read-only)
        return {k: _plain(v) for k, v in value.items()}
    return value


def _exports_features(dialect: str) -> bool:
    """Whether the dialect's export() writes the features as ``feature.NAME`` keys (0.24+)."""
    return (_SCHEMAS.get(dialect) or _schema(dialect)).rules.feature_keys


@memoized(maxsize=4096)
def _tuning_key(target: Target) -> str:
    from ._lower.specialize import NOT_TUNING  # on first use: kept out of start-up

    config = {key: value for key, value in target.to_json().items()
              if key not in NOT_TUNING and value is not None}  # null: not given (-from_device)
    return from_json(config, dialect=target.dialect).to_string()


def _unpickle(config: dict[str, Any], dialect: str) -> Target:
    return from_json(config, dialect=dialect)


# ---- reading --------------------------------------------------------------------------------

def _schema(dialect: str) -> DialectSchema:
    try:
        return _SCHEMAS.put(dialect, load(dialect))
    except KeyError:
        raise ValueError(f"unknown dialect {dialect!r}") from None


#: dialect name -> its schema, once _schema has loaded it (a dict lookup on the hot paths)
_SCHEMAS: Memo[str, DialectSchema] = Memo(256)


def parse(text: str, *, dialect: str = DEFAULT_DIALECT,
          environment: Environment | None = None) -> Target:
    """Read a target text exactly as TVM's ``Target(str)`` does in ``dialect``.

    Accepts a legacy target string (``cuda -arch=sm_80``), a registered tag
    (``nvidia/jetson-nano``) or JSON text (first character ``{``). ``environment`` gives the
    values TVM detected from the machine; with None nothing machine-dependent is filled in.
    Raises :class:`TargetError` for anything TVM refuses (or crashes on).
    """
    if type(text) is not str and not isinstance(text, str):
        raise TypeError(f"parse() takes text, not {type_name(text)}; use from_json() for dicts")
    # A text read before, in this dialect and environment: one lookup keyed by the text alone
    # (its hash is all a new string object costs; the table's key is built once per call).
    reads = _parse_memo.get(dialect if environment is None else (dialect, environment._key))
    if reads is not None:
        target = reads.again(text)
        if target is not None:
            return target
        kept = reads.kept(text)
        if kept is not None:
            return reads.revive(text, kept)  # (raises a kept error afresh)
    return _parse_and_keep(text, dialect, environment)


# Targets are immutable, so a text read once need not be read again: tuning logs repeat a
# few target strings millions of times. Errors are kept too (and raised afresh each time:
# the kept one has no traceback). One memo of texts per (dialect, environment): a program
# reads in one or two. Only texts of ordinary size are kept (Memo), so memory stays bounded:
# at most 8 tables of 8,192 texts, and 8,192 Targets of texts read again.
#
# What the memo keeps costs the garbage collector nothing: a text read is kept as plain data
# (``_record``: tuples, strings, numbers, dicts of them), which the collector stops tracking
# at its first look, so a long run of distinct texts (a tuning log of millions of records)
# adds nothing for its full passes to walk, and triggers none of them. A text read again is
# revived from that data once, and its Target kept for the reads after (``_Reads.again``).
_parse_memo: Memo[Any, _Reads] = Memo(8)

#: How many texts, and how many Targets of texts read again, one table keeps.
_KEPT_TEXTS = 8192


class _Reads:
    """The texts read in one dialect and environment: each as its ``_record``, and for a text
    read again (at most ``_KEPT_TEXTS`` of them) its Target."""

    __slots__ = ("again", "kept", "_records", "_targets", "_dialect", "_environment")

    def __init__(self, dialect: str, environment: Environment | None) -> None:
        self._records: Memo[str, Any] = Memo(_KEPT_TEXTS)
        self._targets: Memo[str, Target] = Memo(_KEPT_TEXTS)
        #: the Target of a text read again, and a text's record (the dicts' own ``get``)
        self.again = self._targets.get
        self.kept = self._records.get
        self._dialect = dialect
        self._environment = None if environment is None else environment._key

    def __len__(self) -> int:
        return len(self._records)

    def keep(self, text: str, outcome: Target | TargetError) -> None:
        self._records.put(text, _record(outcome))

    def revive(self, text: str, kept: Any) -> Target:
        """The Target of a text read before (kept from now on), or its error raised afresh."""
        if type(kept) is not tuple:  # (kept as it is: a value the records do not hold)
            if type(kept) is Target:
                return kept
            raise kept._copy()
        if kept[0] is _ERROR:
            raise _revived_error(kept)
        return self._targets.put(text, _revived(kept, (text, self._dialect, self._environment,
                                                       0)))


def _parse_and_keep(text: str, dialect: str, environment: Environment | None) -> Target:
    """``parse`` of a text not in the memo: read it, and keep what it gave."""
    if len(text) > ORDINARY_CHARS:  # read afresh, never kept: the memo's memory stays bounded
        return _read_text(text, dialect, environment)
    table_key = dialect if environment is None else (dialect, environment._key)
    try:
        outcome: Target | TargetError = _read_text(text, dialect, environment)
    except TargetError as error:
        # Kept without its traceback and context: their frames would keep every local of the
        # failed read alive (kilobytes per cached error).
        error.__context__ = None
        outcome = error.with_traceback(None)
    reads = _parse_memo.get(table_key)
    if reads is None:
        reads = _parse_memo.put(table_key, _Reads(dialect, environment))
    reads.keep(text, outcome)
    if type(outcome) is Target:
        return outcome
    assert isinstance(outcome, TargetError)
    raise outcome._copy()


# ---- records: what the memo of reads keeps ---------------------------------------------------

_ERROR: Any = "error"  # (a kept error's record starts with it; a Target's with its kind)
_ATOMS = (str, int, bool, float, type(None))


def _record(outcome: Target | TargetError) -> Any:
    """``outcome`` as plain data the garbage collector stops tracking at its first look: an
    exact tuple of strings, numbers, None and exact tuples of them (the record of a host
    too; never a dict or a list, which the collector goes on tracking, or keeps looking
    at). Where a value is of another kind (a target among the attributes, a list), the
    outcome itself, kept as it is.

    A Target: ``(kind, dialect, tag, keys, host, names, values, features, settled,
    array_keys)``, its attributes as the tuple of their names and that of their values, its
    features as (name, value) pairs. An error: ``(_ERROR, class name, args, message, source,
    offset, path)`` and its hint's name and candidates, if it has one. (Flat: a tuple stops
    being tracked once what it holds has, and a pass of the collector may meet a tuple
    before what it holds.)"""
    if not isinstance(outcome, Target):
        fields = outcome.__dict__
        hint = outcome._hint
        kept = (_ERROR, type(outcome).__name__, outcome.args, outcome._message, outcome.source,
                outcome.offset, outcome.path, *(hint or ()))
        if type(outcome) is not _ERROR_CLASSES.get(type(outcome).__name__) or \
                fields.keys() != _ERROR_FIELDS or not _plain_data(kept):
            return outcome
        return kept
    host = outcome._host
    if host is not None:
        host = _record(host)
        if type(host) is not tuple:
            return outcome
    attrs = outcome._attrs
    values = tuple(attrs.values())
    array_keys = outcome._array_keys
    if array_keys is not None and outcome._settled:
        # (a one-pass reader's target: its arrays are of strings; a hook may have made one
        # a list)
        if any(type(attrs[key]) is not tuple for key in array_keys):
            return outcome
    elif not _plain_data(values):
        return outcome
    features = outcome._features
    kept_features = None if features is _NO_FEATURES else tuple(features.items())
    if kept_features is not None and not _plain_data(kept_features):
        return outcome
    return (outcome._kind, outcome._dialect, outcome._tag, outcome._keys, host, tuple(attrs),
            values, kept_features, outcome._settled,
            None if array_keys is None else tuple(array_keys))


def _plain_data(value: Any) -> bool:
    """Whether ``value`` holds only strings, numbers and None, in exact tuples."""
    kind = type(value)
    if kind is tuple:
        return all(_plain_data(item) for item in value)
    return kind in _ATOMS


def _revived(kept: tuple[Any, ...], source: tuple[Any, ...]) -> Target:
    """The Target ``_record`` made ``kept`` of. Its trace is the reading of ``source`` (the
    text, the dialect, the environment's fields, and how many hosts deep), done again when
    asked (``Target._trace``)."""
    (kind, dialect, tag, keys, host, names, values, features, settled, array_keys) = kept
    self = _new_target(Target)
    self._kind = kind
    self._dialect = dialect
    self._tag = tag
    self._keys = keys
    self._host = None if host is None else _revived(host, (*source[:3], source[3] + 1))
    self._attrs = dict(zip(names, values))
    self._features = _NO_FEATURES if features is None else TargetFeatures(dict(features))
    self._identity = None
    self._canonical = None
    self._template = None
    self._traced = source  # type: ignore[assignment]  # (a plain tuple: see _trace)
    self._settled = settled
    self._array_keys = array_keys
    return self


_new_target = object.__new__


def _read_again(source: tuple[Any, ...]) -> Trace:
    """The trace of a Target revived from the memo: its text read again, its host's host..."""
    text, dialect, environment, depth = source
    target = _read_text(text, dialect, None if environment is None else Environment(*environment))
    for _ in range(depth):
        assert target._host is not None
        target = target._host
    return target._traced


#: the errors a read raises, by name (``_record`` keeps the name)
_ERROR_CLASSES = {name: value for name, value in vars(_errors).items()
                  if isinstance(value, type) and issubclass(value, TargetError)}


#: the attributes of a TargetError (``_record`` keeps each)
_ERROR_FIELDS = TargetError("").__dict__.keys()


def _revived_error(kept: tuple[Any, ...]) -> TargetError:
    """The error ``_record`` made ``kept`` of, as a new object (no traceback)."""
    _, name, args, message, source, offset, path, *hint = kept
    cls = _ERROR_CLASSES[name]
    error = cls.__new__(cls)
    error.args = args
    error._message, error.source, error.offset, error.path = message, source, offset, path
    error._hint = (hint[0], hint[1]) if hint else None
    return error


def _parse_uncached(text: str, *, dialect: str = DEFAULT_DIALECT,
                    environment: Environment | None = None) -> Target:
    """``parse`` without the memo (for benchmarks of cold reads)."""
    return _read_text(text, dialect, environment)


@with_stack_room
def _read_text(text: str, dialect: str, environment: Environment | None) -> Target:
    # (positional: the stack-room wrapper passes them on without a dict of keywords;
    # tuple.__new__: a named tuple's generated __new__ is a Python call on the hot path)
    schema = _SCHEMAS.get(dialect) or _schema(dialect)
    return from_top_level_text(text, _new_context(Context, (schema, environment, text, Target,
                                                            None, None, ())))


_new_context = tuple.__new__
_TOP = Place()


def from_json(obj: Mapping[str, Any] | str, *, dialect: str = DEFAULT_DIALECT,
              environment: Environment | None = None) -> Target:
    """Read a TargetJSON config (a dict, or JSON text) as TVM's ``Target(dict)`` does."""
    if type(obj) is dict and _TARGETS.level < MAX_TARGET_DEPTH:
        # A config of the common types: the one-pass reader (``_lower/plan.py``), which
        # nests nothing (on a stack too full even for that, the general path makes room).
        # A program reads its configs in one dialect and environment: their context is kept
        # (a new one cost a twentieth of a read).
        context_key = dialect if environment is None else (dialect, environment._key)
        try:
            ctx = _JSON_CONTEXTS.get(context_key)
            if ctx is None:
                schema = _SCHEMAS.get(dialect) or _schema(dialect)
                ctx = _JSON_CONTEXTS.put(context_key, _new_context(
                    Context, (schema, environment, None, Target, None, None, ())))
            target = read_plain_config(obj, ctx, _TOP, read_json_host)
        except RecursionError:
            target = None
        if target is not None:
            return target
    return _from_json(obj, dialect=dialect, environment=environment)


_JSON_SPACE = " \t\n\r"

#: (dialect, environment's fields) -> the context of the one-pass JSON reader
_JSON_CONTEXTS: Memo[Any, Context] = Memo(8)


@with_stack_room
def _from_json(obj: Mapping[str, Any] | str, *, dialect: str,
               environment: Environment | None) -> Target:
    if isinstance(obj, str):
        # JSON text as json.loads reads it: JSON's own white space (RFC 8259) may come first;
        # parse() then reads it as TVM's Target(text), for which "{" must be first.
        text = obj.lstrip(_JSON_SPACE)
        if not text.startswith("{"):
            raise TargetSyntaxError("JSON target text must be an object", source=obj,
                                    offset=len(obj) - len(text))
        return parse(text, dialect=dialect, environment=environment)
    if not isinstance(obj, Mapping):
        raise TypeError(f"from_json() takes a dict or JSON text, not {type_name(obj)}")
    ctx = _new_context(Context, (_schema(dialect), environment, None, Target, None, None, ()))
    try:
        config = truncate_strings(dict(obj), cut_at_nul=ctx.schema.rules.nul_ends != "never")
        return from_config(config, ctx, Place())
    except UnencodableString:
        raise TargetSyntaxError("a string of the config is not UTF-8 (a lone surrogate), "
                                "which TVM refuses") from None
    except TooDeep:
        raise TargetSyntaxError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep") from None


# ---- schema introspection -------------------------------------------------------------------

def dialects() -> Mapping[str, tuple[str, ...]]:
    """Every dialect targetlang knows, each with the TVM releases of its family (oldest first).

    Releases that read targets alike share a family: ``dialects()["tvm-0.26"] ==
    ("tvm-0.25", "tvm-0.26")``; an extension (``collage``) maps to the releases of the dialect
    it extends. :func:`release_families` has each family once, by its newest release.
    """
    by_release = {release: members for members in families().values() for release in members}
    out: dict[str, tuple[str, ...]] = {}
    for name in DIALECTS:
        base: str | None = name
        while base is not None and base not in by_release:  # an extension: its base's family
            base = DIALECTS[base].base
        out[name] = by_release[base] if base is not None else ()
    return MappingProxyType(out)


def release_families() -> Mapping[str, tuple[str, ...]]:
    """Each TVM release family, newest first, with the releases it covers (oldest first).

    A family is a run of consecutive releases that read targets alike (kinds, attributes,
    types, defaults, keys, hooks, text and JSON rules); its releases may register different
    tags. It is named by its newest release: ``{"tvm-0.26": ("tvm-0.25", "tvm-0.26"), ...}``.
    """
    return MappingProxyType(families())


def kinds(dialect: str = DEFAULT_DIALECT) -> Mapping[str, KindSpec]:
    """The target kinds of ``dialect``: attributes with types and defaults, keys, device type."""
    return _schema(dialect).kinds


@functools.cache
def _tags(dialect: str) -> Mapping[str, Target]:
    return MappingProxyType({name: parse(name, dialect=dialect)
                             for name in _schema(dialect).tag_configs})


def tags(dialect: str = DEFAULT_DIALECT) -> Mapping[str, Target]:
    """The registered tags of ``dialect``, each with the target it names."""
    return _tags(dialect)
