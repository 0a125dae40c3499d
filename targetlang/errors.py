"""The error family of targetlang: every failure to read a target is a ``TargetError``."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "TargetError",
    "TargetSyntaxError",
    "UnknownKindError",
    "UnknownAttributeError",
    "AttributeTypeError",
    "DuplicateAttributeError",
    "TargetValueError",
    "ConfigError",
]


class TargetError(ValueError):
    """A target text or config that cannot be read.

    ``message`` says what is wrong, ``source`` is the text that was parsed (or None),
    ``offset`` is a 0-based index into ``source`` (``len(source)`` means "at the end"),
    or None when no single place is to blame. ``path`` is the JSON path of the value at
    fault (``host.devices[1].arch``) for errors about JSON input, else None.
    ``str(err)`` shows the source line with a caret under the offset.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        offset: int | None = None,
        path: str | None = None,
    ) -> None:
        if offset is not None and source is not None:
            offset = max(0, min(offset, len(source)))
        elif source is None:
            offset = None
        self._message = message
        self._hint: tuple[str, tuple[str, ...]] | None = None
        self.source = source
        self.offset = offset
        self.path = path
        super().__init__(message)

    def _copy(self) -> TargetError:
        """The same error as a new object (no traceback): cheaper than copy.copy."""
        new = self.__class__.__new__(self.__class__)
        new.__dict__.update(self.__dict__)
        new.args = self.args
        return new

    def _with_suggestion(self, name: str, candidates: tuple[str, ...]) -> TargetError:
        """Offer the closest of ``candidates`` to ``name`` (computed only when read)."""
        self._hint = (name, candidates)
        return self

    @property
    def suggestion(self) -> str | None:
        """The name that was probably meant ("did you mean"), or None."""
        if self._hint is None:
            return None
        name, candidates = self._hint
        return closest(name, candidates)

    @property
    def message(self) -> str:
        """What is wrong (with a did-you-mean suggestion where one is close)."""
        suggestion = self.suggestion
        return self._message if suggestion is None else f"{self._message} (did you mean {suggestion!r}?)"

    def __str__(self) -> str:
        text = self.message
        if self.path:
            text = f"{text} (at {self.path})"
        if self.source is None:
            return text
        if self.offset is None:
            return f"{text}\n    {_one_line(self.source)}"
        line_start = self.source.rfind("\n", 0, self.offset) + 1
        line_end = self.source.find("\n", self.offset)
        if line_end < 0:
            line_end = len(self.source)
        line = self.source[line_start:line_end]
        column = self.offset - line_start
        where = ""
        if line_start or line_end < len(self.source):
            row = self.source.count("\n", 0, self.offset) + 1
            where = f" (at line {row}, column {column + 1})"
        # A caret lines up only when every character before it is one column wide.
        pad = "".join("\t" if c == "\t" else " " for c in line[:column])
        return f"{text}{where}\n    {_visible(line)}\n    {pad}^"

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self._message, self.source, self.offset, self.path,
                           self._hint))


def _rebuild(
    cls: type[TargetError], message: str, source: str | None, offset: int | None,
    path: str | None, hint: tuple[str, tuple[str, ...]] | None = None,
) -> TargetError:
    error = cls(message, source=source, offset=offset, path=path)
    error._hint = hint
    return error


# ---- the wording of messages: JSON paths, suggestions, type names --------------------------

#: How alike (difflib's ratio) a name must be to be offered as "did you mean": one cutoff
#: for the whole library, so that every message suggests by the same rule.
CLOSE_ENOUGH = 0.75


def json_path(path: str, key: str | int) -> str:
    """The JSON path of member ``key`` under ``path`` (``host.devices[1].arch``)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``name`` was probably meant to be, or None."""
    import difflib  # on first use: only messages need it, and importing it costs start-up time

    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=CLOSE_ENOUGH)
    return close[0] if close else None


def did_you_mean(name: str, candidates: Iterable[str], quote: str = "repr") -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or ``""``; ``quote='"'`` writes
    ``"x"`` (the configuration layer's messages quote names so)."""
    close = closest(name, candidates)
    if close is None:
        return ""
    return f" (did you mean {close!r}?)" if quote == "repr" else f" (did you mean {quote}{close}{quote}?)"


def type_name(value: object) -> str:
    """A value's type in JSON's words, the one wording of every "must be X, not Y" message."""
    from collections.abc import Mapping

    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    for kind, name in ((int, "int"), (float, "float"), (str, "string"), (Mapping, "object"),
                       ((list, tuple), "array")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def show(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for messages; never raises.

    ``repr`` itself can fail or take long on hostile values (an integer of more than 4300
    digits, a list nested thousands deep, a string of megabytes).
    """
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 64 * 3:  # about 58 decimal digits: say how big, not what
            return f"<an integer of about {int(value.bit_length() * 0.30103) + 1} digits>"
        return repr(value)
    if isinstance(value, str):
        text = repr(value[:limit])
        return text if len(value) <= limit else text + "..."
    if isinstance(value, (list, tuple, dict)):
        return f"<{type_name(value)} of {len(value)} items>" if value else repr(value)
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not turn a TargetError into something else
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


def _visible(line: str) -> str:
    """The line with control characters other than tab shown as spaces (keeps the caret aligned)."""
    return "".join(c if c == "\t" or c.isprintable() else " " for c in line)


def _one_line(source: str) -> str:
    return _visible(source.replace("\n", " "))


class TargetSyntaxError(TargetError):
    """The text is not in the target language: quotes, dashes, empty key or value."""


class UnknownKindError(TargetError):
    """The target kind (or tag) is not defined in the dialect."""


class UnknownAttributeError(TargetError):
    """The kind has no attribute of that name."""


class AttributeTypeError(TargetError):
    """A value does not have, or cannot be read as, the attribute's type."""


class DuplicateAttributeError(TargetError):
    """An attribute is given more than once."""


class TargetValueError(TargetError):
    """A well-typed value that the kind's target parser refuses (``cuda -arch=compute_80``)."""


class ConfigError(TargetError):
    """A compilation configuration (targets, host, executor, runtime) that does not hold together.

    ``path`` is the JSON path of the member at fault (``executors.dsp.targets[1]``), and
    ``str(err)`` starts with it: ``executors.dsp.targets[1]: no target named "gpu2"``.
    """

    def __str__(self) -> str:
        text = super().__str__()
        if self.path:
            # The path leads, as in a linter's report; the base class appends it.
            text = f"{self.path}: " + text.replace(f" (at {self.path})", "", 1)
        return text
