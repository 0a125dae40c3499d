"""How other TVM releases read target text: the readers of ``tvm-0.6``, ``tvm-0.8`` and ``tvm-0.27``.

TVM 0.21's reader (``targetlang/_lower.py``) stays the one for ``tvm-0.21`` and ``collage``;
a dialect whose :class:`~targetlang._schema.DialectRules` names a ``reader`` is read here,
and every reader ends in the same ``from_config`` with its dialect's schema and rules.

* ``tvm-0.27`` (TVM 0.24 to 0.27, the JSON-only releases; from the 0.27 oracle): JSON text,
  a registered tag or a bare kind name; anything else is TVM's "CLI target string form ...
  is no longer supported".
* ``tvm-0.8`` (from ``src/target/target.cc`` at ``v0.8.0``): the same words as TVM 0.21
  (``SplitString``, ``ParseKVPair``); its escape rule differs from 0.21's for a backslash
  before anything but a quote, so such text is refused rather than guessed at.
* ``tvm-0.6`` (from ``src/codegen/build_module.cc`` and ``llvm_common.cc`` at ``v0.6.0``):
  words split on white space (``istream >>``), no quoting; ``-key=value`` and the bare
  ``-system-lib``; ``-target=`` is LLVM's other name for ``-mtriple=``; keys in
  ``CreateTarget``'s order. JSON text is read too (targetlang's lossless form of any target).
"""

from __future__ import annotations

import difflib
import functools
import re
from typing import TYPE_CHECKING, Any, NoReturn

from ._lower import Context, Place, from_config, from_config_string, from_raw_string, from_tag
from ._parsers import TargetParser
from ._schema import _read
from ._tvm_rules import truncate_at_nul
from .errors import (
    AttributeTypeError,
    DuplicateAttributeError,
    TargetError,
    TargetSyntaxError,
    TargetValueError,
    UnknownAttributeError,
    UnknownKindError,
)

if TYPE_CHECKING:
    from .environment import Environment
    from .target import Target

__all__ = ["read_text", "release_parser"]


def read_text(text: str, ctx: Context, place: Place) -> Target:
    """Read ``text`` as the release of ``ctx``'s dialect read it."""
    reader = ctx.schema.rules.reader
    if reader == "tvm-0.27":
        return _read_027(text, ctx, place)
    if reader == "tvm-0.8":
        return _read_08(text, ctx, place)
    if reader == "tvm-0.6":
        return _read_06(text, ctx, place)
    raise AssertionError(f"no reader {reader!r}")


def _fail(cls: type[TargetError], message: str, ctx: Context, offset: int | None) -> NoReturn:
    raise cls(message, source=ctx.source, offset=offset)


# ---- TVM 0.24 to 0.27 --------------------------------------------------------------------------

def _webgpu_027(config: dict[str, Any], env: Environment | None
                ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``UpdateWebGPUAttrs`` (src/backend/webgpu/codegen/target_kind.cc, TVM 0.27): a warp
    wider than 1 needs subgroups, and subgroups mean a warp of 32."""
    subgroups = config.get("supports_subgroups", False)
    if not isinstance(subgroups, int):
        raise AttributeTypeError("'supports_subgroups' must be a boolean",
                                 path="supports_subgroups")
    if "thread_warp_size" in config:
        warp = config["thread_warp_size"]
        if not isinstance(warp, int):
            raise AttributeTypeError("'thread_warp_size' must be an integer",
                                     path="thread_warp_size")
        if not subgroups and warp > 1:
            raise TargetValueError(f"WebGPU target with thread_warp_size={warp} requires "
                                   "supports_subgroups=true", path="thread_warp_size")
    if subgroups:
        config["thread_warp_size"] = 32
    return config, None


_RELEASE_PARSERS: dict[tuple[str, str], TargetParser] = {("tvm-0.27", "webgpu"): _webgpu_027}


def release_parser(dialect: str, kind: str) -> TargetParser:
    """The target parser of ``kind`` that ``dialect``'s release has and TVM 0.21 had not."""
    return _RELEASE_PARSERS[(dialect, kind)]


def _read_027(text: str, ctx: Context, place: Place) -> Target:
    if text in ctx.schema.tag_configs:
        return from_tag(text, ctx)
    if text[:1] == "{":
        return from_config_string(text, ctx, place)
    if text in ctx.schema.kinds:
        return from_config({"kind": text}, ctx, place, text_offset=place.at(0))
    if re.fullmatch(r"[\w.]+", text):
        close = difflib.get_close_matches(text, list(ctx.schema.kinds), n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        _fail(UnknownKindError, f"unknown target kind {text!r}{hint}", ctx, place.at(0))
    _fail(TargetSyntaxError, "TVM 0.24 and later read TargetJSON, a registered tag or a bare "
          "kind name, not a legacy target string; convert it with targetlang.migrate()",
          ctx, place.at(0))


# ---- TVM 0.8 -------------------------------------------------------------------------------------

def _read_08(text: str, ctx: Context, place: Place) -> Target:
    if text in ctx.schema.tag_configs:
        return from_tag(text, ctx)
    if text[:1] == "{":
        return from_config_string(text, ctx, place)
    for index, char in enumerate(text):
        if char == "\\" and text[index + 1:index + 2] != "'":
            _fail(TargetSyntaxError, "a backslash before anything but a quote: TVM 0.8 kept it "
                  "where TVM 0.21 reads an escape; write it without the backslash",
                  ctx, place.at(index))
    return from_raw_string(text, ctx, place)


# ---- TVM 0.6 -------------------------------------------------------------------------------------

_WORD = re.compile(r"[^ \t\n\v\f\r]+")


@functools.cache
def _facts_06() -> tuple[dict[str, str], dict[str, frozenset[str]], dict[str, Any]]:
    """(alias -> attribute for llvm, kind -> fixed attributes, raw data) of tvm-0.6.json."""
    data = _read("tvm-0.6.json")
    aliases = {alias: spec["attr"] for alias, spec in data["aliases"].items()}
    fixed = {kind: frozenset(a for a, spec in k["attrs"].items() if spec.get("fixed"))
             for kind, k in data["kinds"].items()}
    return aliases, fixed, data


def _getline_split(value: str) -> list[str]:
    """``std::getline(ss, item, ',')`` in a loop: a trailing comma ends without an empty item."""
    items = value.split(",")
    if items and items[-1] == "":
        items.pop()
    return items


def _words_06(text: str) -> list[tuple[str, int]]:
    """The words of a text and their offsets, as TVM 0.6's Python wrapper handed them to
    C++ one by one (where a NUL ended each)."""
    return [(truncate_at_nul(m.group()), m.start()) for m in _WORD.finditer(text)]


def option_words_06(text: str) -> list[tuple[str, str, str | None, int]]:
    """A text TVM 0.6 read (``_read_06`` accepted it): (attribute, key, value, offset) of
    each word, the kind first (as its own attribute and key); a bare ``-system-lib`` has
    the value None."""
    words = _words_06(text)
    name = words[0][0]
    aliases = _facts_06()[0]
    out: list[tuple[str, str, str | None, int]] = [(name, name, None, words[0][1])]
    for word, offset in words[1:]:
        key, equals, value = word[1:].partition("=")
        if not equals:
            out.append(("system-lib", key, None, offset))
            continue
        out.append((aliases.get(key, key) if name == "llvm" else key, key, value, offset))
    return out


def _read_06(text: str, ctx: Context, place: Place) -> Target:
    if text[:1] == "{":
        return from_config_string(text, ctx, place)
    words = _words_06(text)
    if not words:
        _fail(TargetSyntaxError, "empty target text: expected a target kind", ctx,
              place.at(len(text)))
    name, name_offset = words[0]
    kind = ctx.schema.kinds.get(name)
    if kind is None:
        close = difflib.get_close_matches(name, list(ctx.schema.kinds), n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        _fail(UnknownKindError, f"unknown target kind {name!r}{hint} (TVM 0.6 logged it and "
              "built a stackvm target)", ctx, place.at(name_offset))
    aliases, fixed, data = _facts_06()
    config: dict[str, Any] = {"kind": name}
    offsets: dict[str, int] = {}
    pushed_keys: list[str] = []
    for word, offset in words[1:]:
        if not word.startswith("-"):
            _fail(TargetSyntaxError, f"{word!r} is not an option: TVM 0.6 read -key=value "
                  "words", ctx, place.at(offset))
        key, equals, value = word[1:].partition("=")
        if not equals:
            if key.lstrip("-") == "system-lib" and key in ("system-lib", "-system-lib") \
                    and "system-lib" in kind.attrs:
                key, value = "system-lib", ""
            else:
                _fail(TargetSyntaxError, f"{word!r} has no value: TVM 0.6 read -key=value "
                      "words (only -system-lib stands alone)", ctx, place.at(offset))
        elif key == "system-lib":
            _fail(TargetSyntaxError, "TVM 0.6 read -system-lib as a bare word (it looked for "
                  "the text '-system-lib' anywhere)", ctx, place.at(offset))
        attr = aliases.get(key, key) if name == "llvm" else key
        spec = kind.attrs.get(attr)
        if spec is None or attr in fixed[name] or attr in ("host", "tag", "from_device"):
            why = (f"TVM 0.6 set {attr!r} by kind; no option changed it" if attr in fixed[name]
                   else f"TVM 0.6 did not read -{key} for target kind {name!r}")
            close = difflib.get_close_matches(key, [a for a in kind.attrs
                                                    if a not in fixed[name]], n=1, cutoff=0.75)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            _fail(UnknownAttributeError, f"unknown attribute {key!r}{hint}: {why}", ctx,
                  place.at(offset + 1))
        if attr in config:
            _fail(DuplicateAttributeError, f"the key {attr!r} appears more than once", ctx,
                  place.at(offset + 1))
        offsets[attr] = place.at(offset + 1 + len(key) + 1)
        if spec.type == "bool":
            config[attr] = True
        elif spec.type == "array<str>":
            config[attr] = _getline_split(value)
        else:
            if not value:
                _fail(TargetSyntaxError, f"empty value for attribute {key!r}", ctx,
                      place.at(offset + len(word)))
            config[attr] = value
        if attr == "device":
            pushed_keys.append(value)
        elif attr == "keys":
            pushed_keys.extend(config[attr])
    # CreateTarget: the -device= and -keys= keys in the order given, the device again, then
    # the kind's keys (from_config adds those and removes repeats).
    device = config.get("device")
    config["keys"] = pushed_keys + ([device] if device else [])
    warp = data["kinds"][name]["attrs"]["thread_warp_size"]
    if device is not None and device in warp:
        config["thread_warp_size"] = warp[device]  # opencl -device=intel_graphics: 16
    return from_config(config, ctx, place, offsets=offsets)
