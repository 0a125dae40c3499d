"""The Python modules of one run read as one program: which file an import names, who
imports a module's names, and the analysis of any module on demand.

``targetlang upgrade`` reads the files it is given together. Before any file is upgraded,
:func:`index` looks at every Python file of the run once, cheaply (no parsing): the module
names it can be imported as, the imports it makes (a pattern over the text, made to find
too many rather than too few: an import it finds that is not one costs a parse, an import it
missed would hide a use), and whether it runs as a script. A :class:`Program` over that
index answers the engine's questions across modules:

* where an import leads (:meth:`Program.resolve`): relative imports by the importing file's
  place; absolute ones by the importing file's own directory (a script's ``sys.path[0]``),
  then by the package chain of ``__init__.py`` files, then by the directories the run was
  given; a name two files answer to is no answer;
* the analysis of a module (:meth:`Program.analysis`): its engine, built on first use and
  kept (a bounded number of them), never one with side effects on the files written;
* what other modules do with a module's name, what a function returns to its callers in
  other modules, and what a function of another module does with an argument
  (:class:`ProgramOutside`, the ``Outside`` of :mod:`targetlang.migration._pyuses`).

Cycles between modules, modules that cannot be read and chains followed too far become a
use of their own kind (``cycle``, ``unreadable``, ``too far``): reported, never guessed. A
question asked while the same question is open higher up the stack is a cycle; answers that
met such a cycle below them are not kept, so every answer is the same whichever file asked
first (and with any number of worker processes).

Dynamic imports (``importlib.import_module``, ``__import__``) are not followed.
"""

from __future__ import annotations

import ast
import io
import os
import re
import stat
import tokenize
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._pyuses import Use

if TYPE_CHECKING:  # (the engine imports this module)
    from ..environment import Environment
    from ._pysites import Engine

__all__ = ["ImportLine", "Program", "ProgramIndex", "ProgramOutside", "index"]

#: An import statement found in a file's text: the module (dots for a relative one), and the
#: names of a ``from`` import (``None`` for ``import a.b``), each with its alias; ``*`` for a
#: star import.
ImportLine = tuple[str, tuple[tuple[str, str], ...] | None]

#: An import statement from its first keyword.
_IMPORT = re.compile(
    r"from(?:[ \t]|\\\r?\n)+(?P<module>\.*[\w.]*)(?:[ \t]|\\\r?\n)+import[ \t]*"
    r"(?P<names>\([^)]*\)|(?:[^\r\n;#\\]|\\\r?\n)*)"
    r"|import[ \t]+(?P<plain>(?:[^\r\n;#\\]|\\\r?\n)*)")
#: Where one may start: its keyword (a scan for two words is several times faster than one
#: for the statement's shape; each hit is then looked at).
_KEYWORD = re.compile(r"(?:from|import)[ \t\\]")


_MAIN = re.compile(r"""^if[ \t(]+__name__[ \t]*==[ \t]*['"]__main__['"]""", re.M)
_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\Z")
#: Module analyses kept per process (each holds a parsed module): enough for the modules a
#: file's values reach; more are parsed again when asked.
_KEPT = 256
#: Modules a question may cross before it is given up (a report, never a guess).
MAX_MODULES = 12


def _statements(text: str) -> Iterator[re.Match[str]]:
    """Each import statement the text seems to hold: a keyword that starts a line's
    statement (after blanks, or after ``;`` or ``:``)."""
    for hit in _KEYWORD.finditer(text):
        at = hit.start()
        if at and (text[at - 1].isalnum() or text[at - 1] in "_."):
            continue  # the end of a longer word
        line = text.rfind("\n", 0, at) + 1
        before = text[line:at].rstrip(" \t")
        if before and before[-1] not in ";:":
            continue
        match = _IMPORT.match(text, at)
        if match is not None:
            yield match


def _imports(text: str) -> list[ImportLine]:
    """Every import statement the text seems to hold (docstrings' lookalikes included)."""
    found: list[ImportLine] = []
    for match in _statements(text):
        if match.group("plain") is not None:
            for part in match.group("plain").replace("\\", " ").split(","):
                words = part.split()
                if words and _NAME.match(words[0]):
                    alias = words[2] if len(words) == 3 and words[1] == "as" else words[0]
                    found.append((words[0], ((words[0], alias),)) if len(words) == 3 else
                                 (words[0], None))
            continue
        module = match.group("module")
        if module == "__future__":
            continue
        names = []
        for part in match.group("names").strip("()").replace("\\", " ").split(","):
            words = part.split()
            if words == ["*"]:
                names.append(("*", "*"))
            elif words and _NAME.match(words[0]) and "." not in words[0]:
                names.append((words[0], words[2] if len(words) == 3 and words[1] == "as"
                               else words[0]))
        if names:
            found.append((module, tuple(names)))
    return found


@dataclass
class ProgramIndex:
    """What :func:`index` learned of the files of a run, plain data (a worker process gets
    a copy): the files, the directories given, each file's imports, the module each dotted
    name (by its package chain) is, the files that run as scripts."""

    #: absolute path -> the path as the run names it (for messages)
    shown: dict[str, str] = field(default_factory=dict)
    roots: list[str] = field(default_factory=list)
    imports: dict[str, list[ImportLine]] = field(default_factory=dict)
    dotted: dict[str, list[str]] = field(default_factory=dict)
    scripts: set[str] = field(default_factory=set)
    #: absolute path -> the files whose imports may name it (the reverse of ``imports``)
    importers: dict[str, set[str]] = field(default_factory=dict)
    #: texts given instead of files (standard input, a test's program)
    texts: dict[str, str] = field(default_factory=dict)


def _absolute(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


def python_text(raw: bytes) -> tuple[str, str]:
    """The text and encoding of Python source as Python reads it (PEP 263). Raises
    :class:`SyntaxError` (an unknown or contradicting coding cookie), or
    :class:`UnicodeDecodeError` / :class:`LookupError` (bytes that are not its encoding)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    return raw.decode(encoding), encoding


def _read(path: str, texts: dict[str, str]) -> str | None:
    if path in texts:
        return texts[path]
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None  # a FIFO or a device is the upgrade's to read (once), never ours
        with open(path, "rb") as stream:  # noqa: PTH123 - one read
            raw = stream.read()
        return python_text(raw)[0]
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
        return None  # (the module's own upgrade says why)


def index(files: Iterable[str], *, roots: Iterable[str] = (),
          texts: dict[str, str] | None = None) -> ProgramIndex:
    """The index of the Python files of a run (``files`` as the run names them; ``roots``:
    the directories it was given; ``texts``: files whose text is given, not read)."""
    found = ProgramIndex(texts={_absolute(k): v for k, v in (texts or {}).items()})
    for path in files:
        found.shown.setdefault(_absolute(path), path)
    # the directories given (files given alone: the directory they share), where a run's
    # modules are found by their path when no package names them
    found.roots = sorted({_absolute(r) for r in roots} or (
        {os.path.commonpath([os.path.dirname(p) for p in found.shown])} if found.shown
        else set()))
    has_init: dict[str, bool] = {}

    def package_dir(directory: str) -> bool:
        if directory not in has_init:
            has_init[directory] = os.path.join(directory, "__init__.py") in found.shown or \
                os.path.isfile(os.path.join(directory, "__init__.py"))
        return has_init[directory]

    for path in found.shown:
        directory, name = os.path.split(path)
        parts = [] if name == "__init__.py" else [name[:-3] if name.endswith(".py") else name]
        while package_dir(directory):
            directory, package = os.path.split(directory)
            if not package:
                break
            parts.insert(0, package)
        if parts:
            found.dotted.setdefault(".".join(parts), []).append(path)
        text = _read(path, found.texts)
        if text is None:
            continue
        # every module as it is before the run writes any: the answers of the whole run
        # are about the program as it was given
        found.texts[path] = text
        if "import" in text:
            found.imports[path] = _imports(text)
        if "__main__" in text and _MAIN.search(text):
            found.scripts.add(path)
    program = Program(found)
    for path, lines in found.imports.items():
        for module, names in lines:
            for target in program.modules_named(path, module, names):
                if target != path:
                    found.importers.setdefault(target, set()).add(path)
    return found


# ---- the program ---------------------------------------------------------------------------

class Program:
    """The modules of one run, and the analysis of each, on demand (see the module's
    docstring). ``target_dialect``, ``environment``: the analyses' reading of targets."""

    def __init__(self, found: ProgramIndex, *, target_dialect: str | None = None,
                 environment: Environment | None = None) -> None:
        self.index = found
        self.target_dialect = target_dialect
        self.environment = environment
        self._analyses: OrderedDict[str, Engine | None] = OrderedDict()
        self._resolved: dict[tuple[str, str], str | None] = {}
        #: the open questions (a cycle is one asked again), each with whether it met a cycle
        #: below it (then its answer is not kept)
        self._open: dict[Any, bool] = {}
        self._answers: dict[Any, Any] = {}
        self._texts: dict[str, str | None] = {}
        self._order: dict[str, int] | None = None
        self._stores: dict[str, bool] = {}

    @classmethod
    def of_files(cls, files: Iterable[str], *, roots: Iterable[str] = (),
                 texts: dict[str, str] | None = None, **options: Any) -> Program:
        return cls(index(files, roots=roots, texts=texts), **options)

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # to a worker process: a reference to the program registered there (the index is
        # large; each worker keeps its own analyses)
        return shared, (register(self),)

    def shown(self, path: str) -> str:
        return self.index.shown.get(path, path)

    def knows(self, path: str) -> bool:
        return _absolute(path) in self.index.shown

    # ---- where an import leads -------------------------------------------------------------

    def resolve(self, importer: str, module: str) -> str | None:
        """The file of the module ``module`` (``.x`` relative) imported by ``importer``, or
        None (not among the run's files, or two of them answer)."""
        importer = _absolute(importer)
        key = (os.path.dirname(importer), module)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(importer, module)
        return self._resolved[key]

    def _resolve(self, importer: str, module: str) -> str | None:
        level = len(module) - len(module.lstrip("."))
        parts = [p for p in module[level:].split(".") if p]
        if level:
            base = os.path.dirname(importer)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            return self._file(base, parts)
        found = self._file(os.path.dirname(importer), parts)  # a script's own directory
        if found is not None:
            return found
        named = self.index.dotted.get(".".join(parts), [])
        if len(named) == 1:
            return named[0]
        if len(named) > 1:
            return None  # two modules of that name: no answer
        hits = {hit for root in self.index.roots
                if (hit := self._file(root, parts)) is not None}
        return hits.pop() if len(hits) == 1 else None

    def _file(self, base: str, parts: list[str]) -> str | None:
        files = self.index.shown
        if not parts:
            candidate = os.path.join(base, "__init__.py")
            return candidate if candidate in files else None
        stem = os.path.join(base, *parts)
        for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
            if candidate in files:
                return candidate
        return None

    def modules_named(self, importer: str, module: str,
                      names: tuple[tuple[str, str], ...] | None) -> Iterator[str]:
        """The files an import line of ``importer`` may name: its module, the package
        ``import a.b`` binds (``a``), and each name of a ``from`` import that is a module."""
        target = self.resolve(importer, module)
        if target is not None:
            yield target
        if names is None and "." in module.lstrip("."):
            head = self.resolve(importer, module.split(".")[0])
            if head is not None:
                yield head
        for name, _ in names or ():
            if name != "*":
                sub = self.resolve(importer, (module + "." if not module.endswith(".")
                                              else module) + name)
                if sub is not None:
                    yield sub

    def importers(self, path: str, word: str | None = None, limit: int | None = None
                  ) -> list[str]:
        """The files whose imports may name module ``path`` or a package above it (``import
        a`` then ``a.b.NAME``), whose text holds ``word`` (when given), in the run's order."""
        path = _absolute(path)
        candidates = set(self.index.importers.get(path, ()))
        directory = os.path.dirname(path)
        if os.path.basename(path) == "__init__.py":
            directory = os.path.dirname(directory)
        while True:
            init = os.path.join(directory, "__init__.py")
            if init not in self.index.shown:
                break
            candidates |= self.index.importers.get(init, set())
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
        candidates.discard(path)
        return self._holding(candidates, word, limit=limit)

    def mentioning(self, word: str) -> list[str]:
        """Every file of the run whose text holds ``.word`` (an attribute read anywhere)."""
        return [path for path in self._holding(set(self.index.shown), word, "." + word)]

    def _holding(self, candidates: set[str], word: str | None, needle: str | None = None,
                 limit: int | None = None) -> list[str]:
        """The candidates (in the run's order) whose text holds ``needle`` (else ``word``):
        a text that holds it may refer to it, one that does not cannot (the syntax tree of
        each decides the rest). At most ``limit``."""
        if self._order is None:
            self._order = {path: number for number, path in enumerate(self.index.shown)}
        found = []
        sought = needle or word
        for candidate in sorted(candidates, key=self._order.__getitem__):
            if sought is not None:
                text = self.text(candidate)
                if text is None or sought not in text:
                    continue
            found.append(candidate)
            if limit is not None and len(found) >= limit:
                break
        return found

    def submodule(self, package: str, name: str) -> str | None:
        """The module ``name`` of the package whose ``__init__.py`` is ``package``."""
        if os.path.basename(package) != "__init__.py":
            return None
        return self._file(os.path.dirname(package), [name])

    def is_project_module(self, importer: str, module: str) -> bool:
        """Whether ``module`` (imported by ``importer``) is the project's own though not among
        the run's files: a relative import, or one whose first name is a file or package of
        the project's directories (on disk) or of the run."""
        if module.startswith("."):
            return True
        head = module.split(".")[0]
        if any(name == head or name.startswith(head + ".") for name in self.index.dotted):
            return True
        for base in {os.path.dirname(_absolute(importer)), *self.index.roots}:
            if os.path.exists(os.path.join(base, head + ".py")) or \
                    os.path.isdir(os.path.join(base, head)):
                return True
        return False

    def member_function(self, path: str, name: str, depth: int = 0
                        ) -> tuple[Engine | None, ast.AST] | None:
        """The function ``name`` of module ``path`` (a class: its ``__init__``), following
        the module's own imports of it; its engine None when the module cannot be read."""
        found = self._member(path, name, depth)
        if found is None or found[0] is None:
            return (None, ast.Pass()) if found is not None else None
        engine, node = found
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return engine, node
        if isinstance(node, ast.ClassDef):
            init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and
                         n.name == "__init__"), None)
            return (engine, init) if init is not None else None
        return None

    def member_class(self, path: str, name: str) -> tuple[Engine | None, ast.ClassDef] | None:
        """The class ``name`` of module ``path`` (following the module's imports of it)."""
        found = self._member(path, name, 0)
        if found is None or found[0] is None or not isinstance(found[1], ast.ClassDef):
            return None
        return found[0], found[1]

    def _member(self, path: str, name: str, depth: int) -> tuple[Engine | None, ast.AST] | None:
        """The statement that binds ``name`` once in module ``path`` (a def, a class), an
        import of it followed to where it is bound."""
        engine = self.analysis(path)
        if engine is None:
            return None, ast.Pass()
        bindings = engine.scopes.bindings.get(engine.tree, {}).get(name, [])
        if not bindings and depth <= MAX_MODULES:  # from .x import *: where x binds it
            for star in engine.scopes.of(ast.ImportFrom):
                if any(a.name == "*" for a in star.names) and \
                        engine.scopes.enclosing(star) is engine.tree:
                    target = self.resolve(engine.where, "." * star.level + (star.module or ""))
                    found = self._member(target, name, depth + 1) if target else None
                    if found is not None:
                        return found
        if len(bindings) != 1 or depth > MAX_MODULES:
            return None
        node = bindings[0].node
        statement = engine.scopes.statement(node)
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            leads = engine.import_target(bindings[0])
            if leads is None or leads[1] is None:
                return None
            return self._member(leads[0], leads[1], depth + 1)
        return engine, node

    def script(self, caller: str, *, script: str | None = None, module: str | None = None
               ) -> Engine | None:
        """The analysis of the Python script a command runs (``python PATH`` or ``python -m
        MODULE``) in a file of the project (a shell script, a code block): the path as
        written, from the caller's directory or the run's directories, or a file of the run
        whose path ends so when only one does."""
        found: str | None = None
        if module is not None:
            found = self.resolve(_absolute(caller), module)
        elif script is not None and not script.startswith(("$", "~")):
            bases = [os.path.dirname(_absolute(caller)), *self.index.roots, os.getcwd()]
            for base in bases:
                candidate = _absolute(os.path.join(base, script))
                if candidate in self.index.shown:
                    found = candidate
                    break
            if found is None:
                tail = os.sep + os.path.normpath(script).lstrip("./" + os.sep)
                ends = [p for p in self.index.shown if p.endswith(tail)]
                found = ends[0] if len(ends) == 1 else None
        return self.analysis(found) if found is not None else None

    def conftests(self, path: str) -> list[str]:
        """The ``conftest.py`` files of the run pytest reads for a test at ``path``: its
        directory's, then each directory's above it."""
        found = []
        directory = os.path.dirname(_absolute(path))
        while True:
            candidate = os.path.join(directory, "conftest.py")
            if candidate in self.index.shown and candidate != _absolute(path):
                found.append(candidate)
            parent = os.path.dirname(directory)
            if parent == directory:
                return found
            directory = parent

    def under(self, conftest: str, word: str) -> list[str]:
        """The files of the run a ``conftest.py``'s fixtures reach (its directory and below)
        whose text holds ``word``."""
        directory = os.path.dirname(conftest) + os.sep
        return [path for path in self._holding(
            {p for p in self.index.shown if p.startswith(directory) and p != conftest}, word)]

    def stored(self, attribute: str) -> bool:
        """Whether any file of the run may set ``.attribute`` (``x.attribute = ...``)."""
        if attribute not in self._stores:
            name = re.escape(attribute)
            pattern = re.compile(rf"\.{name}[ \t]*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)"
                                 rf"|\.{name}[ \t]*:[^\n=]*=(?!=)|setattr\(")
            self._stores[attribute] = any(
                (text := self.text(path)) is not None and pattern.search(text) is not None
                for path in self.mentioning(attribute))
        return self._stores[attribute]

    def imported(self, path: str) -> bool:
        """Whether another file of the run may import module ``path``."""
        return bool(self.importers(_absolute(path)))

    def is_script(self, path: str) -> bool:
        """Whether module ``path`` runs as a script (``if __name__ == "__main__"``) and no
        other file of the run imports it: its functions' callers are all in it."""
        return _absolute(path) in self.index.scripts and not self.imported(_absolute(path))

    # ---- analyses ------------------------------------------------------------------------

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            if len(self._texts) > 4 * _KEPT:
                self._texts.clear()
            self._texts[path] = _read(path, self.index.texts)
        return self._texts[path]

    def analysis(self, path: str) -> Engine | None:
        """The analysis of module ``path`` (None: it cannot be read as Python). An analysis
        is an engine that writes nothing: what it finds is only read by other modules."""
        path = _absolute(path)
        if path in self._analyses:
            self._analyses.move_to_end(path)
            return self._analyses[path]
        engine = self._analyse(path)
        self._analyses[path] = engine
        if len(self._analyses) > _KEPT:
            self._analyses.popitem(last=False)
        return engine

    def _analyse(self, path: str) -> Engine | None:
        from .._lower.dialects import newest_release  # (first use)

        assert _ENGINE is not None, "the engine registers itself when it is imported"
        text = self.text(path)
        if text is None:
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(text, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        return _ENGINE(text, tree, path=path, target_dialect=self.target_dialect or
                       newest_release(), environment=self.environment, runtime=False,
                       full=False, program=self, analysis=True)

    # ---- questions across modules ----------------------------------------------------------

    def ask(self, key: Any, compute: Callable[[], Any], cycle: Callable[[bool], Any]) -> Any:
        """The answer to a question across modules, kept unless a cycle was met below it;
        ``cycle(False)`` answers a question asked again while it is open, ``cycle(True)``
        one asked across more than :data:`MAX_MODULES` modules."""
        if key in self._answers:
            return self._answers[key]
        if key in self._open:
            above = False  # the questions opened above this one met a cycle
            for open_key in self._open:
                if above:
                    self._open[open_key] = True
                above = above or open_key == key
            return cycle(False)
        if len(self._open) >= MAX_MODULES:  # followed too far: no open answer is kept
            for open_key in self._open:
                self._open[open_key] = True
            return cycle(True)
        self._open[key] = False
        try:
            answer = compute()
        finally:
            met = self._open.pop(key)
        if not met:
            self._answers[key] = answer
        return answer

    def outside(self, engine: Engine) -> ProgramOutside:
        return ProgramOutside(self, engine)


def cycle_use(what: str, far: bool = False) -> list[Use]:
    """The use a question that led back to itself (or too far) gets: a report's."""
    if far:
        return [Use("far", f"{what}, followed across more than {MAX_MODULES} modules", 0)]
    return [Use("cycle", what, 0)]


class ProgramOutside:
    """What the other modules of the program do with values of one module (the
    ``Outside`` of :mod:`targetlang.migration._pyuses`)."""

    def __init__(self, program: Program, engine: Engine) -> None:
        self.program = program
        self.engine = engine
        self.path = engine.where

    def _uses_in(self, other: Engine, found: list[Use]) -> list[Use]:
        if other is self.engine:
            return found
        shown = self.program.shown(other.path)
        return [use if use.path else Use(use.kind, use.what, use.line, use.shown, shown)
                for use in found]

    def _each_importer(self, word: str) -> Iterator[tuple[str, Engine | None]]:
        for path in self.program.importers(self.path, word):
            yield path, self.program.analysis(path)

    def _importers_uses(self, name: str, *, called: bool) -> list[Use]:
        """What the modules importing ``name`` from this one do with it (or with what it
        returns, ``called``)."""
        out: list[Use] = []
        for path, other in self._each_importer(name):
            if other is None:
                out.append(Use("unreadable", f"{self.program.shown(path)}, which cannot be "
                               "read as Python", 0))
                continue
            out += self._uses_in(other, other.imported_uses(self.path, name, called=called))
        return out

    def exported(self, name: str) -> list[Use]:
        """The uses other modules make of this module's name ``name``."""
        def compute() -> list[Use]:
            return self._importers_uses(name, called=False)

        answer: list[Use] = self.program.ask(("exported", self.path, name), compute, lambda far: (
            cycle_use(f"{name} of {self.program.shown(self.path)} (modules that import each "
                      "other)", far)))
        return answer

    def returned(self, function: ast.AST) -> list[Use]:
        name = getattr(function, "name", "")

        def compute() -> list[Use]:
            return self._importers_uses(name, called=True)

        answer: list[Use] = self.program.ask(("returned", self.path, name), compute, lambda far: (
            cycle_use(f"{name}() of {self.program.shown(self.path)} (modules that call each "
                      "other)", far)))
        return answer

    def callee(self, call: ast.Call, argument: int | str) -> list[Use] | None:
        """The uses a function of the program (this module's classes, other modules'
        functions and classes) makes of an argument; None where the callee is not known."""
        found = self.engine.function_of(call.func)
        if found is None:
            return None
        other, function = found
        if other is None:
            return [Use("unreadable", f"{ast.unparse(call.func)[:40]}(...), whose module cannot "
                                      "be read as Python", getattr(call, "lineno", 0))]
        parameter = other.parameter_of(function, argument)
        if parameter is None:
            return None

        def compute() -> list[Use]:
            return self._uses_in(other, other.flow.binding_uses(parameter))

        key = ("parameter", other.where, getattr(function, "lineno", 0),
               parameter.name)
        answer: list[Use] = self.program.ask(key, compute, lambda far: cycle_use(
            f"the parameter {parameter.name!r} of {getattr(function, 'name', '?')} "
            "(functions that call each other)", far))
        return answer

    def fixture(self, name: str) -> list[Use]:
        """The uses the tests under a ``conftest.py`` make of its fixture ``name``."""
        if os.path.basename(self.path) != "conftest.py":
            return []

        def compute() -> list[Use]:
            out: list[Use] = []
            for path in self.program.under(self.path, name):
                other = self.program.analysis(path)
                if other is not None and not any(
                        b for b in other.scopes.bindings.get(other.tree, {}).get(name, [])):
                    out += self._uses_in(other, other.flow.fixture_uses(name))
            return out

        answer: list[Use] = self.program.ask(("fixture", self.path, name), compute,
                                             lambda far: cycle_use(f"the fixture {name}", far))
        return answer

    def attribute(self, holder: str, name: str) -> list[Use]:
        """The uses other modules make of the class attribute ``holder.name``: every read of
        an attribute of that name anywhere in the run (an instance can go anywhere)."""
        def compute() -> list[Use]:
            out: list[Use] = []
            for path in self.program.mentioning(name):
                if path == self.path:
                    continue
                other = self.program.analysis(path)
                if other is None:
                    out.append(Use("unreadable", f"{self.program.shown(path)}, which cannot "
                                   "be read as Python", 0))
                    continue
                out += self._uses_in(other, other.flow.attribute_uses(name))
            return out

        answer: list[Use] = self.program.ask(("attribute", self.path, holder, name), compute,
                                             lambda far: cycle_use(f"{holder}.{name}", far))
        return answer


#: What analyses a module: the engine of :mod:`targetlang.migration._pysites`, which
#: registers itself here when it is imported (it imports this module: the other way round
#: would be a cycle of imports).
_ENGINE: type[Engine] | None = None


def use_engine(engine: type[Engine]) -> None:
    """Register the class whose instances analyse a module."""
    global _ENGINE
    _ENGINE = engine


#: The programs of this process, by their number (a worker's: its parent's numbers).
_REGISTRY: dict[int, Program] = {}


def register(program: Program, number: int | None = None) -> int:
    """The number of a program in this process's registry (``number``: the one its parent
    gave it)."""
    for known, value in _REGISTRY.items():
        if value is program:
            return known
    number = number if number is not None else (max(_REGISTRY, default=0) + 1)
    _REGISTRY[number] = program
    return number


def shared(number: int) -> Program:
    """The program registered under ``number`` (in a worker: its parent's, given when the
    worker started)."""
    return _REGISTRY[number]


def adopt(number: int, found: ProgramIndex, options: dict[str, Any]) -> None:
    """A worker's start: the parent's program ``number``, rebuilt from its index unless the
    worker inherited it (a fork)."""
    if number not in _REGISTRY:
        _REGISTRY[number] = Program(found, **options)


def single(text: str, path: str, **options: Any) -> Program:
    """The program of one text alone (a file upgraded on its own)."""
    return Program.of_files([path], texts={path: text}, **options)

