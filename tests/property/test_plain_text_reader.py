"""The one-pass reader of plain text (``_lower/plan.py``) reads exactly what the general path
reads: the same Target (its JSON, the types of its values, keys, features) and the same trace;
and it takes the plain texts it was made for."""

from __future__ import annotations

import json
from typing import Any

import pytest
from golden import records
from hypothesis import given
from hypothesis import strategies as st

import targetlang as tl
from targetlang._lower.core import Context, Place, from_raw_string_general
from targetlang._lower.dialects import DIALECTS, load
from targetlang._lower.plan import read_plain_text
from targetlang.strategies import grammar_sentences, malformed_strings, target_strings
from targetlang.target import Target

SCHEMA = load("tvm-0.21")
ENVIRONMENTS = st.sampled_from([None, tl.Environment.no_gpu(),
                                tl.Environment(system_triple="aarch64-linux-gnu",
                                               cuda_arch="sm_86", rocm_arch="gfx90a",
                                               rocm_api_version=300)])

# Plain words as users write them, and the awkward ones: signs, big numbers, empty items.
_VALUES = st.one_of(
    st.sampled_from(["sm_80", "sm_50", "gfx908", "gfx", "x86_64-linux-gnu", "aarch64-linux-gnu",
                     "cortex-a72", "cortex-m7", "+neon,+dotprod", "+nodsp", "cudnn,cublas",
                     "a,,b", ",", "gpu", "cpu,arm_cpu", "0", "1", "32", "-1", "+5", "007",
                     "99999999999999999999", "1x", "true", "mkldnn", "sm_80=1", "0x10", "1e3",
                     "1_000", "+4", "3px", "False", "TRUE", "2", "0.9", "-0", "0b1", "9e99"]),
    st.from_regex(r"[a-z0-9_,+.=-]{1,8}", fullmatch=True),
    # quoted and escaped values, TVM's Interpret rules (and unclosed quotes, which it refuses)
    st.sampled_from(["'sm_80'", "'a b'", "' a b '", "'+neon,+dotprod'", "'a,b',c", "'a','b'",
                     "\\'x", "a\\ b", "'it\\'s'", "''", "'", "'a,'b'", "'1'", "' 1'", "'-1'",
                     "'a\\,b'", "\\", "a\\", "'x'y", "'cudnn, cublas'", "\"q\""]),
    st.from_regex(r"'[a-z0-9_, ,\\'=-]{0,8}'?", fullmatch=True))


@st.composite
def plain_texts(draw: st.DrawFn) -> str:
    """Kind and options of TVM 0.21's schema (and a few it has not), in every spelling
    (-k=v, -k v, --k=v, --k v, -k; values plain, quoted or escaped)."""
    kind = draw(st.sampled_from([*SCHEMA.kinds, "nosuchkind"]))
    names = [*SCHEMA.kinds[kind].attrs] if kind in SCHEMA.kinds else ["mcpu"]
    words = [kind]
    for _ in range(draw(st.integers(0, 6))):
        name = draw(st.one_of(st.sampled_from(names), st.sampled_from(["nope", "kind", ""])))
        dashes = draw(st.sampled_from(["-", "-", "--"]))
        form = draw(st.sampled_from(["assign", "assign", "spaced", "flag"]))
        if form == "flag":
            words.append(f"{dashes}{name}")
        elif form == "spaced":
            words.append(f"{dashes}{name} {draw(_VALUES)}")
        else:
            words.append(f"{dashes}{name}={draw(_VALUES)}")
    spaces = draw(st.sampled_from([" ", " ", "  "]))
    return draw(st.sampled_from(["", " "])) + spaces.join(words)


def _read_both(text: str, environment: tl.Environment | None,
               dialect: str = "tvm-0.21") -> tuple[Target | None, Any]:
    ctx = Context(load(dialect), environment, text, Target)
    fast = read_plain_text(text, ctx, Place())
    try:
        general: Any = from_raw_string_general(text, ctx, Place())
    except tl.TargetError as e:
        general = e
    return fast, general


def _same(fast: Target, general: Target) -> None:
    assert json.dumps(fast.to_json()) == json.dumps(general.to_json())
    assert [(k, type(v)) for k, v in fast.attrs.items()] == \
        [(k, type(v)) for k, v in general.attrs.items()]
    assert (fast.kind, fast.tag, fast.keys, fast.dialect, dict(fast.features)) == \
        (general.kind, general.tag, general.keys, general.dialect, dict(general.features))
    assert fast._trace == general._trace


@given(st.one_of(plain_texts(), target_strings(), grammar_sentences(), malformed_strings()),
       ENVIRONMENTS)
def test_plain_text_reader_agrees_with_the_general_path(text: str,
                                                        environment: tl.Environment | None
                                                        ) -> None:
    fast, general = _read_both(text, environment)
    if fast is not None:
        assert isinstance(general, Target), (text, general)
        _same(fast, general)


@given(plain_texts(), st.sampled_from(sorted(DIALECTS)), ENVIRONMENTS)
def test_plain_text_reader_agrees_in_every_dialect(text: str, dialect: str,
                                                   environment: tl.Environment | None) -> None:
    fast, general = _read_both(text, environment, dialect)
    if fast is not None:
        assert isinstance(general, Target), (text, general)
        _same(fast, general)


def test_plain_text_reader_takes_the_plain_golden_texts() -> None:
    taken = plain = 0
    for record in records():
        text = record["input"]
        if not record["ok"] or text.startswith("{") \
                or "host" in text or "from_device" in text or "\0" in text \
                or text in SCHEMA.tag_configs:
            continue
        plain += 1
        fast, general = _read_both(text, tl.Environment.no_gpu())
        if fast is not None:
            taken += 1
            assert isinstance(general, Target), text
            _same(fast, general)
    assert plain > 1000
    # Every spelling is taken, TVM's integer quirks ("+5", "0x10", "3x", "true": istream
    # rules) too; composite's nested targets (-devices) are the general path's.
    assert taken >= 0.99 * plain, (taken, plain)


def test_plain_text_reader_takes_every_tophub_string_tvm_reads() -> None:
    """The target strings of TopHub's tuning logs (the Arm ones too): each one TVM 0.21 reads
    takes the one-pass reader and reads as the general path reads it."""
    from pathlib import Path

    from targetlang._lower.core import _read_host

    data = Path(__file__).resolve().parents[1] / "data" / "tophub" / "tophub-targets.txt"
    read = 0
    for text in data.read_text("utf-8").splitlines():
        env = tl.Environment.no_gpu()
        try:
            general = from_raw_string_general(text, Context(SCHEMA, env, text, Target), Place())
        except tl.TargetError:
            continue  # (TVM 0.6's -target=, which 0.21 refuses)
        fast = read_plain_text(text, Context(SCHEMA, env, text, Target), Place(), _read_host)
        assert fast is not None, text
        _same(fast, general)
        read += 1
    assert read >= 30


def test_plain_text_reader_takes_every_spelling_of_the_benchmark() -> None:
    """benchmarks/corpora/spellings.txt: -k v, --k=v, --k v, quoted values, mixed; each
    string (all read by TVM 0.21) takes the one-pass reader and reads as the general path."""
    from pathlib import Path

    corpus = Path(__file__).resolve().parents[2] / "benchmarks" / "corpora" / "spellings.txt"
    lines = corpus.read_text("utf-8").splitlines()
    spellings = {line.partition("\t")[0] for line in lines}
    assert spellings == {"k-space", "dd-assign", "dd-space", "quoted", "mixed"}
    for line in lines:
        text = line.partition("\t")[2]
        fast, general = _read_both(text, tl.Environment.no_gpu())
        assert fast is not None, text
        assert isinstance(general, Target), text
        _same(fast, general)


def test_plain_text_reader_takes_the_any_shape_benchmark() -> None:
    """benchmarks/corpora/any-shape.jsonl: what the general path reads of its legacy texts
    (escapes, nested hosts, signed and 19-digit numbers), the one-pass reader reads too,
    hosts included, and reads the same."""
    from pathlib import Path

    from targetlang._lower.core import _read_host, is_json_text

    corpus = Path(__file__).resolve().parents[2] / "benchmarks" / "corpora" / "any-shape.jsonl"
    texts = [json.loads(line) for line in corpus.read_text("utf-8").splitlines()]
    read = 0
    for text in texts:
        if is_json_text(text) or text.strip(" ") in SCHEMA.tag_configs or "\0" in text:
            continue
        ctx = Context(SCHEMA, tl.Environment.no_gpu(), text, Target)
        try:
            general = from_raw_string_general(text, ctx, Place())
        except tl.TargetError:
            continue
        fast = read_plain_text(text, Context(SCHEMA, tl.Environment.no_gpu(), text, Target),
                               Place(), _read_host)
        assert fast is not None, text
        _same(fast, general)
        read += 1
    assert read >= 200, read


def test_the_spellings_corpus_is_what_its_generator_writes() -> None:
    """The committed corpus is benchmarks/generate_spellings.py's (fixed seed): regenerable."""
    import importlib.util
    from pathlib import Path

    benchmarks = Path(__file__).resolve().parents[2] / "benchmarks"
    spec = importlib.util.spec_from_file_location("generate_spellings",
                                                  benchmarks / "generate_spellings.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    written = "".join(f"{spelling}\t{text}\n" for spelling, text in generator.corpus())
    assert (benchmarks / "corpora" / "spellings.txt").read_text("utf-8") == written
    assert len(written.splitlines()) >= 300


# ---- TargetJSON dicts: read_plain_config against from_config ------------------------------

from targetlang._lower.core import from_config, truncate_strings  # noqa: E402
from targetlang._lower.plan import read_plain_config  # noqa: E402
from targetlang.strategies import targets  # noqa: E402

_JSON_VALUES = st.one_of(
    _VALUES, st.integers(-(2**64), 2**64), st.booleans(), st.none(), st.floats(allow_nan=False),
    st.lists(st.one_of(_VALUES, st.integers(0, 3)), max_size=3), st.text(max_size=4),
    st.sampled_from(["a\0b", "caf\u00e9", "\ud800", ["x\0"], ("gpu", "cpu"), {"kind": "llvm"}]))


@st.composite
def plain_configs(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from([*SCHEMA.kinds, "nosuchkind"]))
    names = [*SCHEMA.kinds[kind].attrs] if kind in SCHEMA.kinds else ["mcpu"]
    config: dict[str, Any] = {"kind": kind}
    for _ in range(draw(st.integers(0, 6))):
        config[draw(st.one_of(st.sampled_from(names),
                              st.sampled_from(["nope", "features", "keys", "tag"])))] = \
            draw(_JSON_VALUES)
    return config


def _read_config_both(config: dict[str, Any], environment: tl.Environment | None,
                      dialect: str = "tvm-0.21") -> tuple[Target | None, Any]:
    ctx = Context(load(dialect), environment, None, Target)
    fast = read_plain_config(config, ctx, Place())
    try:
        general: Any = from_config(truncate_strings(dict(config)), ctx, Place())
    except Exception as e:  # noqa: BLE001  (the general path's answer, whatever it is)
        general = e
    return fast, general


@given(st.one_of(plain_configs(), targets().map(lambda t: t.to_json())),
       st.sampled_from(sorted(DIALECTS)), ENVIRONMENTS)
def test_plain_config_reader_agrees_with_the_general_path(config: dict[str, Any], dialect: str,
                                                          environment: tl.Environment | None
                                                          ) -> None:
    fast, general = _read_config_both(config, environment, dialect)
    if fast is not None:
        assert isinstance(general, Target), (config, general)
        _same(fast, general)


def test_plain_config_reader_takes_the_exports_of_the_golden_targets() -> None:
    taken = total = 0
    for record in records():
        if not record["ok"] or "host" in record["export"] or "from_device" in record["export"]:
            continue
        total += 1
        fast, general = _read_config_both(record["export"], None)
        if fast is not None:
            taken += 1
            assert isinstance(general, Target)
            _same(fast, general)
    assert total > 1000
    assert taken >= 0.9 * total, (taken, total)


# ---- the odd spellings: every class the one-pass reader must take --------------------------

from targetlang.strategies import ODD_SPELLINGS, odd_spellings_of  # noqa: E402

_ONE_PASS_KINDS = sorted(k for k in SCHEMA.kinds if k != "composite")


def _one_pass_target(target: Target) -> bool:
    """A target the one-pass reader reads from text: no device query, no targets in its
    attributes (composite's devices), its host (if any) one too."""
    return "from_device" not in target.attrs and not any(
        isinstance(v, (Target, tuple)) and any(isinstance(i, Target) for i in
                                               (v if isinstance(v, tuple) else (v,)))
        for v in target.attrs.values()) and (target.host is None or
                                            _one_pass_target(target.host))


@pytest.mark.parametrize("spelling", ODD_SPELLINGS)
@given(data=st.data(), environment=ENVIRONMENTS)
def test_every_odd_spelling_takes_the_one_pass_reader_and_reads_as_its_target(
        spelling: str, data: st.DataObject, environment: tl.Environment | None) -> None:
    """Numbers and booleans as istream reads them, three or more dashes, odd spacing,
    escapes, quotes in array items, quoted hosts holding quoted values, all mixed: the
    one-pass reader reads each (none is handed to the general path) exactly as the general
    path does, and as the target it was spelled from."""
    from targetlang._lower.core import _read_host

    target = data.draw(targets("tvm-0.21", kinds=_ONE_PASS_KINDS, max_host_depth=1))
    if not _one_pass_target(target) or target.tag and target.tag in SCHEMA.tag_configs:
        return
    text = data.draw(odd_spellings_of(target, [spelling]))
    if text.startswith("{") or "mkldnn" in text:
        return  # (JSON text, or the wrapper's rewrite: not legacy text of its own)
    assert tl.parse(text, dialect="tvm-0.21") == tl.parse(target.to_string(),
                                                          dialect="tvm-0.21"), text
    ctx = Context(SCHEMA, environment, text, Target)
    fast = read_plain_text(text, ctx, Place(), _read_host)
    general = from_raw_string_general(text, Context(SCHEMA, environment, text, Target), Place())
    assert fast is not None, text
    _same(fast, general)


def test_plain_text_reader_takes_every_odd_spelling_of_the_benchmark() -> None:
    """benchmarks/corpora/odd-spellings.txt (every string read by TVM 0.21 as its plain
    -k=v form): each takes the one-pass reader, hosts included, and reads as the general
    path reads it."""
    from pathlib import Path

    from targetlang._lower.core import _read_host

    corpus = Path(__file__).resolve().parents[2] / "benchmarks" / "corpora" / "odd-spellings.txt"
    lines = corpus.read_text("utf-8").splitlines()
    assert {line.partition("\t")[0] for line in lines} == set(ODD_SPELLINGS)
    assert len(lines) >= 500
    for line in lines:
        text = line.partition("\t")[2]
        env = tl.Environment.no_gpu()
        fast = read_plain_text(text, Context(SCHEMA, env, text, Target), Place(), _read_host)
        assert fast is not None, text
        _same(fast, from_raw_string_general(text, Context(SCHEMA, env, text, Target), Place()))


def test_the_odd_spellings_corpus_is_what_its_generator_writes() -> None:
    """The committed corpus is benchmarks/generate_odd_spellings.py's (fixed seed)."""
    import importlib.util
    import sys
    from pathlib import Path

    benchmarks = Path(__file__).resolve().parents[2] / "benchmarks"
    sys.path.insert(0, str(benchmarks))
    try:
        spec = importlib.util.spec_from_file_location("generate_odd_spellings",
                                                      benchmarks / "generate_odd_spellings.py")
        assert spec is not None and spec.loader is not None
        generator = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(generator)
    finally:
        sys.path.remove(str(benchmarks))
    written = "".join(f"{spelling}\t{odd}\n" for spelling, odd, _ in generator.corpus())
    assert (benchmarks / "corpora" / "odd-spellings.txt").read_text("utf-8") == written
