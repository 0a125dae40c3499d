"""From text, JSON or tag to a typed ``Target``, following TVM 0.21's ``Target`` constructor.

The functions mirror ``TargetInternal`` in ``src/target/target.cc``: ``from_string``
(tag, JSON text or legacy text), ``from_raw_string`` (legacy text, through the grammar),
``from_config`` (the config dict: target parser, tag, keys, host, attributes, defaults)
and the two ``ParseType`` overloads (``value_from_text`` and ``value_from_json``).
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, overload

from .._schema.facts import AttrSpec, DialectSchema, KindSpec
from .._schema.types import ANY, BOOL, INT, STR, TARGET, AttrType, array_of
from .._syntax import rules
from .._syntax.ast import Option
from .._syntax.grammar import SyntaxProblem, first_word, parse_target_text
from .._syntax.tokens import MismatchedQuote, split_items
from ..errors import (
    AttributeTypeError,
    DuplicateAttributeError,
    TargetError,
    TargetSyntaxError,
    TargetValueError,
    UnknownAttributeError,
    UnknownKindError,
    json_path,
    show,
    type_name,
)
from .hooks import Hook
from .plan import (
    CODE_BOOL,
    CODE_INT,
    CODE_STR,
    CODE_STRS,
    UNREAD,
    dispatch_keys,
    read_plain_config,
    read_plain_text,
    word_value,
)
from .trace import traced

if TYPE_CHECKING:
    from ..environment import Environment
    from ..target import Target
    from .trace import Form

_INT64 = (-(2**63), 2**63 - 1)


#: How deep an input may nest (docs/guide.md, "Limits"): targets inside targets (a host, a
#: device; the outermost target is level 1), and JSON objects and arrays. Both are checked
#: explicitly, so an answer never depends on how deep the caller's stack happens to be.
MAX_TARGET_DEPTH = 100
MAX_JSON_DEPTH = 256

class _Nesting(threading.local):
    #: how many targets the current read is inside, per thread (a class default: getattr
    #: with a default would cost an AttributeError on each hot-path read)
    level = 0


_TARGETS = _Nesting()
# Strings are skipped in runs (one step per run of plain characters, not per character).
_JSON_NESTING = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[{]|[\]}]')


def json_depth_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text nests objects and arrays more than ``limit`` deep (strings skipped)."""
    if text.count("[") + text.count("{") <= limit:  # too few openings to nest that deep
        return False
    depth = 0
    for match in _JSON_NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return True
        elif token in "]}":
            depth -= 1
    return False


def target_depth(target: Target) -> int:
    """How many targets deep a Target nests (itself, its host, its devices...)."""
    if target._host is None and "devices" not in target._attrs:
        return 1  # (most targets: no host, no devices)
    deepest, stack = 0, [(target, 1)]
    while stack:
        current, level = stack.pop()
        deepest = max(deepest, level)
        if current.host is not None:
            stack.append((current.host, level + 1))
        devices = current.attrs.get("devices")
        if isinstance(devices, tuple):
            stack.extend((d, level + 1) for d in devices if d is not None and not isinstance(d, str))
    return deepest


class Context(NamedTuple):
    """What one read needs: the dialect's schema, the environment and the outermost source.

    (A named tuple: one is made per read, where a frozen dataclass costs more.)
    """

    schema: DialectSchema
    environment: Environment | None
    source: str | None
    #: the class of the targets made (``target.Target``, handed down by the reader so that
    #: the lowering need not import the module above it)
    make: type[Target] | None = None
    #: the registered tag being read (its values are traced as the tag's)
    tag: str | None = None
    #: the outermost target only: where TVM's Python wrapper cut the text at a NUL, and
    #: rewrote 'mkldnn' (kept in its trace, for lint; nested targets are read without them)
    nul: int | None = None
    mkldnn: tuple[int, ...] = ()


class Place(NamedTuple):
    """Where a text being read sits in the outermost source.

    ``positions[i]`` is the source offset of character ``i`` (one more entry for the end);
    None means the text is the source itself (or a prefix of it). ``path`` is the JSON path
    of the value the text came from. (A named tuple, as ``Context``.)
    """

    positions: Sequence[int] | None = None
    path: str = ""

    def at(self, index: int) -> int:
        if self.positions is None:
            return index
        return self.positions[min(max(index, 0), len(self.positions) - 1)]

    def inner(self, start: int, positions: Sequence[int] | None, length: int, path: str) -> Place:
        """The place of a text of ``length`` characters whose character ``i`` came from our
        ``start + positions[i]`` (``start + i`` when ``positions`` is None)."""
        if positions is None and self.positions is None:
            return Place(range(start, start + length + 1), path)
        return Place(_Through(self, start, positions, length), path)


class _Through(Sequence[int]):
    """The source offsets of an inner text, each mapped through the outer place when asked.

    A nested target's text (a quoted host, an array item) gets a place on every read, but its
    offsets are asked only by an error or the trace: mapping each character up front made
    reading a quoted host cost time in proportion to its length at every level.
    """

    __slots__ = ("_outer", "_start", "_positions", "_length")

    def __init__(self, outer: Place, start: int, positions: Sequence[int] | None,
                 length: int) -> None:
        self._outer = outer
        self._start = start
        self._positions = positions
        self._length = length

    def __len__(self) -> int:
        return self._length + 1

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        if index < 0:
            index += len(self)
        inner = index if self._positions is None else self._positions[index]
        return self._outer.at(self._start + inner)



#: The place of the outermost text itself.
_SOURCE = Place()
#: (a Place made without the named tuple's generated __new__, a Python call)
_new_place = tuple.__new__


def _fail(cls: type[TargetError], message: str, ctx: Context, offset: int | None,
          path: str | None = None) -> NoReturn:
    raise cls(message, source=ctx.source, offset=offset, path=path or None)


# ---- FromString ---------------------------------------------------------------------------

def from_top_level_text(text: str, ctx: Context) -> Target:
    """``tvm.target.Target(text)``: the Python wrapper's rewrites, then ``from_string``."""
    if text.isascii() and "\0" not in text and "-libs=mkldnn" not in text:
        # Nothing to refuse, cut or rewrite. Legacy text (not a tag, not JSON) goes straight to
        # the one-pass reader: from_string's and from_raw_string's steps, inline.
        if is_legacy_text(text, ctx.schema) and _TARGETS.level < MAX_TARGET_DEPTH:
            read = read_plain_text(text, ctx, _SOURCE, _read_host)
            return read if read is not None else from_raw_string_general(text, ctx, _SOURCE)
        return from_string(text, ctx, _SOURCE)
    bad = rules.unencodable_at(text)
    if bad is not None:  # TVM hands the text to C++ as UTF-8 and refuses what is not
        _fail(TargetSyntaxError, f"{text[bad]!r} cannot be encoded in UTF-8 (a lone surrogate), "
              "so TVM refuses the text", ctx, bad)
    # Where a NUL ends the text on its way into C++ (TVM 0.6 cut each word: its reader does).
    nul = text.find("\0") if ctx.schema.rules.nul_ends == "text" else -1
    if nul >= 0:
        text = text[:nul]
        ctx = ctx._replace(nul=nul)  # the trace keeps what the wrapper did, for lint
    if ctx.schema.reader is not None:  # another release's reader (the dialect registry's)
        target: Target = ctx.schema.reader(text, ctx, Place())
        return target
    place = _SOURCE
    if "-libs=mkldnn" in text:
        # TVM's Python wrapper rewrites every "mkldnn" once it sees "-libs=mkldnn".
        found: list[int] = []
        text, positions = _replace_with_positions(text, "mkldnn", "dnnl", found)
        place = Place(positions)
        ctx = ctx._replace(mkldnn=tuple(found))
    return from_string(text, ctx, place)


def _replace_with_positions(text: str, old: str, new: str,
                            found: list[int]) -> tuple[str, list[int]]:
    out: list[str] = []
    positions: list[int] = []
    i = 0
    while True:
        j = text.find(old, i)
        if j < 0:
            break
        found.append(j)
        out.append(text[i:j])
        positions.extend(range(i, j))
        out.append(new)
        positions.extend([j] * len(new))
        i = j + len(old)
    out.append(text[i:])
    positions.extend(range(i, len(text) + 1))
    return "".join(out), positions


def is_legacy_text(text: str, schema: DialectSchema) -> bool:
    """Whether ``from_string`` reads ``text`` as legacy text with TVM 0.21's reader: no other
    release's reader, not a registered tag, not JSON text."""
    return schema.reader is None and text[:1] != "{" and text not in schema.tag_configs


def is_json_text(text: str) -> bool:
    """Whether TVM reads a text as JSON: a ``{`` first, nothing stripped before it (every
    release from 0.6 to 0.27; ``' {"kind": "llvm"}'`` is legacy text, its kind ``{"kind":``)."""
    return text[:1] == "{"


def from_string(text: str, ctx: Context, place: Place) -> Target:
    """``TargetInternal::FromString``: a registered tag, JSON text, or legacy text."""
    if ctx.schema.reader is not None:
        return ctx.schema.reader(text, ctx, place)  # type: ignore[no-any-return]
    if text in ctx.schema.tag_configs:
        return from_tag(text, ctx)
    if is_json_text(text):
        return from_config_string(text, ctx, place)
    return from_raw_string(text, ctx, place)


def from_tag(name: str, ctx: Context) -> Target:
    """A registered tag: the target TVM registered under that name (its ``tag`` field is "")."""
    config = _json_copy(ctx.schema.tag_configs[name])  # a private deep copy
    # Tag configs are complete: nothing to detect.
    tag_ctx = Context(ctx.schema, None, None, ctx.make, name, ctx.nul, ctx.mkldnn)
    return from_config(config, tag_ctx, Place(), form="tag")


def _json_copy(value: Any) -> Any:
    """A deep copy of JSON data (a registered tag's config, as its data file holds it):
    its objects and arrays copied, its strings, numbers, booleans and nulls shared (a
    quarter of the cost of a JSON round trip)."""
    kind = type(value)
    if kind is dict:
        return {key: _json_copy(item) for key, item in value.items()}
    if kind is list:
        return [_json_copy(item) for item in value]
    return value


def from_config_string(text: str, ctx: Context, place: Place) -> Target:
    """``FromConfigString``: Python's ``json.loads``; anything but an object is refused."""
    if json_depth_exceeds(text):
        _fail(TargetSyntaxError, f"JSON nested more than {MAX_JSON_DEPTH} levels deep", ctx,
              place.at(0), place.path)
    try:
        config = json.loads(text)
    except ValueError as e:
        offset = getattr(e, "pos", 0)
        _fail(TargetSyntaxError, f"cannot load the config dict as JSON: {getattr(e, 'msg', e)}",
              ctx, place.at(offset), place.path)
    if not isinstance(config, dict):
        _fail(TargetSyntaxError, "JSON target text must be an object", ctx, place.at(0), place.path)
    if _TARGETS.level < MAX_TARGET_DEPTH:
        # A config of the common types: the one-pass reader (``_lower/plan.py``).
        target = read_plain_config(config, ctx, Place(None, place.path), read_json_host)
        if target is not None:
            return target
    try:
        config = truncate_strings(config, cut_at_nul=ctx.schema.rules.nul_ends != "never")
    except UnencodableString:
        _fail(TargetSyntaxError, "cannot load the config dict: a string is not UTF-8 "
              "(a lone surrogate escape)", ctx, place.at(0), place.path)
    return from_config(config, ctx, Place(None, place.path), text_offset=place.at(0))


class UnencodableString(Exception):
    """A string of a config that TVM cannot receive (not UTF-8)."""


class TooDeep(Exception):
    """A JSON value nests objects and arrays more than ``MAX_JSON_DEPTH`` deep."""


def truncate_strings(value: Any, depth: int = 0, cut_at_nul: bool = True) -> Any:
    """Every string of a JSON value as TVM receives it (cut at the first NUL, unless the
    release keeps strings whole).

    Raises ``UnencodableString`` for a string that is not UTF-8 (TVM refuses the config), and
    ``TooDeep`` for objects and arrays nested more than ``MAX_JSON_DEPTH`` deep.
    """
    if isinstance(value, str):
        if rules.unencodable_at(value) is not None:
            raise UnencodableString(value)
        return rules.truncate_at_nul(value) if cut_at_nul else value
    if isinstance(value, (dict, list, tuple)) and depth >= MAX_JSON_DEPTH:
        raise TooDeep
    if isinstance(value, dict):
        return {truncate_strings(k, cut_at_nul=cut_at_nul) if isinstance(k, str) else k:
                truncate_strings(v, depth + 1, cut_at_nul) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [truncate_strings(v, depth + 1, cut_at_nul) for v in value]
    return value


# ---- FromRawString ------------------------------------------------------------------------

def from_raw_string(text: str, ctx: Context, place: Place) -> Target:
    """``FromRawString``: the grammar's words, each option typed by its attribute."""
    if _TARGETS.level < MAX_TARGET_DEPTH:
        # Plain words: the one-pass reader takes what it is sure of (``_lower/plan.py``).
        target = read_plain_text(text, ctx, place, _read_host)
        if target is not None:
            return target
    return from_raw_string_general(text, ctx, place)


def _read_host(raw: str, text: str, ctx: Context, place: Place) -> Target | None:
    """A ``-host`` word the one-pass reader met, read as ``value_from_text`` reads a target
    (interpreted, then ``from_string``) one target deeper; None where the general path must
    read it (an error, which it words; the nesting limit, which it checks)."""
    level = _TARGETS.level + 1
    if level >= MAX_TARGET_DEPTH:
        return None
    host_text = rules.interpreted(raw)
    host_place = _new_place(Place, (_ValueOffsets(place, text, "host"), ""))
    _TARGETS.level = level
    try:
        if is_legacy_text(host_text, ctx.schema):  # (from_string's and from_raw_string's steps)
            host = read_plain_text(host_text, ctx, host_place, _read_host)
            if host is None:
                host = from_raw_string_general(host_text, ctx, host_place)
        else:
            host = from_string(host_text, ctx, host_place)
    except TargetError:
        return None
    finally:
        _TARGETS.level = level - 1
    # (what _construct checks of a host given as a Target, from the outer target's level)
    if host._host is None and "devices" not in host._attrs:
        return host  # (target_depth 1: the limit was checked above)
    return host if level + target_depth(host) <= MAX_TARGET_DEPTH else None


class _ValueOffsets(Sequence[int]):
    """The source offsets of an option's value read by the one-pass reader, found when asked.

    The one-pass reader does not keep where each word sits; an error or the trace of the
    target read from the value (a host) asks rarely, so the text's syntax nodes are made
    then, and the value's place is the one the general path makes (``Place.inner`` of the
    value's interpretation).
    """

    __slots__ = ("_outer", "_text", "_key", "_offsets")

    def __init__(self, outer: Place, text: str, key: str) -> None:
        self._outer = outer
        self._text = text
        self._key = key
        self._offsets: Sequence[int] | None = None

    def _resolved(self) -> Sequence[int]:
        if self._offsets is None:
            option = next(o for o in parse_target_text(self._text).options if o.key == self._key)
            assert option.value is not None  # the reader reads no host from a bare flag
            raw, offset = option.value
            text, positions = rules.interpret(raw)
            inner = self._outer.inner(offset, positions, len(text), "").positions
            assert inner is not None  # (inner always maps)
            self._offsets = inner
        return self._offsets

    def __len__(self) -> int:
        return len(self._resolved())

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        return self._resolved()[index]


def from_raw_string_general(text: str, ctx: Context, place: Place) -> Target:
    """``FromRawString`` through the grammar's nodes: any text, and every error's wording."""
    if not text.strip(" "):
        # TVM refuses "" and crashes on text of spaces only (it reads a kind that is not there).
        _fail(TargetSyntaxError, "empty target text: expected a target kind", ctx,
              place.at(len(text)), place.path)
    try:
        syntax = parse_target_text(text)
    except SyntaxProblem as e:
        # TVM splits the words (an unclosed quote fails there), then looks up the kind, and
        # only then reads the options: an unknown kind is the error, whatever follows it
        # (' {"kind": "llvm"}' is the kind '{"kind":').
        word = first_word(text)
        if word is not None:
            _kind(word[0], ctx, place.at(word[1]), "")
        _fail(TargetSyntaxError, e.message, ctx, place.at(e.offset))
    # Legacy text needs no JSON paths in its errors: the caret points at the characters.
    kind = _kind(syntax.kind.text, ctx, place.at(syntax.kind.offset), "")
    config: dict[str, Any] = {"kind": kind.name}
    offsets: dict[str, int] = {}
    plain_place = place.positions is None
    narrow_ints = ctx.schema.rules.int_bits != 64  # releases before 0.21: no int64 fast path
    specs = kind.attrs
    for key, key_offset, value, _form, option_offset, _length in syntax.options:
        if key in config:
            _fail(DuplicateAttributeError, f"the key {key!r} appears more than once", ctx,
                  place.at(key_offset))
        spec = specs.get(key) or _attr(kind, key, ctx, place.at(key_offset), "")
        if value is None:
            raw, raw_offset = "1", option_offset  # a bare -flag means "1"
        else:
            raw, raw_offset = value
        offsets[key] = raw_offset if plain_place else place.at(raw_offset)
        typed = (_NOT_PLAIN if narrow_ints and spec.type.is_integer
                 else plain_value(raw, spec.type))
        if typed is _NOT_PLAIN:
            typed = value_from_text(raw, spec.type, ctx, place, raw_offset, key,
                                    flag=value is None)
        config[key] = typed
    return from_config(config, ctx, place, offsets=offsets, typed=True, form="text",
                       options=syntax.options)


_NOT_PLAIN: Any = UNREAD
_STR_ARRAY = array_of(STR)


#: The common types' codes in ``plan.word_value``.
_WORD_CODES = {STR: CODE_STR, _STR_ARRAY: CODE_STRS, INT: CODE_INT, BOOL: CODE_BOOL}


def plain_value(raw: str, type_: AttrType) -> Any:
    """The value of a word of a common type, or ``_NOT_PLAIN``: ``plan.word_value``, the fast
    path of ``value_from_text`` (a property test checks the two agree)."""
    code = _WORD_CODES.get(type_)
    return _NOT_PLAIN if code is None else word_value(raw, code)


def value_from_text(raw: str, type_: AttrType, ctx: Context, place: Place, offset: int, name: str,
                    *, flag: bool = False) -> Any:
    """``ParseType(const std::string&, info)``: interpret the word, then read it as ``type_``.

    ``name`` is the attribute's name, for messages.
    """
    text, positions = rules.interpret(raw)
    if flag:
        positions = [offset] * (len(text) + 1)  # the implied "1" has no characters of its own
        offset = 0
    if type_ is STR:
        return rules.trim_spaces(text)[0]
    if type_.is_integer:
        try:
            number = rules.parse_int(text, ctx.schema.rules.int_bits,
                                     ctx.schema.rules.true_false_words)
        except rules.RuleError as e:
            _fail(AttributeTypeError, f"{e.message} for {type_} attribute {name!r}", ctx,
                  place.at(offset))
        return bool(number) if type_ is BOOL else number
    if type_ is TARGET:
        return from_string(text, ctx, place.inner(offset, positions, len(text), ""))
    element = type_.element
    assert element is not None  # an array (no map attribute is read from text)
    try:
        pieces = split_items(text)
    except MismatchedQuote as e:
        at = e.offset
        _fail(TargetSyntaxError, f"mismatched quote: a ' is never closed in attribute {name!r}",
              ctx, place.at(offset + (at if positions is None else positions[at])))
    if positions is None and place.positions is None:
        # Plain text: each piece sits at offset + start of the outer text itself.
        return tuple(value_from_text(piece, element, ctx, place, offset + start, name)
                     for piece, start in pieces)
    item_place = place.inner(offset, positions, len(text), "")
    return tuple(value_from_text(piece, element, ctx, item_place, start, name)
                 for piece, start in pieces)


def _kind(name: str, ctx: Context, offset: int | None, path: str) -> KindSpec:
    kind = ctx.schema.kinds.get(name)
    if kind is None:
        error = UnknownKindError(f"unknown target kind {name!r}", source=ctx.source,
                                 offset=offset, path=json_path(path, "kind") if path else None)
        raise error._with_suggestion(name, (*ctx.schema.kinds, *ctx.schema.tag_configs))
    return kind


def _attr(kind: KindSpec, key: str, ctx: Context, offset: int | None, path: str,
          json: bool = False) -> AttrSpec:
    spec = kind.attrs.get(key)
    if spec is None:  # a JSON config's own key has a path even at the top (text has none)
        error = UnknownAttributeError(f"unknown attribute {key!r} for target kind {kind.name!r}",
                                      source=ctx.source, offset=offset,
                                      path=json_path(path, key) if path or json else None)
        raise error._with_suggestion(key, tuple(kind.attrs))
    return spec


# ---- FromConfig ---------------------------------------------------------------------------

def from_config(config: Mapping[str, Any], ctx: Context, place: Place, *,
                offsets: Mapping[str, int] | None = None, text_offset: int | None = None,
                typed: bool = False, form: Form = "json",
                options: tuple[Option, ...] = (), overrides: frozenset[str] = frozenset()
                ) -> Target:
    """``TargetInternal::FromConfig`` (see ``_from_config``), at most ``MAX_TARGET_DEPTH``
    targets deep."""
    level = _TARGETS.level + 1
    if level > MAX_TARGET_DEPTH:
        where = text_offset if text_offset is not None else \
            (offsets.get("kind") if offsets else None)
        _fail(TargetSyntaxError, f"targets nested more than {MAX_TARGET_DEPTH} deep (hosts "
              "and devices)", ctx, where, place.path)
    _TARGETS.level = level
    try:
        return _from_config(config, ctx, place, offsets=offsets, text_offset=text_offset,
                            typed=typed, form=form, options=options, overrides=overrides)
    finally:
        _TARGETS.level = level - 1


def _from_config(config: Mapping[str, Any], ctx: Context, place: Place, *,
                 offsets: Mapping[str, int] | None = None, text_offset: int | None = None,
                 typed: bool = False, form: Form = "json",
                 options: tuple[Option, ...] = (), overrides: frozenset[str] = frozenset()
                 ) -> Target:
    """``TargetInternal::FromConfig``: the kind's parser, tag, keys, host, attributes, defaults.

    ``offsets`` gives, for legacy text, where each key's value was written (for errors);
    ``text_offset`` is where JSON text started. ``typed`` says the values were already read
    by ``value_from_text`` (TVM's second ParseType leaves such values as they are).
    ``form``, ``options`` (legacy text's options as written) and ``overrides`` (what a
    ``{"tag": ..., <overrides>}`` config changed of its tag) go into the target's trace.
    """
    path = place.path
    offsets = offsets or {}

    def where(key: str | None = None) -> int | None:
        if key is not None and key in offsets:
            return offsets[key]
        return text_offset if text_offset is not None else (offsets.get("kind") if offsets else None)

    # A typed config was built by from_raw_string for this call; any other is the caller's.
    config = _reimport_queried(config if typed else dict(config),  # type: ignore[arg-type]
                               ctx.schema.rules.device_query_nulls)
    if "features" in config:
        _fail(TargetValueError, "target features are derived by the target parser, not given",
              ctx, where(), json_path(path, "features"))
    if "kind" not in config:
        if "tag" in config and ctx.schema.rules.tag_overrides:
            return _from_tag_overrides(config, ctx, place, where("tag"), path)
        _fail(TargetValueError, 'field "kind" is not found', ctx, where(), path)
    given_features: dict[str, Any] | None = None
    if ctx.schema.rules.feature_keys:
        # TVM 0.24+ set "feature.NAME" keys aside before the schema sees the config, and put
        # back after the target parser those it did not derive (the parser's answer wins).
        given_features = {k[8:]: copy.deepcopy(v) for k, v in config.items()
                          if type(k) is str and k.startswith("feature.") and len(k) > 8}
        if given_features:
            config = {k: v for k, v in config.items()
                      if not (type(k) is str and k[8:] in given_features
                              and k.startswith("feature."))}
    name = config["kind"]
    if not isinstance(name, str):
        _fail(AttributeTypeError, f'field "kind" must be a string, not {type_name(name)}',
              ctx, where(), json_path(path, "kind"))
    kind = _kind(name, ctx, where(), path)
    features = None
    as_given = config.copy()  # for the trace: the config before the hook changes it
    hook: Hook | None = ctx.schema.hooks.get(kind.name)
    hook_out: Mapping[str, Any] | None = None
    hook_keys: Any = None
    filled: set[str] | frozenset[str] = _NONE
    if hook is not None:
        filled = set()
        try:
            config, features = hook.run(config, ctx.environment, filled)
        except TargetError as e:
            error_path = (json_path(path, e.path) if e.path else path) if not offsets else None
            _fail(type(e), e.message, ctx, where(e.path), error_path)
        # References only: the trace works out what the hook changed when it is asked.
        hook_out, hook_keys = config, config.get("keys")
    del config["kind"]

    tag = config.pop("tag", "")
    if not isinstance(tag, str):
        _fail(AttributeTypeError, f'field "tag" must be a string, not {type_name(tag)}',
              ctx, where("tag"), json_path(path, "tag"))

    user_keys = None
    if "keys" in config:
        user_keys = config.pop("keys")
        if not isinstance(user_keys, (list, tuple)):
            _fail(AttributeTypeError, f'field "keys" must be an array, not {type_name(user_keys)}',
                  ctx, where("keys"), json_path(path, "keys"))
        for index, key in enumerate(user_keys):
            if not isinstance(key, str):
                _fail(AttributeTypeError, f"keys must be strings, not {type_name(key)}",
                      ctx, where("keys"), json_path(json_path(path, "keys"), index))
    device = config.get("device")
    keys = dispatch_keys(user_keys, device if isinstance(device, str) else None,
                         tuple(dict.fromkeys(kind.default_keys)),
                         ctx.schema.rules.default_keys_always)

    host = None
    if "host" in config:
        given_host = config.pop("host")
        if given_host is None and ctx.schema.rules.old_ffi:
            _fail(AttributeTypeError, "a null host: releases before 0.21 refused it", ctx,
                  where("host"), json_path(path, "host"))
        if given_host is None and not ctx.schema.rules.null_targets:
            _fail(AttributeTypeError, "a null host: TVM TIRx refuses it", ctx,
                  where("host"), json_path(path, "host"))
        if given_host is not None:  # a null host is no host
            # A host that overrides a tag's is the user's, not the tag's.
            host_ctx = ctx._replace(tag=None) if "host" in overrides else ctx
            host = _construct(given_host, host_ctx, place, where("host"), json_path(path, "host"))

    attrs: dict[str, Any] = {}
    for key, value in config.items():
        if typed and key in offsets and key not in filled:
            attrs[key] = value  # read from text: already checked and typed
            continue
        if typed and isinstance(value, str):  # filled in by the target parser
            attrs[key] = value
            continue
        if not isinstance(key, str):
            _fail(AttributeTypeError, "config keys must be strings", ctx, where(), path)
        spec = _attr(kind, key, ctx, where(key), path, form == "json")
        attrs[key] = value_from_json(value, spec.type, ctx, place, where(key), json_path(path, key))

    queried = "from_device" in attrs
    if queried:
        # QueryDevice: only the CPU device API is always there (and its device always exists);
        # it answers every option with nothing, so each unset attribute becomes null.
        del attrs["from_device"]
        if kind.device_type == 1 and ctx.schema.rules.device_query_nulls:
            for key in kind.attrs:
                attrs.setdefault(key, None)

    if kind.defaults:
        attrs = {**kind.defaults, **attrs}

    trace = traced(form, as_given, ctx, place, options=options, hook=hook, hook_out=hook_out,
                   hook_keys=hook_keys, from_environment=filled, queried=queried,
                   overrides=overrides)
    if given_features:
        features = {**given_features, **(features or {})}
    assert ctx.make is not None
    return ctx.make._create(kind=kind.name, dialect=ctx.schema.name, tag=tag, keys=keys,
                          host=host, attrs=attrs, features=features, trace=trace)


_ABSENT: Any = object()
_NONE: frozenset[str] = frozenset()


def _from_tag_overrides(config: Mapping[str, Any], ctx: Context, place: Place,
                        offset: int | None, path: str) -> Target:
    """``{"tag": NAME, <overrides>}`` (TVM 0.24 and later): the registered tag's config with
    the given members replaced (a host or keys whole), its ``tag`` field set to NAME."""
    name = config["tag"]
    if not isinstance(name, str):
        _fail(AttributeTypeError, f'field "tag" must be a string, not {type_name(name)}',
              ctx, offset, json_path(path, "tag"))
    tag_config = ctx.schema.tag_configs.get(name)
    if tag_config is None:
        error = UnknownKindError(f"unknown target tag {name!r}", source=ctx.source,
                                 offset=offset, path=json_path(path, "tag"))
        raise error._with_suggestion(name, tuple(ctx.schema.tag_configs))
    merged: dict[str, Any] = _json_copy(tag_config)  # a private deep copy
    overrides = {key: value for key, value in config.items() if key != "tag"}
    merged.update(overrides)
    merged["tag"] = name
    # The same target, so the same nesting level: straight to _from_config.
    return _from_config(merged, ctx._replace(tag=name), place, text_offset=offset, form="tag",
                        overrides=frozenset(overrides))


def _reimport_queried(config: dict[str, Any], queried_nulls: bool) -> dict[str, Any]:
    """Read back the export of a ``-from_device`` target: its nulls are not given values.

    TVM's export of such a target has every unset option as null, ``from_device`` included
    (and TVM cannot read it back). A null ``from_device`` marks it; asking the CPU again
    gives the same nulls. This is targetlang's extension: TVM refuses null option values.
    (Only where the release's query wrote nulls: ``DialectRules.device_query_nulls``.)
    """
    if "from_device" in config and config["from_device"] is None and queried_nulls:
        config = {k: v for k, v in config.items() if v is not None}
        config["from_device"] = 0
    return config


def _construct(value: Any, ctx: Context, place: Place, offset: int | None, path: str) -> Target:
    """``ConstructorDispatcher``: a Target, a string (tag, JSON or legacy text) or a dict."""
    if ctx.nul is not None or ctx.mkldnn:  # the wrapper's notes are the outermost target's
        ctx = ctx._replace(nul=None, mkldnn=())
    if ctx.make is not None and isinstance(value, ctx.make):
        if _TARGETS.level + target_depth(value) > MAX_TARGET_DEPTH:
            _fail(TargetSyntaxError, f"targets nested more than {MAX_TARGET_DEPTH} deep (hosts "
                  "and devices)", ctx, offset, path)
        return value
    if isinstance(value, str):
        return _from_json_string(value, ctx, place, offset, path)
    if isinstance(value, Mapping):
        if type(value) is dict:  # a config of the common types: the one-pass reader's
            target = _plain_config_deeper(value, ctx, path)
            if target is not None:
                return target
        return from_config(value, ctx, Place(None, path), text_offset=offset)
    _fail(AttributeTypeError, f"cannot create a target from {type_name(value)}", ctx, offset, path)


def _plain_config_deeper(config: dict[str, Any], ctx: Context, path: str) -> Target | None:
    """``read_plain_config`` of a nested config, one target deeper (None: the general
    path's, or the nesting limit, which the general path checks)."""
    level = _TARGETS.level + 1
    if level >= MAX_TARGET_DEPTH:
        return None
    _TARGETS.level = level
    try:
        return read_plain_config(config, ctx, Place(None, path), read_json_host)
    finally:
        _TARGETS.level = level - 1


def read_json_host(value: Any, ctx: Context, place: Place) -> Target | None:
    """A ``host`` member the one-pass reader of TargetJSON met, read as ``_from_config``
    reads it, for what that reader takes as it is: a dict of the common types (read by it,
    one target deeper) or an ASCII string without NUL (``truncate_strings`` would change
    nothing; a tag, JSON or legacy text). None where the general path must read it: any
    other value, an error (which it words), the nesting limit (which it checks)."""
    path = json_path(place.path, "host")
    if ctx.nul is not None or ctx.mkldnn:  # the wrapper's notes are the outermost target's
        ctx = ctx._replace(nul=None, mkldnn=())
    if type(value) is dict:
        host = _plain_config_deeper(value, ctx, path)
    elif type(value) is str and value.isascii() and "\0" not in value:
        try:
            host = _from_json_string(value, ctx, place, None, path)
        except TargetError:
            return None
    else:
        return None
    # (what _construct checks of a host given as a Target, from the outer target's level)
    if host is None or _TARGETS.level + 1 + target_depth(host) > MAX_TARGET_DEPTH:
        return None
    return host


def _from_json_string(text: str, ctx: Context, place: Place, offset: int | None,
                      path: str) -> Target:
    """A target given as a string inside JSON: errors point at that JSON value."""
    inner_ctx = Context(ctx.schema, ctx.environment, text, ctx.make, ctx.tag)
    try:
        return from_string(text, inner_ctx, Place(None, path))
    except TargetError as e:
        if ctx.source is None:
            raise
        _fail(type(e), e.message, ctx, offset, e.path or path)


def value_from_json(value: Any, type_: AttrType, ctx: Context, place: Place, offset: int | None,
                    path: str) -> Any:
    """``ParseType(const Any&, info)``: check (and for int/bool, convert) a config value."""
    if type_.is_integer:
        if isinstance(value, int) and _INT64[0] <= value <= _INT64[1]:
            if (type(value) is bool) == (type_ is BOOL) or not ctx.schema.rules.old_ffi:
                return bool(value) if type_ is BOOL else int(value)
        elif (type(value) is int and type_ is INT and _INT64[1] < value < 1 << 64
              and ctx.schema.rules.old_ffi):
            return value - (1 << 64)  # the old FFI passed it as a uint64, read as int64
    elif type_ is STR:
        if isinstance(value, str):
            return value
    elif type_ is TARGET:
        if value is None and not ctx.schema.rules.old_ffi and ctx.schema.rules.null_targets:
            return None  # TVM keeps a null target (as an item of composite -devices, say)
        if isinstance(value, (str, Mapping)) or (ctx.make is not None
                                                 and isinstance(value, ctx.make)):
            return _construct(value, ctx, place, offset, path)
    elif type_.element is not None and type_.is_array and isinstance(value, (list, tuple)):
        element = type_.element
        return tuple(value_from_json(item, element, ctx, place, offset, json_path(path, index))
                     for index, item in enumerate(value))
    elif type_.kind == "map" and isinstance(value, Mapping):
        return _map_from_json(value, type_, ctx, place, offset, path)
    elif type_ is ANY:
        return _any_from_json(value, ctx, offset, path)
    expected = type_.phrase
    if type_.is_integer and isinstance(value, int) and not isinstance(value, bool):
        expected = "an integer from -2**63 to 2**63-1 (int64)"
    _fail(AttributeTypeError, f"expects {expected}, but gets {type_name(value)}: {show(value)}",
          ctx, offset, path)


def _map_from_json(value: Mapping[Any, Any], type_: AttrType, ctx: Context, place: Place,
                   offset: int | None, path: str) -> Mapping[str, Any]:
    """A ``Map<str, T>`` option (TVM TIRx's cuda ``backend_config``): string keys, each value
    of ``T``; kept read-only (a Target is immutable), in the order given."""
    assert type_.element is not None
    out: dict[str, Any] = {}
    for key, item in value.items():
        if type(key) is not str:
            _fail(AttributeTypeError, f"expects an object with string keys, but has the key "
                  f"{show(key)}", ctx, offset, path)
        out[key] = value_from_json(item, type_.element, ctx, place, offset, json_path(path, key))
    return MappingProxyType(out)


def _any_from_json(value: Any, ctx: Context, offset: int | None, path: str) -> Any:
    """An ``Any`` value of a map option: any JSON value, arrays as tuples and objects
    read-only (TVM keeps each as given; an integer must fit int64, as the FFI takes it)."""
    if value is None or type(value) in (str, bool, float):
        return value
    if type(value) is int or isinstance(value, int) and not isinstance(value, bool):
        if _INT64[0] <= value <= _INT64[1]:
            return int(value)
        _fail(AttributeTypeError, f"expects an integer from -2**63 to 2**63-1 (int64), but "
              f"gets {show(value)}", ctx, offset, path)
    if isinstance(value, (list, tuple)):
        return tuple(_any_from_json(item, ctx, offset, json_path(path, index))
                     for index, item in enumerate(value))
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if type(key) is not str:
                _fail(AttributeTypeError, f"expects an object with string keys, but has the "
                      f"key {show(key)}", ctx, offset, path)
            out[key] = _any_from_json(item, ctx, offset, json_path(path, key))
        return MappingProxyType(out)
    if isinstance(value, float):
        return float(value)
    _fail(AttributeTypeError, f"expects a JSON value, but gets {type_name(value)}: {show(value)}",
          ctx, offset, path)
