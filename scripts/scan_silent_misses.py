"""Lines of a project that look like legacy targets and that ``targetlang upgrade`` neither
rewrote nor reported: the candidates for a silent miss, for a person to read.

    python3 scripts/scan_silent_misses.py DIR... [--show N]

Runs ``targetlang upgrade --format json`` on each DIR (every file type, the tree read as one
program) and greps every file it reads for what looks like a legacy target: a kind name
followed by an option (``"llvm -mcpu=..."``, ``cuda --host ...``) or a call of a helper TVM
0.24 removed (``tvm.target.cuda(``, ``arm_cpu(``, ``target.create(``). In a notebook only the
code cells are grepped (outputs are no sites). A line with no site and no report of the run
is printed as ``PATH:LINE: text`` (``PATH:cell N:LINE`` in a notebook): a silent miss, or a
line that holds no target (prose, a comment, a log line). The pattern over-matches on
purpose; the count of candidates is not the count of misses.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from targetlang.upgrade import walk  # noqa: E402

KINDS = ("llvm", "cuda", "rocm", "opencl", "vulkan", "metal", "nvptx", "hexagon", "webgpu",
         "ext_dev", "hybrid", "aocl", "sdaccel", "stackvm", "c", "composite", "example_npu")
LEGACY = re.compile(rf"""(?:^|[\s"'`=(\[,])(?:{'|'.join(KINDS)})\s+--?[A-Za-z_]""")
HELPER = re.compile(r"\b(?:target\.(?:cuda|rocm|mali|intel_graphics|arm_cpu|rasp|bifrost|"
                    r"riscv_cpu|hexagon|stm32|adreno|create)|arm_cpu|rasp|bifrost|mali)\(")
#: lines that are only a comment in a language with ``#`` comments
COMMENT = re.compile(r"\s*#")


def sites(directory: Path) -> set[tuple[str, int | None, int]]:
    """(path, cell, line) of every site the upgrade rewrote or reported in a tree (each line
    a site spans)."""
    done = subprocess.run([sys.executable, "-m", "targetlang", "upgrade", "--format", "json",
                           "--jobs", "1", str(directory)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, check=False)
    found = set()
    for item in json.loads(done.stdout or "[]"):
        path = os.path.normpath(item["path"])
        if item["code"] == "TL001":  # a file not valid for its type is reported as a whole
            found.add((path, None, 0))
        for line in range(item["line"], (item.get("end_line") or item["line"]) + 1):
            found.add((path, item.get("cell"), line))
    return found


def candidates(path: str, kind: str) -> list[tuple[int | None, int, str]]:
    """(cell, line, text) of each line of a file that looks like a legacy target."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    out: list[tuple[int | None, int, str]] = []
    if kind == "notebook":
        try:
            cells = json.loads(text).get("cells", [])
        except (ValueError, AttributeError):
            return []
        for number, cell in enumerate(cells, 1):
            if not isinstance(cell, dict) or cell.get("cell_type") != "code":
                continue
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else str(source)
            for line_number, line in enumerate(source.splitlines(), 1):
                if (LEGACY.search(line) or HELPER.search(line)) and not COMMENT.match(line):
                    out.append((number, line_number, line.strip()))
        return out
    for line_number, line in enumerate(text.splitlines(), 1):
        if (LEGACY.search(line) or HELPER.search(line)) and not (
                kind in ("python", "shell", "yaml", "toml") and COMMENT.match(line)):
            out.append((None, line_number, line.strip()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--show", type=int, default=1000, help="lines shown per tree")
    args = parser.parse_args()
    total = 0
    for tree in args.trees:
        seen = sites(tree)
        misses = []
        for path, kind in walk([str(tree)]):
            for cell, line, text in candidates(path, kind):
                if (os.path.normpath(path), cell, line) not in seen and \
                        (os.path.normpath(path), None, 0) not in seen:
                    where = f"{path}:cell {cell}:{line}" if cell else f"{path}:{line}"
                    misses.append(f"{where}: {text[:160]}")
        total += len(misses)
        print(f"{tree}: {len(misses)} lines that look like targets, neither rewritten nor "
              "reported")
        for miss in misses[:args.show]:
            print(f"  {miss}")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
