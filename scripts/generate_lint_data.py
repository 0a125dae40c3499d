"""Generate the values TVM itself used for -keys, -device and -libs (``targetlang.lint``).

    python3 scripts/generate_lint_data.py            # writes targetlang/_data/lint.json
    python3 scripts/generate_lint_data.py --check    # exit 1 if the committed file differs

TVM accepted any string for these three attributes and dispatched on them by name, so a
misspelt value (``-keys=arm-cpu``, ``-libs=cudnn8``, ``-device=adreeno``) was silently
ignored. ``lint`` warns about a value TVM never used. The values TVM used come from its git
history (``shelf.TVM_GIT``, ``$TVM_GIT_DIR``), the Python
sources of every release tag from v0.6.0 to v0.21.0:

* keys: the dispatch tables (``strategy.register(["cuda", "gpu"])``, ``.register("cpu")``
  in Relay and TOPI), membership tests
  (``"arm_cpu" in target.keys``) and ``-keys=`` in target strings;
* devices: ``-device=`` in target strings and ``"device": "..."`` in target configs;
* libs: membership tests (``"cudnn" in target.libs``) and ``-libs=`` in target strings;

plus, at run time, what the dialect itself has: every kind's default keys and the keys,
devices and libs of its registered tags (``targetlang/_data/<dialect>.json``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from shelf import REPO, tvm_git, write_or_check

OUTPUT = REPO / "targetlang" / "_data" / "lint.json"
FIRST, LAST = (0, 6), (0, 21)

# Each pattern is read by git grep (POSIX ERE) and by Python's re, so only their common
# part; each with the folders it is looked for in (dispatch registrations with one string are
# looked for in Relay and TOPI only: tensor intrinsics register names the same way).
PATTERNS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "keys": [(r"\.register\( *\[([^]]*)\]", ("python/tvm",)),
             (r"\.register\( *\"([a-z_]+)\"", ("python/tvm/relay", "python/tvm/topi")),
             (r"\"([a-z_0-9]+)\" in [a-zA-Z_.]*(target|tgt)\.keys([^(a-zA-Z_]|$)", ("python/tvm",)),
             (r"-keys=([a-z_0-9,]+)", ("python/tvm",))],
    "device": [(r"-device=([a-z_0-9]+)", ("python/tvm",)),
               (r"\"device\": *\"([a-z_0-9]+)\"", ("python/tvm",))],
    "libs": [(r"\"([a-z_0-9]+)\" in [a-zA-Z_.]*(target|tgt)\.libs([^(a-zA-Z_]|$)", ("python/tvm",)),
             (r"-libs=([a-z_0-9,]+)", ("python/tvm",))],
}


def release_tags() -> list[str]:
    tags = []
    for tag in tvm_git("tag").split():
        found = re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)", tag)
        if found and FIRST <= (int(found.group(1)), int(found.group(2))) <= LAST:
            tags.append(tag)
    return sorted(tags, key=lambda t: tuple(int(p) for p in t[1:].split(".")))


def values(tags: list[str]) -> dict[str, dict[str, str]]:
    """attribute -> value -> the first release whose Python sources use it."""
    found: dict[str, dict[str, str]] = {name: {} for name in PATTERNS}
    for tag in tags:
        for name, patterns in PATTERNS.items():
            for pattern, paths in patterns:
                out = tvm_git("grep", "-h", "-o", "-E", "-e", pattern, f"refs/tags/{tag}", "--",
                              *paths, ok=(0, 1))  # 1: git grep found nothing
                for match in out.splitlines():
                    inner = re.search(pattern, match)
                    assert inner is not None
                    for value in re.findall(r"[a-z_0-9]+", inner.group(1)):
                        found[name].setdefault(value, tag)
    return {name: dict(sorted(table.items())) for name, table in found.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file")
    args = parser.parse_args()
    tags = release_tags()
    data = {
        "source": (f"apache/tvm python/tvm at every release {tags[0]} .. {tags[-1]}; value -> "
                   "first release that used it; written by scripts/generate_lint_data.py"),
        "patterns": PATTERNS,
        "values": values(tags),
    }
    text = json.dumps(data, indent=1) + "\n"
    return write_or_check(OUTPUT, text, check=args.check, source="TVM's history")


if __name__ == "__main__":
    sys.exit(main())
