"""``targetlang arch`` and ``targetlang component``: output, JSON, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import cli_main

import targetlang as tl
from targetlang.configuration.components import component_names

SEED = {"components": [{"name": "skylake", "properties": {"os": "linux"}},
                       {"name": "rtx 3080", "label": "gpu0"},
                       {"name": "rtx 3080", "label": "gpu1"}],
        "connections": [[0, "gpu0", "uni-directional"], [0, "gpu1", "uni-directional"]]}


def test_arch_reads_standard_input_and_shows_the_views() -> None:
    code, out, err = cli_main("arch", stdin=json.dumps(SEED))
    assert (code, err) == (0, "")
    gpu = tl.component("rtx 3080").target
    cpu = tl.component("skylake").target
    assert f"  device gpu0: {gpu}\n" in out
    assert f"  device gpu1, host 0: {gpu.with_host(cpu)}\n" in out
    assert "  packaged: host " + str(cpu) + "; devices gpu0, gpu1;" in out
    assert "  0 -> gpu0\n" in out


def test_arch_reads_the_seed_as_written_identical_gpus_by_index() -> None:
    """``[X86_64_type1, NVIDIA_GPU_type1, NVIDIA_GPU_type1]``, the GPUs as nvidia-smi prints
    them, connected by index: each GPU is named by its index."""
    seed = {"components": ["skylake", "NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB"],
            "connections": [[0, 1, "uni-directional"], [0, 2, "uni-directional"]]}
    code, out, err = cli_main("arch", stdin=json.dumps(seed))
    assert (code, err) == (0, "")
    gpu, cpu = tl.component("A100").target, tl.component("skylake").target
    assert "  1: nvidia/nvidia-a100\n" in out and "  2: nvidia/nvidia-a100\n" in out
    assert "  0 -> 1\n  0 -> 2\n" in out
    assert f"  device 2, host 0: {gpu.with_host(cpu)}\n" in out
    code, document, _ = cli_main("arch", "--json", stdin=json.dumps(seed))
    assert code == 0 and json.loads(document)["connections"] == seed["connections"]


def test_arch_json_is_the_canonical_document(tmp_path: Path) -> None:
    path = tmp_path / "system.json"
    path.write_text(json.dumps(SEED), encoding="utf-8")
    code, out, err = cli_main("arch", "--json", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out) == tl.Architecture.from_json(SEED).to_json()
    code, again, _ = cli_main("arch", "--json", "-", stdin=out)
    assert (code, again) == (0, out)


def test_arch_exit_codes(tmp_path: Path) -> None:
    bad = {**SEED, "connections": [[0, "gpu2", "uni-directional"]]}
    code, out, err = cli_main("arch", "-", stdin=json.dumps(bad))
    assert (code, out) == (1, "")
    assert err.startswith('error: connections[0][1]: no component labelled "gpu2"')
    code, _, err = cli_main("arch", stdin="{not json")
    assert code == 1 and err.startswith("error: not JSON")
    code, _, err = cli_main("arch", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err
    code, _, _ = cli_main("arch", "a", "b")
    assert code == 2


def test_arch_says_when_nothing_can_be_packaged() -> None:
    document = {"components": ["A100", "H200"]}
    code, out, _ = cli_main("arch", stdin=json.dumps(document))
    assert code == 0 and "  (none)\n" in out and "  packaged: none (" in out


def test_component_lookup_text_and_json() -> None:
    code, out, err = cli_main("component", "A100", "raspberry pi 4")
    assert (code, err) == (0, "")
    assert out.startswith("nvidia/nvidia-a100 (tag): cuda arch=sm_80\n")
    assert "raspberry-pi/4b-aarch64 (tag): llvm mcpu=cortex-a72\n" in out
    assert "source: https://github.com/NVIDIA/cutlass/blob/" in out
    code, out, _ = cli_main("component", "--json", "H200")
    found = json.loads(out)
    assert code == 0 and found["name"] == "NVIDIA H200"
    assert found["target"] == tl.component("H200").target.to_json()
    assert found["sources"][0]["repo"] == "NVIDIA/cutlass"
    code, out, _ = cli_main("component", "--json", "A100", "MI210")
    assert [f["name"] for f in json.loads(out)] == ["nvidia/nvidia-a100", "AMD Instinct MI210"]


def test_component_refusals_and_usage() -> None:
    code, out, err = cli_main("component", "RTX 6000", "T4")
    assert code == 1 and "is ambiguous" in err and out.startswith("nvidia/nvidia-t4 ")
    code, _, err = cli_main("component", "nonesuch gpu")
    assert code == 1 and err.startswith("error: unknown component 'nonesuch gpu'")
    code, _, _ = cli_main("component")
    assert code == 2
    code, _, _ = cli_main("component", "--dialect", "tvm-9", "A100")
    assert code == 2


def test_component_list() -> None:
    code, out, _ = cli_main("component", "--list")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(component_names())
    assert "nvidia/geforce-rtx-3080  (tag: cuda arch=sm_86)" in lines
    assert "AMD Instinct MI250X  (product: rocm mcpu=gfx90a)" in lines
    code, out, _ = cli_main("component", "--list", "--json", "--dialect", "tvm-0.27")
    listed = json.loads(out)
    assert code == 0 and set(tl.tags(dialect="tvm-0.27")) <= set(listed)


def test_arch_shows_a_view_that_cannot_be_built_without_failing() -> None:
    document = {"components": [{"target": "cuda --host apple/m1-gpu"}]}
    code, out, err = cli_main("arch", stdin=json.dumps(document))
    assert (code, err) == (0, "")
    assert "  device 0: none (host.host: the host has a host of its own)\n" in out
