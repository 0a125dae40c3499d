"""Small helpers every stage shares: JSON paths and did-you-mean suggestions (one place each)."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CLOSE_ENOUGH", "closest", "did_you_mean", "json_path"]

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
