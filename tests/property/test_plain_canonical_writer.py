"""The fast writer of canonical text (``plain_legacy`` in ``_formats/text.py``) writes what
the general writer writes, and only where the general writer's read-back would pass:
``plain_legacy(t)`` is None, or it is ``_legacy(t)`` and ``parse`` reads it as ``t``.

Its two shortcuts are checked against what they stand for: each hook's ``keeps`` (which runs
the hook on the members it declares it reads) against running the hook on the whole config,
and ``settles_to_itself`` against ``settle``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from golden import records
from hypothesis import given
from hypothesis import strategies as st

import targetlang as tl
from targetlang._formats import text as _text
from targetlang._formats.text import _legacy
from targetlang._lower import hooks
from targetlang._lower.core import Context, Place
from targetlang._lower.dialects import DIALECTS, load
from targetlang._lower.hooks import ARM_CHECKS_READ, TARGET_PARSERS
from targetlang._lower.plan import plans, settle, settles_to_itself
from targetlang.strategies import target_strings, targets
from targetlang.target import Target

# The dialects with one-pass plans (the others never take the fast writer).
PLAIN = [name for name in DIALECTS if any(plans(load(name)).values())]


def plain_legacy(target: Target) -> str | None:
    """The fast writer's answer for ``target``, as ``Target.to_string`` asks it."""
    if target.host is not None:
        return None
    return _text.plain_legacy(target.kind, target.dialect, target.tag, target.keys,
                              target.attrs, target._settled)


def _check(target: Target) -> bool:
    """Assert the contract; True when the fast writer answered."""
    fast = plain_legacy(target)
    if fast is None:
        return False
    assert fast == _legacy(target)
    again = tl.parse(fast, dialect=target.dialect)
    assert again == target
    assert json.dumps(again.to_json()) == json.dumps(target.to_json())  # true is not 1
    assert target.to_string() == fast
    return True


def test_the_plain_dialects_are_those_of_tvm_021() -> None:
    assert {"tvm-0.21", "collage"} <= set(PLAIN)
    assert "tvm-0.19" not in PLAIN and "tvm-0.27" not in PLAIN


@pytest.mark.parametrize("dialect", PLAIN)
@given(data=st.data())
def test_fast_writer_agrees_with_the_read_back(dialect: str, data: st.DataObject) -> None:
    _check(data.draw(targets(dialect)))


@given(target_strings(), st.sampled_from([None, tl.Environment.no_gpu(),
                                          tl.Environment(system_triple="aarch64-linux-gnu",
                                                         rocm_api_version=300)]))
def test_fast_writer_agrees_on_read_strings(text: str, env: tl.Environment | None) -> None:
    try:
        target = tl.parse(text, environment=env)
    except tl.TargetError:
        return
    _check(target)


def test_fast_writer_on_the_golden_corpus() -> None:
    answered = 0
    total = 0
    for row in records():
        try:
            target = tl.parse(row["input"])
        except tl.TargetError:
            continue
        total += 1
        answered += _check(target)
    assert total > 1000
    assert answered > total // 2  # the fast writer is the common path, not a rarity


@pytest.mark.parametrize(("text", "fast"), [
    ("cuda -arch=sm_80", True),
    ("vulkan -supports_float16=1", True),
    ("llvm -mtriple=x86_64-linux-gnu -mattr=+avx2,+fma", True),
    ("cuda -host=llvm", False),                             # a host: read back
    ("llvm -mtriple=aarch64-linux-gnu", True),              # the Arm parser runs on it
    ("llvm -from_device=0", False),                         # nulls
    ("llvm -opt-level=-1", False),                          # a sign: TVM's istream rules
    ("llvm -model='a b'", False),                           # a quoted value
    ("llvm -libs=mkldnn", True),                            # read as dnnl: written so
    ("llvm -model=mkldnn", False),                          # parse() may rewrite it
    ("cuda -keys=,", False),                                # no keys
    ("llvm -opt-level=3x", True),                           # read as 3: written as 3
])
def test_fast_writer_cases(text: str, fast: bool) -> None:
    target = tl.parse(text)
    assert _check(target) is fast
    assert tl.parse(target.to_string()) == target


_ATTR_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3),
    st.sampled_from(["sm_80", "sm_5", "gfx908", "gfx", "fx9", "nvptx64-nvidia-cuda",
                     "amdgcn-amd-amdhsa-hcc", "x86_64-linux-gnu", "aarch64-linux-gnu",
                     "armv7a-linux-gnueabihf", "arm-none-eabi", "thumbv7em-none-eabi",
                     "cortex-m7", "cortex-m55", "cortex-a72", "cortex-m0", ""]),
    st.tuples(st.sampled_from(["+neon", "-neon", "+nodsp", "+nomve", "x", "hard", "-x=1"])),
    st.sampled_from(["hard", "soft", "bad", "mcjit", "orcjit"]), st.just(0.0), st.just(0))


_EVERY_HOOK = sorted({(kind, hook) for dialect in DIALECTS
                      for kind, hook in load(dialect).hooks.items()}, key=repr)


@pytest.mark.parametrize(("kind", "hook"), _EVERY_HOOK, ids=[f"{k}-{h.name}-{id(h)}"
                                                              for k, h in _EVERY_HOOK])
@given(st.sampled_from([("k",), ("arm_cpu", "cpu"), ("cpu", "x", "arm_cpu"), ("arm_cpu",), ()]),
       st.dictionaries(st.sampled_from(["arch", "mcpu", "mtriple", "mattr", "device", "model",
                                        "mfloat-abi", "cl-opt", "jit", "vector-width", "mabi",
                                        "supports_subgroups", "thread_warp_size"]),
                       _ATTR_VALUES, max_size=4))
def test_hook_keeps_exactly_when_the_hook_changes_nothing(kind: str, hook: hooks.Hook,
                                                         keys: tuple[str, ...],
                                                         attrs: dict[str, Any]) -> None:
    hooks._KEPT.clear()
    answer = hook.keeps(kind, keys, attrs)
    assert hook.keeps(kind, keys, attrs) is answer  # the kept answer, the same
    config = {"kind": kind, "keys": keys, **attrs}
    try:
        out, _features = hook.run(dict(config), None, set())
    except tl.TargetError:
        assert not answer
        return
    same = [*out["keys"]] == [*keys]
    del out["keys"], config["keys"]
    same = same and out == config and \
        [type(v) for v in out.values()] == [type(v) for v in config.values()]
    assert answer == same


@pytest.mark.parametrize(("kind", "hook"), _EVERY_HOOK, ids=[f"{k}-{h.name}-{id(h)}"
                                                              for k, h in _EVERY_HOOK])
@given(st.dictionaries(st.sampled_from(["arch", "mcpu", "mtriple", "mattr", "device", "model",
                                        "mfloat-abi", "cl-opt", "jit", "vector-width", "mabi",
                                        "supports_subgroups", "thread_warp_size", "keys",
                                        "libs", "tag"]),
                       _ATTR_VALUES, max_size=5))
def test_each_hook_reads_and_changes_only_what_it_declares(kind: str, hook: hooks.Hook,
                                                          attrs: dict[str, Any]) -> None:
    """``Hook.keeps`` runs the hook on the members it declares (``reads``) only: with no
    environment, it must read no other member of the config, nor change one."""
    config = _Reads({"kind": kind, **attrs})
    try:
        out, _features = hook.run(config, None, set())
    except tl.TargetError:
        out = None
    declared = {"kind", *hook.reads}
    assert config.read <= declared, config.read - declared
    if out is not None:
        changed = {k for k in {*out, *attrs} if k != "kind" and
                   (k not in out or k not in attrs or out[k] is not attrs[k])}
        assert changed <= declared, changed - declared


@pytest.mark.parametrize(("kind", "hook"), _EVERY_HOOK, ids=[f"{k}-{h.name}-{id(h)}"
                                                              for k, h in _EVERY_HOOK])
@given(st.dictionaries(st.sampled_from(["arch", "mcpu", "mtriple", "mattr", "device", "model",
                                        "keys", "libs", "tag", "supports_subgroups",
                                        "thread_warp_size"]), _ATTR_VALUES, max_size=5),
       st.sampled_from([None, tl.Environment.no_gpu(),
                        tl.Environment(system_triple="aarch64-linux-gnu", cuda_arch="sm_86",
                                       rocm_arch="gfx90a", rocm_api_version=300)]))
def test_each_hook_adds_members_and_removes_none(kind: str, hook: hooks.Hook,
                                                attrs: dict[str, Any],
                                                environment: tl.Environment | None) -> None:
    """The one-pass reader looks for what a hook filled in only when the config grew."""
    try:
        out, _features = hook.run({"kind": kind, **attrs}, environment, set())
    except tl.TargetError:
        return
    assert {"kind", *attrs} <= out.keys()


class _Reads(dict):  # type: ignore[type-arg]
    """A config that notes each name read from it."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.read: set[str] = set()

    def get(self, key: Any, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


@pytest.mark.parametrize("check", [hooks._aprofile_checked, hooks._mprofile_features])
@pytest.mark.parametrize("attrs", [
    {"mtriple": "aarch64-linux-gnu", "mcpu": "cortex-a72", "mattr": ("+neon",),
     "cl-opt": ("-x=1",), "mfloat-abi": "hard", "jit": "mcjit", "vector-width": 8, "mabi": "x",
     "model": "rk3399", "device": "arm_cpu", "opt-level": 3},
    {"mtriple": "thumbv7em-none-eabi", "mcpu": "cortex-m7", "device": "arm_cpu"},
])
def test_the_arm_checks_read_only_what_their_kept_answers_are_keyed_by(
        check: Any, attrs: dict[str, Any]) -> None:
    config = _Reads({"kind": "llvm", **attrs})
    try:
        check(config)
    except tl.TargetError:
        pass
    assert config.read <= {"kind", *ARM_CHECKS_READ}, config.read - {"kind", *ARM_CHECKS_READ}
    assert "mtriple" in config.read or check is hooks._mprofile_features


def test_hook_keeps_takes_the_common_arm_targets() -> None:
    keeps = TARGET_PARSERS["llvm"].keeps
    arm = {"mtriple": "aarch64-linux-gnu", "mattr": ("+neon",)}
    assert keeps("llvm", ("arm_cpu", "cpu"), arm)
    assert not keeps("llvm", ("cpu",), arm)  # MergeKeys adds arm_cpu
    assert not keeps("c", ("arm_cpu", "cpu"), arm)  # A-profile features need llvm: refused
    assert not keeps("llvm", ("arm_cpu", "cpu"), {**arm, "mattr": ("neon",)})  # unsigned
    assert keeps("llvm", ("arm_cpu", "cpu"), {"mcpu": "cortex-m7"})


@pytest.mark.parametrize("dialect", PLAIN)
@given(data=st.data())
def test_settles_to_itself_is_what_settle_says(dialect: str, data: st.DataObject) -> None:
    target = data.draw(targets(dialect))
    plan = plans(load(dialect)).get(target.kind)
    if plan is None or target.host is not None:
        return
    keys = data.draw(st.sampled_from([target.keys, (*target.keys, *target.keys[:1]),
                                      target.keys[1:], ("x", *target.keys)]))
    attrs = dict(target.attrs)
    if attrs and data.draw(st.booleans()):
        del attrs[data.draw(st.sampled_from(sorted(attrs)))]
    given_config: dict[str, Any] = {"kind": target.kind, "keys": keys}
    if target.tag:
        given_config["tag"] = target.tag
    given_config.update(attrs)
    arrays = [key for key, value in given_config.items() if type(value) is tuple]
    settled = settle(plan, given_config, Context(load(dialect), None, None, Target), "",
                     Place(), arrays)
    expected = settled is not None and settled.tag == target.tag and settled.keys == keys and \
        dict(settled.attrs) == attrs and \
        all(type(settled.attrs[k]) is type(v) for k, v in attrs.items())
    assert settles_to_itself(plan, target.tag, keys, attrs) == expected


def _settled_shortcut_holds(target: Target) -> bool:
    """A target the one-pass readers made answers the full check as its shortcut does."""
    plan = plans(load(target.dialect)).get(target.kind)
    if not target._settled:
        return False
    assert plan is not None  # (a host it may have: the one-pass reader reads -host too)
    attrs = dict(target.attrs)
    assert settles_to_itself(plan, target.tag, target.keys, attrs, settled=True) == \
        settles_to_itself(plan, target.tag, target.keys, attrs)
    return True


@pytest.mark.parametrize("dialect", PLAIN)
@given(data=st.data())
def test_targets_settle_made_settle_to_themselves(dialect: str, data: st.DataObject) -> None:
    text = data.draw(target_strings(dialect))
    environment = data.draw(st.sampled_from([None, tl.Environment.no_gpu(),
                                             tl.Environment(system_triple="aarch64-linux-gnu",
                                                            cuda_arch="sm_86",
                                                            rocm_arch="gfx90a",
                                                            rocm_api_version=304)]))
    try:
        target = tl.parse(text, dialect=dialect, environment=environment)
    except tl.TargetError:
        return
    _settled_shortcut_holds(target)
    try:
        again = tl.from_json(target.to_json(), dialect=dialect, environment=environment)
    except tl.TargetError:
        return
    _settled_shortcut_holds(again)


def test_targets_settle_made_settle_to_themselves_on_the_golden_corpus() -> None:
    taken = 0
    for record in records():
        if not record["ok"]:
            continue
        for environment in (None, tl.Environment.no_gpu()):
            taken += _settled_shortcut_holds(tl.parse(record["input"], environment=environment))
            if "host" not in record["export"]:
                taken += _settled_shortcut_holds(tl.from_json(record["export"],
                                                              environment=environment))
    assert taken > 2000
