"""Run ``targetlang upgrade --write`` over real projects and check every file stayed intact.

    python3 scripts/upgrade_projects.py NAME=TREE ... [--oracle] [--sites OUT.jsonl]
    python3 scripts/upgrade_projects.py tvm-0.21=/work/.mirror/apache+tvm/repo@v0.21.0
    python3 scripts/upgrade_projects.py --oracle-only SITES.jsonl

The oracles are found as ``scripts/check_migration_releases.py`` finds them
(``TARGETLANG_ORACLE_DIR``, and ``TARGETLANG_SHARED_DIR`` for ``oracle/query.py``).

Each project is a directory, or ``GIT_DIR@REV`` (a bare mirror: the tree of REV is archived).
It is copied into a temporary directory and upgraded there with ``--write`` (the original is
never touched). Then, file by file, what the upgrade promises is checked:

* every file: outside the changed sites nothing moved (same number of lines; the lines that
  differ are the lines of changed sites);
* ``.py``: compiles if it compiled before;
* ``.ipynb``: valid JSON, the same document but the source strings of code cells;
* ``.json`` / ``.toml`` / ``.yaml`` (``tomllib`` / PyYAML, where installed): the same
  document but the values rewritten, each now JSON text of a target.

Prints, per project (with its commit) and in total, per file type and class of site: sites
rewritten, bridged and reported; and a sample of the reports. With ``--oracle`` every
rewritten string site (config values, shell words, code-block lines) is checked on the TVM
oracles: the legacy text read by TVM 0.21, the JSON text by 0.25, 0.26 and 0.27 (accepted,
and read as 0.21 read the original; ``check_migration_releases.differences`` decides).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path
from typing import Any

from shelf import REPO, require_oracle

from targetlang.migration._program import Program
from targetlang.migration.upgrade import FileResult, Options, file_type, upgrade_file, walk

Counts = collections.Counter[tuple[str, str, str]]  # (file type, site class, outcome)
#: reports by (file type, code), over every project of the run
CODES_SEEN: collections.Counter[tuple[str, str]] = collections.Counter()


def tree_of(spec: str, into: Path) -> tuple[Path, str]:
    """The directory of a project spec and its commit (or "-"). From a mirror, the files
    of the types the upgrade reads (and ``.gitignore`` files) are written out; a mirror may
    lack its largest blobs, which are not among them."""
    if "@" not in spec:
        shutil.copytree(spec, into, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        return into, "-"
    git_dir, rev = spec.rsplit("@", 1)
    git = ["git", "--git-dir", git_dir]
    commit = subprocess.run([*git, "rev-parse", f"{rev}^{{commit}}"], capture_output=True,
                            text=True, check=True).stdout.strip()
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", commit], capture_output=True,
                             check=True).stdout.decode("utf-8", "surrogateescape")
    wanted: dict[str, str] = {}
    for entry in listing.split("\0"):
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        mode, kind, blob = meta.split()
        if kind == "blob" and mode in ("100644", "100755") and (
                file_type(path) is not None or path.endswith(".gitignore")):
            wanted[path] = blob
    batch = subprocess.run([*git, "cat-file", "--batch"], capture_output=True, check=True,
                           input="".join(b + "\n" for b in wanted.values()).encode())
    data, at = batch.stdout, 0
    for path in wanted:
        header_end = data.index(b"\n", at)
        header = data[at:header_end].split()
        at = header_end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        target = into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data[at:at + size])
        at += size + 1
    return into, commit


def _load_yaml(text: str) -> Any:
    import yaml  # type: ignore[import-untyped]

    return list(yaml.safe_load_all(text))


def _loader(kind: str) -> Any:
    if kind == "json":
        return json.loads
    if kind == "toml":
        try:
            import tomllib
        except ImportError:
            return None
        return tomllib.loads
    if kind == "yaml":
        try:
            import yaml  # noqa: F401
        except ImportError:
            return None
        return _load_yaml
    return None


def _same_but(old: Any, new: Any) -> bool:
    """Equal, but where a string became the JSON text of a target (a dict with a kind)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return list(old) == list(new) and all(_same_but(old[k], new[k]) for k in old)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_same_but(a, b) for a, b in zip(old, new))
    if old == new:
        return True
    if isinstance(old, str) and isinstance(new, str):
        try:
            value = json.loads(new)
        except ValueError:
            return False
        return isinstance(value, dict) and "kind" in value
    return False


def _strip_sources(notebook: Any) -> Any:
    cells = notebook.get("cells", []) if isinstance(notebook, dict) else []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            cell["source"] = None
    return notebook


def intact(result: FileResult) -> str | None:
    """Why the upgraded file is not intact outside its sites, or None."""
    old, new = result.original, result.text
    if not result.changed:
        return None
    kind = result.file_type
    a, b = old.splitlines(), new.splitlines()
    if len(a) != len(b) and kind not in ("notebook", "python", "yaml"):
        # a Python call or a YAML block scalar may become one line: read by their readers
        return f"line count {len(a)} -> {len(b)}"
    if kind == "python":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                compile(old, result.path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                return None
            try:
                compile(new, result.path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as error:
                return f"does not compile: {error}"
        return None
    if kind == "notebook":
        try:
            before, after = json.loads(old), json.loads(new)
        except ValueError as error:
            return f"not JSON: {error}"
        if _strip_sources(before) != _strip_sources(after):
            return "the notebook changed outside its code cells' sources"
        return None
    load = _loader(kind)
    if load is None:
        return None
    try:
        before = load(old)
    except Exception:  # noqa: BLE001 - a file its reader refuses (templated YAML): unchecked
        return None
    try:
        after = load(new)
    except Exception as error:  # noqa: BLE001
        return f"no longer reads: {error}"
    return None if _same_but(before, after) else "the document changed beyond its values"


def run(name: str, spec: str, work: Path, counts: Counts, reports: dict[str, list[str]],
        sites: list[dict[str, str]], failures: list[str]) -> list[str]:
    tree, commit = tree_of(spec, work / name)
    files: collections.Counter[str] = collections.Counter()
    changed: collections.Counter[str] = collections.Counter()
    project: Counts = collections.Counter()
    entries = list(walk([str(tree)]))
    # the project's Python files read as one program, as `targetlang upgrade TREE` reads them
    program = Program.of_files([p for p, kind in entries if kind == "python"],
                               roots=[str(tree)])
    options = Options(program=program)
    invalid = 0
    for path, kind in entries:
        try:
            result = upgrade_file(path, file_type=kind, write=True, options=options)
        except OSError as error:
            failures.append(f"{name}: {path}: {error}")
            continue
        files[kind] += 1
        changed[kind] += result.changed
        invalid += result.invalid is not None
        for change in result.changes:
            project[(kind, re.sub(r" \d+$", "", change.site), change.kind)] += 1  # a cell's number is no class
            if change.value is not None and change.target is not None:
                sites.append({"project": name, "path": os.path.relpath(path, tree),
                              "line": str(change.line), "site": change.site,
                              "old": change.value, "new": change.target})
        for site, count in result.reported.items():
            project[(kind, site, "reported")] += count
        for finding in result.findings:
            if finding is not result.invalid:
                CODES_SEEN[(kind, finding.code)] += 1
                reports.setdefault(f"{kind} / {_site_of(result, finding)}", []).append(
                    f"{name}: {os.path.relpath(str(finding), tree)}".replace(f"{tree}/", ""))
        why = intact(result)
        if why is not None:
            failures.append(f"{name}: {os.path.relpath(path, tree)}: {why}")
    counts.update(project)
    line = (f"{name} @ {commit[:12]}: {sum(files.values())} files "
            f"({', '.join(f'{k} {v}' for k, v in sorted(files.items()))}), "
            f"{sum(changed.values())} changed, {invalid} not valid for their type")
    rows = [line]
    for (kind, site, outcome), count in sorted(project.items()):
        rows.append(f"    {kind:9} {site:22} {outcome:9} {count}")
    return rows


def _site_of(result: FileResult, finding: Any) -> str:
    return next(iter(result.reported), "?") if len(result.reported) == 1 else "various"


def release_check(originals: dict[str, Any], label: str) -> list[str]:
    """For each release R of 0.25, 0.26, 0.27: every legacy text in ``originals`` (text ->
    TVM 0.21's export of it) upgraded ``--to tvm-R`` as a string site is (convert_value's
    JSON text), given to the R oracle: accepted, and read as 0.21 read the original
    (``check_migration_releases.differences`` decides what may differ)."""
    import check_migration_releases as cmr

    import targetlang as tl
    from targetlang.migration._sites import Rewritten, convert_value, json_text

    lines = []
    for release in [r for r in cmr.RELEASES if not r.startswith("tirx")]:
        kinds_new = tl.kinds(f"tvm-{release}")

        def kind_new(kind: str, kinds_new: Any = kinds_new) -> Any:
            return kinds_new[kind].attrs if kind in kinds_new else {}

        sent: dict[str, str] = {}
        for old in originals:
            answer = convert_value(old, target_dialect=f"tvm-{release}")
            if isinstance(answer, Rewritten):
                sent[old] = json_text(answer.json)
        replies = cmr.accept(release, [json.loads(new) for new in sent.values()])
        accepted = same = 0
        for (old, new), reply in zip(sent.items(), replies):
            if not reply["ok"]:
                lines.append(f"  tvm-{release} refuses {new} (from {old!r}): {reply['error']}")
                continue
            accepted += 1
            diff = cmr.differences(originals[old], reply["export"], json.loads(new), kind_new)
            if diff:
                lines.append(f"  tvm-{release} reads {old!r} otherwise: {diff}")
            else:
                same += 1
        lines.append(f"{label} tvm-{release}: {len(sent)} distinct rewritten string values, "
                     f"{accepted} accepted, {same} read as TVM 0.21 read the original")
    return lines


def oracle_check(sites: list[dict[str, str]]) -> list[str]:
    """The string sites found in the projects: TVM 0.21 (live) on each original, then
    :func:`release_check`. A text no oracle reads (0.6-era ``-target=``) is listed."""
    import check_migration_releases as cmr

    olds = sorted({s["old"] for s in sites})
    if not olds:
        return ["oracle: no string sites to check"]
    done = subprocess.run([str(require_oracle("0.21")), str(cmr.SHARED / "oracle" / "query.py")],
                          capture_output=True, text=True, check=True, timeout=3000,
                          input="".join(old + "\n" for old in olds))
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    lines = [f"  {old!r}: read by no oracle release (0.21: {a['error_type']}); targetlang "
             "read it as the older release that wrote it" for old, a in zip(olds, answers)
             if not a["ok"]]
    originals = {old: a["export"] for old, a in zip(olds, answers) if a["ok"]}
    return lines + release_check(originals, "project sites")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _toml_basic(value: str) -> str:
    """A TOML basic string, or YAML double-quoted one (JSON's escapes, but no surrogate
    pairs, which neither reads)."""
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


GOLDEN_021 = REPO / "tests" / "data" / "tvm-0.21" / "golden.jsonl"


def corpus_check(oracle: bool) -> list[str]:
    """Every legacy target TVM 0.21 accepted in the golden set (TopHub's included), as a
    value of each string file type: written in a JSON, YAML, TOML, shell and Markdown file,
    upgraded, and read back with the file type's own reader (json, PyYAML, tomllib, shlex):
    each rewritten value must read back as exactly the JSON text ``convert_value`` gave, and
    everything else as it was. With ``oracle``, each distinct JSON text is given to the 0.25,
    0.26 and 0.27 oracles and compared with TVM 0.21's recorded export of the original."""
    import shlex

    from targetlang.migration._sites import NeedsPerson, Rewritten, convert_value, json_text
    from targetlang.migration.upgrade import upgrade_text

    rows = [json.loads(line) for line in GOLDEN_021.read_text("utf-8").splitlines()]
    rows = [r for r in rows if r["ok"] and isinstance(r["input"], str) and r["input"].strip()
            and _encodable(r["input"])]  # a file holds no lone surrogate
    values = [r["input"] for r in rows]
    expected: list[str] = []
    answers = [convert_value(v, target_dialect="tvm-0.27") for v in values]
    for value, answer in zip(values, answers):
        expected.append(json_text(answer.json) if isinstance(answer, Rewritten) else value)
    shell_ok = [i for i, v in enumerate(values) if "\0" not in v]
    files = {
        "json": "[\n" + ",\n".join(f"  {{\"target\": {json.dumps(v)}}}" for v in values) +
                "\n]\n",
        "yaml": "".join(f"- target: {_toml_basic(v)}\n" for v in values),
        "toml": "".join(f"t{i} = {_toml_basic(v)}\n" for i, v in enumerate(values)),
        "shell": "".join(f"run --target {shlex.quote(values[i])}\n" for i in shell_ok),
        "markdown": "```sh\n" + "".join(f"TARGET={shlex.quote(values[i])}\n"
                                          for i in shell_ok) + "```\n",
    }
    lines = []
    options = Options()
    for kind, text in files.items():
        result = upgrade_text(text, path=f"corpus.{kind}", file_type=kind, options=options)
        if kind == "json":
            got = [item["target"] for item in json.loads(result.text)]
            want = expected
        elif kind == "yaml":
            try:
                import yaml
            except ImportError:
                lines.append("corpus yaml: PyYAML not installed; not read back")
                continue
            got = [item["target"] for item in yaml.safe_load(result.text)]
            want = expected
        elif kind == "toml":
            try:
                import tomllib
            except ImportError:
                lines.append("corpus toml: no tomllib; not read back")
                continue
            document = tomllib.loads(result.text)
            got = [document[f"t{i}"] for i in range(len(values))]
            want = expected
        else:
            body = result.text.split("```sh\n", 1)[-1].rsplit("```", 1)[0]
            words = shlex.split(body)
            got = [w.split("=", 1)[1] for w in words if w.startswith("TARGET=")] \
                if kind == "markdown" else words[2::3]
            want = [expected[i] for i in shell_ok]
        wrong = [(w, g) for w, g in zip(want, got) if w != g] + \
            ([("count", f"{len(got)} != {len(want)}")] if len(got) != len(want) else [])
        persons = sum(isinstance(a, NeedsPerson) for a in answers)
        lines.append(f"corpus {kind}: {len(want)} values, {result.count('rewritten')} "
                     f"rewritten, {result.count('reported')} reported (convert_value: "
                     f"{persons} need a person), {len(wrong)} read back wrong")
        lines += [f"  wrong: {w!r} -> {g!r}" for w, g in wrong[:5]]
    if oracle:
        lines += release_check({r["input"]: r["export"] for r in rows}, "corpus")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*", metavar="NAME=TREE")
    parser.add_argument("--corpus", action="store_true",
                        help="also the golden legacy corpus through each string file type")
    parser.add_argument("--oracle-only", type=Path, metavar="SITES",
                        help="check the string sites a run wrote (--sites) on the oracles")
    parser.add_argument("--oracle", action="store_true", help="check string sites on the oracles")
    parser.add_argument("--sites", type=Path, help="write the string sites (JSON lines)")
    parser.add_argument("--sample", type=int, default=3, help="reports shown per class")
    args = parser.parse_args()
    if args.oracle_only:
        lines = args.oracle_only.read_text(encoding="utf-8").splitlines()
        for line in oracle_check([json.loads(line) for line in lines if line.strip()]):
            print(line)
        return
    counts: Counts = collections.Counter()
    reports: dict[str, list[str]] = {}
    sites: list[dict[str, str]] = []
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="upgrade-projects-") as work:
        for spec in args.projects:
            name, _, path = spec.partition("=")
            for row in run(name, path, Path(work), counts, reports, sites, failures):
                print(row)
    print("\ntotal, per file type and class of site (rewritten / bridged / reported):")
    keys = sorted({(k, s) for k, s, _ in counts})
    for kind, site in keys:
        print(f"  {kind:9} {site:22} {counts[(kind, site, 'rewritten')]:6} "
              f"{counts[(kind, site, 'bridged')]:6} {counts[(kind, site, 'reported')]:6}")
    print("\nreports by file type and code: " + ", ".join(
        f"{kind} {code} {n}" for (kind, code), n in sorted(CODES_SEEN.items())))
    print(f"\nintact: {len(failures)} files not intact or not readable")
    for failure in failures:
        print(f"  {failure}")
    rng = random.Random(0)
    print("\nsample of reports:")
    for group, found in sorted(reports.items()):
        print(f"  {group} ({len(found)}):")
        for text in rng.sample(found, min(args.sample, len(found))):
            print(f"    {text[:300]}")
    if args.sites:
        args.sites.write_text("".join(json.dumps(s) + "\n" for s in sites), encoding="utf-8")
    if args.oracle and sites:
        print()
        for line in oracle_check(sites):
            print(line)
    if args.corpus:
        print()
        for line in corpus_check(args.oracle):
            print(line)


if __name__ == "__main__":
    main()
