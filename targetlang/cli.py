"""The ``targetlang`` command line (also ``python -m targetlang``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO

from . import __version__, _cli_migrate
from .environment import Environment
from .errors import TargetError
from .target import DEFAULT_DIALECT, Target, parse

EXIT_OK = 0
EXIT_INVALID = 1  # some input is not a valid target
EXIT_USAGE = 2  # the command line itself is wrong (argparse also exits with 2)

EPILOG = """\
With no TARGET arguments, targets are read from standard input, one per line.

exit codes:
  0  success
  1  invalid input
  2  usage error

examples:
  targetlang parse "cuda -arch=sm_80 -host='llvm -mtriple=aarch64-linux-gnu'"
  targetlang format --style tvm "llvm -mcpu=cortex-a72 -mtriple=aarch64-linux-gnu"
  echo "cuda -arhc=sm_80" | targetlang check
"""

ENVIRONMENTS: dict[str, Callable[[], Environment | None]] = {
    "none": lambda: None,
    "no-gpu": Environment.no_gpu,
    "detect": Environment.detect,
}


def _common() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("targets", nargs="*", metavar="TARGET",
                        help="target text (legacy string, tag or JSON); default: standard input")
    common.add_argument("--dialect", default=DEFAULT_DIALECT,
                        help=f"TVM release family to read in (default: {DEFAULT_DIALECT})")
    common.add_argument("--environment", choices=sorted(ENVIRONMENTS), default="none",
                        help="machine-detected values: none (pure, default), no-gpu (what TVM "
                             "fills in without GPUs), detect (this machine)")
    return common


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="targetlang", description="Read, check and print compiler target strings.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"targetlang {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = _common()
    p = sub.add_parser("parse", parents=[common], help="print the canonical JSON of each target",
                       description="Print each target's canonical TargetJSON.")
    p.add_argument("--compact", action="store_true", help="one line of JSON per target")
    f = sub.add_parser("format", parents=[common], help="print each target as text",
                       description="Print each target as text.")
    f.add_argument("--style", choices=("canonical", "tvm"), default="canonical",
                   help="canonical: lossless (default); tvm: exactly TVM 0.21's str()")
    sub.add_parser("check", parents=[common], help="validate targets (exit 1 if any is invalid)",
                   description="Validate each target; report errors with a caret.")
    _cli_migrate.register(sub)  # migrate, logs: they set a handler of their own
    return parser


def _inputs(args: argparse.Namespace, stdin: TextIO) -> Iterator[str]:
    if args.targets:
        yield from args.targets
        return
    for line in stdin:
        yield line[:-1] if line.endswith("\n") else line


def _report(err: TargetError, stderr: TextIO) -> None:
    stderr.write(f"error: {err}\n")


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (tests call this in-process)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is not None:
        return int(handler(args, stdin, stdout, stderr))
    environment = ENVIRONMENTS[args.environment]()
    status = EXIT_OK
    for text in _inputs(args, stdin):
        try:
            target = parse(text, dialect=args.dialect, environment=environment)
            out = _render(args, target)
        except TargetError as err:
            _report(err, stderr)
            status = EXIT_INVALID
            continue
        except ValueError as err:  # an unknown dialect: the command line is wrong
            stderr.write(f"error: {err}\n")
            return EXIT_USAGE
        if out is not None:
            stdout.write(out + "\n")
    return status


def _render(args: argparse.Namespace, target: Target) -> str | None:
    if args.command == "parse":
        indent = None if args.compact or not args.targets else 2
        return json.dumps(target.to_json(), indent=indent, ensure_ascii=False)
    if args.command == "format":
        return target.to_string(args.style)
    return None  # check: silence means valid
