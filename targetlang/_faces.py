"""The old public paths of the tools (``targetlang.config``, ``targetlang.logs``, ...), kept
working since issue 23 grouped the tools by job: each is a face of the module now holding the
code, with its names, ``__all__`` and docstring, and its other names on first use."""

from __future__ import annotations

from types import ModuleType
from typing import Any


def home_attribute(home: ModuleType, face: str, name: str) -> Any:
    """``home``'s ``name`` for its face module ``face`` (a module's ``__getattr__``): a name
    the face does not list in ``__all__`` (``targetlang.components.find``; a private one, such
    as ``targetlang.config._from_json``, so that what was pickled before still loads)."""
    if name.startswith("__") or not hasattr(home, name):
        raise AttributeError(f"module {face!r} has no attribute {name!r}")
    return getattr(home, name)
