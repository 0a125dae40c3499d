"""The configuration of ``targetlang upgrade``: ``[tool.targetlang]`` in the nearest
``pyproject.toml`` above a path (or a file named by ``--config``), and the globs that
exclude paths, as ruff reads its own.

Keys: ``to`` (a release), ``runtime`` (bool), ``exclude`` (globs that replace the default
ones), ``extend-exclude`` (globs added to them), ``ignore`` (codes, prefixes of codes or
``ALL``), ``per-file-ignores`` (a table: glob -> codes). A glob without ``/`` matches a
file or directory name anywhere (``fixtures``, ``*_expected.yaml``); one with ``/``
matches the path from the configuration's directory (``tests/data/**``).
"""

from __future__ import annotations

import fnmatch
import functools
import importlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .codes import unknown_codes

__all__ = ["DEFAULT_EXCLUDE", "ConfigError", "Globs", "Settings", "load", "nearest"]

#: What a directory walk skips unless ``exclude`` says otherwise: hidden files and
#: directories, build output, caches and installed packages.
DEFAULT_EXCLUDE = (".*", "build", "dist", "__pycache__", "node_modules", "site-packages",
                   "venv", "__pypackages__", "_build", "buck-out", "htmlcov", "*.egg-info")
_KEYS = ("to", "runtime", "exclude", "extend-exclude", "ignore", "per-file-ignores")


class ConfigError(ValueError):
    """A configuration the upgrade cannot use: the file and what is wrong."""


class Globs:
    """Globs matched against paths relative to ``root`` (and names, for a glob without
    ``/``), each path's parent directories included."""

    def __init__(self, patterns: Iterable[str], root: str) -> None:
        self.patterns = tuple(patterns)
        self.root = root
        names, paths = [], []
        for pattern in self.patterns:
            stripped = pattern.strip("/")
            if "/" in stripped:
                paths.append(_glob_regex(stripped))
            elif stripped:
                names.append(fnmatch.translate(stripped))
        self._names = re.compile("|".join(names)) if names else None
        self._paths = re.compile("|".join(paths)) if paths else None

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def match(self, path: str, *, parents: bool = True) -> bool:
        """Whether ``path`` (or, with ``parents``, a directory it is in below ``root``) is
        matched."""
        relative = os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")
        if relative.startswith("../") or relative == "..":
            relative = os.path.abspath(path).replace(os.sep, "/").lstrip("/")
        parts = relative.split("/") if relative != "." else []
        candidates = range(1, len(parts) + 1) if parents else [len(parts)]
        for end in candidates:
            if end <= 0:
                continue
            if self._names is not None and self._names.fullmatch(parts[end - 1]):
                return True
            if self._paths is not None and self._paths.fullmatch("/".join(parts[:end])):
                return True
        return False


@functools.lru_cache(maxsize=256)
def _globs(patterns: tuple[str, ...], root: str) -> Globs:
    """The globs of a configuration, compiled once (a walk asks of every path)."""
    return Globs(patterns, root)


def _glob_regex(pattern: str) -> str:
    """A regex for a path glob: ``**`` any directories, ``*`` and ``?`` within one name."""
    out = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:[^/]*/)*")
            index += 3
        elif pattern.startswith("**", index):
            out.append(".*")
            index += 2
        elif pattern[index] == "*":
            out.append("[^/]*")
            index += 1
        elif pattern[index] == "?":
            out.append("[^/]")
            index += 1
        elif pattern[index] == "[":
            close = pattern.find("]", index + 1)
            if close < 0:
                out.append(re.escape("["))
                index += 1
            else:
                body = pattern[index + 1:close].replace("\\", "\\\\")
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                index = close + 1
        else:
            out.append(re.escape(pattern[index]))
            index += 1
    return "".join(out)


@dataclass(frozen=True)
class Settings:
    """One configuration: where it came from, the directory its globs are relative to, and
    its values (None: not set)."""

    source: str | None = None
    root: str = field(default_factory=os.getcwd)
    to: str | None = None
    runtime: bool | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def excludes(self) -> Globs:
        """The globs a walk skips (defaults, or ``exclude``, plus ``extend-exclude``)."""
        base = DEFAULT_EXCLUDE if self.exclude is None else self.exclude
        return _globs((*base, *self.extend_exclude), self.root)

    def user_excludes(self) -> Globs:
        """The globs the user gave (they skip a file named on the command line too)."""
        return _globs((*(self.exclude or ()), *self.extend_exclude), self.root)

    def ignored(self, path: str) -> frozenset[str]:
        """The codes ignored in the file at ``path``."""
        codes = set(self.ignore)
        for pattern, more in self.per_file_ignores:
            if _globs((pattern,), self.root).match(path, parents=True):
                codes.update(more)
        return frozenset(codes)


def _toml_loads() -> Any:
    for name in ("tomllib", "tomli"):
        try:
            return importlib.import_module(name).loads
        except ImportError:
            continue
    return None


def _strings(value: Any, key: str, source: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: [tool.targetlang] {key} must be a list of strings")
    return tuple(value)


def _codes(value: Any, key: str, source: str) -> tuple[str, ...]:
    codes = tuple(c.strip().upper() for c in _strings(value, key, source))
    wrong = unknown_codes(list(codes))
    if wrong:
        raise ConfigError(f"{source}: [tool.targetlang] {key}: unknown code "
                          f"{', '.join(wrong)} (targetlang upgrade --list-codes lists them)")
    return codes


def from_table(table: dict[str, Any], source: str, root: str) -> Settings:
    """Settings from a ``[tool.targetlang]`` table (keys with ``-`` or ``_``)."""
    values: dict[str, Any] = {}
    for raw_key, value in table.items():
        key = raw_key.replace("_", "-")
        if key not in _KEYS:
            close = [k for k in _KEYS if k.split("-")[0] in key or key in k]
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{source}: [tool.targetlang] has no key {raw_key!r}{hint}; "
                              f"it takes {', '.join(_KEYS)}")
        values[key] = value
    to = values.get("to")
    if to is not None:
        from ...target import dialects  # the releases there are

        if not isinstance(to, str) or to not in dialects():
            raise ConfigError(f"{source}: [tool.targetlang] to = {to!r} is not a release "
                              f"(choose from {', '.join(dialects())})")
    runtime = values.get("runtime")
    if runtime is not None and not isinstance(runtime, bool):
        raise ConfigError(f"{source}: [tool.targetlang] runtime must be true or false")
    per_file = values.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{source}: [tool.targetlang] per-file-ignores must be a table "
                          "of glob = [codes]")
    return Settings(
        source=source, root=root, to=to, runtime=runtime,
        exclude=_strings(values["exclude"], "exclude", source) if "exclude" in values
        else None,
        extend_exclude=_strings(values.get("extend-exclude", []), "extend-exclude", source),
        ignore=_codes(values.get("ignore", []), "ignore", source),
        per_file_ignores=tuple((glob, _codes(codes, f"per-file-ignores {glob!r}", source))
                               for glob, codes in per_file.items()))


def load(path: str, *, pyproject: bool | None = None) -> Settings | None:
    """The settings of a TOML file: its ``[tool.targetlang]`` table (a ``pyproject.toml``
    without one gives None), or for another file its top-level keys when it has no such
    table."""
    loads = _toml_loads()
    try:
        with open(path, encoding="utf-8") as stream:  # noqa: PTH123
            text = stream.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot be read ({error})") from None
    if "targetlang" not in text and (pyproject or os.path.basename(path) == "pyproject.toml"):
        return None
    if loads is None:
        raise ConfigError(f"{path}: reading TOML needs Python 3.11 or the tomli package")
    try:
        document = loads(text)
    except ValueError as error:
        raise ConfigError(f"{path}: not TOML: {error}") from None
    table = document.get("tool", {}).get("targetlang") if isinstance(
        document.get("tool"), dict) else None
    root = os.path.dirname(os.path.abspath(path))
    if table is None:
        if pyproject or os.path.basename(path) == "pyproject.toml":
            return None
        table = document
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.targetlang] must be a table")
    return from_table(table, path, root)


@lru_cache(maxsize=4096)
def nearest(directory: str) -> Settings | None:
    """The settings of the nearest ``pyproject.toml`` with a ``[tool.targetlang]`` table
    in ``directory`` or above it (None: there is none)."""
    current = os.path.abspath(directory)
    while True:
        candidate = os.path.join(current, "pyproject.toml")
        if os.path.isfile(candidate):
            found = load(candidate, pyproject=True)
            if found is not None:
                return found
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
