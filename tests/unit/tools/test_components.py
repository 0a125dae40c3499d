"""The component database: every tag, GPU products with sourced architectures, CPU names."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ORACLE_TVM021, REPO

import targetlang as tl
from targetlang.configuration import presets
from targetlang.configuration.components import (
    AmbiguousComponentError,
    Component,
    UnknownComponentError,
    component_names,
    find,
    normal,
)

FACTS = json.loads((REPO / "targetlang" / "_data" / "components.json").read_text("utf-8"))
MIRRORS = REPO.parent / ".mirror"

#: Product and board names as people write them, and the component each names. Each such
#: component's architecture is checked against its source below (TVM's tag, or the row of
#: NVIDIA's or AMD's table), so the table says only which name means which product.
PRODUCTS = [
    # NVIDIA data centre (TVM's tags; the CUTLASS table for the newer ones)
    ("A100", "nvidia/nvidia-a100"), ("NVIDIA A100", "nvidia/nvidia-a100"),
    ("a10g", "nvidia/nvidia-a10g"), ("A10", "nvidia/nvidia-a10"), ("A30", "nvidia/nvidia-a30"),
    ("A40", "nvidia/nvidia-a40"), ("A2", "nvidia/nvidia-a2"), ("A16", "nvidia/nvidia-a16"),
    ("T4", "nvidia/nvidia-t4"), ("Quadro K620", "nvidia/quadro-k620"), ("V100", "nvidia/nvidia-v100"),
    ("GeForce GT 730", "nvidia/geforce-gt-730"), ("H100", "nvidia/nvidia-h100"),
    ("B100", "nvidia/nvidia-b100"), ("Tesla P100", "nvidia/tesla-p100"),
    ("Tesla P40", "nvidia/tesla-p40"), ("Tesla K80", "nvidia/tesla-k80"),
    ("Tesla M60", "nvidia/tesla-m60"), ("H200", "NVIDIA H200"), ("L40", "NVIDIA L40"),
    ("B200", "NVIDIA B200"), ("B300", "NVIDIA B300"), ("DGX Spark", "NVIDIA DGX Spark"),
    ("DRIVE Thor", "NVIDIA DRIVE Thor"), ("L4", "NVIDIA L4"), ("NVIDIA GB10", "NVIDIA GB10 (DGX Spark)"),
    ("RTX 4080", "NVIDIA GeForce RTX 4080"), ("RTX 4070 Ti SUPER", "NVIDIA GeForce RTX 4070 Ti SUPER"),
    ("GeForce RTX 5090", "NVIDIA GeForce RTX 5090"), ("RTX 3050", "NVIDIA GeForce RTX 3050"),
    ("GTX 1650 Ti", "NVIDIA GeForce GTX 1650 Ti"), ("RTX A5000", "NVIDIA RTX A5000"),
    ("RTX PRO 6000 Blackwell", "NVIDIA RTX PRO 6000 Blackwell"), ("T600", "NVIDIA T600"),
    ("Quadro P520", "nvidia/p520"), ("NVS 810", "nvidia/nvidia-nvs-810"),
    # NVIDIA GeForce, Titan, Quadro, RTX
    ("rtx 3080", "nvidia/geforce-rtx-3080"), ("GeForce RTX 3080", "nvidia/geforce-rtx-3080"),
    ("RTX 3080 Ti", "nvidia/geforce-rtx-3080-ti"), ("RTX 3090", "nvidia/geforce-rtx-3090"),
    ("rtx-3070", "nvidia/geforce-rtx-3070"), ("RTX 3060", "nvidia/geforce-rtx-3060"),
    ("RTX 4090", "nvidia/geforce-rtx-4090"), ("RTX 2080 Ti", "nvidia/geforce-rtx-2080-ti"),
    ("RTX 2060", "nvidia/geforce-rtx-2060"), ("GeForce GTX 1080 Ti", "nvidia/geforce-gtx-1080-ti"),
    ("GeForce GTX 1070", "nvidia/geforce-gtx-1070"), ("GTX 1060", "nvidia/geforce-gtx-1060"),
    ("GTX 980", "nvidia/geforce-gtx-980"), ("GTX 750 Ti", "nvidia/geforce-gtx-750-ti"),
    ("Titan V", "nvidia/nvidia-titan-v"), ("TITAN RTX", "nvidia/nvidia-titan-rtx"),
    ("Titan Xp", "nvidia/nvidia-titan-xp"), ("Quadro RTX 8000", "nvidia/quadro-rtx-8000"),
    ("Quadro P6000", "nvidia/quadro-p6000"), ("Quadro GV100", "nvidia/quadro-gv100"),
    ("RTX A6000", "nvidia/rtx-a6000"),
    # NVIDIA boards
    ("Jetson Nano", "nvidia/jetson-nano"), ("jetson orin nano", "nvidia/jetson-orin-nano"),
    ("Jetson AGX Xavier", "nvidia/jetson-agx-xavier"), ("jetson tx2", "nvidia/jetson-tx2"),
    ("Jetson TX1", "nvidia/jetson-tx1"), ("Jetson AGX Orin 64GB", "nvidia/jetson-agx-orin-64gb"),
    ("Tegra X1", "nvidia/tegra-x1"),
    # Other boards and machines
    ("raspberry pi 4", "raspberry-pi/4b-aarch64"), ("Raspberry Pi 4B", "raspberry-pi/4b-aarch64"),
    ("Apple M1 GPU", "apple/m1-gpu"), ("apple m2 gpu", "apple/m2-gpu"),
    ("c5.xlarge", "aws/cpu/c5.xlarge"), ("AWS c5.24xlarge", "aws/cpu/c5.24xlarge"),
    # TVM's arm_cpu() boards and phones
    ("rasp3b", "arm_cpu/rasp3b"), ("rasp4b64", "arm_cpu/rasp4b64"), ("Pixel 2", "arm_cpu/pixel2"),
    ("Mate 10 Pro", "arm_cpu/mate10pro"), ("P20", "arm_cpu/p20"), ("RK3399", "arm_cpu/rk3399"),
    ("Ultra96", "arm_cpu/ultra96"), ("PYNQ", "arm_cpu/pynq"), ("STM32MP1", "arm_cpu/stm32mp1"),
    # AMD (ROCm's table)
    ("MI300X", "AMD Instinct MI300X"), ("AMD Instinct MI250X", "AMD Instinct MI250X"),
    ("MI250", "AMD Instinct MI250"), ("mi210", "AMD Instinct MI210"),
    ("MI100", "AMD Instinct MI100"), ("MI325X", "AMD Instinct MI325X"),
    ("MI300A", "AMD Instinct MI300A"), ("MI60", "AMD Instinct MI60"),
    ("Radeon RX 7900 XTX", "AMD Radeon RX 7900 XTX"), ("rx 7900 xt", "AMD Radeon RX 7900 XT"),
    ("RX 6900 XT", "AMD Radeon RX 6900 XT"), ("RX 6800", "AMD Radeon RX 6800"),
    ("Radeon VII", "AMD Radeon VII"), ("Radeon PRO W7900", "AMD Radeon PRO W7900"),
    ("W6800", "AMD Radeon PRO W6800"), ("Radeon Pro VII", "AMD Radeon Pro VII"),
]

CPUS = [("cortex-a72", "aarch64-linux-gnu"), ("Cortex A53", "aarch64-linux-gnu"),
        ("neoverse-v2", "aarch64-linux-gnu"), ("carmel", "aarch64-linux-gnu"),
        ("skylake", "x86_64-linux-gnu"), ("skylake-avx512", "x86_64-linux-gnu"),
        ("znver3", "x86_64-linux-gnu"), ("cortex-a9", "armv7l-linux-gnueabihf")]


def _product_names() -> set[str]:
    return {query for query, _ in PRODUCTS}


def test_the_list_holds_at_least_sixty_real_products() -> None:
    assert len({canonical for _, canonical in PRODUCTS}) >= 60
    assert len(_product_names()) == len(PRODUCTS)


@pytest.mark.parametrize(("query", "canonical"), PRODUCTS)
def test_product_names_resolve_to_their_component(query: str, canonical: str) -> None:
    found = tl.component(query)
    assert found.name == canonical
    entry, _ = find(query)
    assert entry.sources  # every answer says where it comes from
    tags = tl.tags()
    if canonical in tags:
        assert found.target == tags[canonical]
    elif canonical.startswith("arm_cpu/"):
        assert found.target == presets.arm_cpu(canonical.split("/")[1])
        assert entry.sources[0]["model"] == canonical.split("/")[1]
    else:
        row = next(r for r in FACTS["products"] if r["name"] == canonical)
        assert found.target == tl.from_json(row["target"])
        assert len(entry.sources) == len(row["sources"])
        for source, cite in zip(entry.sources, row["sources"]):
            assert source["url"].startswith(f"https://github.com/{source['repo']}/blob/")
            assert source["line"] == cite["line"]


def test_the_issue_examples() -> None:
    assert tl.component("A100").target.attrs["arch"] == "sm_80"
    assert tl.component("jetson orin nano").target.attrs["arch"] == "sm_87"
    assert tl.component("rtx 3080") == tl.component("GeForce RTX 3080")
    assert tl.component("rtx 3080").target.attrs["arch"] == "sm_86"
    assert tl.component("raspberry pi 4").target.attrs["mcpu"] == "cortex-a72"
    assert tl.component("MI250X").target.attrs["mcpu"] == "gfx90a"
    cpu = tl.component("cortex-a72")
    assert cpu.target == tl.parse("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72")
    assert cpu.properties == {"os": "linux"}
    assert tl.component("pixel 2").properties == {"os": "android"}


@pytest.mark.parametrize(("query", "triple"), CPUS)
def test_cpu_names_are_llvm_targets(query: str, triple: str) -> None:
    found = tl.component(query)
    assert found.target.kind == "llvm"
    assert found.target.attrs["mtriple"] == triple
    assert normal(str(found.target.attrs["mcpu"])) == normal(query)


def test_every_tag_is_a_component_under_its_own_name() -> None:
    for name, target in tl.tags().items():
        found = tl.component(name)
        assert found.name == name and found.target == target
        for spelling in (name.upper(), name.replace("-", " "), name.replace("-", "_")):
            assert tl.component(spelling).name == name


def test_every_tag_leaf_resolves_or_is_refused_as_ambiguous_naming_it() -> None:
    """A tag's last part names that tag, or a tag of the same target that states more of it
    (``gtx1080ti`` is ``nvidia/geforce-gtx-1080-ti``), or is refused listing the tag."""
    for name in tl.tags():
        leaf = name.rsplit("/", 1)[-1]
        try:
            found = tl.component(leaf)
        except AmbiguousComponentError as error:
            assert name in error.message
            continue
        if found.name != name:
            own = tl.component(name).target
            assert found.target.kind == own.kind
            shared = own.attrs.keys() & found.target.attrs.keys()
            assert all(own.attrs[k] == found.target.attrs[k] for k in shared), leaf
            assert len(found.target.attrs) >= len(own.attrs), leaf


@pytest.mark.parametrize("dialect", ["tvm-0.22", "tvm-0.27"])
def test_other_dialects_use_their_own_tags(dialect: str) -> None:
    for name, target in tl.tags(dialect=dialect).items():
        found = tl.component(name, dialect=dialect)
        assert found.target == target and found.target.dialect == dialect


@pytest.mark.parametrize("dialect", ["tvm-0.21", "tvm-0.22", "tvm-0.27"])
def test_every_product_row_resolves_by_its_full_name_with_its_architecture(dialect: str) -> None:
    for row in FACTS["products"]:
        found = tl.component(row["name"], dialect=dialect)
        if "tag" in row:
            assert found.name == row["tag"]
        else:  # itself, or a tag a newer release added (tvm-0.22: nvidia/geforce-rtx-5060-ti)
            assert found.name == row["name"] or found.name in tl.tags(dialect=dialect)
        expected = row["target"]
        attr = "arch" if expected["kind"] == "cuda" else "mcpu"
        assert str(found.target.attrs[attr]).startswith(expected[attr])


def test_every_product_row_cites_its_sources() -> None:
    for row in FACTS["products"]:
        assert row["sources"]
        for cite in row["sources"]:
            source = FACTS["sources"][cite["source"]]
            assert len(source["commit"]) == 40 and source["url"].endswith(source["path"])
            assert cite["line"] > 0 and cite["row"]


def test_ambiguous_names_list_the_candidates() -> None:
    with pytest.raises(AmbiguousComponentError) as caught:
        tl.component("RTX 6000")  # the Ada RTX 6000 (sm_89) and the Quadro RTX 6000 (sm_75)
    assert "NVIDIA RTX 6000" in caught.value.message
    assert "nvidia/quadro-rtx-6000" in caught.value.message
    with pytest.raises(AmbiguousComponentError) as caught:
        tl.component("jetson orin")  # three boards: their hosts differ
    for tag in ("jetson-agx-orin-32gb", "jetson-agx-orin-64gb", "jetson-orin-nano"):
        assert f"nvidia/{tag}" in caught.value.message
    assert isinstance(caught.value, tl.TargetError)


def test_names_of_one_target_are_not_ambiguous() -> None:
    """Names that denote the same target resolve to one of them, chosen by rule: the one
    that states the most of the target, else the architecture's component, else the first
    in the database's order."""
    # TVM registers two tags of the GTX 1080 Ti; only one states its limits
    assert tl.component("GTX 1080 Ti").name == "nvidia/geforce-gtx-1080-ti"
    assert tl.component("gtx1080ti").name == "nvidia/geforce-gtx-1080-ti"
    assert tl.component("nvidia/gtx1080ti").name == "nvidia/gtx1080ti"  # a full tag is itself
    # two tags of the Quadro RTX 4000 that state the same: the first
    assert tl.component("rtx 4000").name == "nvidia/quadro-rtx-4000"
    # an MI50 of 16 or of 32 GB, a Radeon VII or a Radeon Pro VII: all rocm -mcpu=gfx906
    assert tl.component("MI50").name == "gfx906"
    assert tl.component("vii").name == "gfx906"


def test_unknown_names_suggest_the_closest() -> None:
    with pytest.raises(UnknownComponentError) as caught:
        tl.component("rtx 3o80")
    assert "did you mean 'nvidia/geforce-rtx-3080'" in caught.value.message
    with pytest.raises(AmbiguousComponentError) as caught:
        tl.component("jetson orin")  # a family: Orin Nano, AGX Orin 32GB, AGX Orin 64GB
    for tag in ("nvidia/jetson-orin-nano", "nvidia/jetson-agx-orin-32gb",
                "nvidia/jetson-agx-orin-64gb"):
        assert tag in caught.value.message
    for name in ("", "generic", "no such gpu", "geforce rtx 30x0 series"):
        with pytest.raises(UnknownComponentError):
            tl.component(name)
    with pytest.raises(tl.TargetError):
        tl.component(3)  # type: ignore[arg-type]


def test_round_three_drops_only_a_revision_letter() -> None:
    assert find("raspberry pi 4")[1] == 3
    assert find("raspberry pi 4b")[1] == 2
    with pytest.raises(UnknownComponentError):
        tl.component("raspberry pi")  # no digit to revise
    with pytest.raises(UnknownComponentError):
        tl.component("GeForce 410")  # not the mobile GeForce 410M
    with pytest.raises(AmbiguousComponentError) as caught:
        tl.component("GT 640")  # its two memory variants, never the mobile GT 640M
    assert "gt-640-gddr3" in caught.value.message and "gt-640-gddr5" in caught.value.message
    assert "640m" not in caught.value.message


def test_component_names_are_unique_under_normalisation_within_a_round() -> None:
    names = component_names()
    assert len(names) == len(set(names)) > 400
    assert {find(n)[0].name for n in names if not n.startswith("AMD Instinct MI50 ")} >= \
        set(tl.tags())


def test_component_value() -> None:
    gpu = tl.component("rtx 3080")
    assert isinstance(gpu, Component)
    same = Component(gpu.name, gpu.target.to_json())
    assert same == gpu and hash(same) == hash(gpu)
    linux = gpu.with_properties(os="linux")
    assert linux.properties == {"os": "linux"} and linux != gpu
    assert linux.with_properties(os=None) == gpu
    assert Component.from_target(tl.parse("cuda")).name == "cuda -keys=cuda,gpu " \
        "-max_num_threads=1024 -thread_warp_size=32"
    assert pickle.loads(pickle.dumps(linux)) == linux
    with pytest.raises(AttributeError):
        gpu._name = "x"  # type: ignore[misc]
    with pytest.raises(tl.ConfigError) as caught:
        gpu.with_properties({"os": 3})
    assert caught.value.path == "properties.os"
    with pytest.raises(tl.ConfigError) as caught:
        gpu.with_properties({"memory": {"size": object()}})
    assert caught.value.path == "properties.memory.size"
    assert gpu.with_properties("Linux").properties == {"os": "Linux"}


def test_generated_data_is_up_to_date() -> None:
    mirrors = [MIRRORS / name / "repo" for name in ("NVIDIA+cutlass", "ollama+ollama",
                                                     "ROCm+ROCm")]
    if not all((m / "HEAD").exists() for m in mirrors) or not ORACLE_TVM021.exists():
        pytest.skip("needs git mirrors of NVIDIA/cutlass, ollama/ollama and ROCm/ROCm and the "
                    "TVM 0.21 oracle (scripts/generate_components.py)")
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "generate_components.py"),
                           "--check"], capture_output=True, text=True, check=False,
                          env={**os.environ})
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_data_file_holds_the_three_tables() -> None:
    path = Path(REPO / "targetlang" / "_data" / "components.json")
    assert path.read_text("utf-8").endswith("\n")
    assert {c["source"] for row in FACTS["products"] for c in row["sources"]} == {
        "nvidia-cutlass", "nvidia-ollama", "amd-rocm"}
    assert len(FACTS["products"]) >= 150


@pytest.mark.oracle
def test_tvm_reads_every_product_and_cpu_component_as_we_do() -> None:
    query = REPO.parent / "shared" / "oracle" / "query.py"
    if not query.exists():
        pytest.skip("no oracle query script (../shared/oracle/query.py)")
    entries = [find(name)[0] for name in component_names()]
    built = [e for e in entries if e.origin != "tag"]  # tags are TVM's own
    lines = [json.dumps({"target": json.dumps(e.target.to_json())}) for e in built]
    done = subprocess.run([str(ORACLE_TVM021), str(query), "--timeout", "30"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=900, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(built) > 200
    for entry, answer in zip(built, answers):
        assert answer["ok"], (entry.name, answer)
        assert answer["export"] == entry.target.to_json(), entry.name
