"""How other TVM releases read target text: the readers of ``tvm-0.6``, ``tvm-0.8`` and ``tvm-0.27``.

TVM 0.21's reader (``targetlang/_lower/core.py``) stays the one for ``tvm-0.21`` and ``collage``;
the registry (``targetlang/_lower/dialects.py``) gives the other releases their reader from here,
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

import functools
import re
from typing import TYPE_CHECKING, Any

from .._schema.facts import data_json
from .._schema.types import BOOL
from .._syntax.ast import Option, Word
from .._syntax.rules import truncate_at_nul
from .._syntax.tokens import split_items
from ..errors import (
    DuplicateAttributeError,
    TargetSyntaxError,
    UnknownAttributeError,
    UnknownKindError,
    did_you_mean,
)
from .core import (
    Context,
    Place,
    _fail,
    _replace_with_positions,
    from_config,
    from_config_string,
    from_raw_string,
    from_tag,
    is_json_text,
)

if TYPE_CHECKING:
    from ..target import Target

__all__ = ["read_027", "read_06", "read_08"]


# ---- TVM 0.24 to 0.27 --------------------------------------------------------------------------




def read_027(text: str, ctx: Context, place: Place) -> Target:
    if text in ctx.schema.tag_configs:
        return from_tag(text, ctx)
    if is_json_text(text):
        return from_config_string(text, ctx, place)
    if text in ctx.schema.kinds:
        return from_config({"kind": text}, ctx, place, text_offset=place.at(0), form="text")
    if " " not in text:
        # FromString: any other text without a space is a kind name (even "", "\t{...}").
        hint = did_you_mean(text, ctx.schema.kinds)
        _fail(UnknownKindError, f"unknown target kind {text!r}{hint}", ctx, place.at(0))
    _fail(TargetSyntaxError, "TVM 0.24 and later read TargetJSON, a registered tag or a bare "
          "kind name, not a legacy target string; convert it with targetlang.migrate()",
          ctx, place.at(0))


# ---- TVM 0.8 -------------------------------------------------------------------------------------

def read_08(text: str, ctx: Context, place: Place) -> Target:
    """TVM 0.7 to 0.9 (0.9's Python wrapper added the ``-libs=mkldnn`` rewrite)."""
    if text in ctx.schema.tag_configs:
        return from_tag(text, ctx)
    if is_json_text(text):
        return from_config_string(text, ctx, place)
    if ctx.schema.rules.mkldnn_to_dnnl and "-libs=mkldnn" in text:
        text, positions = _replace_with_positions(text, "mkldnn", "dnnl", [])
        place = Place(positions)
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
    data = data_json("releases/tvm-0.6.json")
    aliases = {alias: spec["attr"] for alias, spec in data["aliases"].items()}
    fixed = {kind: frozenset(a for a, spec in k["attrs"].items() if spec.get("fixed"))
             for kind, k in data["kinds"].items()}
    return aliases, fixed, data


def _getline_split(value: str) -> list[str]:
    """``std::getline(ss, item, ',')`` in a loop: a trailing comma ends without an empty item."""
    return split_items(value, quotes=False, empty="last", offsets=False)


def _words_06(text: str) -> list[tuple[str, int]]:
    """The words of a text and their offsets, as TVM 0.6's Python wrapper handed them to
    C++ one by one (where a NUL ended each)."""
    return [(truncate_at_nul(m.group()), m.start()) for m in _WORD.finditer(text)]


def read_06(text: str, ctx: Context, place: Place) -> Target:
    if is_json_text(text):
        return from_config_string(text, ctx, place)
    words = _words_06(text)
    if not words:
        _fail(TargetSyntaxError, "empty target text: expected a target kind", ctx,
              place.at(len(text)))
    name, name_offset = words[0]
    kind = ctx.schema.kinds.get(name)
    if kind is None:
        hint = did_you_mean(name, ctx.schema.kinds)
        _fail(UnknownKindError, f"unknown target kind {name!r}{hint} (TVM 0.6 logged it and "
              "built a stackvm target)", ctx, place.at(name_offset))
    aliases, fixed, data = _facts_06()
    config: dict[str, Any] = {"kind": name}
    offsets: dict[str, int] = {}
    written: list[Option] = []  # for the trace, under the attributes' names
    pushed_keys: list[str] = []
    for word, offset in words[1:]:
        if not word.startswith("-"):
            _fail(TargetSyntaxError, f"{word!r} is not an option: TVM 0.6 read -key=value "
                  "words", ctx, place.at(offset))
        key, equals, value = word[1:].partition("=")
        if not equals:
            if key in ("system-lib", "-system-lib") \
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
            hint = did_you_mean(key, [a for a in kind.attrs if a not in fixed[name]])
            _fail(UnknownAttributeError, f"unknown attribute {key!r}{hint}: {why}", ctx,
                  place.at(offset + 1))
        if attr in config:
            _fail(DuplicateAttributeError, f"the key {attr!r} appears more than once", ctx,
                  place.at(offset + 1))
        offsets[attr] = place.at(offset + 1 + len(key) + 1)
        word_value = Word(value, offset + 1 + len(key) + 1) if equals else None
        written.append(Option(attr, offset + 1, word_value, "assign" if equals else "flag",
                              offset, len(word)))
        if spec.type is BOOL:
            config[attr] = True
        elif spec.type.is_array:
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
    return from_config(config, ctx, place, offsets=offsets, form="text",
                       options=tuple(written))
