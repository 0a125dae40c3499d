"""Subcommands that read targets: parse, format, check, explain, diff, tvmc.

Each ``_name(args, io)`` handler returns an exit code (``cli.main`` calls it); ``register``
adds their parsers.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import TargetError
from ..target import Target, parse
from ._common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    Io,
    add_dialect,
    add_environment,
    add_json,
    add_subcommand,
    add_targets,
    dump_json,
    error_json,
    error_object,
    quote_hint,
    run_each,
)


def register(sub: Any) -> None:
    """Add the subcommands of this module to ``sub`` (``build_parser``'s subparsers)."""
    p = add_subcommand(sub, "parse", "print the canonical JSON of each target",
                       "Print each target's canonical TargetJSON (indented for TARGET arguments, one "
                       "line per target for standard input).")
    add_targets(p)
    add_dialect(p)
    add_environment(p)
    p.add_argument("--compact", action="store_true", help="one line of JSON per target")
    p.set_defaults(handler=_parse)

    p = add_subcommand(sub, "format", "print each target as text", "Print each target as text.")
    add_targets(p)
    add_dialect(p)
    add_environment(p)
    p.add_argument("--style", choices=("canonical", "tvm"), default="canonical",
                   help="canonical: lossless (default); tvm: exactly TVM 0.21's str()")
    p.set_defaults(handler=_format)

    p = add_subcommand(sub, "check", "validate targets (exit 1 if any is invalid)",
                       "Validate each target; report errors with a caret. With --strict, also warn about "
                       "legacy traps TVM accepted silently (-opt-level=3x read as 3, -num-cores=0x10 read "
                       "as 0, a bool given 2, an unknown key, device or library, ...): exit 1 on any.")
    add_targets(p)
    add_dialect(p)
    add_environment(p)
    add_json(p, "one JSON object per target: input, valid, error, warnings")
    p.add_argument("--strict", action="store_true", help="also report legacy traps (exit 1)")
    p.set_defaults(handler=_check)

    p = add_subcommand(sub, "explain", "show each target as a tree, with where each value came from",
                       "Show each target as a tree: kind, keys, every attribute, host and devices, each "
                       "value with where it came from: written, tag, default, target parser, "
                       "environment, -device, device query.")
    add_targets(p)
    add_dialect(p)
    add_environment(p)
    add_json(p, "the tree as JSON")
    p.set_defaults(handler=_explain)

    p = add_subcommand(sub, "diff", "the semantic difference of two targets (exit 1 if they differ)",
                       "Compare two targets by meaning (their TargetJSON, defaults included), however "
                       "each was written. Exit 0 when equal, 1 when they differ.")
    add_targets(p, "the two targets (default: the first two lines of standard input)")
    add_dialect(p)
    add_environment(p)
    add_json(p, "a JSON list of changes: path, change, old, new")
    p.add_argument("--origins", action="store_true",
                   help="also say where each value came from (written, default, "
                        "environment, target parser, ...)")
    p.set_defaults(handler=_diff)

    p = add_subcommand(sub, "tvmc", "read tvmc's --target lists (BYOC codegens, target, host)",
                       "Read tvmc's multi-target syntax and print its codegens (with typed options) and "
                       "the target with its host as JSON. Takes the list as TARGET, or as tvmc took "
                       "it: --target=LIST and per-kind options --target-KIND-OPTION=VALUE.\n\n"
                       "  targetlang tvmc \"ethos-u -accelerator_config=ethos-u55-256, cmsis-nn, c\"\n"
                       "  targetlang tvmc --target=\"cmsis-nn, c\" --target-c-mcpu=cortex-m55")
    add_targets(p, "tvmc target list; default: standard input, one per line")
    p.add_argument("--target", dest="tvmc_target", metavar="LIST", help="as tvmc's --target")
    add_dialect(p)
    add_environment(p)
    p.add_argument("--compact", action="store_true", help="one line of JSON per list")
    p.set_defaults(handler=_tvmc, extra_args=True)


# ---- parse, format, check --------------------------------------------------------------------

def _read(args: argparse.Namespace, io: Io, text: str) -> Target:
    return parse(text, dialect=args.dialect, environment=io.environment(args))


def _print_error_json(io: Io, indent: int | None) -> Any:
    """What a batch prints for a failed input: the one convention of every JSON command."""
    return lambda number, text, err: io.out(dump_json(error_json(err, number, text), indent))


def _parse(args: argparse.Namespace, io: Io) -> int:
    indent = None if args.compact or not args.targets else 2
    return run_each(args, io, lambda text: io.out(dump_json(_read(args, io, text).to_json(), indent)),
                    _print_error_json(io, indent))


def _format(args: argparse.Namespace, io: Io) -> int:
    batch = io.batch(args)

    def show(text: str) -> None:
        written = _read(args, io, text).to_string(args.style)
        if batch and ("\n" in written or "\r" in written):
            # One line of output per input: a text with a line break inside cannot be one.
            raise TargetError("its text holds a line break, which one line of output cannot "
                              "show; `targetlang parse` prints it as JSON")
        io.out(written)

    # A failed line prints an empty line: no target is written as an empty text.
    return run_each(args, io, show, lambda number, text, err: io.out(""))


def _check(args: argparse.Namespace, io: Io) -> int:
    from .._inspect.lint import lint  # on first use: kept out of the command line's start-up

    status = EXIT_OK
    batch = io.batch(args)
    for number, text in io.numbered(args):
        error = None
        warnings = []
        try:
            if args.strict:
                warnings = lint(text, dialect=args.dialect, environment=io.environment(args))
            else:
                _read(args, io, text)
        except TargetError as err:
            error = err
        if error is not None or warnings:
            status = EXIT_INVALID
        if args.json:
            io.out(dump_json({"input": text, "valid": error is None,
                          "error": None if error is None else error_object(error),
                          "warnings": [{"code": w.code, "message": w.message, "offset": w.offset,
                                        "path": w.path} for w in warnings]}, None))
            continue
        where = (number, text) if batch else None
        if error is not None:
            io.error(error, where)
        for warning in warnings:
            io.warning(warning, where)
    return status


# ---- explain, diff ---------------------------------------------------------------------------

def _explain(args: argparse.Namespace, io: Io) -> int:
    from .._inspect.explain import (  # on first use: kept out of the command line's start-up
        explain,
        render,
    )

    first = True

    def show(text: str) -> None:
        nonlocal first
        tree = explain(text, dialect=args.dialect, environment=io.environment(args))
        if args.json:
            io.out(dump_json(tree, 2 if args.targets else None))
            return
        if not first:
            io.out("")
        first = False
        io.out(render(tree, lambda part, style: io.paint(part, style)))

    return run_each(args, io, show,
                    _print_error_json(io, 2 if args.targets else None) if args.json else None)


def _diff(args: argparse.Namespace, io: Io) -> int:
    from .._inspect.diff import (  # on first use: kept out of the command line's start-up
        diff,
        render,
    )

    inputs = list(io.numbered(args))
    if len(inputs) != 2:
        io.error(f"diff compares two targets, not {len(inputs)}")
        return EXIT_USAGE
    read = []
    for number, text in inputs:
        try:
            read.append(_read(args, io, text))
        except TargetError as err:
            io.error(err, (number, text))  # which of the two
            return EXIT_INVALID
    a, b = read
    changes = diff(a, b)
    if args.json:
        io.out(dump_json([c.to_json(args.origins) for c in changes], 2))
    elif changes:
        io.out(render(changes, lambda part, style: io.paint(part, style), args.origins))
    return EXIT_INVALID if changes else EXIT_OK


# ---- tvmc ------------------------------------------------------------------------------------

def _tvmc(args: argparse.Namespace, io: Io) -> int:
    from ..tvmc import (  # on first use: kept out of the command line's start-up
        parse_tvmc,
        parse_tvmc_args,
    )

    for word in args.extra:
        if not word.startswith("--target-") or "=" not in word:
            io.error(f"unrecognized argument {word!r}: per-kind options are written "
                     "--target-KIND-OPTION=VALUE")
            hint = quote_hint(["tvmc", *args.targets, *args.extra])
            if hint is not None:
                io.stderr.write(f"hint: {hint}\n")
            return EXIT_USAGE
    try:
        _, options = parse_tvmc_args(args.extra, dialect=args.dialect)
    except TargetError as err:
        io.error(err)
        return EXIT_USAGE
    if args.tvmc_target is not None:
        args.targets = [*args.targets, args.tvmc_target]
    indent = None if args.compact or not args.targets else 2

    def show(text: str) -> None:
        result = parse_tvmc(text, options, dialect=args.dialect,
                            environment=io.environment(args))
        io.out(dump_json(result.to_json(), indent))

    return run_each(args, io, show, _print_error_json(io, indent))
