"""The ``targetlang`` command line (also ``python -m targetlang``).

Subcommands register themselves: a module's ``register(sub)`` adds its parsers to the
subparsers ``sub`` of :func:`build_parser` and names its handler with
``set_defaults(handler=...)``. :func:`main` calls ``handler(args, io)`` with an ``Io``
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
import signal
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO, cast

from .. import __version__
from . import _arch, _browse, _migrate, _read, _upgrade
from ._common import EXIT_OK, EXIT_USAGE, Io, quote_hint

#: The subcommand modules, grouped by job: reading targets (parse, format, check, explain,
#: diff, tvmc), browsing a dialect (kinds, tags, schema), migrating (migrate, logs),
#: upgrading a project (upgrade), components and architectures (component, arch). Each
#: has ``register(sub)``; a new group
#: is one more module here.
SUBCOMMANDS = (_read, _browse, _migrate, _upgrade, _arch)


# The command line is the interface (docs/guide.md); its Python face is the entry point and
# the parser. The helpers the subcommands share (Io, the EXIT_* codes, add_dialect, ...) are
# machinery in the private modules beside this one.
__all__ = ["build_parser", "main"]

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

# ---- the program ----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    """The ``targetlang`` command's parser, every subcommand registered (what :func:`main`
    reads its arguments with)."""
    parser = argparse.ArgumentParser(
        prog="targetlang", description="Read, check, explain and print compiler target strings.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"targetlang {__version__}")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour: auto (a terminal, unless NO_COLOR is set; default), "
                             "always, never")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(sub)
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
