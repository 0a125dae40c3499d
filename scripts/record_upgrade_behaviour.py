"""Record what the upgrade does to running programs: tests/data/upgrade/behaviour.json.

    python3 scripts/record_upgrade_behaviour.py [--check]

Each program of ``tests/data/upgrade/behaviour/`` is a small TVM 0.21 program (targets that
also reach ``tvm.device``, ``==``, ``.split()``, f-strings, helpers whose properties are
read, absent attributes, ...): a ``.py`` file, or a directory of modules run as
``main.py`` (a constant in ``config.py`` imported by the script, a helper of another module
returning a target, a private function's parameter, a class attribute, a star import, a
package's re-export: the modules are read as one program, as ``targetlang upgrade DIR``
reads them). It is run under the TVM 0.21 oracle, upgraded (default mode and
``--runtime``), and, where the upgrade changed it, the upgraded program is run under the
TVM 0.27 oracle (with targetlang and lark on its path, for ``targetlang.compat``). Recorded
per program and mode: the 0.21 output, the upgraded text of each module, the report codes,
and the 0.27 output. ``tests/golden/test_upgrade_behaviour.py`` replays the upgrade without
TVM and checks the promise: the same output under 0.27, or the program left byte for byte
and reported. ``--check`` runs the oracles and compares with the recorded file instead of
writing it.

The oracles are found as ``scripts/check_migration_releases.py`` finds them
(``TARGETLANG_ORACLE_DIR``, default ``~/.cache/targetlang-oracle``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from targetlang.migration._program import Program  # noqa: E402
from targetlang.upgrade import Options, upgrade_text  # noqa: E402

PROGRAMS = REPO / "tests" / "data" / "upgrade" / "behaviour"
RECORD = REPO / "tests" / "data" / "upgrade" / "behaviour.json"
MODES = {"default": Options(), "runtime": Options(runtime=True)}
#: the module a program of several runs
MAIN = "main.py"


def programs() -> list[Path]:
    """Every program: a ``.py`` file, or a directory of modules with a ``main.py``."""
    return sorted([*PROGRAMS.glob("*.py"), *(d for d in PROGRAMS.iterdir()
                                            if d.is_dir() and (d / MAIN).is_file())])


def sources(program: Path) -> dict[str, str]:
    """A program's modules by their path in it (``main.py``, ``pkg/config.py``)."""
    if program.is_file():
        return {program.name: program.read_text(encoding="utf-8")}
    return {str(p.relative_to(program)): p.read_text(encoding="utf-8")
            for p in sorted(program.rglob("*.py"))}


def upgrade(program: Path, options: Options) -> tuple[dict[str, str], list[str]]:
    """Each module of a program upgraded, its modules read as one program: the texts, and
    the report codes (module by module, in order)."""
    texts = sources(program)
    if program.is_dir():
        paths = [str(program / name) for name in texts]
        options = Options(runtime=options.runtime,
                          program=Program.of_files(paths, roots=[str(program)]))
    upgraded, codes = {}, []
    for name, text in texts.items():
        path = str(program / name) if program.is_dir() else name
        result = upgrade_text(text, path=path, file_type="python", options=options)
        upgraded[name] = result.text
        codes += [f.code for f in result.findings]
    return upgraded, codes


def oracle(name: str) -> Path:
    base = Path(os.environ.get("TARGETLANG_ORACLE_DIR",
                               Path.home() / ".cache" / "targetlang-oracle"))
    return base / "bin" / f"{name}-python"


def run(python: Path, modules: dict[str, str], main: str) -> dict[str, object]:
    """The program's observable behaviour: its exit status, standard output, and the last
    line of standard error (the exception, if it failed)."""
    import lark

    lark_dir = os.path.dirname(os.path.dirname(lark.__file__))
    with tempfile.TemporaryDirectory() as work:
        for name, source in modules.items():
            (Path(work) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(work) / name).write_text(source, encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{lark_dir}"}
        done = subprocess.run([str(python), str(Path(work) / main)], capture_output=True,
                              text=True, timeout=300, env=env, cwd=work)
    error = done.stderr.strip().splitlines()[-1:] if done.returncode else []
    return {"status": done.returncode, "stdout": done.stdout, "error": error[0] if error else ""}


def record() -> dict[str, object]:
    found: dict[str, object] = {}
    for program in programs():
        modules = sources(program)
        main = MAIN if program.is_dir() else program.name
        before = run(oracle("tvm021"), modules, main)
        entry: dict[str, object] = {"tvm-0.21": before}
        for mode, options in MODES.items():
            upgraded, codes = upgrade(program, options)
            changed = upgraded != modules
            outcome: dict[str, object] = {
                "upgraded": upgraded if program.is_dir() else upgraded[program.name],
                "codes": codes}
            outcome["tvm-0.27"] = run(oracle("tvm027"), upgraded, main) if changed else None
            entry[mode] = outcome
        found[program.name] = entry
        print(program.name, before["status"], {m: (entry[m]["codes"],  # type: ignore[index]
                                                   (entry[m]["tvm-0.27"] or {}).get("status"))  # type: ignore[index, union-attr]
                                               for m in MODES}, file=sys.stderr)
    return {"about": "scripts/record_upgrade_behaviour.py: TVM 0.21 and 0.27 oracles",
            "programs": found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    found = record()
    if args.check:
        old = json.loads(RECORD.read_text(encoding="utf-8"))
        raise SystemExit(0 if old == found else "the recorded behaviour differs")
    RECORD.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
