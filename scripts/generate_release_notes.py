"""Write docs/releases.md: what each TVM release 0.6 ... 0.27 (and TVM TIRx 0.1) changed for targets.

    python3 scripts/generate_release_notes.py            # writes docs/releases.md
    python3 scripts/generate_release_notes.py --check    # exit 1 if the committed file differs

Made from the release facts (``targetlang/_data/releases/``, by ``scripts/generate_releases.py``),
the moved meaning (``targetlang/_data/moved-meaning.json``, by
``scripts/generate_moved_meaning.py``), the oracles' goldens (``tests/data/releases/``,
``tests/data/meta_schedule/``) and, per release,
the subjects of the commits that touched ``src/target/target.cc`` or
``python/tvm/target/target.py`` since the previous release (``$TVM_GIT_DIR``; left out when
there is no TVM git mirror).
"""

from __future__ import annotations

import argparse
import collections
import json
import lzma
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from shelf import REPO, write_or_check
from shelf import tvm_source as src

FACTS = REPO / "targetlang" / "_data" / "releases"
OUT = REPO / "docs" / "releases.md"
RELEASES = [f"0.{n}" for n in range(6, 28)]

INTRO = """\
# TVM releases 0.6 … 0.27 and TVM TIRx 0.1: how each reads targets

Every TVM release from 0.6 to 0.27 is described by one data file,
`targetlang/_data/releases/tvm-0.N.json`: its target kinds (device type, default keys, the
hook that rewrites a target when it is made, every attribute with its type and registered
default), its tags (the config each registers, and what the tag means: its full export), and
how it reads text and dicts. Every fact cites the line of TVM's source it comes from
(`tag:path:line`), or the TVM oracle it was asked of (0.19, 0.21, 0.25, 0.26 and 0.27 are on
PyPI; the others are read from their git tags). `scripts/check_releases.py` checks the source
reading against every oracle: all kinds, attributes, types, defaults, keys and device types of
0.19, 0.21, 0.25 and 0.26, and every tag's export in all five, agree.

Regenerate (then review the diff):

```sh
python3 scripts/generate_releases.py        # the facts and families.json (needs the git mirror and oracles)
python3 scripts/check_releases.py           # the source reading against the oracles
python3 scripts/record_release_goldens.py   # the oracles' goldens under tests/data/releases/
python3 scripts/make_meta_schedule_db.py    # the MetaSchedule database under tests/data/meta_schedule/
python3 scripts/generate_moved_meaning.py   # what moved out of the target (needs the mirror and oracles)
python3 scripts/generate_release_notes.py   # this file
```

TVM TIRx 0.1 (`apache-tvm-tirx`, imported as `tvm_tirx`) is TVM's TIR compiler as its own
package, with its own copy of the target model: the dialect `tirx-0.1`, whose facts
(`targetlang/_data/releases/tirx-0.1.json`) come from its oracle and wheel (see
[below](#tvm-tirx-01)).

## Eras

| releases | how a target is read |
|---|---|
| 0.6 | a kind name and `-key=value` words, kept as a list (no attribute schema); `-target=` is LLVM's `-mtriple=`; no tags |
| 0.7 | the first kind registry (`src/target/target_kind.cc`): typed attributes, tags, JSON text; `true`/`false` not yet read as booleans; the kind's default keys are appended to given `-keys` (as in 0.6, until 0.9) |
| 0.8–0.9 | besides 0.7's `-system-lib` (every kind) and `-runtime` (`llvm`, `c`), `-link-params`, `-interface-api`, `-unpacked-api` are attributes of `llvm` and `c` (`-link-params` of `hexagon` too), `-executor` of `c` only; `true`/`false` read as 1/0; the CUDA tags of `src/target/tag.cc`; 0.9 rewrites `-libs=mkldnn` to `dnnl` |
| 0.10–0.20 | those options leave the target (0.10); default keys only when no keys are given; target parsers (`set_target_parser`); single-quoted values; integers still read as 32-bit `int` (as since 0.7); 0.18 rewords the integer error |
| 0.21–0.23 | integers read as 64-bit (`int64_t`) |
| 0.24 | legacy strings removed (apache/tvm 2030db36e4, PR #18785: only a tag, a bare kind name or JSON text); the Python target helpers removed and the tags moved into Python (283fd19683, PR #18793); `Target(dict)` validated by a schema: unknown keys refused, `feature.*` keys kept, `{"tag": ..., <overrides>}` |
| 0.25–0.26 | `Target.__getattr__` back (`target.arch`); kind `trn`; the CUDA, Metal, Adreno, Hexagon and Trainium tags move into `python/tvm/backend/*/target_tags.py`; `cuda` without `arch` on a machine whose GPU has compute capability ≥ 9.0 gets `sm_XXa` (`UpdateCUDAAttrs`, v0.25.0:src/backend/cuda/codegen/target_kind.cc) |
| 0.27 | kind `cuda_host`; `webgpu.max_shared_memory_per_block` |

## Families

Consecutive releases whose facts are all equal (tags and what they export included) form a
family; `targetlang/_data/releases/families.json` lists them with every difference at each
boundary. Nearly every release registers a new tag, so most families hold one release.
Releases that read targets alike but register different tags form a *reader family*.
The code of the hooks (target parsers, canonicalizers) is fingerprinted too, but a changed
fingerprint does not split a family: most are refactors. They are listed per release below
("hook code changed") for review; the oracles' goldens check the releases that have one.

"""


def uncited(change: str) -> str:
    """A change line without its source citation."""
    return re.sub(r" \(was \[[^\]]*\]\)| \[[^\]]*\]$", "", change)


def load(name: str) -> Any:
    return json.loads((FACTS / name).read_text(encoding="utf-8"))


def commits(release: str) -> list[str]:
    if release == "0.6" or release == "0.27" or not (src.TVM_GIT / "HEAD").exists():
        return []
    previous = f"v0.{int(release.split('.')[1]) - 1}.0"
    done = subprocess.run(["git", "-C", str(src.TVM_GIT), "log", "--format=%h %s",
                           f"refs/tags/{previous}..refs/tags/v{release}.0", "--",
                           "src/target/target.cc", "python/tvm/target/target.py"],
                          stdout=subprocess.PIPE, text=True, check=True)
    return done.stdout.splitlines()


def render() -> str:
    families = load("families.json")
    lines = [INTRO]
    lines.append("| reader family | releases | what its first release changed (tags aside) |")
    lines.append("|---|---|---|")
    for family in families["reader_families"]:
        members = ", ".join(r.removeprefix("tvm-") for r in family["releases"])
        boundary = family["boundary"]
        why = "the first release" if boundary is None else (
            f"{len(boundary)} change{'s' if len(boundary) > 1 else ''}, e.g. " + "; ".join(
                uncited(c) for c in boundary[:3]).replace("|", "\\|"))
        lines.append(f"| `{family['family']}` | {members} | {why} |")
    lines.append("")
    shared = ["`" + f["family"] + "` = " + ", ".join(r.removeprefix("tvm-") for r in f["releases"])
              for f in families["families"] if len(f["releases"]) > 1]
    lines.append("Exact families (every fact equal): " + ("; ".join(shared) + "; every other "
                 "release is a family of its own." if shared else "none: every release differs "
                 "from the one before in some fact, so each is a family of its own."))
    lines.append("")
    lines.append(MS_NOTES)
    lines.append(golden_notes())
    lines.append(tirx_notes())
    lines.append(meaning_notes())
    lines.append(helper_notes())
    lines.append("## Release by release\n")
    lines.append("Each change cites the line that makes it (for a removal, the line where the "
                 "previous release had it). Tag additions are listed by name; their configs and "
                 "citations are in the release's data file.\n")
    for previous, release in zip(RELEASES, RELEASES[1:]):
        facts = load(f"tvm-{release}.json")
        changes = families["changes"][f"tvm-{release}"]
        lines.append(f"### {release} (from {previous})\n")
        lines.append(f"Facts from: {facts['source'].split(', by ')[0]}. Kinds: "
                     f"{', '.join(sorted(facts['kinds']))}"
                     + (f"; optional kinds (off in a default build): "
                        f"{', '.join(sorted(facts['optional_kinds']))}"
                        if facts.get("optional_kinds") else "")
                     + f". Tags: {len(facts['tags'])}.\n")
        added = [c.split(" ")[1] for c in changes if c.startswith("tag ") and " added" in c]
        removed = [c.split(" ")[1] for c in changes if c.startswith("tag ") and " removed" in c]
        for change in changes:
            if change.startswith("tag ") and (" added" in change or " removed" in change):
                continue
            lines.append(f"- {change}")
        if added:
            lines.append(f"- tags added ({len(added)}): " + ", ".join(f"`{t}`" for t in added))
        if removed:
            lines.append(f"- tags removed ({len(removed)}): "
                         + ", ".join(f"`{t}`" for t in removed))
        if not changes:
            lines.append("- no change in the facts (same family as the previous release)")
        code = families["hook_code_changes"][f"tvm-{release}"]
        if code:
            lines.append("- hook code changed (may be a refactor; review): " + "; ".join(code))
        history = commits(release)
        if history:
            lines.append(f"- commits touching `src/target/target.cc` or "
                         f"`python/tvm/target/target.py` since v{previous}.0 ({len(history)}): "
                         + "; ".join(f"{h.split(' ', 1)[0]} {h.split(' ', 1)[1]}"
                                     .replace("|", "\\|") for h in history))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def helper_notes() -> str:
    """The Python target helpers 0.24 removed, with their 0.21 signatures."""
    data = load("python-helpers.json")
    out = ["## Python target helpers\n",
           "`targetlang/_data/releases/python-helpers.json` lists the public functions of "
           "`python/tvm/target/target.py` in every release (`scripts/generate_python_helpers.py`)"
           " and their signatures just before apache/tvm "
           f"{data['at_removal']['commit'][:10]} (PR #18793) removed them in 0.24. "
           "0.25 brought back attribute reads (`target.arch`) through `Target.__getattr__`; "
           "0.24 has neither.\n",
           "| helper | releases | signature in 0.21 | removed in |", "|---|---|---|---|"]
    for name, entry in data["helpers"].items():
        spec = data["by_release"]["tvm-0.21"].get(name)
        if spec is None:
            signature = "(not in 0.21)"
        else:
            params = ", ".join(p["name"] + (f"={p['default']!r}" if "default" in p else "")
                               for p in spec["parameters"])
            signature = f"`{name}({params})` (line {spec['source'].rsplit(':', 1)[1]})"
        first, last = entry["releases"][0][4:], entry["releases"][-1][4:]
        lines = f"{first}–{last}"
        out.append(f"| `{name}` | {lines} | {signature} | {entry['removed_in'][4:]} |")
    out.append("")
    return "\n".join(out)


def golden_notes() -> str:
    """How the oracles' answers compare, release against release (from the goldens)."""
    data = REPO / "tests" / "data"

    def xz(path: Path) -> list[Any]:
        text = lzma.decompress(path.read_bytes()).decode()  # one row a "\n" (not splitlines)
        return [json.loads(x) for x in text.split("\n") if x]

    def same(a: dict[str, Any], b: dict[str, Any], fields: tuple[str, ...]) -> bool:
        return all(a.get(f) == b.get(f) for f in fields)

    out = ["## What the oracles' goldens show\n"]
    cases = [json.loads(x) for x in (data / "tvm-0.21" / "cases.jsonl").read_text().splitlines()]
    g21 = [json.loads(x) for x in (data / "tvm-0.21" / "golden.jsonl").read_text().splitlines()]
    g19 = xz(data / "releases" / "tvm-0.19" / "legacy-golden.jsonl.xz")
    kinds: collections.Counter[str] = collections.Counter()
    for a, b in zip(g21, g19):
        if not same(a, b, ("ok", "export", "str")):
            kinds["accepted by 0.21 only" if a["ok"] and not b["ok"] else
                  "accepted by 0.19 only" if b["ok"] and not a["ok"] else
                  "export differs" if a.get("export") != b.get("export") else "str differs"] += 1
    agree = len(cases) - sum(kinds.values())
    out.append(f"- Legacy strings (the {len(cases)} inputs of the 0.21 golden set, TopHub's "
               f"targets included): TVM 0.19 and 0.21 give the same accept/reject, export and "
               f"str on {agree}; " + ", ".join(f"{k}: {n}" for k, n in sorted(kinds.items()))
               + ". The causes are in the facts: 0.21 reads 64-bit integers (0.19: 32-bit), "
               "has `llvm -vector-width` and `opencl -image_base_address_alignment` (default "
               "64, so every opencl export differs), and its dict reading takes 1/0 for a "
               "bool; 0.19 still has `stackvm`, `aocl`, `sdaccel`, `ccompiler`, ….")
    json_cases = xz(data / "releases" / "json-cases.jsonl.xz")
    goldens = {r: xz(data / "releases" / f"tvm-{r}" / "json-golden.jsonl.xz")
               for r in ("0.19", "0.21", "0.25", "0.26", "0.27")}
    for a, b in (("0.25", "0.26"), ("0.26", "0.27"), ("0.21", "0.25")):
        differ: collections.Counter[str] = collections.Counter()
        for case, x, y in zip(json_cases, goldens[a], goldens[b]):
            if not same(x, y, ("ok", "export")):
                differ[case["category"]] += 1
        out.append(f"- Dicts ({len(json_cases)} cases: every kind, attribute, tag, tag override, "
                   f"unknown and `feature.*` key, wrong types, and every target 0.21 exported): "
                   f"TVM {a} and {b} agree on {len(json_cases) - sum(differ.values())}; they "
                   "differ on " + (", ".join(f"{k} {n}" for k, n in sorted(differ.items()))
                                   or "none") + ".")
    out.append("- 0.25 and 0.26 differ only on tags (`riscv/*` tags changed `device` and "
               "`keys`, one added); 0.27 adds kind `cuda_host`, "
               "`webgpu.max_shared_memory_per_block` (so every `webgpu` export gains it) and "
               "`nvidia/jetson-agx-thor`.\n")
    return "\n".join(out)


def tirx_notes() -> str:
    """TVM TIRx 0.1 against the TVM release it continues (0.27): facts, goldens, databases."""
    tirx, base = load("tirx-0.1.json"), load(f"{load('tirx-0.1.json')['continues']}.json")
    out = ["## TVM TIRx 0.1\n",
           f"Facts from: {tirx['source'].split(', by ')[0]}; it continues "
           f"`{tirx['continues']}`, whose text and JSON rules and hook names it keeps "
           "(its goldens check them). Kinds: " + ", ".join(sorted(tirx["kinds"]))
           + f". Tags: {len(tirx['tags'])} (the same configs as "
           f"{tirx['continues']}: {sum(t in base['tags'] and tirx['tags'][t]['config'] == base['tags'][t]['config'] for t in tirx['tags'])}; "
           f"{sum('condition' in t for t in tirx['tags'].values())} registered only where its "
           "LLVM has the triple's backend). What differs from "
           f"{tirx['continues']}:\n"]
    for kind in sorted(tirx["kinds"]):
        new, old = tirx["kinds"][kind]["attrs"], base["kinds"].get(kind, {}).get("attrs", {})
        for attr in sorted(set(new) - set(old)):
            out.append(f"- `{kind}.{attr}` added ({new[attr]['type']})")
        for attr in sorted(set(old) - set(new)):
            out.append(f"- `{kind}.{attr}` removed")
    fills = tirx["no_gpu_fills"]
    out.append("- on a machine without a GPU (its oracle): " + ", ".join(
        f"`{k}` {a} {v if v is not None else 'none'}" for k, spec in sorted(fills.items())
        for a, v in spec.items()) + " (TVM 0.21 to 0.27: cuda `arch` `sm_50`)")
    arches = [a for a in tirx["llvm_canonicalizer_arches"] if a != "default"]
    out.append(f"- an llvm target gets the Arm features only for the {len(arches)} triple "
               "architectures its canonicalizer registers (" + ", ".join(arches[:6])
               + ", …; 0.27: any triple starting `arm` or `aarch64`); an AArch64 one derives "
               "the A-profile features for an M-profile CPU too")
    arm = json.loads((REPO / "targetlang" / "_data" / "arm-features-tirx-0.1.json")
                     .read_text("utf-8"))
    out.append(f"- its LLVM is {arm['llvm_version']} (0.27: 22): its Arm CPU and feature "
               "tables are its own (`arm-features-tirx-0.1.json`); an `-mattr` item "
               "without its sign, or a sign alone, kills the process")
    out.append("- a null host or composite device is refused (0.21 to 0.27 keep it)")
    schedule = json.loads((REPO / "targetlang" / "_data" / "schedule-instructions.json")
                          .read_text("utf-8"))["releases"]["tirx-0.1"]
    out.append("- no MetaSchedule: no " + ", ".join(
        f"`{m}`" for m in schedule["asked"]["modules"]) + ", no global function named "
               + ", ".join(schedule["asked"]["global_functions_named"]) + " (no "
               "`JSONDatabase`): `logs normalize --to tirx-0.1` writes an AutoTVM log's "
               "targets and refuses a database")
    data = REPO / "tests" / "data" / "releases"

    def xz(path: Path) -> list[Any]:
        return [json.loads(x) for x in lzma.decompress(path.read_bytes()).decode().split("\n")
                if x]

    cases = xz(data / "json-cases.jsonl.xz")
    mine, theirs = xz(data / "tirx-0.1" / "json-golden.jsonl.xz"), xz(
        data / "tvm-0.27" / "json-golden.jsonl.xz")
    # (each wheel's LLVM fills a bare llvm's triple with its own system triple: machine, not
    # meaning, so 0.27's conda triple is read as TIRx's)
    triples = (fills["llvm"]["mtriple"], "x86_64-conda-linux-gnu")

    def answer(row: dict[str, Any], swap: bool) -> str:
        text = json.dumps((row["ok"], row.get("export")), sort_keys=True)
        return text.replace(triples[1], triples[0]) if swap else text

    differ: collections.Counter[str] = collections.Counter(
        c["category"] for c, x, y in zip(cases, mine, theirs)
        if answer(x, False) != answer(y, True))
    out.append(f"\nIts oracle against 0.27's on the {len(cases)} dict cases (the LLVM system "
               f"triple of each aside, `{triples[0]}` and `{triples[1]}`): the same on "
               f"{len(cases) - sum(differ.values())}; different on " + ", ".join(
                   f"{k} {n}" for k, n in sorted(differ.items())) + ": each one of the "
               "differences above (most: a cuda target, or a tag of one, without `arch`).\n")
    return "\n".join(out)


def meaning_notes() -> str:
    """What a TVM 0.21 target meant that moved out of the target or changed (the notes
    ``migrate`` warns with)."""
    data = json.loads((REPO / "targetlang" / "_data" / "moved-meaning.json").read_text("utf-8"))
    out = ["## Meaning that moved out of the target\n",
           "A migrated target can read the same in a newer release and mean something else. "
           "`targetlang/_data/moved-meaning.json` holds each such change, measured in the "
           "oracles (the CUDA math each one lowers to) and read from the sources at the "
           "release tags, with the TVM changes that made it; `migrate()` warns with each that "
           "applies to a target (a `targetlang.MeaningWarning` where the target is carried "
           "whole, a `targetlang.MigrationWarning` for an option it leaves out) and "
           "`targetlang.meaning_notes()` returns them: code, option, message, and the line "
           "that keeps TVM 0.21's meaning.\n",
           "| code | a target with | releases | what changed | changes | the line (in the newest release) |",
           "|---|---|---|---|---|---|"]
    for item in data["meanings"]:
        trigger = item["trigger"]
        what = (f"kind `{trigger['kind']}`" + (f" without `{trigger['without']}`"
                                               if "without" in trigger else "")
                if "kind" in trigger else f"`-{trigger['option']}`" + (
                    "=" + "/".join(str(v).lower() if isinstance(v, bool) else str(v)
                                   for v in trigger["values"]) if trigger.get("values") else "")
                if "option" in trigger else f"`-{trigger['renamed']}` (`{trigger['to']}`)")
        dialects = item["dialects"]
        span = (f"{dialects[0]} … {dialects[-2]}, {dialects[-1]}" if len(dialects) > 3
                else ", ".join(dialects))
        changes = ", ".join(f"{c['commit']} (#{c['pr']}, {c['first_release']})"
                            for c in item["commits"]) or "TIRx's wheel"
        newest = next((item["lines"][d] for d in ("tvm-0.27", "tirx-0.1")
                       if d in item["lines"]), None)
        line = f"`{newest}`" if newest else "none"
        out.append(f"| {item['code']} | {what} | {span} | "
                   f"{item['message'].replace('|', '/')} | {changes} | {line} |")
    out.append("\nThe CUDA math each oracle lowers a cuda target's float32 intrinsics to "
               "(by default / with `tirx.enable_fast_math`):\n")
    math = data["cuda_math"]
    names = sorted(math, key=lambda d: (not d.startswith("tvm-"), d))
    out.append("| intrinsic | " + " | ".join(names) + " |")
    out.append("|---" * (len(names) + 1) + "|")
    for key in math["tvm-0.21"]["lowering"]:
        if not key.endswith(":float32"):
            continue
        row = [key.split(":")[0]]
        for name in names:
            entry = math[name]["lowering"][key]
            row.append(entry["default"] + (f" / {entry['fast']}" if "fast" in entry else ""))
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    return "\n".join(out)


MS_NOTES = """\
## MetaSchedule databases

`tests/data/meta_schedule/db/` is a real `JSONDatabase` that TVM 0.21's `tvm.meta_schedule`
wrote (a 16×16×16 matmul tuned on `llvm` for 8 trials, plus the best record committed under 9
more targets; `scripts/make_meta_schedule_db.py`). `tests/data/meta_schedule/reads.json`
records how each oracle reads it: TVM 0.25, 0.26 and 0.27 (`tvm.s_tir.meta_schedule`) accept
every record's target dict as it is, but none of them loads the database: 0.25 changed the
workload file's JSON object graph format (`Invalid JSON Object Graph, expected 'root_index'
integer field`), and the traces' `GetBlock` instruction is unknown there (0.25 renamed it
`GetSBlock`; 0.21 knows only `GetBlock`). Converting target dicts alone does not make a 0.21
database load in 0.25–0.27.
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args()
    return write_or_check(OUT, render(), check=args.check, source="the release facts")


if __name__ == "__main__":
    sys.exit(main())
