"""``targetlang upgrade``: every legacy target site of a project, to the target release.

``_upgrade(args, io)`` returns the exit code (``cli.main`` calls it); ``register`` adds its
parser. ``run(paths, ...)`` is the machinery ``migrate --py`` shares.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from .._lower.dialects import newest_release
from .common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Io, add_environment, dialect_name

UPGRADE_EPILOG = """\
examples:
  targetlang upgrade .                      # a unified diff of every change; nothing written
  targetlang upgrade --write src/ docs/     # rewrite in place (atomically, per file)
  targetlang upgrade --check .              # CI / pre-commit: exit 1 when anything is pending
  targetlang upgrade --runtime --write .    # run-time targets go through targetlang.compat

File types: .py, .ipynb (code cells), .md and .rst (code blocks), .json, .yaml/.yml, .toml
(string values), .sh (arguments and assignments). Directories are walked; hidden
directories, virtual environments, build output and git-ignored paths are skipped.

Every place that needs a person is reported on standard error as PATH:LINE:COL: message
(PATH:cell N:LINE:COL in a notebook); the summary comes last.

exit codes: 0 nothing left for a person (with --check: nothing pending either), 1 a place
needs a person, a file is not valid for its type, or (--check) a change is pending, 2 usage
error or a file that cannot be read or written (the other files are still upgraded)
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``upgrade`` to the command line's subcommands."""
    parser = sub.add_parser("upgrade", epilog=UPGRADE_EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter,
                            help="every legacy target of a project, to the release you run",
                            description="Rewrite the legacy target sites of files and "
                                        "directories for the target release.")
    add_environment(parser)
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files and directories")
    newest = newest_release()  # the newest release the library knows: what TVM users run today
    parser.add_argument("--to", dest="to", default=newest, metavar="DIALECT", type=dialect_name,
                        help=f"the release to upgrade to (default: {newest}, the newest)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true",
                      help="rewrite the files in place, atomically")
    mode.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 when a change is pending or a place needs "
                           "a person")
    parser.add_argument("--runtime", action="store_true",
                        help="route targets known only at run time through targetlang.compat")
    parser.add_argument("--full", action="store_true",
                        help="the complete TargetJSON, not only what the release would not "
                             "fill in")
    parser.set_defaults(handler=_upgrade)


def _upgrade(args: argparse.Namespace, io: Io) -> int:
    from ..migration.upgrade import Options  # on first use: kept out of start-up

    if not args.paths:
        io.error("upgrade takes the files and directories to upgrade: targetlang upgrade PATH...")
        return EXIT_USAGE
    options = Options(target_dialect=args.to, runtime=args.runtime, full=args.full,
                      environment=io.environment(args))
    mode = "write" if args.write else "check" if args.check else "diff"
    return run(args.paths, io, options=options, mode=mode)


def run(paths: Iterable[str], io: Io, *, options: object, mode: str,
        only: str | None = None, summary: bool = True) -> int:
    """Upgrade the files of ``paths`` and report; ``mode``: "diff" (a unified diff on
    standard output), "write" or "check". ``only``: the one file type to read (explicit
    files are read as it). Without ``summary`` (``migrate --py``, as it always was): one
    line per file rewritten, no summary, and exit 1 only for a file not valid for its type."""
    # as _upgrade: on first use
    from ..migration.upgrade import Options, Summary, upgrade_file, walk

    assert isinstance(options, Options)
    stdout, stderr = io.stdout, io.stderr
    status = EXIT_OK
    total = Summary()
    for path, kind in walk(paths, only):
        try:
            result = upgrade_file(path, file_type=kind, write=mode == "write", options=options)
        except OSError as error:  # cannot read or write it: reported, the others go on
            io.error(f"{path}: {error.strerror or error}")
            total.unreadable(kind)
            status = max(status, EXIT_USAGE)
            continue
        total.add(result)
        for finding in result.findings:
            stderr.write(f"{finding}\n")
        if result.invalid is not None or (result.findings and summary):
            status = max(status, EXIT_INVALID)
        if not result.changed:
            continue
        if mode == "diff":
            stdout.write(result.diff())
        elif mode == "check":
            stderr.write(f"would rewrite {path}\n")
            status = max(status, EXIT_INVALID)
        elif summary:
            stderr.write(f"rewrote {path}\n")
        else:
            stderr.write(f"rewrote {path}: {len(result.changes)} target literals\n")
    if summary:
        for line in total.lines():
            stderr.write(line + "\n")
    return status
