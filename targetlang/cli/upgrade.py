"""``targetlang upgrade``: every legacy target site of a project, to the target release.

The machinery is imported on first use: the command line starts without it.

``_upgrade(args, io)`` returns the exit code (``cli.main`` calls it); ``register`` adds its
parser. ``run(paths, ...)`` is the machinery ``migrate --py`` shares; the output formats
live in ``cli/upgrade_formats.py``.
"""

from __future__ import annotations

import argparse
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Io, add_environment, dialect_name

UPGRADE_EPILOG = """\
examples:
  targetlang upgrade .                      # a unified diff of every change; nothing written
  targetlang upgrade --write src/ docs/     # rewrite in place (atomically, per file)
  targetlang upgrade --check .              # CI / pre-commit: exit 1 when anything is pending
  targetlang upgrade --runtime --write .    # run-time targets go through targetlang.compat
  targetlang upgrade --format sarif . > upgrade.sarif
  targetlang upgrade --write --stdin-filename x.py - < x.py   # an editor's filter
  targetlang upgrade --list-codes           # every report code, with what to do

File types: .py, .ipynb (code cells), .md and .rst (code blocks), .json, .yaml/.yml, .toml
(string values), .sh (arguments and assignments). Directories are walked; hidden
directories, virtual environments, build output, git-ignored paths and excluded globs are
skipped.

Every place that needs a person is reported on standard error as PATH:LINE:COL: CODE
message (PATH:cell N:LINE:COL in a notebook); `# targetlang: ignore[CODE]` on its line, or
[tool.targetlang] ignore / per-file-ignores in pyproject.toml, suppresses it.

exit codes: 0 nothing pending and nothing left for a person, 1 a place needs a person or
(--check) a change is pending, 2 usage error or a path that cannot be read or written (the
other files are still upgraded); --exit-zero: 0 unless 2
"""

FORMATS = ("text", "json", "sarif", "github")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``upgrade`` to the command line's subcommands."""
    parser = sub.add_parser("upgrade", epilog=UPGRADE_EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter,
                            help="every legacy target of a project, to the release you run",
                            description="Rewrite the legacy target sites of files and "
                                        "directories for the target release.")
    add_environment(parser)
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files and directories; - for standard input")
    add_upgrade_options(parser)
    parser.add_argument("--list-codes", action="store_true",
                        help="list every report code with what to do, and exit")
    parser.set_defaults(handler=_upgrade)


def add_upgrade_options(parser: argparse.ArgumentParser, *, modes: bool = True,
                        config: bool = True) -> None:
    """The options ``upgrade`` and ``migrate --py`` share (``migrate`` has its own
    ``--to``, ``--write`` and ``--config``)."""
    from .._lower.dialects import newest_release  # on first use

    newest = newest_release()  # the newest release the library knows: what TVM users run today
    if modes:
        parser.add_argument("--to", dest="to", default=None, metavar="DIALECT",
                            type=dialect_name,
                            help=f"the release to upgrade to (default: the configuration's "
                                 f"`to`, else {newest}, the newest)")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--write", action="store_true",
                          help="rewrite the files in place, atomically (with -: the upgraded "
                               "text on standard output)")
        mode.add_argument("--check", action="store_true",
                          help="write nothing; exit 1 when a change is pending or a place "
                               "needs a person")
    parser.add_argument("--runtime", action="store_true", default=None,
                        help="route targets known only at run time through targetlang.compat")
    parser.add_argument("--full", action="store_true",
                        help="the complete TargetJSON, not only what the release would not "
                             "fill in")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (a diff and PATH:LINE:COL: CODE lines, default), json, "
                             "sarif (SARIF 2.1.0) or github (workflow annotations)")
    if config:
        parser.add_argument("--config", metavar="FILE",
                            help="the configuration to use (a pyproject.toml with "
                                 "[tool.targetlang], or a TOML file of those keys) instead of "
                                 "the nearest pyproject.toml")
    parser.add_argument("--exclude", action="append", metavar="GLOB",
                        help="globs to skip, instead of the configuration's and the defaults")
    parser.add_argument("--extend-exclude", action="append", metavar="GLOB",
                        help="globs to skip, in addition")
    parser.add_argument("--exit-zero", action="store_true",
                        help="exit 0 unless a path cannot be read or written")
    parser.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                        help="files upgraded in parallel (default: the number of CPUs)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no summary and no 'rewrote' lines: the reports only")
    parser.add_argument("--stdin-filename", metavar="PATH",
                        help="the name of the file read from standard input (-): its type, "
                             "configuration and the name in reports")


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("--jobs takes 1 or more")
    return value


def _upgrade(args: argparse.Namespace, io: Io) -> int:
    if args.list_codes:
        from .upgrade_formats import list_codes  # on first use

        io.stdout.write(list_codes())
        return EXIT_OK
    if not args.paths:
        io.error("upgrade takes the files and directories to upgrade: targetlang upgrade PATH...")
        return EXIT_USAGE
    mode = "write" if args.write else "check" if args.check else "diff"
    return run(args.paths, io, args=args, mode=mode)


# ---- one run ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Task:
    """One file to upgrade: where it is, how reports name it, its type and options."""

    path: str
    shown: str
    kind: str
    options: Any
    write: bool


def _display(path: str) -> str:
    """How a path is shown: relative to the current directory when it is inside it."""
    if path == "-":
        return path
    absolute = os.path.abspath(path)
    here = os.getcwd()
    if absolute == here or absolute.startswith(here.rstrip(os.sep) + os.sep):
        return os.path.relpath(absolute, here)
    return path


class Planner:
    """What each file is upgraded with: the command line over its configuration."""

    def __init__(self, args: argparse.Namespace, io: Io) -> None:
        from ..migration._upgrade.settings import Globs, load, nearest  # on first use

        nearest.cache_clear()  # a run reads the configuration as it is now
        self.args = args
        self.environment = io.environment(args)
        self.fixed = None
        if isinstance(getattr(args, "config", None), str):
            self.fixed = load(args.config, pyproject=False)
            if self.fixed is None:
              
                from ..migration._upgrade.settings import Settings  # on first use

                self.fixed = Settings(source=args.config,
                                      root=os.path.dirname(os.path.abspath(args.config)))
        here = os.getcwd()
        self.cli_exclude = Globs(args.exclude, here) if getattr(args, "exclude", None) else None
        self.cli_extend = Globs(args.extend_exclude or [], here) \
            if getattr(args, "extend_exclude", None) else None

    def settings(self, path: str) -> Any:
      
        from ..migration._upgrade.settings import Settings, nearest  # on first use

        if self.fixed is not None:
            return self.fixed
        directory = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
        return nearest(directory) or Settings(root=os.getcwd())

    def excluded(self, path: str, directory: bool, explicit: bool) -> bool:
        settings = self.settings(os.path.dirname(os.path.abspath(path)))
        if self.cli_extend is not None and self.cli_extend.match(path, parents=explicit):
            return True
        if self.cli_exclude is not None:
            return self.cli_exclude.match(path, parents=explicit)
        if explicit:
            user = settings.user_excludes()
            return bool(user) and bool(user.match(path))
        return bool(settings.excludes().match(path, parents=False))

    def options(self, path: str) -> Any:
        from .._lower.dialects import newest_release  # on first use
        from ..migration.upgrade import Options  # on first use

        settings = self.settings(path)
        args = self.args
        return Options(target_dialect=getattr(args, "to", None) or settings.to or
                       newest_release(),
                       runtime=bool(args.runtime if args.runtime is not None else
                                    settings.runtime),
                       full=args.full, environment=self.environment,
                       ignore=settings.ignored(path))


def run(paths: Iterable[str], io: Io, *, args: argparse.Namespace, mode: str,
        only: str | None = None) -> int:
    """Upgrade the files of ``paths`` and report; ``mode``: "diff" (a unified diff on
    standard output), "write" or "check"; ``only``: the one file type to read (explicit
    files are read as it)."""
    from ..migration._upgrade.settings import ConfigError  # on first use
    from ..migration._upgrade.walk import walk_entries  # on first use
    from ..migration.upgrade import FILE_TYPES, FileResult, Summary, file_type  # on first use
    from .upgrade_formats import Reporter  # on first use

    try:
        planner = Planner(args, io)
    except ConfigError as error:
        io.error(str(error))
        return EXIT_USAGE
    reporter = Reporter(io, args.format, mode, quiet=args.quiet)
    total = Summary()
    status = EXIT_OK
    paths = list(paths)
    if "-" in paths:
        if len(paths) > 1:
            io.error("- (standard input) cannot be given with other paths")
            return EXIT_USAGE
        return _stdin(io, args, mode, only, planner, reporter)
    tasks: list[Task | tuple[str, str]] = []
    try:
        for entry in walk_entries(paths, only, planner.excluded):
            if entry.error is not None:
                tasks.append((entry.path, entry.error))
                continue
            try:
                options = planner.options(entry.path)
            except ConfigError as error:
                io.error(str(error))
                return EXIT_USAGE
            tasks.append(Task(entry.path, _display(entry.path), entry.kind, options,
                              mode == "write"))
    except ConfigError as error:
        io.error(str(error))
        return EXIT_USAGE
    tasks = _one_program(tasks, paths)
    for item in _process(tasks, args.jobs):
        if isinstance(item, tuple):
            path, why = item
            reporter.unreadable(_display(path), why)
            total.unreadable(file_type(path) or "python" if not os.path.isdir(path)
                             else "python")
            status = EXIT_USAGE
            continue
        result = item
        assert isinstance(result, FileResult)
        total.add(result)
        reporter.file(result)
        if result.failed:
            status = EXIT_USAGE
        elif result.findings:
            status = max(status, EXIT_INVALID)
        if result.changed and mode == "check":
            status = max(status, EXIT_INVALID)
    reporter.finish(total, FILE_TYPES)
    if args.exit_zero and status != EXIT_USAGE:
        return EXIT_OK
    return status


def _one_program(tasks: list[Task | tuple[str, str]], paths: list[str]
                 ) -> list[Task | tuple[str, str]]:
    """The tasks with the run's Python files read as one program (every file type's task
    gets it: notebooks and code blocks import the project's modules too)."""
    import dataclasses

    from ..migration._program import Program  # on first use

    python = [t for t in tasks if isinstance(t, Task) and t.kind == "python"]
    if not python:
        return tasks
    first = python[0].options
    program = Program.of_files([t.path for t in python],
                               roots=[p for p in paths if os.path.isdir(p)],
                               target_dialect=first.target_dialect,
                               environment=first.environment)
    return [dataclasses.replace(t, options=dataclasses.replace(t.options, program=program))
            if isinstance(t, Task) else t for t in tasks]


def _stdin(io: Io, args: argparse.Namespace, mode: str, only: str | None, planner: Planner,
           reporter: Any) -> int:
    """``-``: standard input as one file (named by ``--stdin-filename``)."""
    from ..migration.upgrade import FILE_TYPES, Summary, file_type, upgrade_text  # on first use

    name = args.stdin_filename or "-"
    kind = only or (file_type(name) if args.stdin_filename else None) or "python"
    text = io.read_all()
    if args.stdin_filename and planner.excluded(name, False, True):
        if mode == "write":
            io.stdout.write(text)
        return EXIT_OK
    result = upgrade_text(text, path=_display(name), file_type=kind,
                          options=planner.options(name if args.stdin_filename else "."))
    total = Summary()
    total.add(result)
    if mode == "write":
        io.stdout.write(result.text)
        reporter.file(result, diff=False)
    else:
        reporter.file(result)
    reporter.finish(total, FILE_TYPES)
    status = EXIT_USAGE if result.failed else EXIT_INVALID if result.findings or (
        mode == "check" and result.changed) else EXIT_OK
    if args.exit_zero and status != EXIT_USAGE:
        return EXIT_OK
    return status


# ---- the files, one by one or in parallel ---------------------------------------------------

def _work(task: Task) -> Any:
    """One file's upgrade (in a worker process, or here): its result, or (path, why)."""
    from ..migration.upgrade import upgrade_file  # on first use

    try:
        with _BUSY:  # a worker whose parent is gone finishes this file first
            result = upgrade_file(task.path, file_type=task.kind, write=task.write,
                                  options=task.options, shown=task.shown)
    except OSError as error:  # cannot read or write it: reported, the others go on
        return task.path, error.strerror or str(error)
    # what goes back to the parent (pickled, with --jobs): the texts of changed files only
    result.data = b""
    if not result.changed:
        result.original = result.text = ""
    return result


#: held while a file is upgraded (and written)
_BUSY = threading.Lock()


def _shared_program(files: Sequence[Task]) -> tuple[int, Any, dict[str, Any]] | None:
    """The run's program as a worker adopts it: its number here, its index and options."""
    program = next((t.options.program for t in files if t.options.program is not None), None)
    if program is None:
        return None
    from ..migration._program import register  # on first use

    return register(program), program.index, {"target_dialect": program.target_dialect,
                                               "environment": program.environment}


def _worker_start(parent: int, shared: tuple[int, Any, dict[str, Any]] | None = None) -> None:
    """A worker leaves Ctrl-C to the parent (which stops the pool), and ends when the parent
    is gone (killed outright, it cannot stop the pool: its workers would wait forever); it
    takes the run's program (inherited, or rebuilt from its index)."""
    import signal
    import time

    if shared is not None:
        from ..migration._program import adopt  # on first use

        adopt(*shared)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        _BUSY.acquire()  # the file being written is finished: no temporary file stays
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _process(tasks: Sequence[Task | tuple[str, str]], jobs: int | None) -> Iterator[Any]:
    """The results in the order of ``tasks``: files in parallel when there are enough."""
    work: Callable[[Task], Any] = _work
    files = [t for t in tasks if isinstance(t, Task)]
    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or len(files) < 8:
        for task in tasks:
            yield task if isinstance(task, tuple) else work(task)
        return
    import concurrent.futures
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    shared = _shared_program(files)
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, len(files)),
                                                mp_context=context,
                                                initializer=_worker_start,
                                                initargs=(os.getpid(), shared)) as pool:
        try:
            done = iter(pool.map(work, files, chunksize=max(1, min(16, len(files) //
                                                                  (jobs * 4)))))
            for task in tasks:
                yield task if isinstance(task, tuple) else next(done)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise

