"""``targetlang explain``: a target as a tree, each value with where it came from.

Where a value came from is what the lowering recorded while it read the text (the target's
trace, ``targetlang/_lower/trace.py``); nothing is read twice or guessed:

* ``written``: the text (or JSON) gave the attribute;
* ``tag``: the registered tag named by the text gave it;
* ``default``: the kind's registered default;
* ``environment``: the kind's target parser filled it in from the ``Environment``;
* ``target parser``: the kind's target-parser hook set it (``mtriple`` for rocm, the Arm
  keys, ...); the JSON tree names the hook (``"hook": "UpdateROCmAttrs"``);
* ``device query``: ``-from_device`` was written and the attribute is null;
* ``derived``: the release's reader set it from another value (TVM 0.6's
  ``-device=intel_graphics`` sets ``thread_warp_size``).

Keys are ``written``/``tag``, ``-device`` (TVM appends the device), ``default`` (the kind's
default keys) or ``target parser``; features always come from the target parser.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .._stack import with_stack_room
from ..environment import Environment
from ..target import DEFAULT_DIALECT, Target, kinds, parse

__all__ = ["explain", "render"]

Node = dict[str, Any]
ORIGINS = {"text": "legacy text", "json": "JSON", "tag": "registered tag"}


@with_stack_room
def explain(text: str, *, dialect: str = DEFAULT_DIALECT,
            environment: Environment | None = None) -> Node:
    """The explanation tree of a target text, as plain JSON (raises ``TargetError``)."""
    return node(parse(text, dialect=dialect, environment=environment))


def node(target: Target) -> Node:
    """The explanation tree of a target, from its trace."""
    trace = target._trace
    kind = kinds(target.dialect)[target.kind]
    keys = [{"key": key, "source": source} for key, source in
            trace.key_origins(target.keys, target.attrs.get("device"), kind.default_keys)]
    attrs = []
    devices: list[Node | None] | None = None
    for name, value in target.attrs.items():
        if name == "devices" and isinstance(value, tuple):
            devices = [None if device is None else node(device) for device in value]
            continue
        source = trace.attr_origin(name, value, kind.defaults)
        entry = {"name": name, "value": _plain(value), "source": source}
        if source in ("target parser", "environment") and trace.hook is not None:
            entry["hook"] = trace.hook
        attrs.append(entry)
    out: Node = {
        "kind": target.kind,
        "origin": trace.form,
        "keys": keys,
        "keys_source": trace.source_name if trace.given_keys() is not None else "default",
        "attrs": attrs,
        "features": [{"name": k, "value": v, "source": "target parser", "hook": trace.hook}
                     for k, v in target.features.items()],
    }
    if trace.form == "tag":
        out["tag_name"] = trace.tag_name
    if target.host is not None:
        out["host"] = node(target.host)
        out["host"]["source"] = "written" if "host" in trace.overrides else trace.source_name
    if devices is not None:
        out["devices"] = devices
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Target):
        return value.to_string()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


# ---- rendering ----------------------------------------------------------------------------

Paint = Callable[[str, str], str]

_SOURCE_STYLE = {"written": "green", "tag": "magenta", "default": "dim", "environment": "yellow",
                 "target parser": "cyan", "-device": "cyan", "device query": "yellow",
                 "derived": "cyan"}


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _lines(node: Node, prefix: str, out: list[tuple[str, str, str]]) -> None:
    """(tree glyphs, entry, source) for each line under ``node``."""
    entries: list[tuple[str, str, Node | None]] = []
    key_sources = {k["source"] for k in node["keys"]}
    keys_text = "keys = [" + ", ".join(k["key"] for k in node["keys"]) + "]"
    if len(key_sources) <= 1:
        entries.append((keys_text, next(iter(key_sources), node["keys_source"]), None))
    else:
        entries.append((keys_text, "; ".join(f"{k['key']}: {k['source']}" for k in node["keys"]),
                        None))
    for attr in node["attrs"]:
        entries.append((f"{attr['name']} = {_value(attr['value'])}", attr["source"], None))
    for feature in node["features"]:
        entries.append((f"feature {feature['name']} = {_value(feature['value'])}",
                        feature["source"], None))
    if "host" in node:
        entries.append((f"host: {node['host']['kind']}", node["host"]["source"], node["host"]))
    for index, device in enumerate(node.get("devices") or ()):
        label = f"devices[{index}]: " + (device["kind"] if device is not None else "null")
        entries.append((label, "written", device))
    for i, (entry, source, child) in enumerate(entries):
        last = i == len(entries) - 1
        out.append((prefix + ("└─ " if last else "├─ "), entry, source))
        if child is not None:
            _lines(child, prefix + ("   " if last else "│  "), out)


def render(node: Node, paint: Paint | None = None) -> str:
    """The tree as text; ``paint(text, style)`` colours it (styles: green, dim, ...)."""
    paint = paint or (lambda text, style: text)
    header = node["kind"] + "  " + paint(f"({ORIGINS[node['origin']]}"
                                         + (f" {node['tag_name']}" if node.get("tag_name") else "")
                                         + ")", "dim")
    lines: list[tuple[str, str, str]] = []
    _lines(node, "", lines)
    width = max(len(glyphs) + len(entry) for glyphs, entry, _ in lines)
    out = [header]
    for glyphs, entry, source in lines:
        pad = " " * (width - len(glyphs) - len(entry) + 2)
        out.append(paint(glyphs, "dim") + entry + pad
                   + paint(source, _SOURCE_STYLE.get(source, "dim")))
    return "\n".join(line.rstrip() for line in out)
