"""The minimal TargetJSON (``migrate(..., minimal=True)``, what ``targetlang upgrade`` writes):
only what a release would not fill in by itself, read exactly as the whole."""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import ORACLE_DIR, ORACLE_QUERY, TESTS
from hypothesis import given
from hypothesis import strategies as st

import targetlang as tl
from targetlang.cli import main
from targetlang.migration._minimal import minimal

#: every release that reads TargetJSON only (0.24 and later)
JSON_RELEASES = sorted((d for d in tl.dialects() if d.startswith("tvm-0.")
                        and int(d.split(".")[1]) >= 24), key=lambda d: int(d.split(".")[1]))


@functools.cache
def legacy_corpus() -> tuple[str, ...]:
    """The targets TVM 0.21 accepted in the golden set, and every tag it registered."""
    rows = [json.loads(line) for line in
            (TESTS / "data" / "tvm-0.21" / "golden.jsonl").read_text("utf-8").splitlines()]
    return tuple(dict.fromkeys([r["input"] for r in rows if r["ok"]] + sorted(tl.tags())))


def complete(text: str, release: str) -> dict[str, Any] | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return tl.migrate(text, source_dialect="tvm-0.21", target_dialect=release)
        except tl.TargetError:
            return None  # no equivalent there (a kind the release does not have)


def check(full: dict[str, Any], release: str) -> dict[str, Any]:
    small = minimal(full, release)
    assert tl.from_json(small, dialect=release).to_json() == \
        tl.from_json(full, dialect=release).to_json()
    assert len(json.dumps(small)) <= len(json.dumps(full))
    assert_readable_order(small)
    return small


def assert_readable_order(config: dict[str, Any]) -> None:
    keys = list(config)
    assert keys[0] == "kind"
    structure = [k for k in keys if k in ("kind", "tag", "keys")]
    assert keys[:len(structure)] == structure
    if "host" in keys:
        assert keys[-1] == "host"
        assert_readable_order(config["host"])
    for device in config.get("devices", []) if isinstance(config.get("devices"), list) else []:
        if isinstance(device, dict):
            assert_readable_order(device)


def test_the_corpus_is_not_empty() -> None:
    assert len(legacy_corpus()) > 3000
    assert JSON_RELEASES[0] == "tvm-0.24" and "tvm-0.27" in JSON_RELEASES


@given(st.sampled_from(legacy_corpus()), st.sampled_from(JSON_RELEASES))
def test_minimal_reads_as_the_complete_dict_and_is_never_larger(text: str, release: str) -> None:
    full = complete(text, release)
    if full is not None:
        check(full, release)


def test_the_whole_corpus_in_the_newest_release() -> None:
    release = JSON_RELEASES[-1]
    shrunk = 0
    for text in legacy_corpus():
        full = complete(text, release)
        if full is not None:
            shrunk += check(full, release) != full
    assert shrunk > 3000  # the complete dicts always carry what the release fills in itself


@pytest.mark.parametrize(("text", "expected"), [
    ("llvm -num-cores=4", {"kind": "llvm", "num-cores": 4}),
    ("cuda -arch=sm_80 -libs=cudnn", {"kind": "cuda", "arch": "sm_80", "libs": ["cudnn"]}),
    ("llvm -mtriple=aarch64-linux-gnu -mattr=+neon",  # arm_cpu is derived from the triple
     {"kind": "llvm", "mattr": ["+neon"], "mtriple": "aarch64-linux-gnu"}),
    ("llvm -keys=cpu -mtriple=aarch64-linux-gnu",  # ... but the user's order of keys is kept
     {"kind": "llvm", "keys": ["cpu", "arm_cpu"], "mtriple": "aarch64-linux-gnu"}),
    ("llvm -keys=foo", {"kind": "llvm", "keys": ["foo"]}),
    ("opencl -device=mali -model=rk3399", {"kind": "opencl", "device": "mali", "model": "rk3399"}),
    ("cuda -host='llvm -mtriple=aarch64-linux-gnu' -max_num_threads=512",
     {"kind": "cuda", "max_num_threads": 512,
      "host": {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}}),
    ("composite --host=llvm --devices=cuda,opencl",
     {"kind": "composite", "devices": [{"kind": "cuda"}, {"kind": "opencl"}],
      "host": {"kind": "llvm"}}),
    ("llvm -tag=mine -mcpu=skylake", {"kind": "llvm", "tag": "mine", "mcpu": "skylake"}),
])
def test_examples(text: str, expected: dict[str, Any]) -> None:
    full = complete(text, "tvm-0.27")
    assert full is not None
    small = check(full, "tvm-0.27")
    assert small == expected
    assert list(small) == list(expected)


def test_values_the_machine_detects_are_kept() -> None:
    # Written out in the complete dict (as an Environment fills them in): dropping one would
    # let the user's machine detect another value.
    env = tl.Environment.no_gpu()
    for text in ("cuda", "llvm", "rocm", "nvptx"):
        full = tl.migrate(text, target_dialect="tvm-0.27", environment=env)
        small = check(full, "tvm-0.27")
        pure = tl.migrate(text, target_dialect="tvm-0.27")
        detected = {k: v for k, v in full.items() if k not in pure}
        assert detected and all(small[k] == v for k, v in detected.items()), (text, small)
    # A default the machine cannot change is dropped even beside a detected value.
    full = tl.migrate("cuda -arch=sm_50", target_dialect="tvm-0.27")
    assert minimal(full, "tvm-0.27") == {"kind": "cuda", "arch": "sm_50"}


def test_a_dict_the_release_refuses_is_returned_as_it_is() -> None:
    refused = {"kind": "llvm", "tag": "", "no-such-option": 1}
    assert minimal(refused, "tvm-0.27") == refused


def test_the_input_is_not_changed_nor_shared() -> None:
    full = tl.migrate("composite --host='llvm -mattr=+neon' --devices='cuda -libs=cudnn',opencl")
    before = json.dumps(full)
    small = minimal(full, "tvm-0.27")
    assert json.dumps(full) == before
    small["host"]["mattr"].append("+sve")
    small["devices"][0]["libs"].append("cublas")
    assert json.dumps(full) == before


def accept(release: str, configs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    exe = ORACLE_DIR / "bin" / f"tvm0{release.split('.')[1]}-python"
    if not exe.exists():
        pytest.skip(f"no TVM {release} oracle at {exe}")
    done = subprocess.run([str(exe), str(ORACLE_QUERY), "--mode", "accept"],
                          input="".join(json.dumps(c) + "\n" for c in configs),
                          capture_output=True, text=True, timeout=1800, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


@pytest.mark.oracle
@pytest.mark.parametrize("release", ["0.25", "0.26", "0.27"])
def test_the_oracles_read_minimal_dicts_as_the_complete_ones(release: str) -> None:
    dialect = f"tvm-{release}"
    pairs = []
    for text in legacy_corpus()[::10]:
        full = complete(text, dialect)
        if full is not None:
            pairs.append((full, minimal(full, dialect)))
    answers = accept(release, [c for pair in pairs for c in pair])
    assert len(answers) == 2 * len(pairs) > 300
    for (full, small), whole, less in zip(pairs, answers[::2], answers[1::2]):
        assert whole["ok"] and less["ok"], (full, small, whole.get("error"), less.get("error"))
        assert less["export"] == whole["export"], (full, small)


# ---- the public form: migrate(..., minimal=True) is what `targetlang upgrade` writes ----------

@pytest.mark.parametrize("release", ["tvm-0.24", None], ids=["tvm-0.24", "newest"])
def test_migrate_minimal_is_what_upgrade_writes(tmp_path: Path, release: str | None) -> None:
    # One project holding every target of the corpus, upgraded by the command line; each dict
    # it wrote is compared with the public function's answer for the same text.
    corpus = legacy_corpus()
    path = tmp_path / "project.py"
    path.write_text("import tvm\n\n" + "".join(
        f"t{i} = tvm.target.Target({text!r})\n" for i, text in enumerate(corpus)), "utf-8")
    to = ["--to", release] if release else []
    assert main(["upgrade", "--write", "--exit-zero", "-q", *to, str(path)]) == 0
    compared = kept = 0
    for node in ast.parse(path.read_text("utf-8")).body[1:]:
        assert isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        text = corpus[int(ast.unparse(node.targets[0])[1:])]
        written = node.value.args[0]
        if not isinstance(written, ast.Dict):  # read the same there, or left for a person
            assert ast.literal_eval(written) == text
            kept += 1
            continue
        # upgrade reads what a project on TVM 0.21 meant: JSON text too as 0.21 read it (it
        # cut a string at a NUL), where migrate's "auto" reads JSON as the newest release does.
        source = "tvm-0.21" if text.startswith("{") else "auto"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert tl.migrate(text, source_dialect=source, target_dialect=release,
                              minimal=True) == ast.literal_eval(written), text
        compared += 1
    assert compared > 3 * kept and compared >= 100


def test_the_default_stays_complete() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = tl.migrate("cuda -arch=sm_80")
        small = tl.migrate("cuda -arch=sm_80", minimal=True)
    assert whole["tag"] == "" and "keys" in whole and small == {"kind": "cuda", "arch": "sm_80"}
    assert tl.from_json(small, dialect="tvm-0.27") == tl.from_json(whole, dialect="tvm-0.27")


def test_the_command_line_writes_the_minimal_form(capsys: pytest.CaptureFixture[str]) -> None:
    texts = ["cuda -arch=sm_80 -libs=cudnn", "llvm -mtriple=aarch64-linux-gnu -mattr=+neon",
             "nvidia/jetson-nano", "cuda -host='llvm -mtriple=aarch64-linux-gnu'"]
    assert main(["migrate", "--minimal", "--compact", *texts]) == 0
    lines = capsys.readouterr().out.splitlines()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert [json.loads(line) for line in lines] == [tl.migrate(t, minimal=True)
                                                        for t in texts]
    assert main(["migrate", "--compact", texts[0]]) == 0
    assert json.loads(capsys.readouterr().out)["tag"] == ""  # the default is complete
    assert main(["migrate", "--minimal", "--config", "llvm"]) == 2
