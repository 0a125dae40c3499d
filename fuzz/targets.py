"""The fuzz targets: each one a check (fuzz/checks.py) fed either by a Hypothesis strategy
(a property, run by libFuzzer through Hypothesis' ``fuzz_one_input``) or by raw bytes
(libFuzzer's own mutations, guided by fuzz/targetlang.dict and the seeds in fuzz/seeds/).

``fuzz/fuzz_<name>.py`` runs one target under atheris; ``python -m fuzz`` runs them all.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import targetlang as tl
from targetlang.strategies import (
    grammar_sentences,
    malformed_strings,
    odd_spellings,
    target_strings,
    targets,
)
from targetlang.tvmc import codegens

from . import checks, oracle

Case = Any  # a str, or bytes for the log targets


@dataclass(frozen=True)
class FuzzTarget:
    name: str
    description: str
    check: Callable[[Case], None]
    #: A property target: the strategy that draws its cases.
    strategy: Callable[[], st.SearchStrategy[Case]] | None = None
    #: A raw-bytes target: how libFuzzer's bytes become a case.
    decode: Callable[[bytes], Case] | None = None
    binary: bool = False  # cases are bytes (tuning logs), not text
    needs_oracle: bool = False

    @property
    def weight(self) -> int:
        """Its share of a run's time: raw-bytes targets execute ~10x the inputs a second of a
        property target, and libFuzzer's mutations of the seeds need the time to go deep."""
        return 3 if self.decode is not None else 1

    @property
    def raw(self) -> bool:
        return self.decode is not None

    def property(self, check: Callable[[Case], None] | None = None,
                 max_examples: int = 100) -> Any:
        """The target as a Hypothesis property (``.hypothesis.fuzz_one_input`` feeds libFuzzer)."""
        run = check or self.check

        @settings(database=None, deadline=None, suppress_health_check=list(HealthCheck),
                  max_examples=max_examples)
        @given(self.cases())
        def prop(case: Case) -> None:
            run(case)

        return prop

    def cases(self) -> st.SearchStrategy[Case]:
        """What the target's check is fed, as a strategy (raw targets: bytes, decoded)."""
        if self.strategy is not None:
            return self.strategy()
        assert self.decode is not None
        return _raw_bytes(self.name).map(self.decode)


# ---- decoding raw bytes ---------------------------------------------------------------------

def text_of(data: bytes) -> str:
    """UTF-8 text; bytes that are not UTF-8 become lone surrogates (which parse must refuse)."""
    return data.decode("utf-8", "surrogateescape")


def source_of(data: bytes) -> str:
    """Python source text as a file read would give it (never a lone surrogate)."""
    return data.decode("utf-8", "replace")


def bytes_of(data: bytes) -> bytes:
    return data


# ---- strategies -----------------------------------------------------------------------------

@functools.cache
def _valid_texts() -> st.SearchStrategy[str]:
    return st.one_of(target_strings(), targets().map(lambda t: t.to_string()),
                     targets().map(lambda t: json.dumps(t.to_json())))


@functools.cache
def _any_texts() -> st.SearchStrategy[str]:
    return st.one_of(
        malformed_strings(),
        st.text(),
        st.binary().map(text_of),
        grammar_sentences(),
        target_strings(dialect="tvm-0.6", max_host_depth=0),
        target_strings(dialect="tvm-0.8", max_host_depth=1),
        _stretched(),
        _nested(),
    )


@st.composite
def _stretched_text(draw: st.DrawFn) -> str:
    """A valid text with one of its pieces repeated up to thousands of times: long numbers,
    names, lists and values, which random mutation reaches only rarely."""
    text = draw(target_strings(max_host_depth=1))
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    on_digit: bool = draw(st.booleans())  # a number: the place where length bites first
    start: int = draw(st.sampled_from(digits)) if digits and on_digit \
        else draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 8)))
    times = draw(st.sampled_from([2, 10, 100, 1000, 5000]))
    return text[:start] + text[start:end] * times + text[end:]


def _stretched() -> st.SearchStrategy[str]:
    return _stretched_text()


def _nested() -> st.SearchStrategy[str]:
    """Targets nested deep, as JSON host chains and as legacy ``-host='...'`` text."""
    depth = st.sampled_from([1, 2, 10, 50, 100, 300, 1000, 3000])

    def as_json(n: int) -> str:
        return '{"kind": "llvm", "host": ' * n + '"llvm"' + "}" * n

    def as_text(n: int) -> str:
        inner = "llvm"
        for _ in range(n):
            inner = "llvm -host=" + "'" + inner.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return inner

    return st.one_of(depth.map(as_json), depth.filter(lambda n: n <= 10).map(as_text))


@functools.cache
def _tvmc_texts() -> st.SearchStrategy[str]:
    names = st.sampled_from([*codegens(), *tl.kinds(), "nvidia/jetson-nano", "foo"])
    value = st.one_of(st.text(alphabet="ab1+-.,=/ '\"", min_size=0, max_size=8),
                      st.sampled_from(["'a b'", '"x, y"', "1", "true", "0x10", "-1"]))
    option = st.tuples(st.sampled_from(["-", "--", "---"]),
                       st.sampled_from(["mcpu", "mattr", "accelerator_config", "num_tiles",
                                        "enable_cascader", "host", "libs", "arch", ""]),
                       st.one_of(st.none(), value)).map(
        lambda o: o[0] + o[1] + ("" if o[2] is None else "=" + o[2]))
    entry = st.tuples(names, st.lists(option, max_size=3)).map(lambda e: " ".join([e[0], *e[1]]))
    entries = st.lists(entry, min_size=1, max_size=4).flatmap(
        lambda es: st.sampled_from([", ", ",", " , "]).map(lambda sep: sep.join(es)))
    return st.one_of(entries, st.text(), target_strings(max_host_depth=1), malformed_strings())


@functools.cache
def _target_pairs() -> st.SearchStrategy[str]:
    text = st.one_of(target_strings(max_host_depth=1), malformed_strings())
    same = text.map(lambda a: [a, a])
    return st.one_of(st.lists(text, min_size=2, max_size=2), same).map(json.dumps)


_LINE_BREAKS = ["\n", "\r\n", "\r"]
#: Characters str.splitlines() breaks lines at but Python does not.
_NOT_PY_BREAKS = ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@functools.cache
def _python_sources() -> st.SearchStrategy[str]:
    texts = st.one_of(target_strings(max_host_depth=1), malformed_strings(),
                      target_strings(dialect="tvm-0.6", max_host_depth=0))
    quote = st.sampled_from(["{!r}", "'''{}'''", '"""{}"""', "r{!r}", "b{!r}", "f{!r}",
                             "{!r} {!r}", "({!r})"])

    @st.composite
    def literal(draw: st.DrawFn) -> str:
        text = draw(texts)
        form = draw(quote)
        if "'''" in form or '"""' in form:
            if "'" in text or '"' in text or "\\" in text or "\n" in text or "\r" in text:
                form = "{!r}"
        return form.format(text, text) if form.count("{") == 2 else form.format(text)

    call = st.sampled_from([
        "tvm.target.Target({})", "T({})", "target.Target({}, host={})",
        "tvm.build(s, [A], {}, {})", "tvm.compile(mod, target={})",
        "relay.build(mod, target={}, target_host={})", "relax.build(mod, {})",
        "Target({})", "tvm.target.Target(\n    {},\n)",
    ])
    gap = st.sampled_from(["", " ", "  # " + "\u00e9", " \\\n    "] + _NOT_PY_BREAKS)

    @st.composite
    def statement(draw: st.DrawFn) -> str:
        shape = draw(call)
        args = [draw(literal()) for _ in range(shape.count("{}"))]
        body = shape.format(*args)
        return draw(st.sampled_from(["x = {}", "{}", "if a:\n    y = {}", "f({})"])).format(body)

    header = st.sampled_from([
        "import tvm\nfrom tvm import relax, relay\nfrom tvm.target import Target as T\n",
        "import tvm\n", "from tvm import target\n", "# no tvm here\n",
        "# -*- coding: utf-8 -*-\nimport tvm as t2\nimport tvm\n"])

    @st.composite
    def source(draw: st.DrawFn) -> str:
        parts = [draw(header)]
        for stmt in draw(st.lists(statement(), min_size=1, max_size=4)):
            comment = draw(st.sampled_from(["", "  # " + draw(gap), "  # note"]))
            noise = draw(st.sampled_from(["", "#" + draw(gap) + draw(st.sampled_from(
                _LINE_BREAKS)), draw(gap) + draw(st.sampled_from(_LINE_BREAKS))]))
            parts.append(noise + stmt + comment + draw(st.sampled_from(_LINE_BREAKS)))
        return "".join(parts)

    return st.one_of(source(), st.text())


@functools.cache
def _log_bytes() -> st.SearchStrategy[bytes]:
    target = st.one_of(target_strings(max_host_depth=1), malformed_strings(),
                       target_strings(dialect="tvm-0.6", max_host_depth=0))
    target_value = st.one_of(target.map(json.dumps),
                             targets(max_host_depth=1).map(lambda t: json.dumps(t.to_json())))

    @st.composite
    def record(draw: st.DrawFn) -> str:
        value = draw(target_value)
        shape = draw(st.sampled_from([
            '{{"input": [{}, "conv2d_nchw.cuda", [["TENSOR", [1, 3], "float32"]], {{}}], '
            '"config": {{"index": 7, "code_hash": null, "entity": []}}, '
            '"result": [[0.1], 0, 1.5, 1600000000.0], "version": 0.2, "tvm_version": "0.8"}}',
            '{{"r": [[0.1], 0, 1.0, 1], "v": 0.1, "i": [{}, "topi_nn_conv2d", [], {{}}, '
            '["conv2d"], {{"i": 1, "t": "direct", "c": null, "e": []}}]}}',
            '{{"input":[{}]}}',
            '{{"x": "y", "input": [{}, 1]}}',
        ]))
        line = shape.format(value)
        if draw(st.integers(0, 4)) == 0:  # cut anywhere
            line = line[:draw(st.integers(0, len(line)))]
        return line

    other = st.sampled_from(["", "# comment", "   ", "not json", "{}", "[1]", '{"input": ['])
    line = st.one_of(record(), record(), other)
    ends = st.sampled_from(["\n", "\n", "\r\n", "\r", ""])
    log = st.lists(st.tuples(line, ends), max_size=5).map(
        lambda ls: "".join(a + b for a, b in ls).encode("utf-8", "surrogateescape"))
    return st.one_of(log, st.binary())


@functools.cache
def _differential_texts() -> st.SearchStrategy[str]:
    # (the odd spellings: numbers and booleans as istream reads them, dashes, spacing,
    # escapes, quotes in array items, quoted hosts holding quoted values)
    return st.one_of(target_strings(), malformed_strings(), odd_spellings())


@functools.cache
def _odd_texts() -> st.SearchStrategy[str]:
    return odd_spellings()


def _raw_bytes(name: str) -> st.SearchStrategy[bytes]:
    """Bytes for a raw target without libFuzzer: random, and mutated seeds."""
    from .seeds import committed_seeds

    seeds = committed_seeds(name)
    mutated: list[st.SearchStrategy[bytes]] = []
    if seeds:
        mutated.append(st.tuples(st.sampled_from(seeds), st.lists(
            st.tuples(st.integers(0, 4096), st.binary(max_size=4), st.integers(0, 4)),
            max_size=4)).map(_mutate))
    return st.one_of(st.binary(), *mutated)


def _mutate(args: tuple[bytes, list[tuple[int, bytes, int]]]) -> bytes:
    data, edits = args
    for at, insert, delete in edits:
        at %= len(data) + 1
        data = data[:at] + insert + data[at + delete:]
    return data


@functools.cache
def _oracle() -> oracle.Oracle:
    return oracle.Oracle()


# ---- the targets ----------------------------------------------------------------------------

TARGETS: dict[str, FuzzTarget] = {t.name: t for t in (
    # Properties: Hypothesis draws structured cases; libFuzzer steers its choices.
    FuzzTarget("roundtrip", "valid targets and spellings: text and JSON round trips, fixed point",
               checks.check_round_trip, strategy=_valid_texts),
    FuzzTarget("robustness", "malformed, random and grammar-generated text in any release's "
               "syntax, read by TVM 0.21 and one more release: a Target that round-trips, "
               "or a sane TargetError", checks.check_parse_dialects, strategy=_any_texts),
    FuzzTarget("tools", "lint, explain, detect_dialect, migrate on any text",
               checks.check_tools, strategy=_any_texts),
    FuzzTarget("tvmc", "parse_tvmc on tvmc target lists and any text", checks.check_tvmc,
               strategy=_tvmc_texts),
    FuzzTarget("diff", "diff(a, b) is empty exactly when a == b", checks.check_diff,
               strategy=_target_pairs),
    FuzzTarget("logs", "logs normalize/select/stats on generated and cut tuning-log records",
               checks.check_logs, strategy=_log_bytes, binary=True),
    FuzzTarget("pyscript", "migrate --py on generated Python with target literals and odd "
               "line breaks", checks.check_pyscript, strategy=_python_sources),
    # Raw bytes: libFuzzer's mutations, the token dictionary and the seed corpus.
    FuzzTarget("parse_bytes", "parse on raw bytes, by TVM 0.21 and one more release",
               checks.check_parse_dialects, decode=text_of),
    FuzzTarget("json_bytes", "JSON text and the dict it decodes to, in every dialect",
               checks.check_json, decode=text_of),
    FuzzTarget("tools_bytes", "lint, explain, detect_dialect, migrate on raw bytes",
               checks.check_tools, decode=text_of),
    FuzzTarget("tvmc_bytes", "parse_tvmc on raw bytes", checks.check_tvmc, decode=text_of),
    FuzzTarget("logs_bytes", "the log tools on raw bytes", checks.check_logs, decode=bytes_of,
               binary=True),
    FuzzTarget("pyscript_bytes", "migrate --py on raw bytes", checks.check_pyscript,
               decode=source_of),
    # Needs TVM 0.21: never run unless asked for and installed.
    FuzzTarget("differential", "valid and malformed text compared with the live TVM 0.21 oracle",
               lambda text: oracle.compare(text, _oracle().ask(text)),
               strategy=_differential_texts, needs_oracle=True),
    FuzzTarget("differential_odd", "the odd spellings alone (strategies.odd_spellings) compared "
               "with the live TVM 0.21 oracle", lambda text: oracle.compare(text, _oracle().ask(text)),
               strategy=_odd_texts, needs_oracle=True),
)}


def default_targets() -> list[str]:
    """What ``python -m fuzz`` runs when no ``--campaign`` is given."""
    return [n for n, t in TARGETS.items() if not t.needs_oracle]
