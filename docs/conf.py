"""Sphinx configuration of the documentation site (build: python3 scripts/build_docs.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
# The package the tests import: the installed one (an editable install is this checkout; an
# unpacked sdist's tests run against the wheel built from it, whose targetlang.grammar the
# bare source tree lacks), else this checkout as it is.
if importlib.util.find_spec("targetlang") is None:
    sys.path.insert(0, str(DOCS.parent))

import targetlang  # noqa: E402

project = "targetlang"
author = "the targetlang authors"
copyright = "the targetlang authors, Apache-2.0"  # noqa: A001
release = version = targetlang.__version__

extensions = [
    "myst_parser",  # the pages are Markdown (their doctests run in tests/test_docs.py)
    "sphinx.ext.autodoc",  # the API reference is read from the docstrings
    "targetlang_api",  # one autodoc section per public module, found by walking the package
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "_static"]
myst_heading_anchors = 4  # [text](page.md#a-heading) links, checked like any reference
myst_enable_extensions = ["colon_fence"]
# A short name in a docstring that two entries answer (targetlang.Target is also
# targetlang.target.Target: the contract's name and the module's) links to the first; an
# unknown name is still an error.
suppress_warnings = ["ref.python"]
nitpicky = True  # every reference resolves (the build runs with -W -n: warnings are errors)
# Names in signatures that belong to other projects (no intersphinx: the build is offline).
nitpick_ignore_regex = [
    ("py:class", r"(collections\.abc|typing|typing_extensions|_typeshed|os|io|pathlib|re|"
                 r"argparse|enum|types|lark|hypothesis(\.strategies)?)\..*"),
    ("py:class", r"(Path|PathLike|TextIO|IO|Pattern|Match|Namespace|ArgumentParser|"
                 r"Enum|SearchStrategy|Tree|Token|Lark|Callable|Iterable|Iterator|Mapping|"
                 r"Sequence|Hashable|Any|Literal|NoReturn|Self|TypeAlias|TypeVar|"
                 r"MappingProxyType|Generator|Collection|Set|NamedTuple|Protocol|"
                 r"SupportsIndex|Buffer|Final|ClassVar)"),
    ("py:class", r"(str|int|float|bool|bytes|object|type|dict|list|tuple|set|frozenset|"
                 r"None|ValueError|Exception|UserWarning|Warning|BaseException|"
                 r"NotImplementedType|EllipsisType|ellipsis)"),
]
# Every name a module's __all__ lists has an entry, with a docstring or without one.
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_inherit_docstrings = False  # Mapping.get's "D.get(k[,d]) -> ..." is not a signature



def setup(app: object) -> None:
    from pygments.lexers.special import TextLexer
    from sphinx.application import Sphinx

    assert isinstance(app, Sphinx)
    app.add_lexer("lark", TextLexer)  # grammar/*.lark shown as written; Pygments has no Lark


html_theme = "furo"
html_title = f"targetlang {release}"
html_static_path = ["_static"]
