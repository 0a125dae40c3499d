"""Legacy text in one pass: per-(dialect, kind) plans compiled once.

Most target strings name options the kind knows, with values of the common types (``str``,
``array<str>``, ``int``, ``bool``), in any spelling (``-k=v``, ``-k v``, ``--k=v``, ``--k v``,
quoted values). For those, ``read_plain_text`` does in one pass over the tokenizer's words
(``_syntax/tokens.py``) what ``from_raw_string`` and ``from_config`` do in several (the
grammar's nodes, the typed config, its copy for the trace, the attribute checks): it types
each value as it meets it (``word_value``: TVM's Interpret rules, then the type's), with the
kind's ``KindPlan`` (its attribute table, defaults, default keys and hook, compiled once per
dialect and kind).

It reads every spelling the grammar has (numbers and booleans as TVM's ``istream`` reads
them, any dashes and spacing, escapes, quotes in array items, hosts nested in quotes) and
answers only what it is sure of: anything else (an unknown kind or attribute, a value of
another type, ``-from_device``, an error of any kind) returns None, and the general path
reads the text (and words the error). The trace records the text itself in place of its options; ``Trace``
splits it again when asked. A property test checks that whatever this reads, the general
path reads the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .._memo import Memo
from .._schema.facts import FIELDS, DialectRules
from .._schema.types import BOOL, INT, STR, array_of
from .._syntax.rules import int_from_text, interpreted, trim_spaces, unencodable_at
from .._syntax.tokens import (
    ESCAPE,
    QUOTE,
    MismatchedQuote,
    is_plain,
    options,
    split_items,
)
from ..errors import TargetError
from .trace import Trace, traced

if TYPE_CHECKING:
    from collections.abc import Callable

    from .._schema.facts import DialectSchema, KindSpec
    from ..target import Target
    from .core import Context, Place
    from .hooks import Hook

    #: The lowering's reader of a ``-host`` word met by ``read_plain_text``: the word, the
    #: text it is in, the read's context and place; None where the general path must read it.
    ReadHost = Callable[[str, str, Context, Place], Target | None]
    #: The lowering's reader of a ``host`` member met by ``read_plain_config``: the value, the
    #: read's context and place; None where the general path must read it.
    ReadJsonHost = Callable[[Any, Context, Place], Target | None]

# How a plain word becomes a value, by the attribute's type (others: the general path).
_STR, _STRS, _INT, _BOOL = 1, 2, 3, 4
#: (the codes of ``KindPlan.codes``, for the writer of plain canonical text)
CODE_STR, CODE_STRS, CODE_INT, CODE_BOOL = _STR, _STRS, _INT, _BOOL
_CODES = {STR: _STR, array_of(STR): _STRS, INT: _INT, BOOL: _BOOL}
_JSON_TYPES: dict[int, type] = {_STR: str, _STRS: list, _INT: int, _BOOL: bool}
#: Options the general path reads: a nested target, a device query, derived features.
_GENERAL = frozenset(("host", "from_device", "features", "kind"))


class KindPlan(NamedTuple):
    """What reading one kind's plain text needs, looked up once per dialect and kind."""

    kind: KindSpec
    #: attribute name -> how its plain word is read (absent: the general path reads it)
    codes: dict[str, int]
    defaults: dict[str, Any]
    default_keys: tuple[str, ...]
    hook: Hook | None
    default_keys_always: bool
    #: attribute name -> the Python type of its JSON value (bool: an int is read too;
    #: list: a tuple is read too)
    json_types: dict[str, type]
    #: (dialect name, kind name): the attribute types of a target's values are fixed by it
    typed_as: tuple[str, str]
    #: the names of a config as given, in order -> its attributes over the defaults, sorted,
    #: and its fields after them, each value the default's or None: to copy and fill in
    #: (``_over_defaults``; a text's options come in few orders)
    orders: Memo[tuple[str, ...], dict[str, Any]]


_NONE: frozenset[str] = frozenset()
#: the members of a config that are not attributes (``settle`` takes each out)
_CONFIG_FIELDS = frozenset(("kind", "tag", "keys", "host"))
#: ``traced``'s Trace made by position, on the hot path: the form "text", the given config,
#: the context, no options yet, the place, the hook and what it did, not queried, no
#: overrides, and the text left unsplit (``Trace.complete`` splits it when asked)
_new_trace = tuple.__new__

def plans(schema: DialectSchema) -> dict[str, KindPlan | None]:
    """The plans of a dialect's kinds (None for a dialect whose text the general path reads),
    made once and kept on the schema."""
    if schema.plans:
        return schema.plans
    table: dict[str, KindPlan | None] = {}
    # Plans follow TVM 0.21's rules only: a release that read anything differently (its own
    # reader, 32-bit integers, the old FFI, feature keys, ...) takes the general path.
    general = schema.reader is not None or schema.rules != DialectRules()
    for name, kind in schema.kinds.items():
        if general:
            table[name] = None
            continue
        if any(field in kind.defaults for field in FIELDS):
            table[name] = None
            continue
        codes = {attr: _CODES[spec.type] for attr, spec in kind.attrs.items()
                 if spec.type in _CODES and attr not in _GENERAL}
        json_types = {attr: _JSON_TYPES[code] for attr, code in codes.items()}
        # (the default keys once each, as _keys would leave them)
        table[name] = KindPlan(kind, codes, dict(kind.defaults),
                               tuple(dict.fromkeys(kind.default_keys)),
                               schema.hooks.get(name), schema.rules.default_keys_always,
                               json_types, (schema.name, name), Memo(1024))
    schema.plans.update(table)  # all at once: a reader on another thread sees none or all
    return schema.plans


def dispatch_keys(user_keys: Sequence[str] | None, device: str | None,
                  default_keys: tuple[str, ...], always: bool) -> tuple[str, ...]:
    """The keys ``FromConfig`` sets, the one implementation (``_from_config``, the plans and
    ``settles_to_itself`` run it): the user's (None: none given), then the ``-device`` name
    (None: no device, or one that is not a string), then the kind's ``default_keys`` (each
    once) where none were given or the release adds them (``always``); each key once, in
    order."""
    if user_keys is None:
        if device is None:
            return default_keys
        keys = (device, *default_keys)
    else:
        keys = tuple(user_keys)
        if device is not None and device not in keys:
            keys += (device,)  # (an export's keys hold it already)
        if always:
            keys += default_keys
    # (a set is cheaper than the dict that drops a repeat, and most keys repeat none)
    return keys if len(keys) < 2 or len(set(keys)) == len(keys) else tuple(dict.fromkeys(keys))


def read_plain_text(text: str, ctx: Context, place: Place,
                    read_host: ReadHost | None = None) -> Target | None:
    """The target of legacy ``text`` in any spelling, or None: the general path's.

    Follows ``_fast_parse`` (the tokenizer's ``options``), ``from_raw_string`` (typing the values)
    and ``_from_config`` (hook, tag, keys, attributes, defaults) for what it accepts.
    ``read_host`` reads a ``-host`` value (the lowering's own reader of a nested target,
    handed down: this module sits below it); without one, a host is the general path's.
    """
    schema = ctx.schema
    table = schema.plans or plans(schema)
    read = options(text)
    if read is None:
        return None  # not well-formed: the grammar's parser words the error
    kind, written = read
    plan = table.get(kind)
    if plan is None:
        return None
    codes = plan.codes
    plain = QUOTE not in text and ESCAPE not in text  # (is_plain)
    # A word without a quote or an escape is plain; so is the inside of a word without
    # escapes quoted whole ('sm_80'): Interpret only drops the quotes. (Spaces in a string
    # value, but not at its ends, which are trimmed; none in another type's.) This is
    # ``rules.interpreted``'s quote case inline: a call per word costs quoted text 3%, and
    # the property tests check the reader against the general path.
    given: dict[str, Any] = {"kind": kind}
    arrays: list[str] = []  # (the arrays of strings given: to_json copies them as lists)
    for key, raw in written:
        if key in given:
            return None  # given twice (an error), or -kind
        code = codes.get(key)
        if code is None:
            if key != "host" or read_host is None or raw is None or "host" not in plan.kind.attrs:
                return None  # unknown (an error), or a type the general path reads
            host = read_host(raw, text, ctx, place)
            if host is None:
                return None
            given[key] = host
            continue
        word_plain = plain
        if raw is None:
            raw, word_plain = "1", True  # a bare -flag means "1"
        elif not plain:
            if QUOTE not in raw and ESCAPE not in raw:
                word_plain = True
            elif QUOTE not in raw and _ESCAPED_ESCAPE not in raw:
                # Escapes of other characters only: each gives the character it escapes (a
                # lone last one, nothing), and what is left is plain (``interpreted``'s case).
                raw = raw.replace(ESCAPE, "")
                word_plain = " " not in raw  # (an escaped space: word_value reads it as text)
            elif raw[0] == QUOTE == raw[-1] and len(raw) > 1 and ESCAPE not in raw and \
                    QUOTE not in raw[1:-1]:
                if " " not in raw or code == _INT or code == _BOOL:
                    raw, word_plain = raw[1:-1], True  # (istream skips the spaces)
                elif code == _STR:
                    given[key] = raw[1:-1].strip(" ")  # (trim_spaces)
                    continue
                else:  # (word_value's spaced array quoted whole: each item trimmed)
                    given[key] = tuple([item.strip(" ") for item in raw[1:-1].split(",") if item])
                    arrays.append(key)
                    continue
            elif code == _STRS and ESCAPE not in raw:
                # (word_value's answer: a word without escapes, not quoted whole, is its own
                # interpretation)
                value = _items_of(raw)
                if value is UNREAD:
                    return None
                given[key] = value
                arrays.append(key)
                continue
        if word_plain:  # (word_value's answers, without the call: the commonest cases)
            if code == _STR:
                given[key] = raw
                continue
            if code == _INT and raw.isdigit() and len(raw) < 19 and raw.isascii():
                given[key] = int(raw)
                continue
            if code == _BOOL and (raw == "1" or raw == "0"):
                given[key] = raw == "1"
                continue
            if code == _STRS:
                items = raw.split(",")  # (split_items of plain text: empty items dropped)
                given[key] = tuple(items if "" not in items else [i for i in items if i])
                arrays.append(key)
                continue
            number = int_from_text(raw)  # (istream's reading: 007, +4, 0x10, 1e3, true)
            if number is None:
                return None  # (TVM's error, which the general path words)
            given[key] = number if code == _INT else number != 0
            continue
        value = word_value(raw, code, word_plain)
        if value is UNREAD:
            return None
        given[key] = value
        if code == _STRS:
            arrays.append(key)
    return settle(plan, given, ctx, text, place, arrays)


_ESCAPED_ESCAPE = ESCAPE * 2

#: ``word_value``'s answer for a word the general path reads
UNREAD: Any = object()


def word_value(raw: str, code: int, plain: bool = False) -> Any:
    """The value of an option's word as ``value_from_text`` reads it for the common types
    (TVM's Interpret rules, then the type's: an integer or a boolean as ``istream`` reads it,
    then the words true and false), or ``UNREAD``: what TVM refuses (no number, one out of
    int64's range, an unclosed quote in an array), whose error the general path words.
    ``plain``: the word is known to hold no quote or escape. (A property test checks it
    against ``value_from_text``.)"""
    text = raw if plain else interpreted(raw)
    if not plain or " " in text:  # quotes or escapes, or spaces (a word of the tokenizer's
        # has none outside quotes)
        if code == _STR:  # (trim_spaces, where there is a space to trim)
            return text if text[:1] != " " and text[-1:] != " " else trim_spaces(text)[0]
        if code == _STRS and (not is_plain(text) or " " in text):
            return _items_of(text)
        raw = text  # an array of plain items, or a number: read from the interpretation
    if code == _STR:
        return raw
    if code == _STRS:
        return tuple(split_items(raw, offsets=False))
    if raw.isdigit() and raw.isascii() and len(raw) < 19:
        number: int | None = int(raw)  # (the commonest case: no sign, in range)
    else:
        number = int_from_text(raw)  # istream's reading (007, +4, 0x10, 1e3, 3x), true, False
        if number is None:
            return UNREAD  # (TVM's error, which the general path words)
    return number if code == _INT else number != 0


def _items_of(text: str) -> Any:
    """``word_value``'s answer for an array of strings whose interpretation ``text`` holds
    quotes, escapes or spaces: items quoted again inside, or spaced, each interpreted and
    trimmed; ``UNREAD`` for an unclosed quote."""
    if QUOTE not in text and ESCAPE not in text:  # (spaced: the value quoted whole)
        return tuple([item.strip(" ") for item in text.split(",") if item])
    if ESCAPE not in text and text[:1] == QUOTE == text[-1:] and len(text) > 1:
        items = text[1:-1].split("','")
        inside = "".join(items)
        if QUOTE not in inside and "," not in inside:  # (each item quoted whole)
            return tuple(items if " " not in inside else
                         [item.strip(" ") for item in items])
    if ESCAPE not in text:
        parts = text.split(QUOTE)
        if not len(parts) & 1:
            return UNREAD  # an unclosed quote (the general path words the error)
        if "," not in "".join(parts[1::2]):  # (no comma inside quotes: each splits)
            # Interpret drops the quotes of an item quoted whole, and only those.
            return tuple([(item[1:-1] if item[0] == QUOTE == item[-1] and len(item) > 1
                           and QUOTE not in item[1:-1] else item).strip(" ")
                          for item in text.split(",") if item])
    try:
        items = split_items(text, offsets=False)
    except MismatchedQuote:
        return UNREAD  # the general path words the error
    return tuple([trim_spaces(interpreted(item))[0] for item in items])


def settle(plan: KindPlan, given: dict[str, Any], ctx: Context, text: str, place: Place,
           arrays: list[str]) -> Target | None:
    """``_from_config``'s last steps (hook, tag, keys, attributes over the defaults) for a
    config typed from plain ``text``, and the target they make; None where the general path
    must decide. ``arrays``: the attributes given as arrays of strings."""
    hook = plan.hook
    features = hook_out = hook_keys = None
    filled: set[str] | frozenset[str] = _NONE
    if hook is None:
        # The defaults hold no field (plans() makes sure): the fields come out of the merge.
        attrs = _over_defaults(plan, given)
        del attrs["kind"]
        tag = attrs.pop("tag", "")
        user_keys = attrs.pop("keys", None)
        host = attrs.pop("host", None)
    else:
        filled = set()
        try:
            config, features = hook.run(given.copy(), ctx.environment, filled)
        except TargetError:
            return None  # the general path words the error
        # The hook may fill in values (hooks add members, never remove one, and replace one
        # given only from the environment: ``filled``): strings stay, a list of strings for
        # an array of them is read as one (value_from_json's tuple), anything else the
        # general path checks.
        filled_arrays = None
        if len(config) != len(given) or filled:
            for key, value in config.items():
                if key in given and key not in filled or key in _CONFIG_FIELDS or \
                        type(value) is str:
                    continue
                if type(value) is list and plan.codes.get(key) == _STRS and \
                        all(type(item) is str for item in value):
                    filled_arrays = [*(filled_arrays or ()), key]
                    continue
                return None
        hook_out, hook_keys = config, config.get("keys")
        del config["kind"]  # (the trace keeps the hook's config stripped of the fields)
        tag = config.pop("tag", "")
        user_keys = config.pop("keys", None)
        host = config.pop("host", None)
        if host is not given.get("host"):
            return None  # a hook that set a host: the general path reads it
        attrs = _over_defaults(plan, config)
        if filled_arrays is not None:  # (the hook's config keeps its lists, for the trace)
            for key in filled_arrays:
                attrs[key] = tuple(attrs[key])
            arrays = [*arrays, *[key for key in filled_arrays if key not in arrays]]
    device = attrs.get("device")
    if user_keys is None and device is None:
        keys = plan.default_keys  # (dispatch_keys' answer, without the call: most targets)
    else:
        if user_keys is not None and type(user_keys) is not tuple and not (
                type(user_keys) is list and all(type(k) is str for k in user_keys)):
            return None
        keys = dispatch_keys(user_keys, device, plan.default_keys, plan.default_keys_always)
    if "keys" in given:
        arrays.remove("keys")  # (a field, not an attribute)
    assert ctx.make is not None
    return ctx.make._create(plan.kind.name, ctx.schema.name, tag, keys, host, attrs, features,
                            _new_trace(Trace, ("text", given, ctx, (), place, hook, hook_out,
                                               hook_keys, filled, False, _NONE, text)),
                            True, arrays, True)


def _over_defaults(plan: KindPlan, config: dict[str, Any]) -> dict[str, Any]:
    """``{**plan.defaults, **config}`` with its attributes sorted by name, the fields of the
    config (kind, tag, keys, host) after them, for the caller to take out: a copy of the
    plan's template for these names (``KindPlan.orders``), filled in."""
    names = tuple(config)
    template = plan.orders.get(names)
    if template is None:
        attributes = sorted({*plan.defaults, *names} - _CONFIG_FIELDS)
        template = plan.orders.put(names, {
            **{name: plan.defaults.get(name) for name in attributes},
            **{name: None for name in names if name in _CONFIG_FIELDS}})
    attrs = template.copy()
    attrs.update(config)
    return attrs


def settles_to_itself(plan: KindPlan, tag: str, keys: tuple[str, ...],
                      attrs: Mapping[str, Any], settled: bool = False) -> bool:
    """Whether ``settle``, given exactly these tag, keys and attributes as typed words (with
    no environment), gives them back unchanged: a plain text of them reads as them. (They
    are a target's of the plan's kind: each value of its attribute's type, or None.)

    Shown by settle's own steps, not by restating them: the hook keeps them (``Hook.keeps``
    runs it on what it reads), the merge over the defaults adds no attribute, and
    ``dispatch_keys`` gives the keys back. ``settled``: ``settle`` made them
    (``Target._settled``), so its merge and ``dispatch_keys`` made them already (each is
    idempotent): only the hook is left to show."""
    hook = plan.hook
    if hook is not None and not hook.keeps(plan.kind.name, keys, attrs, plan.typed_as):
        return False
    return settled or plan.defaults.keys() <= attrs.keys() and dispatch_keys(
        keys, attrs.get("device"), plan.default_keys, plan.default_keys_always) == keys


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def read_plain_config(config: Any, ctx: Context, place: Place,
                      read_host: ReadJsonHost | None = None) -> Target | None:
    """The target of a TargetJSON dict of the common types, or None: the general path's.

    Follows ``truncate_strings`` (nothing to cut: strings UTF-8 can encode, without NUL) and
    ``_from_config`` with ``value_from_json`` for what it accepts; the trace is the one the
    general path keeps. Values are checked once, after the hook (which sees them as given,
    as TVM's does); anything the hook refuses, the general path refuses in its words.
    ``read_host`` reads a ``host`` member (the lowering's reader, handed down); without one,
    a host is the general path's.
    """
    if type(config) is not dict:
        return None
    name = config.get("kind")
    schema = ctx.schema
    table = schema.plans or plans(schema)
    plan = table.get(name) if type(name) is str else None
    if plan is None:
        return None
    hook = plan.hook
    features = hook_out = None
    filled: set[str] | frozenset[str] = _NONE
    # The config as given, for the trace: its arrays are copied as lists below, as the loop
    # meets them (as truncate_strings copies them).
    given = config.copy()
    if hook is not None:
        filled = set()
        try:  # (hooks replace the arrays they change, never change one in place)
            config, features = hook.run(config.copy(), ctx.environment, filled)
        except Exception:  # noqa: BLE001  (whatever it is, the general path meets it again)
            return None
        hook_out = config
    # One pass over every value, the fields (tag, keys) as the attributes of their types;
    # the fields are then taken out of the attributes (the defaults hold none).
    attrs = _typed_attrs(plan, config, given)
    if attrs is _MIXED:  # a bool given as an integer, an array as a tuple, or worse
        exact = _exact_types(plan, config)
        attrs = None if exact is None else _typed_attrs(plan, exact, given)
    if attrs is None:
        return None
    host = None
    given_host = config.get("host")
    if given_host is not None:  # (a null host is no host)
        if read_host is None:
            return None
        host = read_host(given_host, ctx, place)
        if host is None:
            return None
    if hook_out is not None:
        hook_out.pop("host", None)  # (the trace keeps the hook's config without it)
    tag = attrs.pop("tag", "")
    user_keys = attrs.pop("keys", None)
    keys = dispatch_keys(user_keys, attrs.get("device"), plan.default_keys,
                         plan.default_keys_always)
    trace = traced("json", given, ctx, place, hook=hook, hook_out=hook_out,
                   hook_keys=None if hook_out is None else hook_out.get("keys"),
                   from_environment=filled)
    assert ctx.make is not None
    return ctx.make._create(kind=plan.kind.name, dialect=schema.name, tag=tag, keys=keys,
                            host=host, attrs=attrs, features=features, trace=trace,
                            settled=True)


_MIXED: Any = object()


def _typed_attrs(plan: KindPlan, config: dict[str, Any], given: dict[str, Any]) -> Any:
    """The attributes of a config whose values are each of their attribute's JSON type
    exactly (as exports are), over the defaults, checked as ``truncate_strings`` and
    ``value_from_json`` would find them; the arrays of ``given`` copied as lists. None: a
    value the general path reads; ``_MIXED``: a value of another type (``_exact_types``)."""
    wanted = plan.json_types
    attrs = {}
    for key, value in config.items():
        kind = type(value)
        if kind is not wanted.get(key):
            if key == "kind" or key == "host":  # (the host: read_plain_config's own)
                continue
            return _MIXED
        if kind is str:
            if "\0" in value or not value.isascii() and unencodable_at(value) is not None:
                return None
        elif kind is int:
            if not _INT64_MIN <= value <= _INT64_MAX:
                return None
        elif kind is list:  # of strings that truncate_strings leaves as they are, as above
            try:
                joined = "".join(value)
            except TypeError:
                return None  # an item that is not a string
            if "\0" in joined or not joined.isascii() and unencodable_at(joined) is not None:
                return None
            as_given = given.get(key)  # (before the hook, if any)
            if type(as_given) is list or type(as_given) is tuple:
                given[key] = [*as_given]
            value = tuple(value)
        attrs[key] = value
    # An export holds every default already, in order (Target._create then sorts nothing).
    return attrs if plan.defaults.keys() <= attrs.keys() else {**plan.defaults, **attrs}


def _exact_types(plan: KindPlan, config: dict[str, Any]) -> dict[str, Any] | None:
    """The config with a bool given as an integer made a bool, an integer given as a bool made
    an integer and an array given as a tuple made a list, as ``value_from_json`` takes them;
    None: a value of another type (a null, a nested target, a wrong type), which the general
    path reads."""
    wanted = plan.json_types
    exact = {}
    for key, value in config.items():
        kind = type(value)
        want = wanted.get(key)
        if kind is want or key == "kind" or key == "host":
            exact[key] = value
        elif want is bool and kind is int:
            if not _INT64_MIN <= value <= _INT64_MAX:
                return None
            exact[key] = value != 0
        elif want is int and kind is bool:
            exact[key] = int(value)  # (TVM 0.21's FFI reads a bool as an integer)
        elif want is list and kind is tuple:
            exact[key] = [*value]
        else:
            return None
    return exact
