"""Names as machines print them: every real spelling of tests/data/components/printed-names.json,
and the classes of what machines add around a product's name."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import TESTS

import targetlang as tl
from targetlang.configuration.components import (
    PRINTED_NAME_RULES,
    AmbiguousComponentError,
    UnknownComponentError,
    component_names,
    find,
    printed_forms,
)

DATA = json.loads((TESTS / "data" / "components" / "printed-names.json").read_text("utf-8"))
ROWS: list[dict[str, Any]] = DATA["names"]


def test_the_data_holds_at_least_150_real_spellings_with_their_sources() -> None:
    printed = [row["printed"] for row in ROWS]
    assert len(printed) == len(set(printed)) >= 150
    for row in ROWS:
        assert row["tool"] and row["source"].startswith("https://github.com/")
    tools = " ".join(row["tool"] for row in ROWS)
    for tool in ("nvidia-smi", "torch.cuda.get_device_name", "rocminfo", "/proc/cpuinfo",
                 "lscpu", "machdep.cpu.brand_string", "/proc/device-tree/model"):
        assert tool in tools


def test_every_answer_comes_from_the_database() -> None:
    names = set(component_names())
    for row in ROWS:
        answer = row["answer"]
        if isinstance(answer, dict):
            assert len(answer["ambiguous"]) >= 2 and set(answer["ambiguous"]) <= names
        elif answer != "unknown":
            assert answer in names, answer


@pytest.mark.parametrize("row", ROWS, ids=[row["printed"] for row in ROWS])
def test_a_printed_name_reads_as_its_answer(row: dict[str, Any]) -> None:
    printed, answer = row["printed"], row["answer"]
    if isinstance(answer, str) and answer != "unknown":
        assert tl.component(printed).name == answer
        return
    error = AmbiguousComponentError if isinstance(answer, dict) else UnknownComponentError
    with pytest.raises(error) as caught:
        tl.component(printed)
    message = caught.value.message
    assert repr(printed) in message
    if isinstance(answer, dict):  # a refusal lists every variant, never picks one
        for name in answer["ambiguous"]:
            assert name in message


def test_the_counts_of_the_data() -> None:
    """The measure the issue asks for: how many resolve, are ambiguous, are unknown."""
    counts = {"resolved": 0, "ambiguous": 0, "unknown": 0}
    for row in ROWS:
        answer = row["answer"]
        kind = "ambiguous" if isinstance(answer, dict) else \
            "unknown" if answer == "unknown" else "resolved"
        counts[kind] += 1
    assert sum(counts.values()) == len(ROWS)
    assert counts["resolved"] >= 200 and counts["ambiguous"] >= 1
    page = (TESTS.parent / "docs" / "configuration.md").read_text("utf-8")  # from the README
    verb = "is" if counts["ambiguous"] == 1 else "are"
    assert (f"{len(ROWS)} real spellings" in page
            and f"{counts['resolved']} resolve, {counts['ambiguous']} {verb} refused as\nambiguous"
            in page and f"{counts['unknown']} are refused as unknown" in page)


# ---- the classes ---------------------------------------------------------------------------

@pytest.mark.parametrize(("printed", "mcpu"), [
    ("Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", "cascadelake"),
    ("AMD EPYC 7742 64-Core Processor", "znver2"),
    ("11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz", "tigerlake"),
    ("Intel® Core™ i5-1135G7", "tigerlake"),
])
def test_what_cpuinfo_adds_is_read_away(printed: str, mcpu: str) -> None:
    reading = printed_forms(printed)[-1]
    for noise in ("(R)", "(TM)", "®", "™", "@", "GHz", "Core Processor", "Gen "):
        assert noise not in reading
    found = tl.component(printed)  # the model number says the core (the CPU's scheme)
    assert found.name == mcpu and found.target.attrs["mcpu"] == mcpu
    assert found.target.attrs["mtriple"] == "x86_64-linux-gnu"


@pytest.mark.parametrize("base", ["NVIDIA A100", "Tesla V100", "NVIDIA H100", "Tesla P100",
                                  "NVIDIA A30", "Tesla T4", "NVIDIA L4"])
@pytest.mark.parametrize("suffix", ["-SXM4-80GB", "-SXM2-16GB", "-SXM-64GB", "-PCIE-40GB",
                                    " 80GB PCIe", " 80GB HBM3", " PCIe", " NVL", "-DGXS-32GB",
                                    " 24GB", " MIG 1g.10gb", "-SXM4-80GB MIG 3g.40gb"])
def test_form_factor_and_memory_never_change_the_product(base: str, suffix: str) -> None:
    assert tl.component(base + suffix) == tl.component(base)


@pytest.mark.parametrize("name", ["NVIDIA GeForce RTX 3080", "NVIDIA A100", "NVIDIA GeForce GTX 1060",
                                  "Quadro RTX 5000", "NVIDIA RTX A2000", "NVIDIA GeForce RTX 4080",
                                  "NVIDIA T1000", "Apple M2 GPU"])
@pytest.mark.parametrize("other", [" Laptop GPU", " with Max-Q Design", " SUPER", " Ti OEM",
                                   " Ada Generation", " Embedded GPU", " Mobile", " Max"])
def test_what_tells_products_apart_is_never_dropped(name: str, other: str) -> None:
    """A product named with what makes it another product is never read as the first: it is
    that other product where the tables have it (``RTX 4080 SUPER``), a laptop part of a
    line that has them is its generation's architecture (``sm_61``), else it is refused."""
    try:
        found = tl.component(name + other)
    except tl.TargetError:
        return
    base = tl.component(name)
    assert found != base
    if found.name.startswith(("sm_", "gfx")):  # an architecture: never a data-centre part's
        assert other.strip() in ("Laptop GPU", "with Max-Q Design", "Mobile")
        assert found.target.attrs["arch"] == base.target.attrs["arch"].rstrip("af")
        assert "GeForce" in name or "RTX" in name or "Quadro" in name
    else:
        assert other.split()[-1].casefold() in found.name.casefold()


def test_a_product_line_is_not_dropped_for_another_line() -> None:
    assert tl.component("Tesla T4").name == "nvidia/nvidia-t4"  # a tag of no product line
    assert tl.component("Quadro T2000").name == "nvidia/t2000"
    with pytest.raises(UnknownComponentError):
        tl.component("GeForce 410")  # not the Quadro 410


def test_variants_of_one_product_are_listed() -> None:
    with pytest.raises(AmbiguousComponentError) as caught:
        tl.component("NVIDIA Jetson AGX Orin")
    assert "nvidia/jetson-agx-orin-32gb, nvidia/jetson-agx-orin-64gb" in caught.value.message
    assert tl.component("NVIDIA Jetson AGX Orin 64GB").name == "nvidia/jetson-agx-orin-64gb"
    assert tl.component("Apple M2 GPU").name == "apple/m2-gpu"  # the GPU by its tag's words
    # rocminfo's "one of those": both are rocm -mcpu=gfx90a, which is their component
    assert tl.component("AMD Instinct MI250X / MI250").name == "gfx90a"
    assert tl.component("Quadro M6000 24GB").name == "nvidia/quadro-m6000-24gb"  # its own tag
    assert tl.component("Quadro M6000").name == "nvidia/quadro-m6000"
    with pytest.raises(AmbiguousComponentError) as caught:
        tl.component("Jetson Orin")  # the boards: three tags, other hosts
    for tag in ("jetson-agx-orin-32gb", "jetson-agx-orin-64gb", "jetson-orin-nano"):
        assert tag in caught.value.message
    # torch's name of a Jetson's GPU is its chip: the GPU of every board of it
    assert tl.component("Orin").name == tl.component("nvidia/jetson-orin-nano").target.attrs["arch"]
    assert tl.component("Xavier").name == tl.component("nvidia/jetson-agx-xavier").target.attrs["arch"]
    assert tl.component("AMD Instinct MI300X VF").name == "AMD Instinct MI300X"


def test_a_gfx_name_is_llvms_processor() -> None:
    """rocminfo's ``Name: gfx90a`` (and its ISA name) is the processor's component: the
    target of every product that has it, ``rocm -mcpu=gfx90a``; LLVM's aliases are too."""
    for printed in ("gfx90a:sramecc+:xnack-", "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
                    "gfx90a"):
        found = tl.component(printed)
        assert found.name == "gfx90a" and found.target.kind == "rocm"
        assert found.target.attrs["mcpu"] == "gfx90a"
    for product in ("AMD Instinct MI250X", "AMD Instinct MI250", "AMD Instinct MI210"):
        assert tl.component(product).target == tl.component("gfx90a").target
    assert tl.component("tahiti").name == "gfx600"  # an alias LLVM takes for -mcpu
    assert tl.component("gfx1201").target.attrs["mcpu"] == "gfx1201"  # RDNA4: no product yet
    with pytest.raises(UnknownComponentError) as caught:
        tl.component("gfx9999")
    assert "architecture" in caught.value.message


def test_readings_are_round_four_and_given_names_keep_their_rounds() -> None:
    assert find("Tesla V100-SXM2-16GB")[1] == 4
    assert find("NVIDIA GeForce RTX 3090")[1] in (1, 2)  # as given: no reading needed
    assert find("Raspberry Pi 4 Model B Rev 1.4")[1] == 4


def test_the_rule_table_is_plain_data() -> None:
    stages = [stage for stage, _ in PRINTED_NAME_RULES]
    assert len(stages) == len(set(stages)) == 4
    for _, rules in PRINTED_NAME_RULES:
        for pattern, replacement in rules:
            assert isinstance(pattern, str) and isinstance(replacement, str)
