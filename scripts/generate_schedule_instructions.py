"""The trace instruction kinds each TVM release knows, for moving MetaSchedule databases.

    python3 scripts/generate_schedule_instructions.py [--tvm-git DIR] [--check]

Writes ``targetlang/_data/schedule-instructions.json``:

- ``candidates``: every instruction kind name (``static constexpr const char* kName``) in the
  TVM sources of the release tags (read with ``git grep`` from a bare clone of apache/tvm,
  ``--tvm-git``; default ``/work/.mirror/apache+tvm/repo``);
- ``releases``: for each release, the kinds it knows. Where an oracle is installed (0.21, 0.25,
  0.26, 0.27) each candidate is asked of the release itself (``InstructionKind.get(name)``
  succeeds or raises); 0.22-0.24 have no oracle on PyPI and are read from the tag's sources
  (``"from": "source"``);
- ``renames``: TVM's own renames of a kind between releases, learned from apache/tvm's history
  (``git log -S'kName = "GetSBlock"' v0.21.0..v0.25.0``) and checked here against the tables:
  the old name is known before the release and unknown from it on, the new name the opposite;
- ``tirx-0.1``: TVM TIRx 0.1 has no MetaSchedule: its oracle is asked for a schedule module
  (``tvm_tirx.s_tir``, ``tvm_tirx.tir.schedule``, ``tvm_tirx.meta_schedule``) and for global
  functions of MetaSchedule, its database and trace instructions; none exists, so its entry
  says ``"meta_schedule": false`` with what was asked, and no database is written for it;
- ``workload_format``: how the release serializes the IR of the workload table:
  ``"node-graph"`` (``{"root": ..., "nodes": [{"type_key": ...}]}``, TVM <= 0.21) or
  ``"ffi-graph"`` (``{"root_index": ..., "nodes": [{"type": ...}]}``, from 0.22: apache/tvm
  ba994d32f9, "Migrate the Save/Load JSON to the new reflection"); checked against the
  oracles' own ``tvm.ir.save_json``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys

from shelf import REPO, oracle_python, write_or_check

OUT = REPO / "targetlang" / "_data" / "schedule-instructions.json"
TAGS = {"0.21": "v0.21.0", "0.22": "v0.22.0", "0.23": "v0.23.0", "0.24": "v0.24.0",
        "0.25": "v0.25.0", "0.26": "v0.26.0", "0.27": "v0.27.dev0"}
ORACLES = ("0.21", "0.25", "0.26", "0.27")
#: (old, new, first release with new, the apache/tvm commit)
RENAMES = [("GetBlock", "GetSBlock", "0.24",
            "877b448b02 [REFACTOR][TIR] Rename tir.Block to SBlock (#18689)")]
#: the first release whose workload table is an ffi graph (``root_index``)
FFI_GRAPH_FROM = "0.22"

PROBE = r"""
import json, sys
import tvm
try:
    from tvm.s_tir.schedule import InstructionKind
except ImportError:
    from tvm.tir.schedule import InstructionKind
known = []
for name in json.loads(sys.stdin.read()):
    try:
        InstructionKind.get(name)
        known.append(name)
    except Exception:
        pass
graph = json.loads(tvm.ir.save_json(tvm.runtime.convert([1])))
print(json.dumps({"known": known, "root_index": "root_index" in graph}))
"""
#: What TVM TIRx is asked: modules and global functions MetaSchedule would bring.
PROBE_TIRX = r"""
import importlib, json
import tvm_ffi, tvm_tirx
modules = {}
for name in ("tvm_tirx.s_tir", "tvm_tirx.tir.schedule", "tvm_tirx.meta_schedule",
             "tvm_tirx.s_tir.meta_schedule"):
    try:
        importlib.import_module(name)
        modules[name] = True
    except ImportError:
        modules[name] = False
words = ("meta_schedule", "Database", "InstructionKind", "Trace", "Schedule")
functions = sorted(n for n in tvm_ffi.registry.list_global_func_names()
                   if any(w in n for w in words))
print(json.dumps({"tvm_version": tvm_tirx.__version__, "modules": modules,
                  "functions": functions}))
"""
PRODUCTS = ("tirx-0.1",)


def source_names(git: str, tag: str) -> list[str]:
    done = subprocess.run(["git", f"--git-dir={git}", "grep", "-h", "-E",
                           r'static constexpr const char\* kName = "', f"refs/tags/{tag}", "--",
                           "src"], check=True, capture_output=True, text=True)
    return sorted(set(re.findall(r'kName = "(\w+)"', done.stdout)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tvm-git", default="/work/.mirror/apache+tvm/repo")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    by_tag = {release: source_names(args.tvm_git, tag) for release, tag in TAGS.items()}
    candidates = sorted(set().union(*by_tag.values()))
    releases: dict[str, dict[str, object]] = {}
    for release in ORACLES:
        exe = oracle_python(release)
        done = subprocess.run([str(exe), "-c", PROBE], input=json.dumps(candidates),
                              check=True, capture_output=True, text=True)
        probe = json.loads(done.stdout.splitlines()[-1])
        assert probe["root_index"] == (release >= FFI_GRAPH_FROM), (release, probe)
        releases[release] = {"from": "oracle", "kinds": sorted(probe["known"])}
    some_release_knows = set().union(*(set(e["kinds"]) for e in releases.values()))  # type: ignore[call-overload]
    for release in TAGS:
        if release not in releases:
            # A source name no oracle knows would be a test's kind, not the release's.
            releases[release] = {"from": "source",
                                 "kinds": sorted(set(by_tag[release]) & some_release_knows)}
    releases = {release: releases[release] for release in TAGS}
    for release, entry in releases.items():
        entry["workload_format"] = "ffi-graph" if release >= FFI_GRAPH_FROM else "node-graph"
    for product in PRODUCTS:
        done = subprocess.run([str(oracle_python(product)), "-c", PROBE_TIRX],
                              check=True, capture_output=True, text=True)
        probe = json.loads(done.stdout.splitlines()[-1])
        has = any(probe["modules"].values()) or bool(probe["functions"])
        assert not has, probe  # (a TIRx with MetaSchedule needs its own table here)
        releases[product] = {
            "from": "oracle", "kinds": [], "meta_schedule": False,
            "asked": {"tvm_version": probe["tvm_version"], "modules": probe["modules"],
                      "global_functions_named": ["meta_schedule", "Database", "InstructionKind",
                                                 "Trace", "Schedule"],
                      "found": probe["functions"]}}
    for old, new, since, _ in RENAMES:
        for release, entry in releases.items():
            if release in PRODUCTS:
                continue
            kinds = entry["kinds"]
            assert (old in kinds) == (release < since), (old, release)  # type: ignore[operator]
            assert (new in kinds) == (release >= since), (new, release)  # type: ignore[operator]
    data = {
        "about": "Trace instruction kinds each TVM release knows; generated by "
                 "scripts/generate_schedule_instructions.py (oracles where installed, else the "
                 "release tag's sources).",
        "candidates": candidates,
        "releases": releases,
        "renames": [{"old": old, "new": new, "since": since, "commit": commit}
                    for old, new, since, commit in RENAMES],
    }
    text = json.dumps(data, indent=1) + "\n"
    return write_or_check(OUT, text, check=args.check, source="the oracles")


if __name__ == "__main__":
    sys.exit(main())
