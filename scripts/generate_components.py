"""Generate the component database's facts: GPU products and their architectures, CPU names.

    python3 scripts/generate_components.py            # writes targetlang/_data/components.json
    python3 scripts/generate_components.py --check    # exit 1 if the committed file differs

Every row names its source (repository, path, commit, line, and the row as the source wrote
it); nothing is typed in here. The sources:

* NVIDIA's CUTLASS README, table "Hardware" (GPU, CUDA compute capability), from a git
  mirror of NVIDIA/cutlass (``$TARGETLANG_CUTLASS_GIT``, default ``$TARGETLANG_MIRRORS/NVIDIA+cutlass/
  repo``). Compute capability X.Y is CUDA's ``sm_XY``. Rows that name a series ("GeForce RTX
  30x0 series") are families, not products, and are left out. The marketing suffix " Tensor
  Core GPU" is not part of a product's name.
* Ollama's hardware-support page (``docs/gpu.mdx``), table "Compute Capability | Family |
  Cards": a transcription of NVIDIA's CUDA GPUs list (developer.nvidia.com/cuda-gpus), from
  a git mirror of ollama/ollama (``$TARGETLANG_OLLAMA_GIT``, default
  ``$TARGETLANG_MIRRORS/ollama+ollama/repo``). A card is named "NVIDIA", its family's brand
  (GeForce, Quadro, Tesla) unless the card's name starts with a brand of its own (TITAN,
  Quadro, Tesla, NVS), and the card. An empty capability cell continues the row above; a
  row's citation gives the capability it read.
* AMD's ROCm documentation, "Accelerator and GPU hardware specifications" (Model, LLVM target
  name), from a git mirror of ROCm/ROCm (``$TARGETLANG_ROCM_GIT``, default
  ``$TARGETLANG_MIRRORS/ROCm+ROCm/repo``). A product is named by the table's brand (its tab: "AMD
  Instinct accelerators" rows are "AMD Instinct <Model>"; the Radeon tables' models already
  start with "Radeon") and its row's Model.
* TVM 0.21's registered tags (their exports in ``targetlang/_data/releases/tvm-0.21.json``,
  recorded from TVM itself):
  a table row that names the product of a tag (the same words, without regard to case,
  spaces, ``-`` and ``_``) is recorded as a second source of that tag, and its architecture
  must agree with the tag's (``sm_90`` and ``sm_90a`` agree: the same compute capability).
* TVM 0.21's ``arm_cpu(model)`` boards and phones (``targetlang/_data/presets.json``) are
  read by the library itself; this file only names that source.
* CPU names: the AArch64 and Arm CPUs of ``targetlang/_data/arm-features.json`` (LLVM's
  tables, recorded from TVM 0.21), and the x86 CPUs that TVM 0.21's LLVM accepts
  (``llvm_get_cpu_archlist``), asked of the TVM 0.21 oracle
  (``$TARGETLANG_ORACLE_DIR/bin/tvm021-python``, default ``~/.cache/targetlang-oracle``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from shelf import DATA, MIRRORS, RELEASES_DATA, oracle_python, write_or_check

# The library's own rule for which tag a product name names.
from targetlang.configuration.components import product_tags, tag_names_index

OUTPUT = DATA / "components.json"
CUTLASS_GIT = Path(os.environ.get("TARGETLANG_CUTLASS_GIT", MIRRORS / "NVIDIA+cutlass" / "repo"))
ROCM_GIT = Path(os.environ.get("TARGETLANG_ROCM_GIT", MIRRORS / "ROCm+ROCm" / "repo"))
ORACLE_PYTHON = oracle_python("0.21")

OLLAMA_GIT = Path(os.environ.get("TARGETLANG_OLLAMA_GIT", MIRRORS / "ollama+ollama" / "repo"))
CUTLASS_PATH = "README.md"
OLLAMA_PATH = "docs/gpu.mdx"
ROCM_PATH = "docs/reference/gpu-arch-specs.rst"
#: The x86 triple of CPU components (documented in targetlang/components.py).
X86_TRIPLE = "x86_64-linux-gnu"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True,
                          capture_output=True, text=True).stdout


def _source(key: str, repo: Path, github: str, path: str) -> tuple[dict[str, str], str]:
    commit = _git(repo, "rev-parse", "HEAD").strip()
    text = _git(repo, "show", f"{commit}:{path}")
    return {"repo": github, "path": path, "commit": commit,
            "url": f"https://github.com/{github}/blob/{commit}/{path}"}, text


def _normal(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name).casefold()


def nvidia_rows(text: str) -> list[dict[str, Any]]:
    """The CUTLASS README's hardware table: GPU and compute capability, one row per line."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if "**CUDA Compute Capability**" in line)
    rows = []
    for number in range(start + 2, len(lines)):
        line = lines[number]
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        gpu, capability = cells[0], cells[1]
        if re.search(r"\bseries\b", gpu):
            continue  # a family of products, not one product
        major, minor = re.fullmatch(r"(\d+)\.(\d+)", capability).groups()  # type: ignore[union-attr]
        name = re.sub(r"\s+Tensor Core GPU$", "", gpu)
        rows.append({"name": name, "target": {"kind": "cuda", "arch": f"sm_{major}{minor}"},
                     "line": number + 1, "row": line.strip()})
    return rows


#: Words a card's name may start with that already say its brand.
_CARD_BRANDS = ("TITAN", "Quadro", "Tesla", "NVS")


def ollama_rows(text: str) -> list[dict[str, Any]]:
    """Ollama's NVIDIA table: each card of each row, with the row's compute capability."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines)
                 if re.match(r"\|\s*Compute Capability\s*\|\s*Family\s*\|\s*Cards", line))
    rows = []
    capability = ""
    for number in range(start + 2, len(lines)):
        line = lines[number]
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        capability = cells[0] or capability
        major, minor = re.fullmatch(r"(\d+)\.(\d+)", capability).groups()  # type: ignore[union-attr]
        family = cells[1]
        brand = next((b for b in ("GeForce", "Quadro", "Tesla") if family.startswith(b)), "")
        for card in re.findall(r"`([^`]+)`", cells[2]):
            own = card.split()[0] in _CARD_BRANDS
            name = " ".join(p for p in ("NVIDIA", "" if own else brand, card) if p)
            rows.append({"name": name, "target": {"kind": "cuda", "arch": f"sm_{major}{minor}"},
                         "line": number + 1, "row": f"{capability} | {family} | {card}"})
    return rows


def amd_rows(text: str) -> list[dict[str, Any]]:
    """Each list-table row of ROCm's specification tables: Model and LLVM target name."""
    lines = text.split("\n")
    rows = []
    brand = ""
    for number, line in enumerate(lines):
        tab = re.fullmatch(r"\s*\.\. tab-item:: (.*)", line)
        if tab:
            brand = tab.group(1)
        if line.strip() != "*":
            continue
        cells = []
        for follow in lines[number + 1:number + 4]:
            cell = re.fullmatch(r"\s*- ?(.*)", follow)
            assert cell is not None, follow
            cells.append(cell.group(1).strip())
        model, _, llvm = cells
        if model == "Model":
            assert llvm == "LLVM target name", cells
            continue
        assert re.fullmatch(r"gfx[0-9a-f]+", llvm), cells
        if brand == "AMD Instinct accelerators":
            name = f"AMD Instinct {model}"
        else:
            assert model.startswith("Radeon"), (brand, model)
            name = f"AMD {model}"
        rows.append({"name": name, "target": {"kind": "rocm", "mcpu": llvm},
                     "line": number + 2, "row": f"{model} | {cells[1]} | {llvm}"})
    return rows


def _compatible(table: dict[str, Any], tag: dict[str, Any]) -> bool:
    if table["kind"] != tag.get("kind"):
        return False
    if table["kind"] == "cuda":
        return bool(re.fullmatch(re.escape(table["arch"]) + "a?", str(tag.get("arch"))))
    return bool(table.get("mcpu") == tag.get("mcpu"))


def attach_tags(rows: list[dict[str, Any]], tags: dict[str, Any], source: str) -> None:
    """Rows that name a tag's product become second sources of that tag (arch checked).

    A row names a tag when its words are the tag's last part, alone or after the tag's
    vendor (``NVIDIA GeForce RTX 3080`` and ``nvidia/geforce-rtx-3080``), else when they are
    once their leading brand words are dropped (``NVIDIA Quadro P520`` and ``nvidia/p520``).
    """
    index = tag_names_index(list(tags))
    for row in rows:
        found = product_tags(row["name"], index)
        assert len(found) <= 1, (row, found)
        if found:
            tag = found[0]
            if not _compatible(row["target"], tags[tag]):
                raise SystemExit(f"{source} line {row['line']}: {row['name']} is "
                                 f"{row['target']}, but TVM's tag {tag} says {tags[tag]}")
            row["tag"] = tag


def merge(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One product per name (its words, without regard to case): sources that name the same
    product must agree on its target."""
    products: dict[str, dict[str, Any]] = {}
    for row in rows:
        key = _normal(row["name"])
        cite = {"source": row["source"], "line": row["line"], "row": row["row"]}
        if key not in products:
            products[key] = {"name": row["name"], **({"tag": row["tag"]} if "tag" in row else {}),
                             "target": row["target"], "sources": [cite]}
            continue
        known = products[key]
        if known["target"] != row["target"]:
            raise SystemExit(f"{row['source']} line {row['line']}: {row['name']} is "
                             f"{row['target']}, but {known['sources'][0]['source']} says "
                             f"{known['target']}")
        known["sources"].append(cite)
    return list(products.values())


def x86_cpus() -> list[str]:
    if not ORACLE_PYTHON.exists():
        raise SystemExit(f"no TVM 0.21 oracle at {ORACLE_PYTHON} (set TARGETLANG_ORACLE_DIR)")
    probe = ("import json, tvm\n"
             "from tvm.target import _ffi_api as ffi\n"
             f"t = tvm.target.Target({{'kind': 'llvm', 'mtriple': '{X86_TRIPLE}'}})\n"
             "print(json.dumps(sorted(str(c) for c in ffi.llvm_get_cpu_archlist(t))))\n")
    out = subprocess.run([str(ORACLE_PYTHON), "-c", probe], check=True, capture_output=True,
                         text=True).stdout
    return list(json.loads(out.strip().splitlines()[-1]))


def build() -> dict[str, Any]:
    tvm = json.loads((RELEASES_DATA / "tvm-0.21.json").read_text("utf-8"))
    arm = json.loads((DATA / "arm-features.json").read_text("utf-8"))
    sources: dict[str, Any] = {}
    products: list[dict[str, Any]] = []
    for key, repo, github, path, reader in (
            ("nvidia-cutlass", CUTLASS_GIT, "NVIDIA/cutlass", CUTLASS_PATH, nvidia_rows),
            ("nvidia-ollama", OLLAMA_GIT, "ollama/ollama", OLLAMA_PATH, ollama_rows),
            ("amd-rocm", ROCM_GIT, "ROCm/ROCm", ROCM_PATH, amd_rows)):
        if not (repo / "HEAD").exists():
            raise SystemExit(f"no git mirror of {github} at {repo}")
        info, text = _source(key, repo, github, path)
        sources[key] = info
        rows = reader(text)
        attach_tags(rows, tvm["tag_exports"], github)
        products += [{**row, "source": key} for row in rows]
    products = merge(products)
    sources["tvm-tags"] = {"what": "TVM 0.21's registered tags",
                           "file": "targetlang/_data/releases/tvm-0.21.json",
                           "recorded": f"{tvm['tag_exports_from']}, by scripts/generate_releases.py"}
    sources["tvm-presets"] = {"what": "TVM 0.21's arm_cpu() model table",
                              "file": "targetlang/_data/presets.json",
                              "recorded": "scripts/generate_config_data.py"}
    sources["llvm-arm"] = {"what": "LLVM's AArch64 and Arm CPU names", "file":
                           "targetlang/_data/arm-features.json", "recorded": arm["source"]}
    sources["llvm-x86"] = {"what": "LLVM's x86 CPU names (llvm_get_cpu_archlist)",
                           "recorded": f"TVM {arm['tvm_version']} oracle (LLVM "  # the same oracle
                                       f"{str(arm['llvm_version']).split('.')[0]}), by scripts/generate_components.py"}
    cpus = {
        "aarch64": {"triple": "aarch64-linux-gnu", "source": "llvm-arm",
                    "names": sorted(arm["targets"]["aarch64"]["cpus"])},
        "arm": {"triple": "armv7l-linux-gnueabihf", "source": "llvm-arm",
                "names": sorted(arm["targets"]["arm"]["cpus"])},
        "x86_64": {"triple": X86_TRIPLE, "source": "llvm-x86", "names": x86_cpus()},
    }
    return {"about": "The component database's facts; generated by "
                     "scripts/generate_components.py (each row names its source)",
            "sources": sources, "products": products, "cpus": cpus}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    return write_or_check(OUTPUT, text, check=args.check, source="its sources")


if __name__ == "__main__":
    sys.exit(main())
