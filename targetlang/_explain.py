"""``targetlang explain``: a target as a tree, each value with where it came from.

Where a value came from is not something ``parse`` records; it is found here by comparing
readings of the same text, outside the parser:

* ``written``: the text (or JSON) gave the attribute (``_written`` reads the text again);
* ``tag``: the registered tag named by the text gave it;
* ``environment``: it is missing or different when the text is read with no environment;
* ``default``: it equals the default the kind registered;
* ``device query``: ``-from_device`` was written and the attribute is null;
* ``target parser``: none of these, so the kind's target parser set it (``mtriple`` from
  ``-mcpu``, the Arm keys, ...).

Keys are ``written``, ``-device`` (TVM appends the device), ``default`` (the kind's default
keys, when no ``-keys`` was given) or ``target parser``; features always come from the target
parser.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ._stack import with_stack_room
from ._schema import load
from ._written import WrittenTarget, array_items, read_source
from .environment import Environment
from .target import DEFAULT_DIALECT, Target, kinds, parse

__all__ = ["explain", "render"]

Node = dict[str, Any]
ORIGINS = {"text": "legacy text", "json": "JSON", "tag": "registered tag"}


@with_stack_room
def explain(text: str, *, dialect: str = DEFAULT_DIALECT,
            environment: Environment | None = None) -> Node:
    """The explanation tree of a target text, as plain JSON (raises ``TargetError``)."""
    target = parse(text, dialect=dialect, environment=environment)
    pure = parse(text, dialect=dialect) if environment is not None else target
    written, _ = read_source(text, load(dialect))
    return _node(target, pure, written)


def _written_keys(written: WrittenTarget | None) -> list[str] | None:
    if written is None or "keys" not in written.options:
        return None
    option = written.options["keys"]
    if isinstance(option.value, list):  # TVM 0.6's items, split without quotes
        return [k for k in option.value if isinstance(k, str)]
    if option.text is not None:
        return [item.strip(" ") for item, _ in array_items(option)]
    return [k for k in option.value or () if isinstance(k, str)]


def _node(target: Target, pure: Target | None, written: WrittenTarget | None,
          in_tag: bool = False) -> Node:
    kind = kinds(target.dialect)[target.kind]
    in_tag = in_tag or (written is not None and written.origin == "tag")
    given = "tag" if in_tag else "written"
    options = written.options if written is not None else {}
    keys_written = _written_keys(written)
    device = target.attrs.get("device")
    keys = []
    for key in target.keys:
        if in_tag and keys_written is not None and key in kind.default_keys:
            source = "default"  # the kind's own keys (see the attributes below)
        elif keys_written is not None and key in keys_written:
            source = given
        elif key == device:
            source = "-device"
        elif keys_written is None and key in kind.default_keys:
            source = "default"
        else:
            source = "target parser"
        keys.append({"key": key, "source": source})
    attrs = []
    devices: list[Node | None] | None = None
    defaults = kind.defaults
    for name, value in target.attrs.items():
        if in_tag and name in defaults and defaults[name] == value:
            # Tags are recorded as TVM exports them, defaults filled in: a tag's value that
            # is the kind's default is told as the default.
            source = "default"
        elif name in options:
            source = given
        elif pure is not None and (name not in pure.attrs or pure.attrs[name] != value):
            source = "environment"
        elif name in defaults and defaults[name] == value:
            source = "default"
        elif "from_device" in options and value is None:
            source = "device query"
        else:
            source = "target parser"
        if name == "devices" and isinstance(value, tuple):
            pure_devices = pure.attrs.get("devices") if pure is not None else None
            written_devices = written.devices if written is not None else None
            devices = [
                None if device_target is None else _node(
                    device_target,
                    pure_devices[i] if isinstance(pure_devices, tuple) and i < len(pure_devices)
                    else None,
                    written_devices[i] if written_devices and i < len(written_devices) else None,
                    in_tag)
                for i, device_target in enumerate(value)
            ]
            continue
        attrs.append({"name": name, "value": _plain(value), "source": source})
    node: Node = {
        "kind": target.kind,
        "origin": written.origin if written is not None else "text",
        "keys": keys,
        "keys_source": given if keys_written is not None else "default",
        "attrs": attrs,
        "features": [{"name": k, "value": v, "source": "target parser"}
                     for k, v in target.features.items()],
    }
    if written is not None and written.tag_name:
        node["tag_name"] = written.tag_name
    if target.host is not None:
        host_source = "tag" if given == "tag" else (
            "written" if "host" in options else "target parser")
        node["host"] = _node(target.host, pure.host if pure is not None else None,
                             written.host if written is not None else None, in_tag)
        node["host"]["source"] = host_source
    if devices is not None:
        node["devices"] = devices
    return node


def _plain(value: Any) -> Any:
    if isinstance(value, Target):
        return value.to_string()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


# ---- rendering ----------------------------------------------------------------------------

Paint = Callable[[str, str], str]

_SOURCE_STYLE = {"written": "green", "tag": "magenta", "default": "dim", "environment": "yellow",
                 "target parser": "cyan", "-device": "cyan", "device query": "yellow"}


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
