"""Upgrading upgraded output changes nothing, in every mode (``--runtime`` and ``--full``
included, and to an older JSON release): over every file of the test corpora and over
programs Hypothesis writes from the shapes that reach targets."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang.migration._upgrade.codes import CODES
from targetlang.upgrade import FILE_TYPES, Options, file_type, upgrade_text

MODES = {"default": Options(), "runtime": Options(runtime=True), "full": Options(full=True),
         "tvm-0.25": Options(target_dialect="tvm-0.25"),
         "runtime-full": Options(runtime=True, full=True)}
CORPUS = sorted(p for p in (TESTS / "data" / "upgrade").rglob("*")
                if p.is_file() and file_type(p.name) is not None)


def twice(text: str, kind: str, options: Options) -> tuple[str, str]:
    once = upgrade_text(text, path="f", file_type=kind, options=options)
    again = upgrade_text(once.text, path="f", file_type=kind, options=options)
    # every site carries a documented code, whatever the file type
    assert all(f.code in CODES for f in once.findings + again.findings), once.findings
    assert all(c.code in CODES for c in once.changes), once.changes
    return once.text, again.text


def test_the_corpus_holds_every_file_type() -> None:
    assert {file_type(p.name) for p in CORPUS} == set(FILE_TYPES.values())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(TESTS)))
def test_every_corpus_file_is_a_fixed_point_after_one_upgrade(path: Path, mode: str) -> None:
    kind = file_type(path.name)
    assert kind is not None
    once, again = twice(path.read_text(encoding="utf-8"), kind, MODES[mode])
    assert again == once


VALUES = st.sampled_from(["cuda -arch=sm_80", "llvm -mcpu=skylake -mattr=+avx2", "cuda", "llvm",
                          "nvidia/jetson-nano", '{"kind": "cuda", "arch": "sm_80"}',
                          "opencl -device=mali", "llvm -system-lib"])
NAMES = st.sampled_from(["target", "tgt", "host", "t"])
USES = st.sampled_from([
    "t = tvm.target.Target({n})", "lib = tvm.compile(mod, target={n})",
    "dev = tvm.device({n}, 0)", "same = {n} == 'cuda'", "parts = {n}.split()",
    "log = f'{{{n}}}.log'", "print({n})", "mod = relay.build(mod, target={n})",
    "t = tvm.target.Target({n}, host='llvm -mcpu=x')", "x = tvm.target.Target({n}).arch",
    "y = helper({n})", "z = {n} + ' -libs=cudnn'", "t = tvm.target.Target(args.{n})",
    "t = tvm.target.cuda(model={n})", "w = [{n}, 'llvm']", "if {n} in ('cuda',): pass",
])
HEADERS = st.sampled_from(["import tvm\nfrom tvm import relay\n",
                           '"""doc"""\nfrom __future__ import annotations\nimport tvm\n'
                           "from tvm import relay\n",
                           "import tvm\nfrom tvm import relay\nimport targetlang.compat\n"])


@st.composite
def programs(draw: st.DrawFn) -> str:
    lines = [draw(HEADERS)]
    for _ in range(draw(st.integers(1, 4))):
        name = draw(NAMES)
        lines.append(f"{name} = {draw(VALUES)!r}\n")
        for use in draw(st.lists(USES, min_size=1, max_size=4)):
            lines.append(use.format(n=name) + "\n")
    if draw(st.booleans()):
        body = "".join("    " + line for line in lines[1:])
        lines[1:] = [f"def run(mod, args, {draw(NAMES)}='cuda -arch=sm_70'):\n", body]
    return "".join(lines)


@settings(max_examples=150, deadline=None)
@given(programs(), st.sampled_from(list(MODES)))
def test_generated_programs_are_fixed_points(program: str, mode: str) -> None:
    once, again = twice(program, "python", MODES[mode])
    assert again == once, (program, once)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["target", "expected_str", "host", "name"]), VALUES),
                min_size=1, max_size=5), st.sampled_from(["yaml", "toml", "json"]),
       st.sampled_from(list(MODES)))
def test_generated_configs_are_fixed_points(pairs: list[tuple[str, str]], kind: str,
                                            mode: str) -> None:
    import json

    if kind == "json":
        text = json.dumps(dict(pairs), indent=1)
    elif kind == "toml":
        text = "".join(f"{k} = {json.dumps(v)}\n" for k, v in dict(pairs).items())
    else:
        text = "".join(f"{k}: {json.dumps(v)}\n" for k, v in dict(pairs).items())
    once, again = twice(text, kind, MODES[mode])
    assert again == once


PROGRAMS = sorted(p for p in (TESTS / "data" / "upgrade" / "behaviour").iterdir() if p.is_dir())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_a_program_of_several_modules_is_a_fixed_point(program: Path, mode: str,
                                                        tmp_path: Path) -> None:
    """Upgraded as one program, written, and upgraded again as one program: nothing moves."""
    import dataclasses

    from targetlang.migration._program import Program

    names = sorted(str(p.relative_to(program)) for p in program.rglob("*.py"))
    texts = {n: (program / n).read_text(encoding="utf-8") for n in names}
    for _ in range(2):
        paths = {n: str(tmp_path / n) for n in names}
        for name, text in texts.items():
            Path(paths[name]).parent.mkdir(parents=True, exist_ok=True)
            Path(paths[name]).write_text(text, encoding="utf-8")
        options = dataclasses.replace(MODES[mode], program=Program.of_files(
            list(paths.values()), roots=[str(tmp_path)]))
        once = {n: upgrade_text(texts[n], path=paths[n], file_type="python",
                                options=options).text for n in names}
        if once == texts:
            return
        texts = once
    raise AssertionError(f"{program.name}: still changing after a second upgrade")
