"""The data tables shipped with the package (``targetlang/_data/``), read in one place.

(The grammars are the syntax stage's: ``_syntax.grammar.grammar_text``.)
"""

from __future__ import annotations


def data_text(name: str) -> str:
    """The text of ``targetlang/_data/<name>``."""
    from importlib import resources  # on first use: importing it costs ~10 ms

    return resources.files("targetlang").joinpath("_data").joinpath(name).read_text("utf-8")
