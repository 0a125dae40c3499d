"""Which files ``targetlang upgrade`` reads: the paths named, and the files of the
directories named, walked as ruff and black walk them."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable, Iterator

__all__ = ["FILE_TYPES", "file_type", "walk"]

#: File name endings and the file type that reads them.
FILE_TYPES = {".py": "python", ".ipynb": "notebook", ".md": "markdown", ".rst": "rst",
              ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".sh": "shell"}
#: Directories that hold no project source: build output, caches, installed packages.
_SKIPPED = {"build", "dist", "__pycache__", "node_modules", "site-packages", "venv",
            "__pypackages__", "_build", "buck-out", "htmlcov"}


def file_type(path: str) -> str | None:
    """The file type a path's name says, or None."""
    name = os.path.basename(path).lower()
    for ending, kind in FILE_TYPES.items():
        if name.endswith(ending):
            return kind
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


def _skipped_directory(parent: str, name: str) -> bool:
    if name.startswith(".") or name in _SKIPPED or name.endswith(".egg-info"):
        return True
    full = os.path.join(parent, name)
    return os.path.exists(os.path.join(full, "pyvenv.cfg")) or \
        os.path.islink(full)  # a link to a directory: walked where it lives, if at all


def walk(paths: Iterable[str], only: str | None = None) -> Iterator[tuple[str, str]]:
    """(path, file type) of each file to read, in the order given; directories walked in
    sorted order, what they should not hold skipped (hidden, virtual environments, build
    output, git-ignored). A path named explicitly is always read (as ``only`` when given);
    in directories, ``only`` keeps the files of that type."""
    for path in paths:
        if not os.path.isdir(path):
            yield path, only or file_type(path) or guess_type(path)
            continue
        found: list[tuple[str, str]] = []
        for parent, directories, files in os.walk(path):
            directories[:] = sorted(d for d in directories if not _skipped_directory(parent, d))
            for name in sorted(files):
                kind = file_type(name)
                full = os.path.join(parent, name)
                if kind is not None and kind == (only or kind) and not name.startswith(".") \
                        and not os.path.islink(full):
                    found.append((full, kind))
        ignored = _git_ignored(path, [full for full, _ in found])
        yield from ((full, kind) for full, kind in found if full not in ignored)


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
