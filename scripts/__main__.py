"""The shelf as one command: every data file and golden, by name.

    python -m scripts list                   # the names, what each writes, from what
    python -m scripts regenerate NAME [...]  # a fact table of targetlang/_data/ (or docs)
    python -m scripts record NAME [...]      # a golden of tests/data/, asked of the oracles
    python -m scripts check NAME [...]       # is the committed file what NAME would write?
                                             # (exit 1 if not; writes nothing)

``NAME`` is the script's name without its verb (``releases`` for
``scripts/generate_releases.py``, ``preset_goldens`` for ``scripts/record_preset_goldens.py``);
``all`` runs every one of the verb. Arguments after the name go to the script. Each runs as
``python3 scripts/SCRIPT.py`` in a process of its own, as the README documents it, so a
script's own imports (``shelf``: the paths, the oracles, the writers) stay what they are.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent

#: the verb of each kind of script, and the file-name prefix that makes a script one
VERBS = {"regenerate": "generate_", "record": "record_"}
#: recorders whose file names say what they check or make (the goldens name them as their
#: source, so the files keep their names): name -> script
OTHER_RECORDERS = {"compat": "check_compat", "transcription_check": "check_releases",
                   "loaded_databases": "check_databases",
                   "migration_check": "check_migration_releases",
                   "tuned_database": "make_tuned_database",
                   "meta_schedule_db": "make_meta_schedule_db",
                   "machine_names": "collect_machine_names"}
#: scripts that cannot say whether the committed file is current (no --check)
NO_CHECK = frozenset({"generate_target_parameters", "generate_target_properties",
                      "record_rereads", "make_tuned_database", "make_meta_schedule_db"})


def scripts_of(verb: str) -> dict[str, Path]:
    """The scripts ``verb`` runs, by name (``releases`` -> ``generate_releases.py``)."""
    prefix = VERBS[verb]
    found = {path.stem.removeprefix(prefix): path
             for path in sorted(SCRIPTS.glob(f"{prefix}*.py"))}
    if verb == "record":
        found.update((name, SCRIPTS / f"{script}.py") for name, script in OTHER_RECORDERS.items())
    return found


def summary(path: Path) -> str:
    """The first line of a script's docstring."""
    import ast

    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def run(path: Path, arguments: Sequence[str]) -> int:
    print(f"$ python3 scripts/{path.name} {' '.join(arguments)}".rstrip(), flush=True)
    return subprocess.run([sys.executable, str(path), *arguments], check=False).returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("verb", choices=["list", "regenerate", "record", "check"])
    parser.add_argument("name", nargs="?", help="a script's name, or all")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="passed to the script")
    args = parser.parse_args(argv)
    if args.verb == "list":
        for verb in VERBS:
            for name, path in scripts_of(verb).items():
                print(f"{verb:10} {name:24} {summary(path)}")
        return 0
    if args.name is None:
        parser.error(f"{args.verb} takes a NAME (python -m scripts list)")
    verbs = list(VERBS) if args.verb == "check" else [args.verb]
    found = {name: path for verb in verbs for name, path in scripts_of(verb).items()}
    if args.name != "all" and args.name not in found:
        parser.error(f"no script named {args.name!r} for {args.verb} (python -m scripts list)")
    chosen = found if args.name == "all" else {args.name: found[args.name]}
    status = 0
    for path in chosen.values():
        if args.verb == "check":
            if path.stem in NO_CHECK:
                print(f"scripts/{path.name}: no --check (it can only write)", file=sys.stderr)
                status = max(status, 2)
                continue
            status = max(status, run(path, ["--check", *args.arguments]))
        else:
            status = max(status, run(path, args.arguments))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
