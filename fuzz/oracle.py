"""A streaming client of the TVM 0.21 oracle, and the comparison of its answers with ours.

It drives the oracle's ``query.py`` worker (docs/oracle.md) (one case in, one JSON line out) so that
Hypothesis can ask about one input at a time; a case that crashes or hangs the worker is
answered as TVM's failure and the worker is restarted.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
from pathlib import Path
from typing import Any

import targetlang as tl

REPO = Path(__file__).resolve().parent.parent
ORACLE_DIR = Path(os.environ.get("TARGETLANG_ORACLE_DIR",
                                 Path.home() / ".cache" / "targetlang-oracle"))
TVM021 = ORACLE_DIR / "bin" / "tvm021-python"
QUERY = next((q for q in (ORACLE_DIR / "query.py", Path(os.environ.get(
    "TARGETLANG_SHARED_DIR", REPO.parent / "shared")) / "oracle" / "query.py") if q.is_file()),
    ORACLE_DIR / "query.py")
ENVIRONMENT = tl.Environment.no_gpu()


def available() -> bool:
    return TVM021.exists() and QUERY.exists()


class Oracle:
    """One TVM 0.21 worker process, restarted after a crash or a hang."""

    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.proc: subprocess.Popen[str] | None = None
        self.index = 0

    def _start(self) -> subprocess.Popen[str]:
        proc = subprocess.Popen([str(TVM021), str(QUERY), "--worker", "--mode", "parse"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        atexit.register(self.close)  # no worker outlives the run
        ready = self._read(proc, 120)
        if ready is None or "ready" not in json.loads(ready):
            raise RuntimeError(f"cannot start the TVM oracle worker {TVM021}")
        return proc

    def _read(self, proc: subprocess.Popen[str], timeout: float) -> str | None:
        assert proc.stdout is not None
        readable, _, _ = select.select([proc.stdout], [], [], timeout)
        if not readable:
            return None
        line = proc.stdout.readline()
        return line or None

    def ask(self, text: str) -> dict[str, Any]:
        """TVM 0.21's answer for ``Target(text)`` (query.py's record)."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        self.index += 1
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"index": self.index,
                                              "line": json.dumps({"target": text})}) + "\n")
            self.proc.stdin.flush()
            line = self._read(self.proc, self.timeout)
        except (BrokenPipeError, OSError):
            line = None
        if line is None:
            self.close()
            return {"ok": False, "error_type": "Crash", "error": "the TVM worker died or hung"}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    stream.close()
            self.proc = None


def compare(text: str, answer: dict[str, Any]) -> None:
    """Assert that targetlang reads ``text`` as TVM did (answer from ``Oracle.ask``)."""
    try:
        target = tl.parse(text, environment=ENVIRONMENT)
    except tl.TargetError as e:
        assert not answer["ok"], f"TVM accepts, targetlang refuses: {e.message}"
        return
    assert answer["ok"], f"TVM refuses ({answer.get('error_type')}: " \
                         f"{str(answer.get('error'))[:200]}), targetlang accepts"
    assert target.to_json() == answer["export"], "to_json() differs from TVM's export()"
    error = answer.get("str_error") or ""
    printed = _tvm_str(target)
    host = _tvm_str(target.host) if target.host is not None else None
    if error.startswith("host: "):
        # (the host's str() failed; the query keeps the target's own str() only where that
        # succeeded, so none means it failed too)
        assert printed == answer.get("str") and host is None, "str() differs"
    elif error:
        assert printed is None, "TVM's str() fails, ours does not"
    else:
        assert printed == answer["str"], "str() differs"
        assert host == answer["host_str"], "str() of the host differs"
    ours = dict(target.features)
    theirs = answer.get("features") or {}
    assert ours == theirs, f"features differ: {ours} vs {theirs}"


def _tvm_str(target: tl.Target) -> str | None:
    try:
        return target.to_string(style="tvm")
    except tl.TargetError:
        return None
