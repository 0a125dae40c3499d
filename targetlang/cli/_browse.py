"""Subcommands that browse a dialect: kinds, tags, schema.

Each ``_name(args, io)`` handler returns an exit code (``cli.main`` calls it); ``register``
adds their parsers.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import json
from collections.abc import Sequence
from typing import Any

from .._schema.compilation import facts
from ..errors import UnknownKindError, did_you_mean
from ..target import Target, kinds, tags
from ._common import (
    EXIT_INVALID,
    EXIT_OK,
    Io,
    add_dialect,
    add_json,
    add_subcommand,
    dump_json,
)


def register(sub: Any) -> None:
    """Add the subcommands of this module to ``sub`` (``build_parser``'s subparsers)."""
    p = add_subcommand(sub, "kinds", "list the target kinds, or show one with its attributes",
                       "List the target kinds of the dialect; with KIND, show its attributes, their "
                       "types and defaults.")
    p.add_argument("names", nargs="*", metavar="KIND", help="kinds to show")
    add_dialect(p)
    add_json(p)
    p.set_defaults(handler=_kinds)

    p = add_subcommand(sub, "tags", "list the registered tags, or show one",
                       "List the registered tags of the dialect (NAME may be a glob: 'nvidia/*'); with "
                       "an exact NAME, show its target, each attribute with its type.")
    p.add_argument("names", nargs="*", metavar="NAME", help="tags to show, or glob patterns")
    p.add_argument("--kind", help="only tags of this kind")
    add_dialect(p)
    add_json(p)
    p.set_defaults(handler=_tags)

    p = add_subcommand(sub, "schema", "print the JSON Schema of TargetJSON",
                       "Print the JSON Schema (draft 2020-12) of TargetJSON in the dialect, for editors "
                       "and validators.")
    add_dialect(p)
    p.add_argument("--compact", action="store_true", help="one line of JSON")
    p.set_defaults(handler=_schema)


# ---- kinds, tags, schema -----------------------------------------------------------------------

@functools.cache
def _device_names() -> dict[int, str]:
    table = facts().device_types
    names: dict[int, str] = {}
    # DLPack's names first (TVM's table also maps kinds and aliases: c, cl, llvm, ...).
    for name in ("cpu", "cuda", "opencl", "vulkan", "metal", "vpi", "rocm", "ext_dev",
                 "webgpu", "hexagon", *table):
        if name in table:
            names.setdefault(table[name], name)
    return names


def _unknown(kind: str, name: str, candidates: list[str]) -> UnknownKindError:
    return UnknownKindError(f"unknown {kind} {name!r}{did_you_mean(name, candidates)}")


def _kind_json(name: str, dialect: str) -> dict[str, Any]:
    spec = kinds(dialect)[name]
    attrs: dict[str, Any] = {}
    for attr, a in sorted(spec.attrs.items()):
        attrs[attr] = {"type": str(a.type), **({"default": a.default} if a.has_default else {})}
    return {"device_type": spec.device_type, "device": _device_names().get(spec.device_type),
            "default_keys": list(spec.default_keys), "attrs": attrs}


def _kinds(args: argparse.Namespace, io: Io) -> int:
    table = kinds(args.dialect)
    for name in args.names:
        if name not in table:
            io.error(_unknown("target kind", name, list(table)))
            return EXIT_INVALID
    names = args.names or sorted(table)
    if args.json:
        io.out(dump_json({name: _kind_json(name, args.dialect) for name in names}, 2))
        return EXIT_OK
    if not args.names:
        rows: list[tuple[str, ...]] = [("kind", "device", "default keys", "attributes")]
        for name in names:
            spec = _kind_json(name, args.dialect)
            rows.append((name, f"{spec['device']} ({spec['device_type']})",
                         ", ".join(spec["default_keys"]) or "-", str(len(spec["attrs"]))))
        io.out(_table(rows, io))
        return EXIT_OK
    for i, name in enumerate(names):
        spec = _kind_json(name, args.dialect)
        if i:
            io.out("")
        io.out(f"{io.paint(name, 'bold')}: device {spec['device']} ({spec['device_type']}), "
               f"default keys: {', '.join(spec['default_keys']) or '(none)'}")
        attr_rows: list[tuple[str, ...]] = [("attribute", "type", "default")]
        attr_rows += [(attr, a["type"], json.dumps(a["default"]) if "default" in a else "")
                 for attr, a in spec["attrs"].items()]
        io.out(_table(attr_rows, io, indent="  "))
    return EXIT_OK


def _table(rows: Sequence[Sequence[str]], io: Io, indent: str = "") -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        line = "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
        lines.append(indent + (io.paint(line, "dim") if n == 0 else line))
    return "\n".join(lines)


def _tags(args: argparse.Namespace, io: Io) -> int:
    table = tags(args.dialect)
    patterns = [n for n in args.names if any(c in n for c in "*?[")]
    exact = [n for n in args.names if n not in patterns]
    for name in exact:
        if name not in table:
            io.error(_unknown("tag", name, list(table)))
            return EXIT_INVALID
    if args.kind is not None and args.kind not in kinds(args.dialect):
        io.error(_unknown("target kind", args.kind, list(kinds(args.dialect))))
        return EXIT_INVALID
    if exact and not patterns:
        return _show_tags(exact, args, io)
    names = [n for n in sorted(table)
             if (not patterns or any(fnmatch.fnmatchcase(n, p) for p in patterns))
             and (args.kind is None or table[n].kind == args.kind)]
    if args.json:
        io.out(dump_json({n: table[n].to_json() for n in names}, 2))
        return EXIT_OK
    rows = [("tag", "kind", "arch / mcpu / model")]
    for n in names:
        target = table[n]
        detail = next((str(target.attrs[a]) for a in ("arch", "mcpu", "model") if a in target.attrs),
                      "")
        rows.append((n, target.kind, detail))
    io.out(_table(rows, io))
    return EXIT_OK


def _show_tags(names: list[str], args: argparse.Namespace, io: Io) -> int:
    table = tags(args.dialect)
    if args.json:
        io.out(dump_json({n: table[n].to_json() for n in names}, 2))
        return EXIT_OK
    for i, name in enumerate(names):
        target = table[name]
        spec = kinds(args.dialect)[target.kind]
        if i:
            io.out("")
        io.out(f"{io.paint(name, 'bold')}: {target.kind}")
        io.out(f"  {target.to_string()}")
        rows = [("attribute", "type", "value")]
        rows.append(("keys", "array<str>", json.dumps(list(target.keys))))
        if target.host is not None:
            rows.append(("host", "target", target.host.to_string()))
        for attr, value in target.attrs.items():
            shown = value.to_string() if isinstance(value, Target) else json.dumps(
                list(value) if isinstance(value, tuple) else value)
            rows.append((attr, str(spec.attrs[attr].type), shown))
        io.out(_table(rows, io, indent="  "))
    return EXIT_OK


def _schema(args: argparse.Namespace, io: Io) -> int:
    from .._formats.json_schema import (
        json_schema,  # on first use: kept out of the command line's start-up
    )

    io.out(dump_json(json_schema(args.dialect), None if args.compact else 2))
    return EXIT_OK
