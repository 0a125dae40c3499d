"""Hypothesis strategies for the test suite: target values drawn from the schema, and text.

The schema decides what is drawn (every kind, every attribute by its type), so a new kind
or attribute is covered without editing this file.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import targetlang as tl

# Characters that exercise TVM's rules: quotes, escapes, separators, spaces, non-ASCII.
TRICKY = " ',\\=-\t\n{}\"é𝔁"
words = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\0"), max_size=12)
tricky_words = st.text(alphabet=st.sampled_from(TRICKY + "abc01"), max_size=10)
strings = st.one_of(words, tricky_words, st.sampled_from(["", " ", "sm_80", "x86_64-linux-gnu"]))
ints = st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-5, 5))


def _value(type_: str, depth: int) -> st.SearchStrategy[Any]:
    if type_ == "int":
        return ints
    if type_ == "bool":
        return st.booleans()
    if type_ == "str":
        return strings
    if type_ == "target":
        return target_configs(depth + 1)
    element = type_[6:-1]
    return st.lists(_value(element, depth), max_size=3)


@st.composite
def target_configs(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    """A TargetJSON config of any kind, with attributes drawn by their declared types."""
    schema = tl.kinds()
    kind_name = draw(st.sampled_from(sorted(schema)))
    kind = schema[kind_name]
    config: dict[str, Any] = {"kind": kind_name}
    names = sorted(a for a in kind.attrs if a not in ("kind", "from_device", "host"))
    if depth >= 2:
        names = [a for a in names if "target" not in kind.attrs[a].type]
    for name in draw(st.lists(st.sampled_from(names), max_size=4, unique=True)):
        config[name] = draw(_value(kind.attrs[name].type, depth))
    if depth < 2 and draw(st.booleans()):
        config["host"] = draw(target_configs(depth + 1))
    return config


@st.composite
def targets(draw: st.DrawFn) -> tl.Target:
    """Valid targets: configs the dialect accepts (the others are rejected by assume)."""
    config = draw(target_configs())
    environment = draw(st.sampled_from([None, tl.Environment.no_gpu()]))
    try:
        return tl.from_json(config, environment=environment)
    except tl.TargetError:
        from hypothesis import reject
        reject()


def _option(draw: st.DrawFn, kind: str) -> str:
    spec = tl.kinds()[kind].attrs
    key = draw(st.one_of(st.sampled_from(sorted(spec)), tricky_words))
    dashes = draw(st.sampled_from(["-", "--"]))
    value = draw(st.one_of(tricky_words, st.sampled_from(["1", "3x", "sm_80", "'a b'", "a,b"])))
    form = draw(st.sampled_from(["=", " ", ""]))
    return f"{dashes}{key}" if form == "" else f"{dashes}{key}{form}{value}"


@st.composite
def target_like_text(draw: st.DrawFn) -> str:
    """Text that looks like a legacy target: a kind (or near miss) and options."""
    kind = draw(st.sampled_from(sorted(tl.kinds())))
    head = draw(st.one_of(st.just(kind), tricky_words))
    options = [_option(draw, kind) for _ in range(draw(st.integers(0, 4)))]
    return " ".join([head, *options])


any_text = st.one_of(st.text(max_size=40), tricky_words, target_like_text(),
                     st.sampled_from(sorted(tl.tags())))
