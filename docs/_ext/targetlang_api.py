"""The API reference, generated: ``{targetlang-api}`` writes an autodoc section for the public
names of ``targetlang`` (its ``__all__``) and one for each public module, found by walking the
package, so a module that moves or appears is documented without editing a page."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import re
import sys
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

logger = logging.getLogger(__name__)


def public_modules(package: str = "targetlang") -> list[str]:
    """Every importable module of the package whose dotted name has no ``_`` part, and the
    subpackages ``dir(targetlang)`` names (``targetlang.grammar``, which an editable install
    maps from the top-level ``grammar/`` folder, where the walk does not see it)."""
    root = importlib.import_module(package)
    found = {package}
    for info in pkgutil.walk_packages(root.__path__, prefix=package + "."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        found.add(info.name)
    found |= {f"{package}.{name}" for name in dir(root) if not name.startswith("_")
              and importlib.util.find_spec(f"{package}.{name}") is not None}
    return sorted(found)


def defined_elsewhere(module: str) -> dict[str, str]:
    """The classes and functions ``module`` lists in ``__all__`` but defines elsewhere, with
    the module that defines each."""
    value = importlib.import_module(module)
    found = {}
    for name in getattr(value, "__all__", ()):
        member = getattr(value, name)
        if (inspect.isclass(member) or inspect.isroutine(member)) and member.__module__ != module:
            found[name] = str(member.__module__)
    return found


def reexports(module: str) -> set[str]:
    """The names of :func:`defined_elsewhere` whose home is a public module, which documents
    them; one from a private module (upgrade's ``Change``) is documented here."""
    return {name for name, home in defined_elsewhere(module).items()
            if not any(part.startswith("_") for part in home.split("."))}


def data_names(module: str) -> list[str]:
    """The names in ``module.__all__`` that are neither classes, functions nor modules."""
    value = importlib.import_module(module)
    return [name for name in getattr(value, "__all__", ())
            if not any(test(getattr(value, name))
                       for test in (inspect.isclass, inspect.isroutine, inspect.ismodule))]


def exists_unexported(module: str | None, target: str) -> bool:
    """True for a name of the library that is not public API: a module's name left out of its
    ``__all__``, or a type hint that autodoc could not read as a whole (``list[tuple[int``)."""
    if "[" in target or "]" in target:
        return True
    owner, _, name = target.rpartition(".")
    for place in ([owner] if owner else []) + ([module] if module else []):
        try:
            if hasattr(importlib.import_module(place), name):
                return True
        except ImportError:
            continue
    if owner:
        return False
    # A short name in the docstring of a function the top-level section documents
    # (targetlang.migrate's "source_target"): defined in one of the package's modules.
    return any(getattr(getattr(loaded, name, None), "__module__", None) == loaded_name
               for loaded_name, loaded in list(sys.modules.items())
               if loaded_name.startswith("targetlang") and loaded is not None)


class TargetlangApi(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        lines: list[str] = []
        documented: set[str] = set()  # private homes already given an entry (pyscripts' and
        # upgrade's Finding are one class: its entry is in the first module that lists it)
        for module in public_modules():
            title = f"``{module}``"
            lines += [title, "-" * len(title), ""]
            if module == "targetlang":
                # The contract's names (docs/api.md): what `import targetlang` offers, documented
                # as targetlang.NAME wherever they are defined.
                lines += [f".. automodule:: {module}", "   :members:", "   :imported-members:",
                          ""]
            else:
                # A name the module re-exports from another (config's ConfigError) has its
                # entry where it is defined.
                # Values (constants, type aliases) have no __module__ to tell where they were
                # defined: each one __all__ lists gets its entry here, written out.
                values = data_names(module)
                elsewhere = defined_elsewhere(module)
                seen = {name for name, home in elsewhere.items() if f"{home}.{name}" in documented}
                documented |= {f"{home}.{name}" for name, home in elsewhere.items()}
                excluded = sorted(reexports(module) | set(values) | seen)
                lines += [f".. automodule:: {module}"]
                if set(defined_elsewhere(module)) - set(excluded):
                    lines += ["   :imported-members:"]  # limited to __all__, as always
                if excluded:
                    lines += [f"   :exclude-members: {', '.join(excluded)}"]
                lines += [""]
                for name in values:
                    lines += [f".. autodata:: {module}.{name}", ""]
        container = nodes.section()
        container.document = self.state.document
        self.state.nested_parse(StringList(lines, source="targetlang-api"), 0, container,
                                match_titles=True)
        return list(container.children)


def resolve_short_name(app: Sphinx, env: BuildEnvironment, node: pending_xref,
                       contnode: nodes.TextElement) -> nodes.Element | None:
    """Docstrings name the library's objects as a reader would (:class:`Target`,
    :meth:`from_config`, a type hint under ``TYPE_CHECKING``); Sphinx looks only in the current
    module. Find the one documented object so named: ``targetlang.NAME`` first, then a unique
    ``...NAME`` (a method of the current class, say). A private name (``_ExecutorOrRuntime``,
    ``targetlang._schema.facts.KindSpec``) is shown as code, not linked: it has no page. Any
    other unknown name stays a warning, so the build fails on it."""
    if node.get("refdomain") != "py":
        return None
    target = str(node["reftarget"])
    module = node.get("py:module")
    if any(part.startswith("_") for part in target.split(".")):
        return contnode
    domain = env.get_domain("py")
    objects = domain.objects  # type: ignore[attr-defined]
    short = target.rsplit(".", 1)[-1]
    classname = node.get("py:class")
    candidates = [f"targetlang.{target}", f"targetlang.{short}"]
    if classname:
        candidates.insert(0, f"{node.get('py:module')}.{classname}.{short}")
    found = next((name for name in candidates if name in objects), None)
    if found is None:
        suffixes = [name for name in objects if name.endswith("." + target)]
        here = [name for name in suffixes if module and name.startswith(module + ".")]
        if len(here) == 1 or len(suffixes) == 1:
            found = (here or suffixes)[0]
        elif not suffixes and exists_unexported(module, target):
            return contnode
        else:
            return None
    entry = objects[found]
    return make_refnode(app.builder, str(node["refdoc"]), entry.docname, entry.node_id,
                        contnode, found)


def drop_type_docstring(app: Sphinx, what: str, name: str, obj: object, options: object,
                        lines: list[str]) -> None:
    """A value's entry shows its own documentation, never its type's (a dict's ``dict() -> new
    empty dictionary``, which autodoc takes when the value has no ``#:`` comment)."""
    own = type(obj).__doc__
    if what in ("data", "attribute") and isinstance(own, str) and lines \
            and "\n".join(lines).strip() == inspect.cleandoc(own).strip():
        lines.clear()


#: What Python writes where a class has no documentation of its own: a NamedTuple field's
#: "Alias for field number 0", a dataclass's generated signature.
_GENERATED_DOC = re.compile(r"Alias for field number \d+$|\w+\(.*\)$")


def require_docstring(app: Sphinx, what: str, name: str, obj: object, options: object,
                      lines: list[str]) -> None:
    """The reference is the contract: each public object it lists says what it is. One with
    no documentation of its own is a warning, which the build (``-W``) turns into a failure."""
    text = "\n".join(lines).strip()
    if not text or _GENERATED_DOC.fullmatch(text):
        logger.warning("%s %s has no docstring: say what it is (and what it raises)", what,
                       name, type="targetlang", subtype="docstring")


def require_description(app: Sphinx, domain: str, objtype: str,
                        contentnode: addnodes.desc_content) -> None:
    """The same rule for every entry, once it is written: autodoc fires no docstring event
    for an attribute that only has an annotation (a dataclass field without a default), so
    the entry itself must hold some text of its own (not only its "Bases: ..." line)."""
    if domain != "py":
        return
    own = [child for child in contentnode.children if not isinstance(child, addnodes.desc)]
    text = "\n".join(child.astext() for child in own).strip()
    text = "\n".join(line for line in text.splitlines() if not line.startswith("Bases: "))
    if not text.strip() or _GENERATED_DOC.fullmatch(text.strip()):
        signature = contentnode.parent[0] if contentnode.parent else None
        name = ".".join(str(signature.get(key, "")) for key in ("module", "fullname")) \
            if signature is not None else "?"
        logger.warning("%s %s has no docstring: say what it is (and what it raises)", objtype,
                       name, type="targetlang", subtype="docstring", location=contentnode)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("object-description-transform", require_description)
    app.connect("autodoc-process-docstring", drop_type_docstring)
    app.connect("autodoc-process-docstring", require_docstring)
    app.add_directive("targetlang-api", TargetlangApi)
    app.connect("missing-reference", resolve_short_name)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
