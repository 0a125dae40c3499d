"""What every subcommand of ``targetlang`` shares: exit codes, options, ``Io`` and batches.

A leaf of the command line: the subcommand modules and the program (``cli/__init__.py``)
import it; it imports none of them.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import shlex
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..environment import Environment
from ..errors import TargetError
from ..target import DEFAULT_DIALECT, dialects
from ._style import paint, wants_colour

if TYPE_CHECKING:
    from .._inspect.lint import LintWarning

__all__ = ["ENVIRONMENTS", "EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "Io", "Where",
           "add_dialect", "add_environment", "add_json", "add_targets", "dialect_name", "dialect_or_auto", "dump_json",
           "error_json", "error_object", "quote_hint", "run_each"]

EXIT_OK = 0
EXIT_INVALID = 1  # some input is not a valid target (diff: the targets differ; check --strict: a warning)
EXIT_USAGE = 2  # the command line itself is wrong (argparse also exits with 2)

ENVIRONMENTS: dict[str, Callable[[], Environment | None]] = {
    "none": lambda: None,
    "no-gpu": Environment.no_gpu,
    "detect": Environment.detect,
}


def dump_json(value: object, indent: int | None) -> str:
    """JSON as every subcommand prints it (characters as they are, not escaped)."""
    return json.dumps(value, indent=indent, ensure_ascii=False)


# ---- shared options --------------------------------------------------------------------------

def dialect_name(name: str) -> str:
    """An argparse type: a known dialect's name (the same message for every subcommand)."""
    known = dialects()
    if name not in known:
        raise argparse.ArgumentTypeError(
            f"unknown dialect {name!r} (choose from {', '.join(known)})")
    return name


def dialect_or_auto(name: str) -> str:
    """An argparse type: a known dialect's name, or ``auto`` (migrate's ``--from``)."""
    return name if name == "auto" else dialect_name(name)


def add_subcommand(sub: Any, name: str, help: str, description: str) -> argparse.ArgumentParser:
    """A subcommand's parser, its description printed as written."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help, description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def add_targets(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """Positional TARGET texts; none means: read standard input, one target per line."""
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=help or "target text (legacy string, tag or JSON); "
                                     "default: standard input, one per line")


def add_dialect(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dialect", type=dialect_name, default=DEFAULT_DIALECT,
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
        # A filter on a pipe or a terminal (`tail -f log | targetlang parse`) answers each
        # line before it waits for the next: its output is flushed line by line, unless it
        # reads a regular file, whose lines are all there already.
        streaming = not _is_regular_file(self.stdin)
        for number, line in enumerate(self.stdin, 1):
            yield number, line[:-1] if line.endswith("\n") else line
            if streaming:
                self.stdout.flush()

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


def _is_regular_file(stream: TextIO) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):  # no descriptor: an in-memory stream
        return True


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
