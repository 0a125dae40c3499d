"""Check the source transcription of each release against its oracle, where both exist.

    python3 scripts/check_releases.py            # writes tests/data/releases/transcription-check.json
    python3 scripts/check_releases.py --check    # exit 1 if the committed report differs

For 0.19, 0.21, 0.25 and 0.26 (git tag and oracle) the kinds read from the source at the tag
(``scripts/shelf/tvm_source.py``) are compared with what the oracle registers: the kinds of a
default build, each kind's attributes, their types and registered defaults, default keys and
device type. For those and 0.27 (tag configs from its wheel's Python) every transcribed tag
config is given to the oracle as ``Target(config)`` and its export compared with the export of
the registered tag (``list_tags()``), and the two tag name sets are compared.

Every difference is listed under ``differences`` and fails the check (exit 1).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import generate_releases as gen
from shelf import REPO, write_or_check

OUT = REPO / "tests" / "data" / "releases" / "transcription-check.json"


def check_kinds(release: str, facts: dict[str, Any], oracle: dict[str, Any]) -> dict[str, Any]:
    agree = 0
    unexplained: list[str] = []
    tk, ok = facts["kinds"], oracle["kinds"]
    for kind in sorted(set(tk) ^ set(ok)):
        where = "only in the transcription" if kind in tk else "only in the oracle"
        unexplained.append(f"kind {kind}: {where}")
    for kind in sorted(set(tk) & set(ok)):
        a, b = tk[kind], ok[kind]
        for field in ("device_type", "default_keys"):
            if a[field] == b[field]:
                agree += 1
            else:
                unexplained.append(f"{kind}.{field}: source {a[field]!r}, oracle {b[field]!r}")
        for attr in sorted(set(a["attrs"]) | set(b["attrs"])):
            x, y = a["attrs"].get(attr), b["attrs"].get(attr)
            if x is None or y is None:
                unexplained.append(f"{kind}.{attr}: only in the "
                                   + ("oracle" if x is None else "transcription"))
                continue
            for field in ("type", "default"):
                if x.get(field) == y.get(field):
                    agree += 1
                else:
                    unexplained.append(f"{kind}.{attr}.{field}: source {x.get(field)!r}, "
                                       f"oracle {y.get(field)!r}")
    return {"facts_agreeing": agree, "differences": unexplained}


def check_tags(release: str, tags: dict[str, Any], oracle_exports: dict[str, Any]) -> dict[str, Any]:
    unexplained: list[str] = []
    for name in sorted(set(tags) ^ set(oracle_exports)):
        where = "only in the transcription" if name in tags else "only in the oracle"
        unexplained.append(f"tag {name}: {where}")
    common = {n: tags[n]["config"] for n in sorted(set(tags) & set(oracle_exports))}
    made = gen.in_oracle(release, "export", common)
    agree = 0
    for name in common:
        if made[name] == oracle_exports[name]:
            agree += 1
        else:
            unexplained.append(f"tag {name}: Target(transcribed config) exports {made[name]!r}, "
                               f"the registered tag {oracle_exports[name]!r}")
    return {"tags_agreeing": agree, "tags": len(oracle_exports), "differences": unexplained}


def report() -> dict[str, Any]:
    out: dict[str, Any] = {"source": "scripts/check_releases.py", "releases": {}}
    for release in gen.ORACLES:
        facts = gen.transcribed(release)
        oracle = gen.in_oracle(release, "probe")
        entry: dict[str, Any] = {"tvm_version": oracle["tvm_version"]}
        if release not in gen.NO_GIT_TAG:
            entry["kinds"] = check_kinds(release, facts, oracle)
        entry["tags"] = check_tags(release, facts["tags"], oracle["tag_exports"])
        out["releases"][f"tvm-{release}"] = entry
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed report")
    args = ap.parse_args()
    data = report()
    text = gen.render(data)
    status = write_or_check(OUT, text, check=args.check)
    bad = 0
    for release, entry in data["releases"].items():
        kinds = entry.get("kinds", {})
        tags = entry["tags"]
        bad += len(kinds.get("differences", [])) + len(tags["differences"])
        print(f"{release}: kinds " + (f"{kinds['facts_agreeing']} facts agree, "
                                       f"{len(kinds['differences'])} differ; "
                                       if kinds else "(no git tag); ")
              + f"tags {tags['tags_agreeing']}/{tags['tags']} export alike, "
              f"{len(tags['differences'])} differ")
    return status | (1 if bad else 0)


if __name__ == "__main__":
    sys.exit(main())
