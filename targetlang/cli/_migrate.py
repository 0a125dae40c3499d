"""Subcommands that migrate: ``migrate`` (targets and Python scripts) and ``logs``.

Each ``_name(args, io)`` handler returns an exit code (``cli.main`` calls it); ``register``
adds their parsers, with the options every subcommand shares (``cli/_common.py``).
"""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import stat
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TextIO

from .._lower.dialects import newest_release
from ..errors import TargetError
from ._common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    Io,
    add_environment,
    dialect_name,
    dialect_or_auto,
    error_json,
)
from ._upgrade import add_upgrade_options, run

MIGRATE_EPILOG = """\
examples:
  targetlang migrate "llvm -device=arm_cpu -target=aarch64-linux-gnu -mattr=+neon"
  targetlang migrate --config "c -executor=aot -runtime=c -system-lib -interface-api=c -unpacked-api=1"
  targetlang migrate --minimal "cuda -arch=sm_80"   # what upgrade writes
  targetlang migrate --to tvm-0.21 "cuda -model=v100"
  targetlang migrate --py tutorial.py            # a unified diff
  targetlang migrate --py --write src/*.py       # rewrite in place

With several targets (standard input, or more than one TARGET), a target that fails prints
{"line": N, "input": ..., "error": {...}} in place of its JSON, and its error and
warnings on standard error name its line.

exit codes: 0 success (places not rewritten are reported on standard error), 1 invalid input
(a target no release reads; with --py, a file that is not Python), 2 usage error, or a
file that cannot be read or written (with --py the other files are still migrated)
"""

LOGS_EPILOG = """\
examples:
  targetlang logs stats cuda_v0.10.log
  targetlang logs select arm_cpu_v0.05.log --target "llvm -device=arm_cpu -mtriple=aarch64-linux-gnu -model=rk3399" -o rk3399.log
  targetlang logs normalize arm_cpu_v0.05.log -o normalized.log --to text
  targetlang logs normalize tuning_db/ --to tvm-0.27 --workloads new_workloads.json -o tuning_db_0.27/

A MetaSchedule database (its directory, or its database_tuning_record.json beside its
database_workload.json) is written as a new database directory (-o DIR: it must not exist
or be empty; written completely or not at all): every record's target and trace as the
release reads them (a record it cannot read is left out and reported), with the workload
table that release reads (the database's own when that release wrote it, else --workloads:
the database_workload.json the release writes for the same workloads, checked). -o - writes
the records alone.

Lines may end in \\n, \\r\\n or \\r; each keeps its own ending. An output file is replaced
atomically (a symbolic link is written through, a device or FIFO written into; nothing
else that is not a regular file is replaced).

exit codes: 0 success, 1 a record failed (kept verbatim, reported), 2 usage error, or a
file that cannot be read or written
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``migrate`` and ``logs`` to the command line's subcommands."""
    env = argparse.ArgumentParser(add_help=False)
    add_environment(env)
    m = sub.add_parser("migrate", parents=[env], epilog=MIGRATE_EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       help="targets (or Python scripts) to the JSON TVM >= 0.24 reads",
                       description="Print each target as the TargetJSON of the target dialect "
                                   f"(default {newest_release()}: what TVM 0.24 and later "
                                   "accept).")
    m.add_argument("targets", nargs="*", metavar="TARGET",
                   help="target text or JSON; default: standard input, one per line")
    m.add_argument("--from", "--dialect", dest="source", default="auto", metavar="DIALECT",
                   type=dialect_or_auto,
                   help="dialect of the input (default: auto: legacy text and tags as TVM "
                        "0.21 read them, dicts and JSON text as the newest release that reads "
                        "them)")
    m.add_argument("--to", dest="to", default=newest_release(), metavar="DIALECT",
                   type=dialect_name, help=f"dialect to write (default: {newest_release()})")
    m.add_argument("--config", action="store_true",
                   help="print the CompilationConfig (executor and runtime carried)")
    m.add_argument("--minimal", action="store_true",
                   help="only what the target release would not fill in by itself (the dict "
                        "targetlang upgrade writes); default: the complete TargetJSON")
    m.add_argument("--compact", action="store_true", help="one line of JSON per target")
    m.add_argument("--py", action="store_true",
                   help="the arguments are Python files: rewrite their legacy target literals")
    m.add_argument("--write", action="store_true",
                   help="with --py: rewrite the files in place (atomically) instead of a diff")
    py = m.add_argument_group("with --py (as targetlang upgrade)")
    add_upgrade_options(py, modes=False, config=False)  # type: ignore[arg-type]
    m.set_defaults(handler=_migrate)

    logs = sub.add_parser("logs", help="AutoTVM tuning logs: stats, select, normalize",
                          description="Work with AutoTVM tuning logs without TVM.",
                          epilog=LOGS_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    tools = logs.add_subparsers(dest="logs_command", required=True, metavar="TOOL")
    common = argparse.ArgumentParser(add_help=False, parents=[env])
    common.add_argument("file", metavar="FILE", help="the log ('-' for standard input)")
    common.add_argument("--check-json", action="store_true",
                        help="parse every record in full as JSON (slower)")
    common.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    s = tools.add_parser("stats", parents=[common], help="distinct targets with their counts")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(handler=_logs_stats)
    output = argparse.ArgumentParser(add_help=False)
    output.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="output file, written atomically ('-' for standard output)")
    sel = tools.add_parser("select", parents=[common, output],
                           help="the records of one target, however written")
    sel.add_argument("--target", required=True, metavar="T", help="the target to select")
    sel.set_defaults(handler=_logs_select)
    norm = tools.add_parser("normalize", parents=[common, output],
                            help="one spelling per target")
    norm.add_argument("--to", type=_normal_form, default=None, metavar="FORM",
                      help="text: TVM 0.21's target string (default for a log); json: its "
                      "TargetJSON; tvm-0.N or tirx-0.1: the TargetJSON that release accepts "
                      "(tvm-0.25, tvm-0.27, ...); a MetaSchedule database needs json or a "
                      "release")
    norm.add_argument("--workloads", metavar="FILE",
                      help="for a MetaSchedule database: the database_workload.json the "
                      "release written for (--to) wrote for the same workloads, in order")
    norm.set_defaults(handler=_logs_normalize)


def _normal_form(name: str) -> str:
    """An argparse type: ``text``, ``json`` or a release dialect (``logs normalize --to``)."""
    return name if name in ("text", "json") else dialect_name(name)


# ---- migrate ------------------------------------------------------------------------------------

def _migrate(args: argparse.Namespace, io: Io) -> int:
    stdout = io.stdout
    if args.py:
        return _migrate_scripts(args, io)
    if args.write:
        io.error("--write goes with --py")
        return EXIT_USAGE
    if args.minimal and args.config:
        io.error("--minimal does not go with --config (a CompilationConfig is written whole)")
        return EXIT_USAGE
    from ..migration import migrate, migrate_config  # on first use: kept out of start-up

    environment = io.environment(args)
    status = EXIT_OK
    batch = io.batch(args)
    indent = None if args.compact or not args.targets else 2
    for number, text in io.numbered(args):
        where = (number, text) if batch else None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if args.config:
                    result = migrate_config(text, source_dialect=args.source,
                                            target_dialect=args.to,
                                            environment=environment).to_json()
                else:
                    result = migrate(text, source_dialect=args.source, target_dialect=args.to,
                                     environment=environment, minimal=args.minimal)
            except TargetError as error:
                io.error(error, where)
                status = EXIT_INVALID
                if batch:  # the output stays aligned with the input
                    stdout.write(json.dumps(error_json(error, number, text), indent=indent,
                                            ensure_ascii=False) + "\n")
                continue
        for warning in caught:
            io.warning(str(warning.message), where)
        stdout.write(json.dumps(result, indent=indent, ensure_ascii=False) + "\n")
    return status


def _migrate_scripts(args: argparse.Namespace, io: Io) -> int:
    """``--py``: ``targetlang upgrade``'s machinery on the Python files given (directories:
    their Python files, walked as ``upgrade`` walks them)."""
    if not args.targets:
        io.error("--py takes the Python files to migrate: targetlang migrate --py FILE...")
        return EXIT_USAGE
    args.config = None  # migrate's --config is the CompilationConfig; the nearest one is read
    return run(args.targets, io, args=args, mode="write" if args.write else "diff",
               only="python")


# ---- logs ----------------------------------------------------------------------------------------

class _Progress:
    """A progress line on standard error, when it is a terminal."""

    def __init__(self, stream: TextIO, total: int | None, enabled: bool) -> None:
        self.stream = stream
        self.total = total
        self.enabled = enabled and stream.isatty()
        self.start = time.monotonic()
        self.done = 0

    def wrap(self, lines: Iterable[bytes]) -> Iterator[bytes]:
        if not self.enabled:
            yield from lines
            return
        count = 0
        for line in lines:
            self.done += len(line)
            count += 1
            if count % 20000 == 0:
                self._show(count)
            yield line
        self._show(count)
        self.stream.write("\n")

    def _show(self, count: int) -> None:
        elapsed = max(time.monotonic() - self.start, 1e-9)
        share = f"{100 * self.done / self.total:5.1f}% " if self.total else ""
        self.stream.write(f"\r{share}{count:,} lines, {count / elapsed:,.0f} lines/s")
        self.stream.flush()


def _open_input(name: str, stdin: TextIO | None) -> tuple[IO[bytes], int | None]:
    if name == "-":
        if stdin is None:
            raise OSError(errno.EBADF, "closed", "standard input")
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:  # a text stream (tests): its lines as UTF-8
            return io.BytesIO(stdin.read().encode("utf-8", "surrogateescape")), None
        return buffer, None
    stream = open(name, "rb")  # noqa: SIM115 - closed by the caller
    info = os.fstat(stream.fileno())
    if stat.S_ISDIR(info.st_mode):
        stream.close()
        raise IsADirectoryError(errno.EISDIR, "is a directory", name)
    return stream, info.st_size if stat.S_ISREG(info.st_mode) else None


def _database_records(args: argparse.Namespace) -> None:
    """A MetaSchedule database directory stands for its ``database_tuning_record.json``."""
    if args.file != "-" and os.path.isdir(args.file):
        args.file = os.path.join(args.file, "database_tuning_record.json")


def _database_dir(args: argparse.Namespace) -> str | None:
    """The MetaSchedule database the input is (a directory, or its records file beside its
    workload table), or None."""
    from ..migration._metaschedule import RECORDS, WORKLOADS  # on first use: kept out of start-up

    if args.file == "-":
        return None
    if os.path.isdir(args.file):
        return str(args.file)
    directory, name = os.path.split(args.file)
    if name == RECORDS and os.path.isfile(os.path.join(directory or ".", WORKLOADS)):
        return directory or "."
    return None


def _database_error(error: Exception, io: Io) -> int:
    """Say why a database could not be read or written (exit 2) or converted (exit 1)."""
    if isinstance(error, OSError):
        io.error(f"{error.filename}: {error.strerror or error}")
        return EXIT_USAGE
    io.error(str(error))
    return EXIT_INVALID


def _write_database(args: argparse.Namespace, io: Io, directory: str,
                    make: Callable[[bytes, Any, Any, Any], dict[str, bytes]]) -> int:
    """Read the database in ``directory``, make the new one's files, write them as -o DIR."""
    from .._files import write_directory_atomically  # on first use: kept out of start-up
    from ..migration._metaschedule import RECORDS, WORKLOADS, DatabaseError, read_workload_table
    from ..migration.logs import LogSummary  # on first use: kept out of start-up

    summary = LogSummary()
    try:
        records = Path(directory, RECORDS).read_bytes()
        shown = os.path.join(directory, WORKLOADS)
        table = read_workload_table(Path(shown).read_bytes(), shown)
        workloads = getattr(args, "workloads", None)
        given = read_workload_table(Path(workloads).read_bytes(), workloads) \
            if workloads else None
        files = make(records, table, given, summary)
    except (OSError, DatabaseError) as error:
        return _database_error(error, io)
    try:
        write_directory_atomically(args.output, files)
    except OSError as error:
        return _database_error(error, io)
    if not args.quiet:
        for line in summary.lines():
            io.stderr.write(line + "\n")
        count = files[RECORDS].count(b"\n")
        io.stderr.write(f"wrote the database {args.output} ({count} records)\n")
    return EXIT_INVALID if summary.failed else EXIT_OK


def _database_records_out(args: argparse.Namespace, io: Io, directory: str) -> int:
    """``normalize DB -o -``: the records alone, as the release reads them."""
    from ..migration._metaschedule import (  # on first use: kept out of start-up
        RECORDS,
        WORKLOADS,
        DatabaseError,
        normalize_records,
        read_workload_table,
    )
    from ..migration.logs import LogSummary  # on first use: kept out of start-up

    summary = LogSummary()
    try:
        lines = Path(directory, RECORDS).read_bytes().splitlines(keepends=True)
        table = Path(directory, WORKLOADS)
        count = len(read_workload_table(table.read_bytes(), str(table)).lines) \
            if table.is_file() else None
        out = normalize_records(lines, summary, to=args.to, workload_count=count,
                                environment=io.environment(args))
    except (OSError, DatabaseError) as error:
        return _database_error(error, io)
    _write_output("-", [out], io.stdout)
    if not args.quiet:
        for line in summary.lines():
            io.stderr.write(line + "\n")
        io.stderr.write("the records alone: -o DIR writes the database, its workload table "
                        "included\n")
    return EXIT_INVALID if summary.failed else EXIT_OK


def _check_output(args: argparse.Namespace, io: Io) -> bool:
    if args.output == "-" or args.file == "-":
        return True
    try:
        same = Path(args.output).resolve() == Path(args.file).resolve() or (
            os.path.exists(args.output) and os.path.samefile(args.output, args.file))
    except OSError:
        same = False
    if same:
        io.error("the output would overwrite the input; choose another -o")
    return not same


def _write_output(name: str, lines: Iterable[bytes], stdout: TextIO) -> None:
    if name == "-":
        out = getattr(stdout, "buffer", None)
        if out is None:  # a text stream (tests): decode what we write
            for line in lines:
                stdout.write(line.decode("utf-8", "surrogateescape"))
            return
        for line in lines:
            out.write(line)
        out.flush()
        return
    from .._files import write_atomically  # on first use: only an output file needs it

    write_atomically(name, lines)


def _run_logs(args: argparse.Namespace, io: Io,
              tool: Callable[[Iterable[bytes], Any], Iterator[bytes]] | None,
              report: Callable[[Any], None] | None = None) -> int:
    from ..migration.logs import LogSummary, lines_of  # on first use: kept out of start-up

    stdout, stderr = io.stdout, io.stderr
    try:
        stream, size = _open_input(args.file, io.stdin)
    except OSError as error:
        io.error(f"{args.file}: {error.strerror or error}")
        return EXIT_USAGE
    summary = LogSummary()
    progress = _Progress(stderr, size, not args.quiet)
    try:
        lines = progress.wrap(lines_of(stream))
        if tool is not None:
            _write_output(args.output, tool(lines, summary), stdout)
        elif report is not None:
            report((lines, summary))
    except OSError as error:
        if error.filename is None:
            raise  # standard output: the command line reports it
        io.error(f"{error.filename}: {error.strerror or error}")
        return EXIT_USAGE
    finally:
        if args.file != "-":
            stream.close()
    if not args.quiet:
        for line in summary.lines():
            stderr.write(line + "\n")
    return EXIT_INVALID if summary.failed else EXIT_OK


def _logs_normalize(args: argparse.Namespace, io: Io) -> int:
    from ..migration.logs import normalize  # on first use: kept out of start-up

    database = _database_dir(args)
    if args.workloads and (database is None or args.output == "-"):
        io.error("--workloads is for a MetaSchedule database written as a directory (-o DIR)")
        return EXIT_USAGE
    if database is not None and args.to in (None, "text"):
        # (a usage error: the form a database is written in must be chosen)
        io.error(f"{args.file} is a MetaSchedule database, whose records hold TargetJSON "
                 "dicts: choose the form with --to json or --to tvm-0.N (or tirx-0.1)")
        return EXIT_USAGE
    args.to = args.to or "text"
    if database is not None and args.output != "-":
        from ..migration._metaschedule import normalize_database  # on first use

        environment = io.environment(args)
        return _write_database(args, io, database, lambda records, table, given, summary:
                               normalize_database(records, table, summary, to=args.to,
                                                  given=given, environment=environment))
    if database is not None and args.to != "text":
        return _database_records_out(args, io, database)
    _database_records(args)

    if not _check_output(args, io):
        return EXIT_USAGE
    environment = io.environment(args)
    return _run_logs(args, io, lambda lines, summary: normalize(
        lines, summary, to=args.to, environment=environment, check_json=args.check_json))


def _logs_select(args: argparse.Namespace, io: Io) -> int:
    from ..migration.logs import same_target_key, select  # on first use: kept out of start-up

    database = _database_dir(args)
    _database_records(args)

    if not _check_output(args, io):
        return EXIT_USAGE
    environment = io.environment(args)
    try:
        same_target_key(args.target, environment)
    except TargetError as error:
        io.error(f"--target: {error}")
        return EXIT_INVALID
    if database is not None and args.output != "-":
        from ..migration._metaschedule import select_database  # on first use

        return _write_database(args, io, database, lambda records, table, _, summary:
                               select_database(records, table, summary, target=args.target,
                                               environment=environment))
    return _run_logs(args, io, lambda lines, summary: select(
        lines, args.target, summary, environment=environment, check_json=args.check_json))


def _logs_stats(args: argparse.Namespace, io: Io) -> int:
    from ..migration.logs import stats  # on first use: kept out of start-up

    _database_records(args)

    stdout = io.stdout
    environment = io.environment(args)

    def report(work: Any) -> None:
        lines, summary = work
        found = stats(lines, summary, environment=environment, check_json=args.check_json)
        if args.json:
            stdout.write(json.dumps([{"target": e.text, "json": e.json, "records": e.count,
                                      "spellings": e.spellings} for e in found],
                                    indent=2, ensure_ascii=False) + "\n")
            return
        width = max([len(f"{e.count:,}") for e in found] + [7])
        stdout.write(f"{'records':>{width}}  spellings  target\n")
        for e in found:
            stdout.write(f"{e.count:>{width},}  {len(e.spellings):>9}  {e.text}\n")

    return _run_logs(args, io, None, report)
