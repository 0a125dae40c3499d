"""Hypothesis strategies for targets and target text, for your own property tests::

    from hypothesis import given
    from targetlang.strategies import targets, target_strings, malformed_strings

    @given(targets())
    def test_my_tool_keeps_targets(t):
        assert my_tool(t.to_json()) == t.to_json()

Everything is drawn from the dialect's schema (kinds, attribute types, tags) and from
``grammar/target.lark``, so a new kind or attribute is covered without editing this module.
Hypothesis is an optional dependency: ``pip install 'targetlang[strategies]'``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

try:
    from hypothesis import strategies as st
    from hypothesis.extra.lark import from_lark
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("targetlang.strategies needs Hypothesis: "
                      "pip install 'targetlang[strategies]'") from e

from ._lower.dialects import load
from ._schema.facts import AttrSpec, KindSpec
from ._schema.types import ANY, BOOL, INT, STR, TARGET, AttrType
from ._syntax import rules
from ._syntax.grammar import SyntaxProblem, parse_target_text, plain_target_parser
from .errors import TargetError
from .target import DEFAULT_DIALECT, Target, from_json, tags

__all__ = ["targets", "target_strings", "malformed_strings", "spellings", "grammar_sentences",
           "odd_spellings", "odd_spellings_of", "respell", "ODD_SPELLINGS"]

# Characters TVM's rules treat specially, plus some that merely look special.
_SPECIAL = " ',\\=-\t\"{}"
_PLAIN = "abcxyz019_.+:/"

# Plain alphabets and sampled_from only: st.from_regex and st.characters(codec=...) make
# Hypothesis tabulate all of Unicode on a cold start (seconds: its too_slow health check).
_DIGITS = st.text(alphabet="0123456789", min_size=2, max_size=3)

#: Values the kinds' target parsers insist on (cuda -arch=sm_XX, ...), by (kind, attribute):
#: drawing anything else would only produce targets the dialect refuses.
_CONSTRAINED: dict[tuple[str, str], st.SearchStrategy[Any]] = {
    ("cuda", "arch"): st.builds("sm_{}{}".format, _DIGITS, st.sampled_from(["", "a", "f"])),
    ("nvptx", "mcpu"): _DIGITS.map("sm_{}".format),
    ("nvptx", "mtriple"): st.just("nvptx64-nvidia-cuda"),
    ("rocm", "mcpu"): st.builds("gfx{}{}".format,
                                st.text(alphabet="0123456789abcdef", min_size=3, max_size=4),
                                st.sampled_from(["", ":xnack+", ":xnack-"])),
    ("rocm", "mtriple"): st.just("amdgcn-amd-amdhsa-hcc"),
    ("llvm", "mtriple"): st.sampled_from([
        "x86_64-linux-gnu", "x86_64-pc-windows-msvc", "riscv64-unknown-linux-gnu",
        "aarch64-linux-gnu", "armv7a-linux-gnueabihf", "thumbv7em-none-eabi", "wasm32-wasi"]),
    ("llvm", "mcpu"): st.sampled_from(["generic", "skylake", "cortex-a72", "cortex-m4",
                                       "cortex-m55", "apple-m1", "native"]),
    ("c", "mcpu"): st.sampled_from(["generic", "cortex-m7", "cortex-m33"]),
    ("llvm", "mattr"): st.lists(st.sampled_from(["+neon", "-neon", "+avx2", "+sve", "+v8.2a",
                                                 "+dotprod", "-sve", "+nodsp", "+nomve"]),
                                max_size=3),
    ("llvm", "mfloat-abi"): st.sampled_from(["hard", "soft"]),
    ("llvm", "jit"): st.sampled_from(["mcjit", "orcjit"]),
    ("llvm", "vector-width"): st.integers(1, 65536),
    ("llvm", "cl-opt"): st.lists(st.sampled_from(["-unroll-threshold:int=100", "-enable-x=1",
                                                  "--loop-vectorize"]), max_size=2),
}


@functools.cache
def _strings() -> st.SearchStrategy[str]:
    """Strings that stress quoting: spaces, quotes, commas, backslashes, non-ASCII, empty."""
    return st.one_of(
        st.text(alphabet=_PLAIN, min_size=1, max_size=8),
        st.text(alphabet=st.sampled_from(_SPECIAL + _PLAIN), max_size=10),
        # Any character that UTF-8 can encode: Hypothesis leaves out surrogates (Cs) by
        # default; codec="utf-8" would say the same but costs seconds on a cold start.
        st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\0"),
                max_size=6),
        st.sampled_from(["", "a b", "it's", "a,b", "\\", "'", "-x", "{json"]),
    )


def _value(kind: KindSpec, attr: AttrSpec, dialect: str, depth: int,
           max_host_depth: int) -> st.SearchStrategy[Any]:
    constrained = _CONSTRAINED.get((kind.name, attr.name))
    if constrained is not None:
        return constrained
    return _typed(attr.type, dialect, depth, max_host_depth)


@functools.cache  # strategies are built once, not at every draw (most of a draw's cost)
def _typed(type_: AttrType, dialect: str, depth: int,
           max_host_depth: int) -> st.SearchStrategy[Any]:
    if type_ is INT:
        return st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-3, 300))
    if type_ is BOOL:
        return st.booleans()
    if type_ is STR:
        return _strings()
    if type_ is TARGET:
        return _configs(dialect, None, depth + 1, max_host_depth)
    if type_ is ANY:  # any JSON value (a map option's: TVM TIRx's backend_config)
        scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | _strings()
        return st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(_strings(), inner, max_size=3), max_leaves=6)
    assert type_.element is not None
    element = _typed(type_.element, dialect, depth, max_host_depth)
    if type_.is_array:
        return st.lists(element, max_size=3)
    return st.dictionaries(_strings(), element, max_size=3)


def _configs(dialect: str, kinds: Sequence[str] | None, depth: int,
             max_host_depth: int) -> st.SearchStrategy[dict[str, Any]]:
    return _configs_of(dialect, None if kinds is None else tuple(kinds), depth, max_host_depth)


@functools.cache
def _configs_of(dialect: str, kinds: tuple[str, ...] | None, depth: int,
                max_host_depth: int) -> st.SearchStrategy[dict[str, Any]]:
    schema = load(dialect)
    names = st.sampled_from(sorted(kinds if kinds is not None else schema.kinds))
    tag_names = sorted(schema.tag_configs)
    tagged = st.sampled_from(tag_names) if depth > 0 and tag_names else None
    nested_ok = depth < max_host_depth
    attr_lists: dict[str, st.SearchStrategy[list[str]]] = {}
    for name, kind in schema.kinds.items():
        candidates = sorted(a for a, spec in kind.attrs.items()
                            if a not in ("host", "from_device", "target_device_type")
                            and (nested_ok or not spec.type.holds_target))
        attr_lists[name] = st.lists(st.sampled_from(candidates), max_size=5, unique=True) \
            if candidates else st.just([])
    one_in_ten, one_in_four = st.integers(0, 9), st.integers(0, 3)

    @st.composite
    def config(draw: st.DrawFn) -> dict[str, Any]:
        if tagged is not None and draw(one_in_ten) == 0:
            return {"__tag__": draw(tagged)}
        kind = schema.kinds[draw(names)]
        out: dict[str, Any] = {"kind": kind.name}
        for attr in draw(attr_lists[kind.name]):
            out[attr] = draw(_value(kind, kind.attrs[attr], dialect, depth, max_host_depth))
        if nested_ok and draw(one_in_four) == 0:
            out["host"] = draw(_configs_of(dialect, None, depth + 1, max_host_depth))
        return out

    return config()


def _resolve_tags(config: Any, dialect: str) -> Any:
    """Replace tag placeholders (drawn for nested targets) by the tag's text."""
    if isinstance(config, dict):
        if "__tag__" in config:
            return config["__tag__"]
        return {k: _resolve_tags(v, dialect) for k, v in config.items()}
    if isinstance(config, list):
        return [_resolve_tags(v, dialect) for v in config]
    return config


def targets(dialect: str = DEFAULT_DIALECT, kinds: Sequence[str] | None = None,
            max_host_depth: int = 2) -> st.SearchStrategy[Target]:
    """Valid ``Target`` values of ``dialect``: every kind (or those in ``kinds``), attributes
    with values of their types, user keys, ``-device``, hosts nested up to ``max_host_depth``,
    composite devices, and registered tags."""
    schema = load(dialect)

    def build(config: dict[str, Any]) -> Target | None:
        try:
            return from_json(_resolve_tags(config, dialect), dialect=dialect)
        except TargetError:
            return None

    drawn = _configs(dialect, kinds, 0, max_host_depth).map(build).filter(
        lambda t: t is not None)
    if kinds is None and schema.tag_configs:
        tag_names = sorted(schema.tag_configs)
        tagged = st.sampled_from(tag_names).map(lambda name: tags(dialect)[name])
        drawn = st.one_of(drawn, drawn, drawn, tagged)  # tags: one draw in four
    return drawn  # type: ignore[return-value]


# ---- spellings: the many ways of writing one target --------------------------------------

def _word_spellings(text: str) -> st.SearchStrategy[str]:
    """Ways to write a word whose interpretation (TVM's Interpret) is ``text``."""
    quoted = rules.quote(rules.uninterpret(text))
    escaped = "".join("\\" + c if c in " ',\\" else c for c in text)
    options = [quoted]
    if text and text[0] != "'" or (text and escaped != text):
        options.append(escaped)
    if text and not any(c in text for c in " ',\\"):
        options.append(text)
    return st.sampled_from([o for o in options if o])


def spellings(target: Target) -> st.SearchStrategy[str]:
    """Texts, in every syntactic variant of the language, that read back as ``target``."""
    return _spelled(target)


@st.composite  # decorated once: building a composite costs more than drawing from it
def _spelled(draw: st.DrawFn, target: Target) -> str:
    canonical = target.to_string()
    if canonical.startswith("{"):
        return canonical  # legacy text cannot say this target
    return _respell(draw, canonical, target)


def _respell(draw: st.DrawFn, canonical: str, target: Target) -> str:
    """Rewrite canonical legacy text option by option into an equivalent spelling."""
    syntax = parse_target_text(canonical)
    options = [(o.key, o.value.text if o.value else "1") for o in syntax.options]
    if "mkldnn" not in canonical:  # the mkldnn rewrite depends on the exact text
        options = draw(st.permutations(options))
    words = [syntax.kind.text]
    for key, raw in options:
        interpreted = rules.interpret(raw)[0]
        dashes = draw(st.sampled_from(["-", "--"]))
        value = raw
        if key not in _STRUCTURED and rules.trim_spaces(interpreted)[0] == interpreted:
            value = draw(_word_spellings(interpreted))
        form = draw(st.sampled_from(["assign", "spaced", "flag"]))
        if form == "flag" and value == "1":
            words.append(f"{dashes}{key}")  # a bare flag means "1"
        elif form == "spaced" and not value.startswith("-"):
            words.append(f"{dashes}{key} {value}")
        else:
            words.append(f"{dashes}{key}={value}")
    gaps = [draw(st.sampled_from([" ", "  ", "   "])) for _ in words[1:]]
    lead = draw(st.sampled_from(["", " "]))
    tail = draw(st.sampled_from(["", " ", "  "]))
    return lead + words[0] + "".join(g + w for g, w in zip(gaps, words[1:])) + tail


#: Values whose raw text has structure (nested targets, arrays): respelled as written.
_STRUCTURED = frozenset({"host", "devices", "keys", "libs", "mattr", "cl-opt", "llvm-options"})


def target_strings(dialect: str = DEFAULT_DIALECT, kinds: Sequence[str] | None = None,
                   max_host_depth: int = 2) -> st.SearchStrategy[str]:
    """Valid target text in every variant: ``-k=v``, ``--k=v``, ``-k v``, bare flags, quoting,
    escapes, extra spaces, nested ``-host='...'``, tags and JSON text."""
    strategy = targets(dialect, kinds, max_host_depth)
    tag_names = sorted(load(dialect).tag_configs)  # none before TVM 0.8
    return st.one_of(
        strategy.flatmap(spellings),
        strategy.map(lambda t: t.to_string()),
        strategy.map(lambda t: _json_text(t)),
        *([st.sampled_from(tag_names)] if tag_names else []),
    )


def _json_text(target: Target) -> str:
    import json

    return json.dumps(target.to_json())


# ---- odd spellings: what TVM 0.21's reader allows beyond the plain -k=v ---------------------

#: The odd spelling classes of :func:`odd_spellings` and :func:`respell`: numbers as
#: ``std::istream`` reads them (``007``, ``+4``, ``0x10``, ``1e3``, ``1_000``, trailing text),
#: booleans as TVM reads them (``true``, ``False``, ``2``, ``0.9``), three or more dashes,
#: odd spacing between words, escapes (``\4\2``), quotes inside array items
#: (``'mps , cutlass'``, ``\'a\',b``), quoted hosts holding quoted values, and all of them
#: mixed with the plain spellings (``-k v``, ``--k=v``, bare flags).
ODD_SPELLINGS = ("numbers", "booleans", "dashes", "spacing", "escapes", "array-quotes",
                 "quoted-host", "mixed")

#: Picks one of the ways offered: ``random.Random(seed).choice``, or a Hypothesis draw.
Choose = Callable[[Sequence[str]], str]

#: What istream leaves unread after a number (its digits end the number).
_TRAILING = ("x", "abc", ".5", "e3", "_000", "px", "-1", "+2", ",7")
#: A value word that TVM reads as these very characters (no quote, escape or space).
_SIMPLE = frozenset(_PLAIN + "-=,@#%&*()[]<>!?~^|;`$" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    + "defghijklmnopqrstuvw2345678")
_NUMBER = frozenset("0123456789")


def _is_decimal(text: str) -> bool:
    digits = text[1:] if text[:1] == "-" else text
    return bool(digits) and set(digits) <= _NUMBER


def _odd_number(value: str, choose: Choose) -> str:
    """An int's canonical decimal, as istream reads it to the same number."""
    negative = value.startswith("-")
    digits = value[1:] if negative else value
    sign = "-" if negative else choose(("", "+"))
    ways = [sign + "0" * len(choose(("0", "00", "000"))) + digits,
            sign + digits + choose(_TRAILING), f"' {value}'", f"'  {value} '"]
    if not negative:
        ways.append("+" + digits)
    if value == "0":
        ways += ["0x10", "0x0", "-0", "0b1", "0e9", "000"]
    return choose(ways)


def _odd_boolean(value: str, choose: Choose) -> str:
    """``1`` or ``0`` as TVM reads a boolean (istream, then the words true and false)."""
    if value == "1":
        return choose(("true", "True", "TRUE", "2", "7", "-1", "01", "+1", "1x", "1.0", "' 1'"))
    return choose(("false", "False", "FALSE", "0.9", "00", "-0", "+0", "0x1", "0e5", "0abc",
                   "' 0'"))


def _escaped(value: str, choose: Choose) -> str:
    """Every character escaped, or every other one (quotes, spaces, commas, backslashes
    always): Interpret gives the characters back."""
    step = len(choose(("x", "xx")))
    return "".join("\\" + c if i % step == 0 or c in " ',\\" else c
                   for i, c in enumerate(value))


def _quoted_items(items: list[str], choose: Choose) -> str:
    """Simple items with quotes inside the array: each item quoted (with spaces TVM trims),
    its quotes escaped, or the whole value quoted with spaces around its commas."""
    way = choose(("whole", "each", "escaped", "spaced", "first"))
    if way == "whole":
        return "'" + " , ".join(items) + "'"
    if way == "each":
        return ",".join(f"'{item}'" for item in items)
    if way == "escaped":
        return ",".join(f"\\'{item}\\'" for item in items)
    if way == "spaced":
        return ",".join(f"' {item} '" for item in items)
    return ",".join([f"'{items[0]}'", *items[1:]])


def _odd_host(raw: str, spelling: str, choose: Choose, dialect: str) -> str:
    """A host's word respelled: its text in ``spelling`` (a quoted host holds quoted values),
    then quoted with its quotes escaped, or (mixed) every space and quote escaped."""
    value = rules.interpret(raw)[0]
    if value[:1] == "{" or value in load(dialect).tag_configs:
        return raw
    inner = respell(value, "quoted-values" if spelling == "quoted-host" else spelling, choose,
                    dialect)
    if spelling == "mixed" and choose(("quoted", "escaped")) == "escaped":
        return "".join("\\" + c if c in " '\\" else c for c in inner)
    return rules.quote(rules.uninterpret(inner))


def _odd_value(raw: str, type_: AttrType, style: str, choose: Choose) -> str:
    """An option's value word respelled in ``style`` to the same value; ``raw`` as written."""
    value = rules.interpret(raw)[0]
    if type_.is_array:
        items = value.split(",")
        if type_.holds_target or not all(item and set(item) <= _SIMPLE for item in items):
            return raw
        if style in ("array-quotes", "quoted-values"):
            return _quoted_items(items, choose)
        if style == "escapes":
            return ",".join(_escaped(item, choose) for item in items)
        return raw
    if type_ is STR:
        if not value or value != rules.trim_spaces(value)[0]:
            return raw
        if style == "escapes":
            return _escaped(value, choose)
        if style == "quoted-values":
            inside = rules.uninterpret(value)
            return rules.quote(choose((inside, f" {inside} ")))
        return raw
    if not type_.is_integer or not _is_decimal(value):
        return raw
    if style == "numbers" and type_ is INT:
        return _odd_number(value, choose)
    if style == "booleans" and value in ("0", "1"):
        return _odd_boolean(value, choose) if type_ is BOOL else choose(
            ("true", "True", "TRUE") if value == "1" else ("false", "False", "FALSE"))
    if style == "escapes":
        return _escaped(value, choose)
    if style == "quoted-values":
        return f"'{value}'"
    return raw


#: The styles an option of a ``mixed`` text is respelled in, one each.
_MIXED_STYLES = ("numbers", "booleans", "escapes", "array-quotes", "quoted-values", "plain")


def respell(text: str, spelling: str, choose: Choose, dialect: str = DEFAULT_DIALECT) -> str:
    """Legacy ``text`` written again in the odd spelling class ``spelling`` (one of
    :data:`ODD_SPELLINGS`), reading as the same target; ``choose`` picks one of the ways each
    step offers (``random.Random(seed).choice``, or a Hypothesis draw). What the class cannot
    respell to the same value (a string with spaces at its ends, an array item holding a
    quote) is kept as written; text the grammar refuses, or that holds "mkldnn" (TVM's
    wrapper rewrites it by the exact text), is given back as it is."""
    if spelling not in (*ODD_SPELLINGS, "quoted-values"):  # (quoted-values: a host's inside)
        raise ValueError(f"unknown spelling {spelling!r}: one of {', '.join(ODD_SPELLINGS)}")
    try:
        syntax = parse_target_text(text)
    except SyntaxProblem:
        return text
    if "mkldnn" in text:
        return text
    kind = load(dialect).kinds.get(syntax.kind.text)
    mixed = spelling == "mixed"
    words = [syntax.kind.text]
    for option in syntax.options:
        raw = "1" if option.value is None else option.value.text
        spec = None if kind is None else kind.attrs.get(option.key)
        if spec is None:
            value = raw
        elif spec.type is TARGET:
            value = _odd_host(raw, spelling, choose, dialect)
        else:
            value = _odd_value(raw, spec.type, choose(_MIXED_STYLES) if mixed else spelling,
                               choose)
        dashes = "-"
        if spelling == "dashes":
            dashes = choose(("---", "----", "-----"))
        elif mixed:
            dashes = choose(("-", "--", "---"))
        form = choose(("assign", "spaced", "flag")) if mixed else "assign"
        if form == "flag" and value == "1":
            words.append(dashes + option.key)
        elif form == "spaced" and value[:1] not in ("-", ""):
            words.append(f"{dashes}{option.key}{choose((' ', '  '))}{value}")
        else:
            words.append(f"{dashes}{option.key}={value}")
    if spelling in ("spacing", "mixed"):
        gaps = [choose((" ", "  ", "   ", "    ")) for _ in words[1:]]
        return choose(("", " ", "  ")) + words[0] + "".join(
            g + w for g, w in zip(gaps, words[1:])) + choose(("", " ", "  "))
    return " ".join(words)


def odd_spellings(dialect: str = DEFAULT_DIALECT, kinds: Sequence[str] | None = None,
                  spellings: Sequence[str] = ODD_SPELLINGS,
                  max_host_depth: int = 1) -> st.SearchStrategy[str]:
    """Valid target text in the odd spellings TVM 0.21 reads (:data:`ODD_SPELLINGS`), each
    drawn from a target of :func:`targets` and reading as it."""
    return targets(dialect, kinds, max_host_depth).flatmap(
        lambda target: odd_spellings_of(target, spellings))


def odd_spellings_of(target: Target,
                     spellings: Sequence[str] = ODD_SPELLINGS) -> st.SearchStrategy[str]:
    """Texts in the odd spellings (:data:`ODD_SPELLINGS`) that read back as ``target``."""
    return _oddly_spelled(target, tuple(spellings))


@st.composite
def _oddly_spelled(draw: st.DrawFn, target: Target, spellings: tuple[str, ...]) -> str:
    canonical = target.to_string()
    if canonical.startswith("{"):
        return canonical  # legacy text cannot say this target
    return respell(canonical, draw(st.sampled_from(spellings)),
                   lambda ways: draw(st.sampled_from(ways)), target.dialect)


# ---- near misses ------------------------------------------------------------------------

_MUTATIONS: list[Callable[[str, int, str], str]] = [
    lambda s, i, c: s[:i] + s[i + 1:],            # delete a character
    lambda s, i, c: s[:i] + c + s[i:],            # insert one
    lambda s, i, c: s[:i] + s[i:i + 1] * 2 + s[i + 1:],  # duplicate one
    lambda s, i, c: s[:i],                        # truncate
    lambda s, i, c: s[:i] + c + s[i + 1:],        # replace one
]


@st.composite
def _mutated(draw: st.DrawFn, dialect: str) -> str:
    text = draw(target_strings(dialect, max_host_depth=1))
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, max(0, len(text) - 1)))
        char = draw(st.sampled_from(_SPECIAL + "ax"))
        text = draw(st.sampled_from(_MUTATIONS))(text, index, char)
    return text


@st.composite
def _near_miss(draw: st.DrawFn, dialect: str) -> str:
    schema = load(dialect)
    kind = draw(st.sampled_from(sorted(schema.kinds)))
    attrs = sorted(schema.kinds[kind].attrs)
    attr = draw(st.sampled_from(attrs))
    typo = draw(st.sampled_from([attr[:-1], attr + "s", attr[1:] + attr[0], attr.upper()]))
    return draw(st.sampled_from([
        f"{kind} -{attr}='unbalanced",
        f"{kind} -{attr}=",
        f"{kind} -=x",
        f"{kind} - {attr}",
        f"{kind} --",
        f"{kind} -{attr}=1 -{attr}=2",
        f"{kind} -{attr}=1 --{attr} 2",
        f"{kind[:-1]} -{attr}=1",
        f"{kind}x",
        f"{kind} -{typo}=1",
        f"{kind} stray",
        f"{kind} -{attr}=1 stray",
        f"{kind} -host='{kind}",
        f" {{\"kind\": \"{kind}\"}}",
        f"{{\"kind\": \"{kind}\", \"{attr}\": {{}}}}",
        "",
        "   ",
    ]))


def grammar_sentences() -> st.SearchStrategy[str]:
    """Sentences of ``grammar/target.lark`` (syntactically valid; most name no real attribute).

    The grammar's rules are followed by ``hypothesis.extra.lark``; its three word terminals
    are drawn here from the same parts the grammar builds them of (plain characters, escape
    pairs, quoted runs), because Hypothesis can meet their full regexes only by filtering,
    which is very slow.
    """
    plain = st.sampled_from(_PLAIN + "\t=-\"{}é")
    escape = st.sampled_from(_SPECIAL + _PLAIN).map(lambda c: "\\" + c)
    quoted = st.lists(st.one_of(st.sampled_from(_PLAIN + " ,=-"), st.just("\\'")),
                      max_size=6).map(lambda parts: "'" + "".join(parts) + "'")
    units = st.lists(st.one_of(plain, plain, escape, quoted), max_size=5).map("".join)
    key = st.text(alphabet=_PLAIN + "-", max_size=10)
    dashes = st.sampled_from(["-", "--", "---"])
    word = st.builds(lambda first, rest: first + rest,
                     st.one_of(st.sampled_from(_PLAIN + "\t="), escape, quoted), units)
    option_assign = st.builds(lambda d, k, v: f"{d}{k}={v}", dashes, key, units)
    option_name = st.builds(lambda d, k, tail: d + k + tail, dashes,
                            key.filter(lambda k: not k.endswith("=")),
                            st.one_of(st.just(""), st.builds(lambda a, b: a + b,
                                                             st.one_of(escape, quoted), units)))
    # Hypothesis joins terminals without the ignored space between them most of the time;
    # a trailing space keeps each drawn word a word of its own.
    spaced = {name: strategy.map(lambda w: w + " ") for name, strategy in
              {"WORD": word, "OPTION_ASSIGN": option_assign, "OPTION_NAME": option_name}.items()}
    return from_lark(plain_target_parser(), explicit=spaced)


def malformed_strings(dialect: str = DEFAULT_DIALECT) -> st.SearchStrategy[str]:
    """Near misses: unbalanced quotes, stray dashes, empty values, duplicate keys, unknown
    kinds and attributes, truncations and random mutations of valid text. (A mutation can
    land on valid text again; most do not.)"""
    return st.one_of(
        _near_miss(dialect),
        _mutated(dialect),
        grammar_sentences(),
        st.text(alphabet=st.sampled_from(_SPECIAL + "lvmcuda"), max_size=20),
    )
