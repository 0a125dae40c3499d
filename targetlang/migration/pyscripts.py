"""Upgrade the targets of a Python program to a release that reads TargetJSON only (TVM 0.24+).

The engine of ``targetlang upgrade`` and ``targetlang migrate --py`` for ``.py`` files,
notebook code cells and Python code blocks (one program per call: a notebook's cells joined).
Every byte outside a site stays as it was; :attr:`ScriptResult.edits` says which bytes changed.

**Target positions.** The target and host of ``tvm.target.Target`` and ``T.target``; the
parameters named ``target`` / ``target_host`` of TVM's public Python API, by position
(``_data/releases/target-parameters.json``, generated from TVM 0.18's and 0.21's source) and
by keyword in any call into ``tvm`` (build, compile, tuning, ``VDevice``, ...). ``tvm`` is
followed through every import form: ``import tvm``, ``import tvm.target as tt``, ``from tvm
import target as _t``, ``from tvm.target import Target, cuda``, ``tvm.target.target.X``, and
relative imports in a file inside a ``tvm`` package (``from ..target import Target``).

**What a position holds** (``Engine.value``): a literal; ``None``, a dict or a ``Target``
(``Target(...)``, a helper, ``Target.current()``, a parameter or function annotated
``Target``) need nothing; a name is followed to the one binding that holds where it is read
(:mod:`targetlang._pyflow`: in its own scope the last binding before the read that dominates
it, in an enclosing scope or the module the only one), then through a list, tuple or dict
display it indexes or a ``for`` iterates, the ``return`` of a function of the program, or the
arguments of every call of a function whose callers are all in the program (nested, private,
or of a script or test module nothing imports). A pytest parameter holds its ``parametrize``
/ ``tvm.testing.parametrize_targets`` / ``tvm.testing.parameter(s)`` values, or a
``conftest.py``'s fixture. With the other modules of a run (``program``:
:mod:`targetlang.migration._program`), names imported from them are followed into them (a
constant, a class attribute, a function's return), and what they do with a value decides it
as much as this module's uses. Anything else is known only at run time: a parameter of a
function other modules can import, a command-line option, an f-string, a concatenation, a
call's result; each report says why and how to help.

**What a site becomes.** A legacy literal (one TVM 0.21 read and the target release refuses
or reads otherwise: :func:`targetlang._sites.convert_value`) written in the target position
becomes a dict display; a literal that reaches it through a name, a container, a call or a
parameter's default becomes a string of JSON text where it is written, since the name may flow elsewhere too and
``Target(str)`` of TVM 0.24-0.27 reads JSON text (checked with the 0.25, 0.26 and 0.27
oracles by ``scripts/check_upgrade_sites.py``). *Flows into a target* means: reaches a target
position as above, or is the ``default`` / a ``choices`` item of an argparse option whose
value (``args.<dest>``) reaches one, whose destination is ``target`` / ``target_host`` or
whose ``type=`` is ``Target`` (argparse hands it the default and the command line), or
is a value of a pytest parameter named ``target`` / ``target_host`` (these two in a program
that imports ``tvm``). A legacy string anywhere
else (an expected value, a message) is reported and left alone: rewriting it would change
what the code means. Minimal output unless ``full`` (:func:`targetlang._sites.minimal`).

**The helpers TVM 0.24 removed** (``tvm.target.cuda()``, ``arm_cpu("rasp3b")``, ...): called
with arguments known before run time (literals, names bound once to literals; keywords TVM
0.21 ignored are ignored), the call becomes ``Target({...})`` of what it returned in 0.21; a
``from tvm.target import cuda`` loses the names whose calls were all rewritten (``import
tvm`` comes in when the file then has no other way to spell ``tvm.target.Target``).

**Target properties** (``t.arch``, ``.mcpu``, ``.libs``, ... of 0.21, from
``_data/releases/target-properties.json``): where ``t`` is known to be a ``Target``, the read
becomes what 0.21's property read (``t.attrs.get("mcpu", "")``, ``list(...)`` of an array;
``t.attrs["max_num_threads"]`` only for 0.24, whose ``Target`` has no ``__getattr__``); where
``t`` only looks like one (named ``target``, ``tgt``, ``*_target``), it is reported.

**Run time** (``runtime=True``): ``Target(x)`` and a helper whose value only run time knows
are routed through :mod:`targetlang.compat` (``targetlang.compat.Target(x)``, a helper
imported by name from it), a target argument of another call is wrapped in
``targetlang.compat.Target(...)`` (unless it may be ``None``), and ``import
targetlang.compat`` is added once, after the module docstring and ``from __future__``
imports. Without it, each is reported with why and what to do.
"""

from __future__ import annotations

import ast
import errno
import os
import stat
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from .._files import unified_diff, write_atomically
from .._lower.dialects import newest_release, releases
from ..environment import Environment
from ._program import Program
from ._pysites import (
    Engine,
    Finding,
    Rewrite,
    apply_edits,
    decode_source,
    might_have_sites,
    py_literal,
)
from ._upgrade.suppress import Quiet

__all__ = ["Finding", "Rewrite", "ScriptResult", "NEWEST_RELEASE", "apply_edits", "migrate_source",
           "migrate_file", "py_literal"]

#: The newest release the library knows when targetlang was imported (the default release to
#: upgrade to is looked up at each call: ``None`` below; a release registered later counts).
NEWEST_RELEASE = releases()[0]


@dataclass
class ScriptResult:
    """The outcome for one file: the new text and what was rewritten or reported."""

    path: str
    original: str
    text: str
    rewrites: list[Rewrite] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    #: ``(start, end, replacement)``, character offsets into ``original``, sorted and not
    #: overlapping: applying them to ``original`` gives ``text``.
    edits: list[tuple[int, int, str]] = field(default_factory=list)
    #: sites a ``# targetlang: ignore`` comment or the configuration suppressed
    suppressed: int = 0

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def diff(self) -> str:
        """A unified diff from the original to the rewritten text."""
        return unified_diff(self.path, self.original, self.text)




def migrate_source(text: str, *, path: str = "<string>", target_dialect: str | None = None,
                   environment: Environment | None = None, runtime: bool = False,
                   full: bool = False, quiet: Quiet | None = None,
                   assume_tvm: bool = False, program: Program | None = None) -> ScriptResult:
    """Rewrite the legacy target literals of one Python source text (``target_dialect``
    None: the newest release the library knows). ``quiet``: what the configuration
    suppresses (the text's own ``# targetlang: ignore`` comments are read here);
    ``assume_tvm``: ``tvm`` names TVM without an import (a documentation code block);
    ``program``: the modules read with it as one program (None: the text alone)."""
    target_dialect = target_dialect or newest_release()

    result = ScriptResult(path=path, original=text, text=text)
    try:
        with warnings.catch_warnings():  # the script's own warnings ('\d' escapes): not ours
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        result.findings.append(Finding(path, error.lineno or 1, (error.offset or 1) - 1,
                                       f"not Python: {error.msg}", "TL001"))
        return result
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes; nested too deeply
        result.findings.append(Finding(path, 1, 0, f"not Python: {_why(error)}", "TL001"))
        return result
    if not might_have_sites(text, properties=program is not None and len(
            program.index.shown) > 1):
        return result
    engine = Engine(text, tree, path=path, target_dialect=target_dialect,
                    environment=environment, runtime=runtime, full=full, quiet=quiet,
                    assume_tvm=assume_tvm, program=program)
    engine.run()
    result.findings = engine.findings
    result.rewrites = engine.rewrites
    edits: list[tuple[int, int, str]] = []
    for (start, end), new in sorted(engine.edits.items()):
        if edits and start < edits[-1][1]:  # pragma: no cover - one site inside another
            line = text.count("\n", 0, start) + 1
            result.findings.append(Finding(path, line, 0, "two rewrites overlap here; the "
                                           "inner one is left for a person", "TL003"))
            continue
        edits.append((start, end, new))
    result.findings.sort(key=lambda f: (f.line, f.column))
    result.rewrites.sort(key=lambda r: (r.line, r.column))
    if not edits:
        return result
    result.edits = edits
    result.text = apply_edits(text, edits)
    broken = _compile_error(result.text, path)
    if broken is not None and broken[1] != (_compile_error(text, path) or (0, None))[1]:
        # the rewrite broke what compiled (a program that never compiled as one file, such
        # as a notebook with `from __future__` or top-level `await` in a later cell, is
        # held to its own errors: parsing is what the edits must keep)
        line, message = broken
        result.findings.append(Finding(path, line, 0, f"the rewritten file does not compile "
                                                      f"({message}); left unchanged", "TL003"))
        result.text = text
        result.rewrites.clear()
        result.edits.clear()
    return result


def _compile_error(text: str, path: str) -> tuple[int, str] | None:
    """Where and why ``text`` does not compile as one module, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        message = error.msg if isinstance(error, SyntaxError) else _why(error)
        return getattr(error, "lineno", None) or 1, message
    return None


def _why(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply for Python to compile"
    if isinstance(error, MemoryError):
        return "too large for Python to compile"
    return str(error) or type(error).__name__


def migrate_file(path: str | os.PathLike[str], *, write: bool = False,
                 target_dialect: str | None = None,
                 environment: Environment | None = None, runtime: bool = False,
                 full: bool = False, program: Program | None = None) -> ScriptResult:
    """Rewrite one file's legacy target literals; with ``write`` replace it atomically
    (``program``: the modules read with it as one program)."""

    file = Path(path)
    kind = os.stat(file).st_mode  # before opening: opening a FIFO waits for its writer
    if not (stat.S_ISREG(kind) or stat.S_ISFIFO(kind)) or (write and not stat.S_ISREG(kind)):
        # a device such as /dev/zero never ends; a pipe cannot be rewritten in place
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    with open(file, "rb") as stream:  # noqa: PTH123 - one read, errors are OSError
        raw = stream.read()
    decoded = decode_source(raw, str(path))
    if isinstance(decoded, Finding):
        return ScriptResult(path=str(path), original="", text="", findings=[decoded])
    text, encoding = decoded
    result = migrate_source(text, path=str(path), target_dialect=target_dialect,
                            environment=environment, runtime=runtime, full=full,
                            program=program)
    if write and result.changed:
        try:
            data = result.text.encode(encoding)
        except UnicodeEncodeError as error:
            result.findings.append(Finding(str(path), 1, 0, f"the rewritten file cannot be "
                                           f"written in its encoding {encoding} ({error.reason}); "
                                           "left unchanged", "TL002"))
            result.text = result.original
            result.rewrites.clear()
            result.edits.clear()
            return result
        write_atomically(file, data)
    return result
