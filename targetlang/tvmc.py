"""tvmc's multi-target syntax: ``ethos-u -accelerator_config=ethos-u55-256, cmsis-nn, c``.

tvmc (TVM's command-line driver, TVM 0.8 to 0.19) took ``--target`` as a comma-separated
list: BYOC codegens with their options, then one TVM target, optionally followed by a second
one, its host. :func:`parse_tvmc` reads that list with the grammar ``grammar/tvmc.lark``,
checks tvmc's rules, types each codegen's options against what TVM registered for it
(:func:`codegens`, generated from TVM's history by ``scripts/generate_tvmc_data.py``) and
reads the TVM targets exactly as ``targetlang.parse`` does.

    >>> from targetlang import parse_tvmc
    >>> result = parse_tvmc("ethos-u -accelerator_config=ethos-u55-256, cmsis-nn, c")
    >>> result.codegens
    [Codegen(name='ethos-u', options={'accelerator_config': 'ethos-u55-256'}), Codegen(name='cmsis-nn', options={})]
    >>> result.target.kind, result.host
    ('c', None)

Where tvmc's regular expression lost characters (``/``, ``:``, ``=``, ``@`` in values, quoted
values with anything but letters, digits, ``+-.,`` and spaces) or misread the text
(``--key=value`` as a flag named ``key=value``), targetlang reads what was written.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from ._equality import EqualAsJson
from ._lower.dialects import load
from ._schema.resources import data_text
from ._schema.types import BOOL, INT, STR, AttrType, array_of, parse_type
from ._stack import with_stack_room
from ._syntax.ast import Word
from ._syntax.grammar import SyntaxProblem, is_tvmc_kind_option, parse_tvmc_list
from ._syntax.tokens import option_key, split_items
from .errors import (
    AttributeTypeError,
    DuplicateAttributeError,
    TargetError,
    TargetSyntaxError,
    TargetValueError,
    UnknownAttributeError,
    UnknownKindError,
    did_you_mean,
    show,
    type_name,
)
from .target import DEFAULT_DIALECT, Target, kinds, parse

if TYPE_CHECKING:
    from .environment import Environment

__all__ = [
    "Codegen",
    "CodegenOption",
    "CodegenSpec",
    "TvmcEntry",
    "TvmcOption",
    "TvmcTarget",
    "codegens",
    "parse_tvmc",
    "parse_tvmc_args",
    "read_entries",
    "split_kind_option",
]

OptionValue = Any  # str | bool | int | list[str]
_STR_ARRAY = array_of(STR)
_MISSING: Any = object()


# ---- the codegens tvmc knew ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CodegenOption:
    """One option of a BYOC codegen: its name, type (``str``, ``bool``, ``int``,
    ``array<str>``), TVM's default (if any) and description."""

    #: the option's name as tvmc spells it
    name: str
    #: its type (``str``, ``bool``, ``int``, ``array<str>``)
    type: AttrType
    #: TVM's default (see :attr:`has_default`: an option may have none)
    default: Any = _MISSING
    #: TVM's description of it (``""`` where TVM gives none)
    description: str = ""

    @property
    def has_default(self) -> bool:
        """Whether TVM gives the option a default."""
        return self.default is not _MISSING


@dataclass(frozen=True, slots=True)
class CodegenSpec:
    """A BYOC codegen tvmc registered (``REGISTERED_CODEGEN`` in ``composite_target.py``).

    """

    #: the codegen's name in a ``--target`` list (``ethos-u``)
    name: str
    #: the PassContext key its options are registered under (None: no attributes node)
    config_key: str | None
    #: True when any other option is passed on too (the partition function takes
    #: ``**kwargs``)
    open: bool
    #: the fields of the attributes node registered under ``config_key`` (or, without one,
    #: the partition function's keyword parameters), by name
    options: Mapping[str, CodegenOption]
    #: the first and last TVM release that registered it
    releases: tuple[str, str]
    #: the release these facts come from
    defined_by: str
    #: the Python function tvmc partitions a model with for it
    partition_function: str
    #: the target tvmc pairs the codegen with (``llvm`` for ``mrvl``): when a list names that
    #: target and not the codegen, tvmc reads none of the codegen's options (None: no such)
    default_target: str | None


@functools.cache
def _codegen_data() -> dict[str, Any]:
    raw = data_text("tvmc.json")
    data: dict[str, Any] = json.loads(raw)
    return data


@functools.cache
def codegens() -> Mapping[str, CodegenSpec]:
    """Every BYOC codegen some tvmc release registered, with its options."""
    out: dict[str, CodegenSpec] = {}
    for name, spec in _codegen_data()["codegens"].items():
        options = {
            option: CodegenOption(option, parse_type(o["type"]), o.get("default", _MISSING),
                                  o.get("description", ""))
            for option, o in spec["options"].items()
        }
        out[name] = CodegenSpec(name, spec["config_key"], spec["open"],
                                MappingProxyType(options), tuple(spec["releases"]),
                                spec["defined_by"], spec["partition_function"],
                                spec["default_target"])
    return MappingProxyType(out)


# ---- syntax --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TvmcOption:
    """``-key=value``, ``--key=value`` or the flag ``--key`` (``value`` True) of one entry.

    All offsets index the ``--target`` text that was read.
    """

    #: the option's key, without dashes
    key: str
    #: the text without its quotes; True for a flag
    value: str | bool
    #: where the option starts (its first dash)
    offset: int
    #: where its key starts
    key_offset: int
    #: ``positions[i]`` is the offset of the value's character ``i``, plus one entry for the
    #: end of the value (empty for a flag)
    positions: tuple[int, ...] = ()

    @property
    def value_offset(self) -> int:
        """Where the value starts in the source (the key, for a flag)."""
        return self.positions[0] if self.positions else self.key_offset


@dataclass(frozen=True, slots=True)
class TvmcEntry:
    """One comma-separated entry: a name (codegen, target kind or tag) and its options."""

    #: the name: a codegen, a target kind or a tag
    name: str
    #: where the name starts in the ``--target`` text
    offset: int
    #: its options, in the order written
    options: tuple[TvmcOption, ...] = field(default=())

    @property
    def end(self) -> int:
        """The offset just after the entry's last character."""
        if not self.options:
            return self.offset + len(self.name)
        last = self.options[-1]
        return last.positions[-1] if last.positions else last.key_offset + len(last.key)

    def opts(self) -> dict[str, str | bool]:
        """The options as tvmc's ``parse_target`` gave them: ``{key: text or True}``."""
        return {option.key: option.value for option in self.options}


def _syntax_error(message: str, text: str, offset: int) -> TargetSyntaxError:
    return TargetSyntaxError(message, source=text, offset=offset)


def read_entries(text: str) -> list[TvmcEntry]:
    """Read tvmc's ``--target`` text into its entries, without looking at what they name."""
    if not isinstance(text, str):
        raise TypeError(f"read_entries() takes text, not {type_name(text)}")
    try:
        syntax = parse_tvmc_list(text)
    except SyntaxProblem as e:
        raise _syntax_error(e.message, text, e.offset) from None
    entries = []
    for name, words in syntax:
        options: list[TvmcOption] = []
        seen: dict[str, int] = {}
        for word in words:
            option = _option(word, text)
            if option.key in seen:
                raise DuplicateAttributeError(
                    f"the option {option.key!r} of {name.text!r} is given more than once",
                    source=text, offset=option.key_offset)
            seen[option.key] = option.key_offset
            options.append(option)
        entries.append(TvmcEntry(name.text, name.offset, tuple(options)))
    return entries


def _option(word: Word, text: str) -> TvmcOption:
    raw, start = word
    dashes = option_key(raw)[1]
    key, equals, value = raw[dashes:].partition("=")
    key_offset = start + dashes
    if dashes > 2:
        raise _syntax_error(f"{raw.partition('=')[0]!r} has {dashes} dashes: an option is "
                            "-key=value or --key", text, start)
    if not key:
        raise _syntax_error("empty option name: expected a name after the dashes", text,
                            key_offset)
    if not equals:
        if dashes == 1:
            raise _syntax_error(f"the option -{key} needs a value: write -{key}=VALUE "
                                f"(a flag is written --{key})", text, start + len(raw))
        return TvmcOption(key, True, start, key_offset)
    if not value:
        raise _syntax_error(f"empty value for the option {key!r}", text, start + len(raw))
    decoded, positions = _decode(value, key_offset + len(key) + 1)
    return TvmcOption(key, decoded, start, key_offset, tuple(positions))


def _decode(value: str, offset: int) -> tuple[str, list[int]]:
    """A value without its quotes ('...' and "..." runs), with each character's offset."""
    out: list[str] = []
    positions: list[int] = []
    i = 0
    while i < len(value):
        c = value[i]
        if c in "'\"":
            close = value.index(c, i + 1)  # the grammar guarantees it
            out.append(value[i + 1:close])
            positions.extend(range(offset + i + 1, offset + close))
            i = close + 1
        else:
            out.append(c)
            positions.append(offset + i)
            i += 1
    positions.append(offset + len(value))
    return "".join(out), positions


# ---- per-kind options: --target-KIND-OPTION=VALUE ----------------------------------------------

def _names(dialect: str) -> list[str]:
    return [*codegens(), *kinds(dialect)]


def split_kind_option(word: str, *, dialect: str = DEFAULT_DIALECT) -> tuple[str, str, str | None]:
    """``--target-llvm-mcpu=cortex-a72`` -> ``("llvm", "mcpu", "cortex-a72")``.

    KIND is the longest codegen or target kind name that leaves an option name after it
    (names contain ``-``: ``--target-cmsis-nn-mcpu``); the value is None without ``=``.
    """
    if not is_tvmc_kind_option(word):
        raise _syntax_error("expected --target-KIND-OPTION=VALUE", word, 0)
    name, equals, value = word[len("--target-"):].partition("=")
    for kind in sorted(_names(dialect), key=len, reverse=True):
        if name.startswith(kind + "-") and len(name) > len(kind) + 1:
            return kind, name[len(kind) + 1:], value if equals else None
    hint = did_you_mean(name.split("-")[0], _names(dialect))
    raise UnknownKindError(f"{word.partition('=')[0]!r} names no codegen or target kind{hint}",
                           source=word, offset=len("--target-"))


def parse_tvmc_args(argv: Sequence[str], *, dialect: str = DEFAULT_DIALECT
                    ) -> tuple[str | None, dict[str, dict[str, str]]]:
    """tvmc's target arguments -> ``(target text, per-kind options)`` for :func:`parse_tvmc`.

    Reads ``--target=TEXT`` (or ``--target TEXT``) and ``--target-KIND-OPTION=VALUE`` (or
    with the value as the next word), as tvmc's command line took them.
    """
    text: str | None = None
    options: dict[str, dict[str, str]] = {}
    words = list(argv)
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--target" or word.startswith("--target="):
            if word == "--target":
                if i + 1 >= len(words):
                    raise _syntax_error("--target needs a value", word, len(word))
                i += 1
                text = words[i]
            else:
                text = word[len("--target="):]
        elif word.startswith("--target-"):
            kind, option, value = split_kind_option(word, dialect=dialect)
            if value is None:
                if i + 1 >= len(words):
                    raise _syntax_error(f"{word} needs a value", word, len(word))
                i += 1
                value = words[i]
            options.setdefault(kind, {})[option] = value
        else:
            raise _syntax_error(f"not a tvmc target argument: {word!r}", word, 0)
        i += 1
    return text, options


# ---- meaning -------------------------------------------------------------------------------

class Codegen(NamedTuple):
    """A BYOC codegen of a tvmc target list, with its typed options."""

    #: the codegen's name (``ethos-u``)
    name: str
    #: its options, typed as the codegen declares them
    options: dict[str, OptionValue]


class TvmcTarget(EqualAsJson):
    """What tvmc made of a ``--target`` list: the codegens in order, the target and its host.

    ``target`` carries the host (``target.host is host``), as the ``Target`` tvmc built did.
    """

    __slots__ = ("_codegens", "_target", "_identity")

    def __init__(self, codegens: Iterable[Codegen], target: Target) -> None:
        self._codegens = tuple(Codegen(c.name, dict(c.options)) for c in codegens)
        self._target = target
        self._identity: str | None = None

    @property
    def codegens(self) -> list[Codegen]:
        """The non-TVM codegens, in the order written: ``[(name, {option: value})]``."""
        return [Codegen(c.name, dict(c.options)) for c in self._codegens]

    @property
    def target(self) -> Target:
        """The TVM target (with its host)."""
        return self._target

    @property
    def host(self) -> Target | None:
        """The host: the second TVM target of the list (or the target's own ``-host``)."""
        return self._target.host

    def to_json(self) -> dict[str, Any]:
        """``{"codegens": [{"name", "options"}], "target": TargetJSON with its host}``."""
        return {"codegens": [{"name": c.name, "options": dict(c.options)} for c in self._codegens],
                "target": self._target.to_json()}

    def _identity_json(self) -> Any:
        return [self._target.dialect, self.to_json()]

    def __repr__(self) -> str:
        return f"TvmcTarget(codegens={self.codegens!r}, target={self._target!r})"


@with_stack_room
def parse_tvmc(text: str, options: Mapping[str, Mapping[str, Any]] | None = None, *,
               dialect: str = DEFAULT_DIALECT, environment: Environment | None = None
               ) -> TvmcTarget:
    """Read tvmc's ``--target`` text: BYOC codegens with options, a TVM target and its host.

    ``options`` are tvmc's per-kind options (``--target-llvm-mcpu=cortex-a72``) as
    ``{"llvm": {"mcpu": "cortex-a72"}}``, for TVM targets and codegens alike. tvmc's rules
    hold: the last entry is a TVM target, at most two TVM targets (target, then host), no
    name twice. A codegen's options are checked and typed against what TVM registered for
    it; TVM targets are read as :func:`targetlang.parse` reads them (a text starting with
    ``{`` is one JSON target, as in tvmc). Raises :class:`TargetError` with an offset into
    ``text``.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_tvmc() takes text, not {type_name(text)}")
    given = _check_options(options)
    if text.strip().startswith("{"):
        if given:
            raise TargetValueError("per-kind options do not apply to a JSON target",
                                   source=text, offset=0)
        try:
            return TvmcTarget((), parse(text.strip(), dialect=dialect, environment=environment))
        except TargetError as e:  # its source is the stripped text: point into ``text``
            error = e._copy()
            lead = len(text) - len(text.lstrip())
            error.source = text
            error.offset = None if e.offset is None or e.source != text.strip() \
                else e.offset + lead
            raise error from None
    entries = read_entries(text)
    known_codegens = codegens()
    known_kinds = kinds(dialect)
    known_tags = load(dialect).tag_configs
    seen: dict[str, TvmcEntry] = {}
    for entry in entries:
        if entry.name not in known_codegens and entry.name not in known_kinds \
                and entry.name not in known_tags:
            hint = did_you_mean(entry.name, [*known_codegens, *known_kinds])
            raise UnknownKindError(f"unknown codegen or target kind {entry.name!r}{hint}",
                                   source=text, offset=entry.offset)
        if entry.name in seen:
            raise TargetValueError(f"{entry.name!r} appears twice: each codegen and target "
                                   "may appear once", source=text, offset=entry.offset)
        seen[entry.name] = entry
    for name in given:
        if name not in seen:
            option = next(iter(given[name]), "")
            raise TargetValueError(f"options for {name!r} (--target-{name}-{option}) but the "
                                   f"target list names no {name!r}", source=text, offset=None)
    last = entries[-1]
    if last.name in known_codegens:
        raise TargetValueError(f"the last entry must be a TVM target, not the codegen "
                               f"{last.name!r}{_glued_hint(entries, known_kinds)}",
                               source=text, offset=last.offset)
    tvm_entries = [e for e in entries if e.name not in known_codegens]
    if len(tvm_entries) > 2:
        names = ", ".join(e.name for e in tvm_entries)
        raise TargetValueError(f"at most two TVM targets (the target and its host); found "
                               f"{len(tvm_entries)}: {names}", source=text,
                               offset=tvm_entries[2].offset)
    result_codegens = [
        Codegen(e.name, _codegen_options(e, known_codegens[e.name], given.get(e.name, {}), text))
        for e in entries if e.name in known_codegens
    ]
    targets = [_tvm_target(e, given.get(e.name, {}), text, dialect, environment)
               for e in tvm_entries]
    target = targets[0]
    if len(targets) == 2:
        if target.host is not None:
            raise TargetValueError(f"{tvm_entries[0].name!r} already has a host, so "
                                   f"{tvm_entries[1].name!r} cannot be its host", source=text,
                                   offset=tvm_entries[1].offset)
        target = target.with_host(targets[1])
    return TvmcTarget(result_codegens, target)


def _check_options(options: Mapping[str, Mapping[str, Any]] | None) -> dict[str, dict[str, Any]]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict of dicts, not {type_name(options)}")
    out: dict[str, dict[str, Any]] = {}
    for name, inner in options.items():
        if not isinstance(name, str) or not isinstance(inner, Mapping):
            raise TypeError("options must map names to dicts: {'llvm': {'mcpu': 'cortex-a72'}}")
        if inner:
            out[name] = dict(inner)
    return out


def _glued_hint(entries: Sequence[TvmcEntry], known_kinds: Mapping[str, object]) -> str:
    """A hint for ``-mcpu=cortex-m55,c``: the comma continued the value instead of starting
    an entry."""
    for entry in entries:
        for option in entry.options:
            if isinstance(option.value, str) and "," in option.value:
                tail = option.value.rsplit(",", 1)[1]
                if tail in known_kinds:
                    return (f" (the comma in -{option.key}={option.value} continues the value; "
                            f"write ', {tail}' to start an entry)")
    return ""


# ---- codegen options -----------------------------------------------------------------------

def _codegen_options(entry: TvmcEntry, spec: CodegenSpec, extra: Mapping[str, Any],
                     text: str) -> dict[str, OptionValue]:
    out: dict[str, OptionValue] = {}
    for option in entry.options:
        described = _described(spec, option.key, text, option.key_offset)
        out[option.key] = _typed_text(option.value, described, spec, text, option.value_offset)
    for key, value in extra.items():
        described = _described(spec, key, text, None)
        typed = _typed_value(value, described, spec, text)
        if key in out and out[key] != typed:
            at = next(o.key_offset for o in entry.options if o.key == key)
            raise DuplicateAttributeError(
                f"the option {key!r} of {spec.name!r} is given twice with different values: "
                f"{out[key]!r} in the text and {typed!r} in options", source=text, offset=at)
        out[key] = typed
    return out


def _described(spec: CodegenSpec, key: str, text: str, offset: int | None) -> CodegenOption | None:
    option = spec.options.get(key)
    if option is None and not spec.open:
        hint = did_you_mean(key, spec.options)
        if not hint:
            names = list(spec.options)
            known = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
            hint = f" (its options: {known or 'none'})"
        raise UnknownAttributeError(f"unknown option {key!r} for codegen {spec.name!r}{hint}",
                                    source=text, offset=offset)
    return option


def _type_error(spec: CodegenSpec, option: CodegenOption, what: str, text: str,
                offset: int | None) -> AttributeTypeError:
    expected = {STR: "a string", BOOL: "a boolean (0, 1, true or false)",
                INT: "an integer", _STR_ARRAY: "a comma-separated list"}[option.type]
    return AttributeTypeError(f"the option {option.name!r} of {spec.name!r} takes {expected}, "
                              f"not {what}", source=text, offset=offset)


def _typed_text(value: str | bool, option: CodegenOption | None, spec: CodegenSpec, text: str,
                offset: int | None) -> OptionValue:
    """A value as written (text, or True for ``--flag``) -> the option's type."""
    if option is None:  # an open codegen's undocumented option: passed on as written
        return value
    if value is True:
        if option.type is BOOL:
            return True
        raise _type_error(spec, option, f"a bare flag (write -{option.name}=VALUE)", text,
                          offset)
    assert isinstance(value, str)
    if option.type is STR:
        return value
    if option.type is BOOL:
        lowered = value.strip().lower()
        if lowered in ("1", "true"):
            return True
        if lowered in ("0", "false"):
            return False
        raise _type_error(spec, option, repr(value), text, offset)
    if option.type is INT:
        number = _python_int(value)
        if number is not None:
            return number
        raise _type_error(spec, option, repr(value), text, offset)
    return split_items(value, quotes=False, offsets=False)


def _python_int(text: str) -> int | None:
    """``int(text)`` as tvmc's argparse called it, or None where that raised ValueError.

    Python refuses numbers of more than 4300 digits (its default
    ``sys.get_int_max_str_digits()``); so does this, whatever the process' own setting.
    """
    match = re.fullmatch(r"\s*[+-]?(\d+)\s*", text)
    if match is None or len(match.group(1)) > 4300:
        return None
    try:
        return int(text)
    except ValueError:  # a lower limit set by the process
        return None


def _typed_value(value: Any, option: CodegenOption | None, spec: CodegenSpec,
                 text: str) -> OptionValue:
    """A value from the ``options`` dict (tvmc's argparse typed some) -> the option's type."""
    if isinstance(value, str) or value is True:
        return _typed_text(value, option, spec, text, None)
    if option is None:
        return value
    if option.type is BOOL and isinstance(value, int) and value in (0, 1):
        return bool(value)
    if option.type is INT and isinstance(value, int) and not isinstance(value, bool):
        return value
    if option.type is _STR_ARRAY and isinstance(value, (list, tuple)) \
            and all(isinstance(v, str) for v in value):
        return list(value)
    raise _type_error(spec, option, repr(value), text, None)


# ---- TVM targets ---------------------------------------------------------------------------

def _escaped(value: str, positions: Sequence[int]) -> tuple[str, list[int]]:
    """A value as one word of the legacy language: space, quote and backslash escaped."""
    out: list[str] = []
    where: list[int] = []
    for c, p in zip(value, positions):
        if c in " '\\":
            out.append("\\")
            where.append(p)
        out.append(c)
        where.append(p)
    if not out:  # an explicit empty value ('' in tvmc) is '' in the legacy language
        return "''", [positions[0], positions[0]]
    return "".join(out), where


def _legacy_value(value: str, positions: Sequence[int], attr_type: AttrType | None
                  ) -> tuple[str, list[int]]:
    """The legacy word for a tvmc value: arrays are interpreted twice by TVM (the word, then
    each item), so their items are escaped twice."""
    if attr_type is None or not attr_type.is_array:
        return _escaped(value, positions)
    items: list[str] = []
    where: list[int] = []
    start = 0
    for i, c in enumerate([*value, ","]):
        if c == ",":
            if i > start:
                item, item_where = _escaped(value[start:i], positions[start:i])
                if items:
                    items.append(",")
                    where.append(positions[start - 1])
                items.append(item)
                where.extend(item_where)
            start = i + 1
    return _escaped("".join(items), where) if items else _escaped(value, positions)


def _stringify(value: Any, key: str = "", nested: bool = False) -> str:
    """A per-kind option value from the ``options`` dict as legacy text.

    tvmc's argparse gave strings, integers, bools and flat lists of them; anything else
    (a dict, a list in a list, an integer Python cannot print) is an ``AttributeTypeError``.
    """
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)) and not nested:
        return ",".join(_stringify(v, key, nested=True) for v in value)
    if isinstance(value, str):
        return value
    if isinstance(value, int) and value.bit_length() <= 14_000:  # within Python's 4300 digits
        return str(value)
    if isinstance(value, float):
        return repr(value)
    raise AttributeTypeError(f"option {key!r} must be a string, a number, a bool or a list of "
                             f"them, not {type_name(value)}: {show(value)}")


def _tvm_target(entry: TvmcEntry, extra: Mapping[str, Any], text: str, dialect: str,
                environment: Environment | None) -> Target:
    """An entry naming a target kind (or tag) -> the Target, read as legacy text.

    tvmc rebuilt ``name -key=value ...`` and gave it to ``tvm.target.Target``; so do we, with
    values escaped so that spaces and quotes survive, and errors mapped back to ``text``.
    """
    known = kinds(dialect)
    if entry.name not in known:  # a registered tag
        if entry.options or extra:
            at = entry.options[0].offset if entry.options else entry.offset
            raise TargetValueError(f"{entry.name!r} is a registered tag: it takes no options",
                                   source=text, offset=at)
        return parse(entry.name, dialect=dialect, environment=environment)
    attrs = known[entry.name].attrs
    out = [entry.name]
    where = list(range(entry.offset, entry.offset + len(entry.name)))
    written: dict[str, TvmcOption] = {}
    from_options: list[tuple[int, int, str]] = []  # (start, length, key) in the legacy text
    for option in entry.options:
        written[option.key] = option
        out.append(" -" + option.key)
        where.extend([option.offset, option.offset])
        where.extend(range(option.key_offset, option.key_offset + len(option.key)))
        if isinstance(option.value, str):
            spec = attrs.get(option.key)
            word, word_where = _legacy_value(option.value, option.positions,
                                             spec.type if spec is not None else None)
            out.append("=" + word)
            where.append(option.positions[0])
            where.extend(word_where)
    for key, value in extra.items():
        if key in written:
            mine = written[key].value
            if isinstance(mine, str) and mine == _stringify(value, key):
                continue
            raise DuplicateAttributeError(
                f"-{key} of {entry.name!r} is given twice with different values: "
                f"{mine!r} in the text and {show(value)} in options (--target-{entry.name}-{key})",
                source=text, offset=written[key].key_offset)
        spec = attrs.get(key)
        value_text = _stringify(value, key)
        word, _ = _legacy_value(value_text, [entry.offset] * (len(value_text) + 1),
                                spec.type if spec is not None else None)
        piece = f" -{key}={word}"
        from_options.append((len("".join(out)), len(piece), key))
        out.append(piece)
        where.extend([entry.offset] * len(piece))
    legacy = "".join(out)
    where.append(entry.end)
    try:
        return parse(legacy, dialect=dialect, environment=environment)
    except TargetError as e:
        offset, message = None, e.message
        if e.offset is not None and e.source == legacy:
            offset = where[min(e.offset, len(where) - 1)]
            for start, length, key in from_options:
                if start <= e.offset < start + length:
                    message += f" (given as --target-{entry.name}-{key})"
        raise type(e)(message, source=text, offset=offset, path=e.path) from None
