"""The subcommands ``arch`` (check and show an architecture document) and ``component``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..errors import TargetError
from ._common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Io, add_dialect, add_json


def register(sub: Any) -> None:
    """Add ``arch`` and ``component`` to ``sub`` (``build_parser``'s subparsers)."""
    p: argparse.ArgumentParser = sub.add_parser(
        "arch", help="check an architecture document and show its views",
        description="Check an architecture document (JSON: components, connections) and "
                    "print its components, connections and views: each device alone, with "
                    "each host that reaches it, and packaged with its host. Components may "
                    "be written as names of the component database (\"rtx 3080\"), read in "
                    "--dialect unless the document names its own. Exit 1 "
                    "if the document does not hold together (the message names the JSON "
                    "path).")
    p.add_argument("file", metavar="FILE", nargs="?", default="-",
                   help="the JSON document; - (the default) for standard input")
    add_dialect(p)
    add_json(p, "print the canonical JSON of the architecture")
    p.set_defaults(handler=_arch)

    p = sub.add_parser(
        "component", help="look up a GPU, board or CPU in the component database",
        description="Look up a product, tag or CPU name (\"A100\", \"GeForce RTX 3080\", "
                    "\"raspberry pi 4\", \"cortex-a72\"), matched without regard to case, "
                    "spaces, - and _: print its target and where the fact comes from. Exit 1 "
                    "for an unknown or ambiguous name (the message lists candidates).")
    p.add_argument("names", nargs="*", metavar="NAME", help="names to look up")
    p.add_argument("--list", action="store_true", help="list every name of the database")
    add_dialect(p)
    add_json(p, "print JSON: name, target, properties, sources")
    p.set_defaults(handler=_component)


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


# ---- arch --------------------------------------------------------------------------------------

def _arch(args: argparse.Namespace, io: Io) -> int:
    # on first use: kept out of the command line's start-up
    from ..configuration.architecture import Architecture

    if args.file == "-":
        text = io.read_all()
    else:
        try:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            io.error(f"cannot read {args.file}: {error.strerror}")
            return EXIT_USAGE
        except UnicodeDecodeError:
            io.error(f"cannot read {args.file}: not UTF-8 text")
            return EXIT_INVALID
    try:
        arch = Architecture.from_json(text, dialect=args.dialect)
    except TargetError as error:
        io.error(error)
        return EXIT_INVALID
    if args.json:
        io.out(_dump(arch.to_json()))
        return EXIT_OK
    io.out(_render(arch, io))
    return EXIT_OK


def _render(arch: Any, io: Io) -> str:
    from ..configuration._common import can_host  # on first use: as above
    from ..configuration.views import DeviceOnlyView, ViewError  # on first use: as above

    def ref(index: int) -> str:
        label = arch.labels[index]
        return str(index) if label is None else label

    lines = [io.paint("components:", "bold")]
    for index, entry in enumerate(arch.components):
        props = "".join(f" {k}={json.dumps(v)}" if not isinstance(v, str) else f" {k}={v}"
                        for k, v in entry.properties.items())
        lines.append(f"  {ref(index)}: {entry.name}{props}")
        if entry.name != entry.target.to_string():
            lines.append(f"     {entry.target.to_string()}")
    lines.append(io.paint("connections:", "bold"))
    for source, destination, direction in arch.connections:
        arrow = "->" if direction == "uni-directional" else "<->"
        lines.append(f"  {source} {arrow} {destination}")
    if not arch.connections:
        lines.append("  (none)")
    lines.append(io.paint("views:", "bold"))
    hosts = [i for i, c in enumerate(arch.components) if can_host(c.target)]
    for index, entry in enumerate(arch.components):
        if index in hosts and entry.target.host is None:
            continue
        for host in [None, *(h for h in hosts if h != index and arch.reaches(h, index))]:
            what = f"device {ref(index)}" + ("" if host is None else f", host {ref(host)}")
            try:
                view = arch.view(index, host)
            except ViewError as error:  # a host with a host of its own: no view holds it
                lines.append(f"  {what}: none ({error})")
                continue
            shown = view.device if isinstance(view, DeviceOnlyView) else view.target
            lines.append(f"  {what}: {shown}")
    try:
        packaged = arch.packaged()
    except ViewError as error:
        lines.append(f"  packaged: none ({error.message})")
    else:
        devices = ", ".join(packaged.labels) if packaged.labels else \
            ", ".join(str(d) for d in packaged.devices)
        lines.append(f"  packaged: host {packaged.host}; devices {devices}; executor "
                     f"{packaged.executor.name}, runtime {packaged.runtime.name}")
    return "\n".join(lines)


# ---- component -----------------------------------------------------------------------------------

def _component(args: argparse.Namespace, io: Io) -> int:
    from ..configuration.components import entries, find  # on first use: as above

    if args.list:
        database = entries(args.dialect)
        if args.json:
            io.out(_dump({name: {"origin": e.origin, "target": e.target.to_json()}
                          for name, e in database.items()}))
            return EXIT_OK
        for name, entry in database.items():
            io.out(f"{name}  ({entry.origin}: {_essence(entry.target)})")
        return EXIT_OK
    if not args.names:
        io.error("name a component (or --list)")
        return EXIT_USAGE
    status = EXIT_OK
    shown: list[dict[str, Any]] = []
    for name in args.names:
        try:
            entry, _ = find(name, args.dialect)
        except TargetError as error:
            io.error(error)
            status = EXIT_INVALID
            continue
        value = entry.component()
        if args.json:
            shown.append({"query": name, "name": value.name, "origin": entry.origin,
                          "target": value.target.to_json(),
                          "properties": dict(value.properties),
                          "sources": [dict(s) for s in entry.sources]})
            continue
        io.out(f"{io.paint(value.name, 'bold')} ({entry.origin}): {_essence(value.target)}")
        io.out(f"  {value.target}")
        for key, prop in value.properties.items():
            io.out(f"  {key}: {prop}")
        for source in entry.sources:
            io.out(f"  source: {_cite(source)}")
    if args.json and shown:
        io.out(_dump(shown if len(shown) > 1 else shown[0]))
    return status


def _essence(target: Any) -> str:
    detail = next((f"{a}={target.attrs[a]}" for a in ("arch", "mcpu", "model")
                   if a in target.attrs), "")
    return f"{target.kind} {detail}".strip()


def _cite(source: Any) -> str:
    if "url" in source:
        return f"{source['url']}#L{source['line']} ({source['row']})"
    where = source.get("tag") or source.get("model") or source.get("family") or \
        source.get("processor") or ""
    what = f"{source['what']} ({where})" if where else source["what"]
    return f"{what}, {source.get('file', source['recorded'])}"
