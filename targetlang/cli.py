"""The ``targetlang`` command line (also ``python -m targetlang``).

Subcommands register themselves: a module's ``register(sub)`` adds its parsers to the
subparsers ``sub`` of :func:`build_parser` and names its handler with
``set_defaults(handler=...)``. :func:`main` calls ``handler(args, io)`` with an :class:`Io`
(the three streams, colour, and helpers to read the inputs and report errors); the handler
returns the exit code. The helpers ``add_targets``, ``add_dialect``, ``add_environment`` and
``add_json`` give every subcommand the same options. A subcommand that takes words argparse
does not know (tvmc's ``--target-llvm-mcpu=...``) also sets ``extra_args=True`` and finds
them in ``args.extra``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

from . import __version__
from ._style import paint, wants_colour
from .environment import Environment
from .errors import TargetError
from .target import DEFAULT_DIALECT, dialects

if TYPE_CHECKING:
    from ._lint import LintWarning

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "Io", "add_dialect", "add_environment",
           "add_json", "add_targets", "build_parser", "main"]

EXIT_OK = 0
EXIT_INVALID = 1  # some input is not a valid target (diff: the targets differ; check --strict: a warning)
EXIT_USAGE = 2  # the command line itself is wrong (argparse also exits with 2)

EPILOG = """\
With no TARGET arguments, targets are read from standard input, one per line.
Colour is used on a terminal only, and never when NO_COLOR is set.

exit codes:
  0  success
  1  invalid input (diff: the targets differ; check --strict: a warning)
  2  usage error

examples:
  targetlang parse "cuda -arch=sm_80 -host='llvm -mtriple=aarch64-linux-gnu'"
  targetlang format --style tvm "llvm -mcpu=cortex-a72 -mtriple=aarch64-linux-gnu"
  echo "cuda -arhc=sm_80" | targetlang check
  targetlang check --strict "llvm -opt-level=3x"
  targetlang explain nvidia/jetson-nano
  targetlang diff "cuda -arch=sm_80" '{"kind": "cuda", "arch": "sm_86"}'
  targetlang kinds cuda
  targetlang tvmc "ethos-u -accelerator_config=ethos-u55-256, cmsis-nn, c"
  targetlang component "GeForce RTX 3080"
  targetlang arch architecture.json
"""

ENVIRONMENTS: dict[str, Callable[[], Environment | None]] = {
    "none": lambda: None,
    "no-gpu": Environment.no_gpu,
    "detect": Environment.detect,
}


# ---- shared options --------------------------------------------------------------------------

def _dialect(name: str) -> str:
    known = dialects()
    if name not in known:
        raise argparse.ArgumentTypeError(
            f"unknown dialect {name!r} (choose from {', '.join(known)})")
    return name


def add_targets(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """Positional TARGET texts; none means: read standard input, one target per line."""
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=help or "target text (legacy string, tag or JSON); "
                                     "default: standard input, one per line")


def add_dialect(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dialect", type=_dialect, default=DEFAULT_DIALECT,
                        help=f"TVM release family to read in (default: {DEFAULT_DIALECT}; "
                             f"see targetlang.dialects())")


def add_environment(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--environment", choices=sorted(ENVIRONMENTS), default="none",
                        help="machine-detected values: none (pure, default), no-gpu (what TVM "
                             "fills in without GPUs), detect (this machine)")


def add_json(parser: argparse.ArgumentParser, help: str = "print JSON") -> None:
    parser.add_argument("--json", action="store_true", help=help)


# ---- what a handler gets ------------------------------------------------------------------------

class Io:
    """The streams of one run, with colour decided once per stream, and reporting helpers."""

    def __init__(self, stdin: TextIO, stdout: TextIO, stderr: TextIO,
                 environ: Mapping[str, str], colour: str = "auto") -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.colour_out = wants_colour(stdout, environ, colour)
        self.colour_err = wants_colour(stderr, environ, colour)

    def paint(self, text: str, style: str, *, err: bool = False) -> str:
        """``text`` coloured for stdout (or stderr with ``err=True``) when colour is on."""
        return paint(text, style, self.colour_err if err else self.colour_out)

    def out(self, text: str) -> None:
        self.stdout.write(text + "\n")

    def inputs(self, args: argparse.Namespace) -> Iterator[str]:
        """The TARGET arguments, or else standard input, one target per line."""
        if getattr(args, "targets", None):
            yield from args.targets
            return
        for line in self.stdin:
            yield line[:-1] if line.endswith("\n") else line

    def environment(self, args: argparse.Namespace) -> Environment | None:
        return ENVIRONMENTS[getattr(args, "environment", "none")]()

    def _report(self, label: str, style: str, text: str) -> None:
        lines = text.split("\n")
        if len(lines) > 2 and lines[-1].strip() == "^":
            lines[-1] = lines[-1][:-1] + self.paint("^", style, err=True)
        self.stderr.write(self.paint(f"{label}:", style, err=True) + " " + "\n".join(lines) + "\n")

    def error(self, err: BaseException | str) -> None:
        """``error: message``, with the source and a caret for a ``TargetError``."""
        self._report("error", "error", str(err))

    def warning(self, warning: LintWarning) -> None:
        text = str(warning)
        first, _, rest = text.partition("\n")
        self._report("warning", "warning", f"{first} [{warning.code}]" + (f"\n{rest}" if rest else ""))


# ---- the program ----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="targetlang", description="Read, check, explain and print compiler target strings.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"targetlang {__version__}")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour: auto (a terminal, unless NO_COLOR is set; default), "
                             "always, never")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    from . import _cli_arch, _cli_commands, _cli_migrate
    _cli_commands.register(sub)
    _cli_migrate.register(sub)  # migrate, logs
    _cli_arch.register(sub)  # arch, component
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None,
         environ: Mapping[str, str] | None = None) -> int:
    """Run the command line; returns the exit code (tests call this in-process)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = build_parser()
    try:
        # argparse writes usage, help and --version to sys.stdout/sys.stderr itself.
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args, extra = parser.parse_known_args(argv)
            if extra and not getattr(args, "extra_args", False):
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    args.extra = extra
    io = Io(stdin, stdout, stderr, os.environ if environ is None else environ, args.color)
    try:
        code: int = args.handler(args, io)
    except BrokenPipeError:  # `targetlang tags | head`: the reader has gone
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stdout.fileno())
        return EXIT_OK
    return code


def run_each(args: argparse.Namespace, io: Io, action: Callable[[str], None]) -> int:
    """``action(text)`` for each input; a ``TargetError`` is reported and makes the exit 1."""
    status = EXIT_OK
    for text in io.inputs(args):
        try:
            action(text)
        except TargetError as err:
            io.error(err)
            status = EXIT_INVALID
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
