"""Generate targetlang/_data/releases/target-properties.json: the ``Target`` properties of TVM
0.21 that TVM 0.24 removed (``target.arch``, ``.mcpu``, ``.libs``, ...), and what each read.

    python3 scripts/generate_target_properties.py [--oracle DIR]

Runs in the TVM 0.21 oracle (``$TARGETLANG_ORACLE_DIR/bin/tvm021-python``, default
``~/.cache/targetlang-oracle``) and in the JSON oracles (0.25, 0.26, 0.27). Each property of
0.21's ``tvm.target.Target`` is called on a stand-in whose ``attrs`` records what it reads:
``attrs.get(key, default)`` gives ``{"key", "default", "wrap"}`` (``wrap``: the type the
property converts to: ``str``, ``int``, ``list``); ``attrs[key]`` gives ``{"key", "index":
true}``; anything else (``supports_integer_dot_product`` reads ``self.kind``) is ``computed``.
``releases`` lists, for each JSON oracle (and TVM TIRx's, ``tvm_tirx.target.Target``), the
properties its ``Target`` class still defines.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from shelf import REPO

OUT = REPO / "targetlang" / "_data" / "releases" / "target-properties.json"

PROBE_021 = r'''
import json, tvm
from tvm.target import Target

class Read(Exception):
    pass

class Attrs:
    def __init__(self):
        self.seen = None
    def get(self, key, default=None):
        self.seen = {"key": key, "default": default}
        return default
    def __getitem__(self, key):
        self.seen = {"key": key, "index": True}
        raise Read()
    def __contains__(self, key):
        raise Read()

class Kind:
    def __getattr__(self, name):
        raise Read()

class Stand:
    def __init__(self):
        self.attrs = Attrs()
        self.kind = Kind()
    def __getattr__(self, name):
        raise Read()

found = {}
for name, member in sorted(vars(Target).items()):
    if not isinstance(member, property) or name.startswith("_"):
        continue
    stand = Stand()
    try:
        value = member.fget(stand)
        seen = stand.attrs.seen
        if seen is None or "index" in seen:
            found[name] = {"computed": True}
            continue
        expected = seen["default"]
        wrap = type(value).__name__
        if value != expected or wrap not in ("str", "int", "list"):
            found[name] = {"computed": True}
            continue
        found[name] = {"key": seen["key"], "default": expected, "wrap": wrap}
    except Read:
        seen = stand.attrs.seen
        found[name] = ({"key": seen["key"], "index": True} if seen and "index" in seen
                       else {"computed": True})
    except Exception as error:
        found[name] = {"computed": True}
print(json.dumps({"version": tvm.__version__, "properties": found}))
'''

PROBE_JSON = r'''
import json
try:
    import tvm
    from tvm.target import Target
except ImportError:  # TVM TIRx
    import tvm_tirx as tvm
    from tvm_tirx.target import Target
print(json.dumps({"version": tvm.__version__, "properties": sorted(
    n for n, m in vars(Target).items() if isinstance(m, property)),
    "getattr": "__getattr__" in vars(Target)}))
'''


def run(oracle: Path, name: str, program: str) -> dict[str, object]:
    out = subprocess.run([str(oracle / "bin" / name), "-c", program], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle", type=Path, default=Path(os.environ.get(
        "TARGETLANG_ORACLE_DIR", Path.home() / ".cache" / "targetlang-oracle")))
    args = parser.parse_args()
    legacy = run(args.oracle, "tvm021-python", PROBE_021)
    releases = {}
    for release in ("025", "026", "027"):
        answer = run(args.oracle, f"tvm{release}-python", PROBE_JSON)
        releases[f"tvm-0.{int(release)}"] = answer
    releases["tirx-0.1"] = run(args.oracle, "tirx01-python", PROBE_JSON)
    data = {"description": "Target properties of TVM 0.21 and what each read of target.attrs; "
                           "which properties the JSON-only releases still define",
            "generated_by": "scripts/generate_target_properties.py",
            "legacy_version": legacy["version"], "properties": legacy["properties"],
            "releases": releases}
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(REPO)}: {len(legacy['properties'])} properties")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
