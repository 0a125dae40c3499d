"""One fuzz target under atheris (libFuzzer): what each ``fuzz/fuzz_<name>.py`` runs.

    python fuzz/fuzz_parse_bytes.py -runs=100000 fuzz/corpus/parse_bytes fuzz/seeds/parse_bytes

takes libFuzzer's options (``-help=1``). Only targetlang's own modules are instrumented for
coverage, so the engine is steered by what targetlang does, not by Hypothesis or lark.
"""

from __future__ import annotations

import importlib
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
DICTIONARY = FUZZ / "targetlang.dict"


def available() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


#: Modules the checks reach only through a lazy import (``targetlang.lint``, old dialects).
_LAZY = ("targetlang._inspect.lint", "targetlang._lower.releases", "targetlang._lower.trace",
         "targetlang._lower.specialize", "targetlang._formats.text")


def instrumented_imports() -> None:
    """Import the targetlang modules the checks reach under atheris' coverage instrumentation
    (not the command line or the configuration layer, which no target calls: instrumenting
    them would only slow every start)."""
    import atheris

    with atheris.instrument_imports(include=["targetlang"]):
        from . import targets  # noqa: F401 - fuzz.checks and every module it imports

        for name in _LAZY:
            importlib.import_module(name)


def one_input(name: str) -> Callable[[bytes], object]:
    """The function libFuzzer calls for target ``name``."""
    from .targets import TARGETS

    target = TARGETS[name]
    if target.decode is not None:
        check, decode = target.check, target.decode

        def run(data: bytes) -> None:
            check(decode(data))

        return run
    fuzz_one_input: Callable[[bytes], object] = target.property().hypothesis.fuzz_one_input
    return fuzz_one_input


def main(name: str, script: str) -> None:
    """Run target ``name`` under libFuzzer with this process' command-line options."""
    import atheris

    instrumented_imports()
    run = one_input(name)
    # libFuzzer's fork and merge modes start workers by running argv[0] through the shell:
    # make it this interpreter and script, so the script need not be executable.
    # (A frozen fuzzer, as OSS-Fuzz builds them, is its own argv[0].)
    frozen = getattr(sys, "frozen", False)
    runner = sys.argv[0] if frozen else shlex.join([sys.executable, str(Path(script).resolve())])
    argv = [runner, *sys.argv[1:]]
    if DICTIONARY.exists() and not any(a.startswith("-dict=") for a in argv):
        argv.append(f"-dict={DICTIONARY}")
    atheris.Setup(argv, run)
    atheris.Fuzz()
