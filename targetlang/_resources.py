"""The files shipped with the package: data tables and grammars, read in one place.

The grammars live in the repository's ``grammar/`` folder, installed as the package
``targetlang.grammar``; when targetlang runs from a source tree that was not installed
(``python -m targetlang`` in a checkout), they are read from that folder directly.
"""

from __future__ import annotations


def data_text(name: str) -> str:
    """The text of ``targetlang/_data/<name>``."""
    from importlib import resources  # on first use: importing it costs ~10 ms

    return resources.files("targetlang").joinpath("_data").joinpath(name).read_text("utf-8")


def grammar_text(name: str) -> str:
    """The text of ``grammar/<name>`` (installed as ``targetlang.grammar``)."""
    from importlib import resources

    try:
        return resources.files("targetlang.grammar").joinpath(name).read_text("utf-8")
    except ModuleNotFoundError:
        from pathlib import Path

        source = Path(__file__).resolve().parent.parent / "grammar" / name
        return source.read_text("utf-8")
