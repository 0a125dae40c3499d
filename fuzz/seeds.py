"""The seed corpus of the raw-bytes targets and the token dictionary of the language.

    python -m fuzz.seeds            # rebuild fuzz/seeds/<target>/ and fuzz/targetlang.dict
    python -m fuzz.seeds --check    # is fuzz/targetlang.dict up to date? (exit 1 if not)

Seeds come from the golden corpus recorded from TVM 0.21 (tests/data/), the TopHub targets
in it, tvmc's recorded cases and sentences of grammar/target.lark; libFuzzer's merge
(``-merge=1``) keeps the smallest set with the same coverage, which is what is committed.
The dictionary is every kind, attribute, tag and codegen name of every dialect, the
grammar's punctuation and the JSON, log and Python tokens the tools look for.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
REPO = FUZZ.parent
SEEDS = FUZZ / "seeds"
DICTIONARY = FUZZ / "targetlang.dict"
DATA = REPO / "tests" / "data"


def committed_seeds(name: str) -> list[bytes]:
    directory = SEEDS / name
    if not directory.is_dir():
        return []
    return [p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()]


def _jsonl(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _texts() -> list[str]:
    """Target texts TVM 0.21 was asked about (goldens), TopHub's, and their exports."""
    out: list[str] = []
    for row in _jsonl(DATA / "tvm-0.21" / "golden.jsonl") + _jsonl(DATA / "tvm-0.21" / "cases.jsonl"):
        if isinstance(row.get("input"), str):
            out.append(str(row["input"]))
        if isinstance(row.get("export"), dict):
            out.append(json.dumps(row["export"]))
    for row in _jsonl(DATA / "migration" / "golden.jsonl"):
        out.append(str(row["input"]))
        out.append(json.dumps(row["migrated"]))
    return list(dict.fromkeys(out))


def _grammar_sentences(count: int = 300) -> list[str]:
    from hypothesis import HealthCheck, given, seed, settings

    from targetlang.strategies import grammar_sentences, malformed_strings

    found: list[str] = []

    @seed(0)
    @settings(max_examples=count, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(grammar_sentences() | malformed_strings())
    def collect(text: str) -> None:
        found.append(text)

    collect()
    return found


def _tvmc_texts() -> list[str]:
    rows = _jsonl(DATA / "tvmc" / "golden.jsonl")
    return [str(r["text"]) for r in rows if isinstance(r.get("text"), str)]


def _log_records(texts: Sequence[str]) -> list[str]:
    records = []
    for text in texts[:400]:
        records.append(json.dumps({"input": [text, "conv2d_nchw.cuda",
                                             [["TENSOR", [1, 64, 56, 56], "float32"]], {}],
                                   "config": {"index": 1, "code_hash": None, "entity": []},
                                   "result": [[0.0001], 0, 2.5, 1600000000.0],
                                   "version": 0.2, "tvm_version": "0.7.dev1"}))
    records.append('{"i": ["llvm -device=arm_cpu -target=aarch64-linux-gnu", "topi_nn_conv2d", '
                   '[], {}, ["conv2d"], {"i": 1, "t": "direct", "c": null, "e": []}], '
                   '"r": [[0.1], 0, 1.0, 1], "v": 0.1}')
    records += ["# a comment", "", '{"input": [', '{"input": ["llvm"', "not json"]
    return records


_PYTHON = '''\
import tvm
from tvm import relax, relay
from tvm.target import Target as T

target = tvm.target.Target({a!r}, host={b!r})
lib = tvm.compile(mod, target={a!r})
ex = relax.build(mod, {b!r}, params=None)
old = relay.build(mod, target={a!r}, target_host="llvm")
f = tvm.build(s, [A, B], {a!r}, {b!r})
t1 = T(f"llvm -mcpu={{cpu}}")
t2 = T("llvm " "-mcpu=x")
'''


def raw_seeds() -> dict[str, list[bytes]]:
    """Candidate seeds of each raw-bytes target, before libFuzzer's merge."""
    texts = _texts()
    sentences = _grammar_sentences()
    text_seeds = [t.encode("utf-8", "surrogateescape") for t in texts + sentences]
    records = _log_records([t for t in texts if not t.startswith("{")])
    pairs = list(zip(texts[::2], texts[1::2]))[:300]
    return {
        "parse_bytes": text_seeds,
        "tools_bytes": text_seeds,
        "json_bytes": [t.encode() for t in texts if t.startswith("{")],
        "tvmc_bytes": [t.encode() for t in _tvmc_texts() + texts[:300]],
        "logs_bytes": ["\n".join(records[i:i + 3]).encode() for i in range(0, len(records), 3)],
        "pyscript_bytes": [_PYTHON.format(a=a, b=b).encode() for a, b in pairs],
    }


def merge(name: str, candidates: Iterable[bytes]) -> int:
    """Replace fuzz/seeds/<name>/ by the coverage-minimal subset of ``candidates``."""
    target = SEEDS / name
    with tempfile.TemporaryDirectory() as tmp:
        raw, out = Path(tmp) / "raw", Path(tmp) / "out"
        raw.mkdir()
        out.mkdir()
        for i, data in enumerate(dict.fromkeys(candidates)):
            (raw / f"{i:05d}").write_bytes(data)
        subprocess.run([sys.executable, str(FUZZ / f"fuzz_{name}.py"), "-merge=1",
                        f"-artifact_prefix={tmp}/", str(out), str(raw)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(out, target)
    return len(list(target.iterdir()))


def _escape(token: str) -> str:
    out = []
    for byte in token.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\x{byte:02X}")
    return '"' + "".join(out) + '"'


def dictionary() -> str:
    """libFuzzer's dictionary of the language's tokens (one quoted token a line)."""
    import targetlang as tl
    from targetlang._lower.dialects import load
    from targetlang.tvmc import codegens

    tokens: list[str] = [" -", " --", "=", "'", "\\'", "\\ ", "\\\\", ",", " ", "  ", "\t",
                         "-host='", "-keys=", "-device=", "-libs=", "-tag=", "{", "}", "[", "]",
                         ":", "\"kind\": ", "\"host\": ", "\"keys\": [", "\"tag\": ",
                         "\"from_device\": ", "\\u0000", "\\ud800", "\x00", "1e309",
                         "99999999999999999999", "-1", "true", "null", "sm_80"]
    for dialect in tl.dialects():
        schema = load(dialect)
        for kind, spec in schema.kinds.items():
            tokens.append(kind)
            for attr in spec.attrs:
                tokens += [f"-{attr}=", f'"{attr}": ']
        tokens += list(schema.tag_configs)
    tokens += [name for name in codegens()]
    tokens += ['{"input": [', '"i": [', '"v": 0.1', '"r": [', "\n", "\r\n", "\r", "#"]
    tokens += ["import tvm\n", "tvm.target.Target(", "tvm.build(", "tvm.compile(", "relay.build(",
               "relax.build(", "from tvm.target import Target as T\n", "target=", "host=",
               "target_host=", "\x0c", "\x0b", "\u2028", "\"\"\"", "'''", "f'", "r'", "\\\n"]
    unique = sorted(dict.fromkeys(tokens))
    header = ("# libFuzzer dictionary of targetlang's language (generated by "
              "`python -m fuzz.seeds`; do not edit)\n")
    return header + "".join(_escape(t) + "\n" for t in unique)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fuzz.seeds", description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check the dictionary")
    args = ap.parse_args(argv)
    text = dictionary()
    if args.check:
        same = DICTIONARY.exists() and DICTIONARY.read_text(encoding="utf-8") == text
        print(f"fuzz/targetlang.dict: {'up to date' if same else 'out of date'}")
        return 0 if same else 1
    DICTIONARY.write_text(text, encoding="utf-8")
    print(f"wrote fuzz/targetlang.dict ({text.count(chr(10)) - 1} tokens)")
    for name, candidates in raw_seeds().items():
        kept = merge(name, candidates)
        print(f"fuzz/seeds/{name}: {kept} of {len(set(candidates))} candidates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
