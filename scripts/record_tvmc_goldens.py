#!/usr/bin/env python3
"""Record what tvmc's own target parser made of each case of tests/data/tvmc/cases.json.

    python3 scripts/record_tvmc_goldens.py            # writes tests/data/tvmc/golden.jsonl
    python3 scripts/record_tvmc_goldens.py --check    # exit 1 if tvmc now answers otherwise

tvmc was deleted in TVM 0.20, so no installable TVM has both tvmc and the target language of
TVM 0.21. This script runs tvmc's parser itself -- ``python/tvm/driver/tvmc/target.py`` at
TVM_TAG, read from TVM's git history (``shelf.TVM_GIT``,
``$TVM_GIT_DIR``) -- inside the TVM 0.21 oracle
(``$TARGETLANG_ORACLE_DIR/bin/tvm021-python``), so that the targets it builds are TVM 0.21's.
The modules tvmc imported and TVM 0.21 no longer has are stood in for: ``tvm.driver.tvmc``
(its ``TVMCException``) and ``tvm.driver.tvmc.composite_target``, whose codegen names are read
with ``ast`` from ``composite_target.py`` at the same tag. Nothing else of tvmc is involved:
``tokenize_target``, ``parse_target``, ``validate_targets`` and ``target_from_cli`` run as
written.

For each case (``text``, tvmc's per-kind ``options``), one line of golden.jsonl:
``tokens`` (``tokenize_target``), ``parse_target`` (``[{name, opts, is_tvm_target}]``) or
``parse_error``, and ``target_from_cli``: ``{target, target_str, host, extras}`` (exports as
plain JSON; ``extras`` as ``[{name, opts}]``) or ``cli_error`` (``[type, message]``; a
``TVMCException`` is how tvmc refused, anything else is how it crashed).
"""

from __future__ import annotations

import argparse
import ast
import datetime
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from shelf import ORACLE_DIR, REPO, oracle_env, tvm_file

DATA = REPO / "tests" / "data" / "tvmc"
ORACLE_PYTHON = ORACLE_DIR / "bin" / "tvm021-python"
SHARED = Path(os.environ.get("TARGETLANG_SHARED_DIR", REPO.parent / "shared"))
# The last release with every codegen of TVM's own tvmc tests (cmsis-nn, ethos-u, ethos-n).
TVM_TAG = "v0.18.0"

RUNNER = r'''
import importlib.util, json, sys, types
from query import plain  # PYTHONPATH: the shared oracle/ folder
import tvm
import tvm.driver
from tvm.target import Target

class TVMCException(Exception):
    """TVMC Exception"""

package = types.ModuleType("tvm.driver.tvmc")
package.__path__ = []
package.TVMCException = TVMCException
composite = types.ModuleType("tvm.driver.tvmc.composite_target")
composite.get_codegen_names = lambda: list(CODEGENS)
def get_codegen_by_target(name):
    if name not in CODEGENS:
        raise TVMCException("Composite target %s is not defined in TVMC." % name)
    return CODEGENS[name]
composite.get_codegen_by_target = get_codegen_by_target
package.composite_target = composite
sys.modules["tvm.driver.tvmc"] = package
sys.modules["tvm.driver.tvmc.composite_target"] = composite
tvm.driver.tvmc = package
target_py = types.ModuleType("tvm.driver.tvmc.target")
exec(compile(SOURCE, "tvm/driver/tvmc/target.py@" + TAG, "exec"), target_py.__dict__)

def error(e):
    return [type(e).__name__, str(e)[:500]]

for line in sys.stdin:
    case = json.loads(line)
    text, options = case["text"], case["options"]
    out = {"text": text, "options": options}
    try:
        out["tokens"] = target_py.tokenize_target(text)
    except Exception as e:
        out["tokens_error"] = error(e)
    try:
        out["parse_target"] = [{"name": c["name"], "opts": c["opts"], "is_tvm_target": c["is_tvm_target"]}
                               for c in target_py.parse_target(text)]
    except Exception as e:
        out["parse_error"] = error(e)
    try:
        target, extras = target_py.target_from_cli(text, json.loads(json.dumps(options)) if options else None)
        out["target_from_cli"] = {
            "target": plain(target, Target), "target_str": str(target),
            "host": plain(target.host, Target) if target.host is not None else None,
            "extras": [{"name": e["name"], "opts": e["opts"]} for e in extras]}
    except Exception as e:
        out["cli_error"] = error(e)
    print(json.dumps(out, sort_keys=True), flush=True)
'''


def codegen_table(tag: str) -> dict[str, dict[str, Any]]:
    """``REGISTERED_CODEGEN`` at ``tag`` without its functions (tvmc's parser reads only names)."""
    tree = ast.parse(tvm_file(tag, "python/tvm/driver/tvmc/composite_target.py"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and any(
                isinstance(t, ast.Name) and t.id == "REGISTERED_CODEGEN" for t in node.targets):
            table = {}
            for key, value in zip(node.value.keys, node.value.values):
                assert isinstance(key, ast.Constant) and isinstance(value, ast.Dict)
                table[key.value] = {k.value: ast.literal_eval(v) for k, v in
                                    zip(value.keys, value.values)
                                    if isinstance(k, ast.Constant) and not isinstance(v, ast.Name)}
            return table
    sys.exit("REGISTERED_CODEGEN not found")


def record(cases: list[dict[str, Any]]) -> list[str]:
    if not ORACLE_PYTHON.exists():
        sys.exit(f"no TVM 0.21 oracle at {ORACLE_PYTHON} (install with ../shared/oracle/install.sh)")
    program = (f"TAG = {TVM_TAG!r}\n"
               f"SOURCE = {tvm_file(TVM_TAG, 'python/tvm/driver/tvmc/target.py')!r}\n"
               f"CODEGENS = {codegen_table(TVM_TAG)!r}\n{RUNNER}")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(program)
    try:
        env = oracle_env(SHARED / "oracle", CUDA_VISIBLE_DEVICES="", HIP_VISIBLE_DEVICES="",
                         ROCR_VISIBLE_DEVICES="")
        done = subprocess.run([str(ORACLE_PYTHON), f.name], capture_output=True, text=True,
                              input="".join(json.dumps(c) + "\n" for c in cases), env=env,
                              timeout=600, check=False)
    finally:
        os.unlink(f.name)
    if done.returncode != 0:
        sys.exit(f"the oracle failed:\n{done.stderr[-3000:]}")
    lines = done.stdout.splitlines()
    assert len(lines) == len(cases), (len(lines), len(cases))
    return lines


PROVENANCE = """\
# tvmc goldens: provenance

`cases.json` holds tvmc target lists (`text`, tvmc's per-kind `options`) with where each
comes from: TVM's own tvmc tests and docs (at the tag named), and cases beyond them that
show what tvmc's tokenizer got wrong. `golden.jsonl` holds what tvmc's own parser made of
each, one line per case in the same order (fields in `scripts/record_tvmc_goldens.py`).

| | |
|---|---|
| recorded | {date} |
| tvmc | `python/tvm/driver/tvmc/target.py` at {tag} (TVM's git history), run unchanged |
| codegen names | `REGISTERED_CODEGEN` of `composite_target.py` at {tag}: {codegens} |
| TVM | {tvm} (the 0.21 oracle: `tvm.target.Target` for the TVM targets tvmc builds) |
| machine | GPUs hidden (`CUDA_VISIBLE_DEVICES` etc. empty): compare with `Environment.no_gpu()` |
| cases | {count}: tvmc accepted {accepted}, refused {refused} (`TVMCException`), crashed {crashed} |
| golden.jsonl | sha256 `{sha}` |

tvmc was deleted in TVM 0.20; no installable TVM has both it and TVM 0.21's target language,
so its `target.py` runs inside TVM 0.21 with stand-ins for the two modules it imported that
0.21 lacks (`tvm.driver.tvmc` for `TVMCException`, `composite_target` for the codegen names).

```sh
python3 scripts/record_tvmc_goldens.py          # rewrite golden.jsonl and this file
python3 scripts/record_tvmc_goldens.py --check  # exit 1 if tvmc now answers otherwise
```
"""


def tvm_version() -> str:
    done = subprocess.run([str(ORACLE_PYTHON), "-c", "import tvm; print(tvm.__version__)"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed goldens")
    args = parser.parse_args()
    cases = json.loads((DATA / "cases.json").read_text(encoding="utf-8"))
    lines = record(cases)
    text = "".join(line + "\n" for line in lines)
    if args.check:
        same = (DATA / "golden.jsonl").read_text(encoding="utf-8") == text
        print("tvmc answers as recorded" if same else "tvmc's answers differ from golden.jsonl")
        return 0 if same else 1
    (DATA / "golden.jsonl").write_text(text, encoding="utf-8")
    answers = [json.loads(line) for line in lines]
    crashed = sum(1 for a in answers if "cli_error" in a and a["cli_error"][0] != "TVMCException")
    refused = sum(1 for a in answers if "cli_error" in a) - crashed
    (DATA / "PROVENANCE.md").write_text(PROVENANCE.format(
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        tag=TVM_TAG, codegens=", ".join(codegen_table(TVM_TAG)), tvm=tvm_version(),
        count=len(answers), accepted=len(answers) - refused - crashed, refused=refused,
        crashed=crashed, sha=hashlib.sha256(text.encode()).hexdigest()), encoding="utf-8")
    print(f"wrote {len(lines)} answers to {(DATA / 'golden.jsonl').relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
