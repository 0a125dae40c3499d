"""Target.specializes is a partial order; Target.tuning_key keeps exactly what tuning reads."""

from __future__ import annotations

import itertools

from config_strategies import HALF, POOL, related_targets
from hypothesis import given
from hypothesis import strategies as st

import targetlang as tl
from targetlang._lower.specialize import NOT_TUNING
from targetlang.target import Target


def collage(text: str) -> tl.Target:
    return tl.parse(text, dialect="collage")


# ---- the order --------------------------------------------------------------------------------

def test_collage_backends_specialize_the_plain_target() -> None:
    plain = tl.parse("cuda -arch=sm_80")
    trt = collage("cuda -arch=sm_80 -compiler=tensorrt")
    cutlass = collage("cuda -arch=sm_80 -compiler=cutlass")
    for backend in (trt, cutlass):
        assert backend.specializes(plain)
        assert backend.specializes(collage("cuda -arch=sm_80"))
        assert not plain.specializes(backend)
    assert not trt.specializes(cutlass) and not cutlass.specializes(trt)


def test_rule_examples() -> None:
    cuda = tl.parse("cuda")
    # More attributes fixed: a specialization; a different value: unrelated.
    assert tl.parse("cuda -arch=sm_80 -libs=cudnn").specializes(tl.parse("cuda -arch=sm_80"))
    assert not tl.parse("cuda -arch=sm_86").specializes(tl.parse("cuda -arch=sm_80"))
    # Defaults are fixed values: -max_num_threads=512 changes one, so it is not below cuda.
    assert tl.parse("cuda -max_num_threads=1024") == cuda
    assert not tl.parse("cuda -max_num_threads=512").specializes(cuda)
    # Keys: more dispatch keys (in order) specialize; other keys do not.
    assert tl.parse("opencl -device=mali").specializes(tl.parse("opencl"))
    assert tl.parse("llvm -keys=arm_cpu,cpu").specializes(tl.parse("llvm"))
    assert not tl.parse("llvm -keys=cpu,arm_cpu").specializes(tl.parse("llvm -keys=arm_cpu,cpu"))
    # Host: adding one, or specializing it, specializes; removing it does not.
    assert tl.parse("cuda -host='llvm -mcpu=x'").specializes(tl.parse("cuda -host=llvm"))
    assert tl.parse("cuda -host=llvm").specializes(cuda)
    assert not cuda.specializes(tl.parse("cuda -host=llvm"))
    # Tag: an empty tag is unfixed.
    assert tl.parse("cuda -tag=x").specializes(cuda)
    assert not tl.parse("cuda -tag=x").specializes(tl.parse("cuda -tag=y"))
    # Kind and dialect: never across kinds; collage extends tvm-0.21, not the other way.
    assert not tl.parse("nvptx").specializes(tl.parse("cuda"))
    assert collage("cuda").specializes(cuda) and not cuda.specializes(collage("cuda"))


@given(related_targets())
def test_reflexive(a: Target) -> None:
    assert a.specializes(a)


@given(related_targets(), related_targets())
def test_antisymmetric(a: Target, b: Target) -> None:
    if a.specializes(b) and b.specializes(a):
        assert a == b


@given(related_targets(kind="cuda"), related_targets(kind="cuda"), related_targets(kind="cuda"))
def test_transitive(a: Target, b: Target, c: Target) -> None:
    if a.specializes(b) and b.specializes(c):
        assert a.specializes(c)


@HALF
@given(related_targets(), st.sampled_from(sorted({n for p in POOL.values() for n in p})))
def test_fixing_one_more_attribute_specializes(b: Target, name: str) -> None:
    if name in b.attrs or name not in POOL[b.kind] or name not in tl.kinds(b.dialect)[b.kind].attrs:
        return
    if name == "device":
        return  # a device also adds a key, and the kind's parser may set defaults by it
    value = POOL[b.kind][name][0]
    a = b.with_attrs({name: value})
    assert a.specializes(b) and (a == b or not b.specializes(a))


def test_the_order_on_an_exhaustive_pool() -> None:
    # Every pair and triple of a pool with many relations: the three laws, exhaustively.
    texts = ["cuda", "cuda -arch=sm_80", "cuda -arch=sm_86", "cuda -arch=sm_80 -libs=cudnn",
             "cuda -arch=sm_80 -compiler=tensorrt", "cuda -arch=sm_80 -compiler=cutlass",
             "cuda -arch=sm_80 -compiler=tensorrt -libs=cudnn", "cuda -host=llvm",
             "cuda -arch=sm_80 -host='llvm -mcpu=x'", "cuda -arch=sm_80 -host=llvm",
             "cuda -keys=cuda,gpu,x", "cuda -keys=x,cuda,gpu", "cuda -tag=t -arch=sm_80",
             "cuda -max_num_threads=512"]
    pool = [tl.parse(t, dialect=d) for t in texts for d in ("collage", "tvm-0.21")
            if d == "collage" or "-compiler" not in t]
    le = {(i, j): a.specializes(b) for (i, a), (j, b) in
          itertools.product(enumerate(pool), repeat=2)}
    n = len(pool)
    assert all(le[i, i] for i in range(n))
    assert all(pool[i] == pool[j] for i in range(n) for j in range(n) if le[i, j] and le[j, i])
    assert all(le[i, k] for i, j, k in itertools.product(range(n), repeat=3)
               if le[i, j] and le[j, k])
    related = sum(le.values()) - n
    assert related > 50  # the pool is not trivially unrelated


# ---- the tuning key ------------------------------------------------------------------------------

def test_tuning_key_text() -> None:
    assert tl.parse("cuda -arch=sm_80 -host=llvm -tag=mine").tuning_key() == \
        "cuda -keys=cuda,gpu -arch=sm_80 -max_num_threads=1024 -thread_warp_size=32"
    assert collage("cuda -arch=sm_80 -compiler=tensorrt").tuning_key() == \
        "cuda -keys=cuda,gpu -arch=sm_80 -compiler=tensorrt -max_num_threads=1024 " \
        "-thread_warp_size=32"


def test_tuning_key_ignores_the_dialect_and_from_device() -> None:
    assert collage("cuda -arch=sm_80").tuning_key() == tl.parse("cuda -arch=sm_80").tuning_key()
    assert tl.parse("llvm -from_device=0").tuning_key() == tl.parse("llvm").tuning_key()
    assert tl.parse("cuda -from_device=0").tuning_key() == tl.parse("cuda").tuning_key()


def test_tuning_key_ignores_the_deployment_options_tvm_moved_out() -> None:
    # A TVM 0.8-era target carried executor and runtime settings as attributes; a key from a
    # log tuned without them must match the deployment target that has them.
    deployment = {"executor": "aot", "runtime": "c", "link-params": True, "system-lib": True,
                  "interface-api": "c", "unpacked-api": True}
    assert set(deployment) < NOT_TUNING
    plain = tl.parse("c -mcpu=cortex-m4")
    era_08 = Target._create(kind="c", dialect="tvm-0.21", tag="", keys=plain.keys, host=None,
                            attrs={**plain.attrs, **deployment}, features=None)
    assert era_08.tuning_key() == plain.tuning_key()


RELEVANT_CHANGES = [("arch", "sm_86"), ("libs", ["cublas"]), ("model", "h100"),
                    ("max_num_threads", 256), ("compiler", "tensorrt"), ("keys", ["gpu"]),
                    ("device", "x"), ("mcpu", "sm_90"), ("thread_warp_size", 64)]


@HALF
@given(related_targets(kind="cuda"), st.sampled_from([None, "llvm", "llvm -mcpu=a"]),
       st.sampled_from(["", "vendor/board"]))
def test_tuning_key_shared_across_hosts_and_tags(target: Target, host: str | None,
                                                 tag: str) -> None:
    other = target.with_host(host).with_attrs({"tag": tag or None})
    assert other.tuning_key() == target.tuning_key()


@HALF
@given(related_targets(kind="cuda"), st.sampled_from(RELEVANT_CHANGES))
def test_tuning_key_changes_with_every_relevant_attribute(target: Target,
                                                          change: tuple[str, object]) -> None:
    name, value = change
    if name == "compiler" and target.dialect != "collage":
        return
    other = target.with_attrs({name: value})
    if other.to_json() == target.to_json():
        return  # the change changed nothing (the value was already there)
    assert other.tuning_key() != target.tuning_key()


@HALF
@given(related_targets(), related_targets())
def test_tuning_key_equal_exactly_when_the_tuning_content_is(a: Target, b: Target) -> None:
    def content(t: Target) -> dict[str, object]:
        return {k: v for k, v in t.to_json().items() if k not in NOT_TUNING}

    assert (a.tuning_key() == b.tuning_key()) == (content(a) == content(b))
