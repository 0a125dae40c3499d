"""What the fuzz corpus reaches: every corpus input replayed under coverage.py (line and branch).

    python -m fuzz.cover                     # fuzz/corpus/ and fuzz/seeds/, every target
    python -m fuzz.cover --corpus DIR --show-missing

Needs coverage.py (``pip install coverage``; a development tool, in no extra). Raw-bytes
inputs are decoded and checked; property inputs are replayed through Hypothesis'
``fuzz_one_input``, as libFuzzer ran them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

FUZZ = Path(__file__).resolve().parent


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fuzz.cover", description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=FUZZ / "corpus")
    ap.add_argument("--show-missing", action="store_true")
    ap.add_argument("--campaign", action="append", metavar="TARGET")
    args = ap.parse_args(argv)
    try:
        import coverage
    except ImportError:
        print("python -m fuzz.cover needs coverage.py: pip install coverage")
        return 2
    cov = coverage.Coverage(branch=True, source=["targetlang"], data_file=None)
    cov.start()
    from .failures import failure
    from .targets import TARGETS, default_targets

    replayed = 0
    for name in args.campaign or default_targets():
        target = TARGETS[name]
        files = [p for d in (args.corpus / name, FUZZ / "seeds" / name) if d.is_dir()
                 for p in sorted(d.iterdir()) if p.is_file()]
        run = None if target.raw else target.property().hypothesis.fuzz_one_input
        for path in files:
            data = path.read_bytes()
            try:
                if run is None:
                    assert target.decode is not None
                    failure(target, target.decode(data))
                else:
                    run(data)
            except Exception:  # noqa: BLE001 - a failing input still covers what it reached
                pass
            replayed += 1
        print(f"{name}: {len(files)} inputs", file=sys.stderr)
    cov.stop()
    print(f"{replayed} corpus inputs replayed")
    cov.report(show_missing=args.show_missing, skip_covered=False)
    # The modules a fuzz target can reach at all (what fuzz.targets imports, and the lazy
    # ones its checks load); the command line and the configuration layer are not among them.
    reached = sorted({str(Path(file).resolve()) for name, m in list(sys.modules.items())
                      if name.startswith("targetlang")
                      and (file := getattr(m, "__file__", None)) is not None})
    with tempfile.TemporaryDirectory() as tmp:
        cov.json_report(outfile=f"{tmp}/cov.json", include=reached)
        totals = json.loads(Path(f"{tmp}/cov.json").read_text())["totals"]
    print(f"modules the targets reach ({len(reached)}): lines {totals['covered_lines']}/"
          f"{totals['num_statements']} ({100 * totals['covered_lines'] / totals['num_statements']:.1f}%), "
          f"branches {totals['covered_branches']}/{totals['num_branches']} "
          f"({100 * totals['covered_branches'] / max(1, totals['num_branches']):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
