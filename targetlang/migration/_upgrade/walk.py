"""Which files ``targetlang upgrade`` reads: the paths named, and the files of the
directories named, walked as ruff and black walk them."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .settings import DEFAULT_EXCLUDE, Globs
from .text import TEXT_ENDINGS, TEXT_NAMES

__all__ = ["FILE_TYPES", "Entry", "file_type", "walk", "walk_entries"]

#: File name endings and the file type that reads them.
FILE_TYPES = {".py": "python", ".ipynb": "notebook", ".md": "markdown", ".rst": "rst",
              ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".sh": "shell"}


def file_type(path: str) -> str | None:
    """The file type a path's name says, or None."""
    name = os.path.basename(path).lower()
    for ending, kind in FILE_TYPES.items():
        if name.endswith(ending):
            return kind
    # files read only to report what they hold (text, logs, build files, other languages)
    if name.endswith(TEXT_ENDINGS) or name in TEXT_NAMES or name.startswith("dockerfile."):
        return "text"
    return None


def guess_type(path: str) -> str:
    """A file named explicitly whose name says nothing: its ``#!`` line, else Python."""
    try:
        if not os.path.isfile(path):  # a FIFO or a device: never opened to look
            return "python"
        with open(path, "rb") as stream:  # noqa: PTH123
            first = stream.readline(200)
    except OSError:
        return "python"
    if first.startswith(b"#!") and any(shell in first for shell in (b"sh", b"bash", b"zsh")) \
            and b"python" not in first:
        return "shell"
    return "python"


@dataclass(frozen=True, slots=True)
class Entry:
    """One path of a walk: a file to read as ``kind``, or one that cannot be (``error``)."""

    path: str
    kind: str
    error: str | None = None


#: Whether a path is excluded: (path, is_directory, named_on_the_command_line) -> bool.
Excluded = Callable[[str, bool, bool], bool]


def _default_excluded(path: str, directory: bool, explicit: bool) -> bool:
    if explicit:
        return False
    return Globs(DEFAULT_EXCLUDE, os.getcwd()).match(path, parents=False)


def _virtual_environment(path: str) -> bool:
    return os.path.exists(os.path.join(path, "pyvenv.cfg"))


def walk_entries(paths: Iterable[str], only: str | None = None,
                 excluded: Excluded | None = None) -> Iterator[Entry]:
    """Each file to read, in the order given; directories walked in sorted order without
    recursion (any depth), only regular files opened; what should not be read (excluded
    globs, virtual environments, git-ignored paths, links met in the walk) skipped, and what
    cannot be read (a directory that cannot be listed, a FIFO or socket met in the walk)
    given with its ``error``. A path named explicitly is read unless the user's globs
    exclude it (as ``--force-exclude`` does for ruff)."""
    excluded = excluded or _default_excluded
    for path in paths:
        if not os.path.isdir(path):
            if not excluded(path, False, True):
                yield Entry(path, only or file_type(path) or guess_type(path))
            continue
        found: list[Entry] = []
        stack = [path]
        while stack:
            directory = stack.pop()
            try:
                with os.scandir(directory) as listing:
                    children = sorted(listing, key=lambda e: e.name)
            except OSError as error:
                found.append(Entry(directory, "directory",
                                   f"cannot be listed: {error.strerror or error}"))
                continue
            subdirectories = []
            for child in children:
                try:
                    if child.is_symlink():
                        continue  # a link: walked where it lives, if at all
                    is_directory = child.is_dir(follow_symlinks=False)
                    if is_directory:
                        if not excluded(child.path, True, False) and \
                                not _virtual_environment(child.path):
                            subdirectories.append(child.path)
                        continue
                    kind = file_type(child.name)
                    if kind is None or kind != (only or kind) or \
                            excluded(child.path, False, False):
                        continue
                    if not child.is_file(follow_symlinks=False):
                        what = _not_regular(child.path)
                        found.append(Entry(child.path, kind, f"not a regular file ({what}); "
                                                             "not read"))
                        continue
                except OSError as error:
                    found.append(Entry(child.path, "file", error.strerror or str(error)))
                    continue
                found.append(Entry(child.path, kind))
            stack.extend(reversed(subdirectories))
        ignored = _git_ignored(path, [e.path for e in found if e.error is None])
        yield from (e for e in found if e.path not in ignored)


def _not_regular(path: str) -> str:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "gone"
    return "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else \
        "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file"


def walk(paths: Iterable[str], only: str | None = None) -> Iterator[tuple[str, str]]:
    """(path, file type) of each file to read (:func:`walk_entries` without the paths
    that cannot be read)."""
    for entry in walk_entries(paths, only):
        if entry.error is None:
            yield entry.path, entry.kind


def _git_ignored(directory: str, files: list[str]) -> set[str]:
    """The ``files`` git ignores, when ``directory`` is in a git work tree (else none)."""
    git = shutil.which("git")
    if git is None or not files:
        return set()
    try:
        inside = subprocess.run([git, "-C", directory, "rev-parse", "--is-inside-work-tree"],
                                capture_output=True, check=False, timeout=60)
        if inside.returncode != 0 or inside.stdout.strip() != b"true":
            return set()
        absolute = {os.path.abspath(f): f for f in files}
        done = subprocess.run([git, "-C", directory, "check-ignore", "--stdin", "-z"],
                              input=b"\0".join(os.fsencode(a) for a in absolute) + b"\0",
                              capture_output=True, check=False, timeout=600)
    except (OSError, subprocess.SubprocessError):
        return set()
    if done.returncode not in (0, 1):
        return set()
    return {absolute.get(os.fsdecode(name), os.fsdecode(name))
            for name in done.stdout.split(b"\0") if name}
