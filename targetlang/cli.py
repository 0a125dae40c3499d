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
import errno
import io as _io
import os
import re
import shlex
import signal
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, TextIO, cast

from . import __version__
from ._style import paint, wants_colour
from .environment import Environment
from .errors import TargetError
from .target import DEFAULT_DIALECT, dialects

if TYPE_CHECKING:
    from ._lint import LintWarning

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "Io", "add_dialect", "add_environment",
           "add_json", "add_targets", "build_parser", "error_json", "main", "quote_hint"]

EXIT_OK = 0
EXIT_INVALID = 1  # some input is not a valid target (diff: the targets differ; check --strict: a warning)
EXIT_USAGE = 2  # the command line itself is wrong (argparse also exits with 2)

EPILOG = """\
With no TARGET arguments, targets are read from standard input, one per line.
Colour is used on a terminal only, and never when NO_COLOR is set.

With several targets (standard input, or more than one TARGET), every error and warning
names its line, and output stays aligned with the input: a target that fails prints, in
place of its result, {"line": N, "input": ..., "error": {...}} (parse, migrate, tvmc,
explain --json) or an empty line (format).

exit codes:
  0  success
  1  invalid input (diff: the targets differ; check --strict: a warning)
  2  usage error, or a file or stream that cannot be read or written
  130  interrupted (Ctrl-C)

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

    def __init__(self, stdin: TextIO | None, stdout: TextIO, stderr: TextIO,
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
        for _, text in self.numbered(args):
            yield text

    def numbered(self, args: argparse.Namespace) -> Iterator[tuple[int, str]]:
        """``(number, text)`` of each input: its line of standard input, or its position
        among the TARGET arguments."""
        if getattr(args, "targets", None):
            yield from enumerate(args.targets, 1)
            return
        if self.stdin is None:  # started with standard input closed (`<&-`)
            raise OSError(errno.EBADF, "closed", "standard input")
        for number, line in enumerate(self.stdin, 1):
            yield number, line[:-1] if line.endswith("\n") else line

    def read_all(self) -> str:
        """All of standard input, as one text."""
        if self.stdin is None:  # started with standard input closed (`<&-`)
            raise OSError(errno.EBADF, "closed", "standard input")
        return self.stdin.read()

    def batch(self, args: argparse.Namespace) -> bool:
        """Whether the inputs are a batch: standard input, or more than one TARGET."""
        return len(getattr(args, "targets", None) or ()) != 1

    def environment(self, args: argparse.Namespace) -> Environment | None:
        return ENVIRONMENTS[getattr(args, "environment", "none")]()

    def _report(self, label: str, style: str, text: str) -> None:
        lines = text.split("\n")
        if len(lines) > 2 and lines[-1].strip() == "^":
            lines[-1] = lines[-1][:-1] + self.paint("^", style, err=True)
        self.stderr.write(self.paint(f"{label}:", style, err=True) + " " + "\n".join(lines) + "\n")

    def error(self, err: BaseException | str, where: Where | None = None) -> None:
        """``error: message``, with the source and a caret for a ``TargetError``; in a
        batch, ``where`` names the input: ``error: line 3: message``."""
        self._report("error", "error", _located(str(err), where))

    def warning(self, warning: LintWarning | str, where: Where | None = None) -> None:
        if isinstance(warning, str):
            self._report("warning", "warning", _located(warning, where))
            return
        text = str(warning)
        first, _, rest = text.partition("\n")
        self._report("warning", "warning", _located(
            f"{first} [{warning.code}]" + (f"\n{rest}" if rest else ""), where))


Where = tuple[int, str]  # (number, text) of an input in a batch


def _located(message: str, where: Where | None) -> str:
    """``line N: message``, the input shown below unless the message already shows it."""
    if where is None:
        return message
    number, text = where
    shown = "" if "\n" in message else f"\n    {text}"
    return f"line {number}: {message}{shown}"


def error_json(err: TargetError, number: int, text: str) -> dict[str, object]:
    """The object a batch prints in place of a failed input's result (one convention)."""
    return {"line": number, "input": text, "error": error_object(err)}


def error_object(err: TargetError) -> dict[str, object]:
    """A ``TargetError`` as JSON: type, message, offset, path."""
    return {"type": type(err).__name__, "message": err.message, "offset": err.offset,
            "path": err.path}


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
    _add_colour_everywhere(parser)
    return parser


def _add_colour_everywhere(parser: argparse.ArgumentParser) -> None:
    """``--color`` after the subcommand too (its default left to the main parser's)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                if "--color" not in child._option_string_actions:
                    child.add_argument("--color", choices=("auto", "always", "never"),
                                       default=argparse.SUPPRESS, help="as before the command")
                _add_colour_everywhere(child)


# A word of a target that the shell split off: -arch=sm_80, -host=..., -libs=cudnn
_TARGET_OPTION = re.compile(r"-[A-Za-z_][\w.-]*=.*", re.DOTALL)


def quote_hint(argv: Sequence[str]) -> str | None:
    """A hint to quote the target when the shell split it into words (None: nothing split)."""
    words = list(argv)
    for i, word in enumerate(words):
        if _TARGET_OPTION.fullmatch(word) and i > 0 and not words[i - 1].startswith("-"):
            start = i - 1
            end = i + 1
            while end < len(words) and _TARGET_OPTION.fullmatch(words[end]):
                end += 1
            example = shlex.join([*words[:start], " ".join(words[start:end]), *words[end:]])
            return ("a target is one argument: quote it, so that the shell keeps its options "
                    f"with it:\n    targetlang {example}")
    return None


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None,
         environ: Mapping[str, str] | None = None) -> int:
    """Run the command line; returns the exit code (tests call this in-process).

    Run with the process's own streams (the console script), it behaves as Unix tools do:
    a closed pipe (``| head``) ends it quietly, Ctrl-C exits 130, a closed or full standard
    output is one ``error:`` line and exit 2, and what the output encoding cannot show is
    escaped (``\\u00e9``) rather than a crash.
    """
    own = stdout is None
    if stderr is None:
        stderr = sys.stderr if sys.stderr is not None else open(os.devnull, "w")  # noqa: SIM115
        _escape_unencodable(stderr)
    if stdout is None:
        # Started with standard output closed (`>&-`): an error only if something is printed.
        stdout = sys.stdout if sys.stdout is not None else cast(TextIO, _Closed())
        _escape_unencodable(stdout)
    if stdin is None:
        stdin = sys.stdin  # may be None (`<&-`): read only when needed, then reported
        if isinstance(stdin, _io.TextIOWrapper) and stdin.errors == "strict":
            # Bytes that are not text reach the reader, which refuses them with a message.
            with contextlib.suppress(ValueError, OSError):
                stdin.reconfigure(errors="surrogateescape")
    try:
        code = _run(argv, stdin, stdout, stderr, environ)
        if own:
            stdout.flush()
    except KeyboardInterrupt:
        _quiet(stdout)
        return 128 + signal.SIGINT
    except BrokenPipeError:  # `targetlang tags | head`: the reader has gone
        _quiet(stdout)
        return EXIT_OK
    except OSError as error:  # standard output full (/dev/full) or failing
        _quiet(stdout)
        stderr.write(f"error: cannot write to standard output: {error.strerror or error}\n")
        return EXIT_USAGE
    return code


class _Closed(_io.TextIOBase):
    """Standard output that was closed when the program started."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "it is closed")


def _escape_unencodable(stream: TextIO) -> None:
    """Characters the stream's encoding cannot show are written escaped, not a crash."""
    if isinstance(stream, _io.TextIOWrapper) and stream.errors == "strict":
        with contextlib.suppress(ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")


def _quiet(stdout: TextIO) -> None:
    """Point standard output at /dev/null so the interpreter's final flush says nothing."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)


def _run(argv: Sequence[str] | None, stdin: TextIO | None, stdout: TextIO, stderr: TextIO,
         environ: Mapping[str, str] | None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    messages, printed = _io.StringIO(), _io.StringIO()
    try:
        # argparse writes usage, help and --version to sys.stdout/sys.stderr itself, and
        # ignores write errors: collect them, then write them where errors are seen.
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(messages):
            args, extra = parser.parse_known_args(words)
            if extra and not getattr(args, "extra_args", False):
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as done:
        stdout.write(printed.getvalue())
        stderr.write(messages.getvalue())
        hint = quote_hint(words) if done.code == EXIT_USAGE else None
        if hint is not None:
            stderr.write(f"hint: {hint}\n")
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    stderr.write(messages.getvalue())
    args.extra = extra
    io = Io(stdin, stdout, stderr, os.environ if environ is None else environ, args.color)
    try:
        code: int = args.handler(args, io)
    except OSError as error:
        if error.filename is None:
            raise  # standard output: main() reports it
        io.error(f"{error.filename}: {error.strerror or error}")
        return EXIT_USAGE
    return code


def run_each(args: argparse.Namespace, io: Io, action: Callable[[str], None],
             failed: Callable[[int, str, TargetError], None] | None = None) -> int:
    """``action(text)`` for each input; a ``TargetError`` is reported and makes the exit 1.

    In a batch the error names its line, and ``failed(number, text, error)`` prints what
    stands in for the result, so the output stays aligned with the input.
    """
    status = EXIT_OK
    batch = io.batch(args)
    for number, text in io.numbered(args):
        try:
            action(text)
        except TargetError as err:
            io.error(err, (number, text) if batch else None)
            if batch and failed is not None:
                failed(number, text, err)
            status = EXIT_INVALID
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
