"""What happens to an input a target fails on: reproduced, minimized, saved as a regression.

A regression is ``fuzz/regressions/<target>-<hash>.json``: ``campaign`` (the target whose
check failed), ``input`` (the case: a text, or for log targets the bytes decoded with
``surrogateescape``, flagged by ``"bytes": true``), ``error`` and ``found``.
tests/property/test_fuzz_regressions.py replays every file with its target's check.
"""

from __future__ import annotations

import hashlib
import json
import time
import traceback
from pathlib import Path
from typing import Any

from .targets import TARGETS, Case, FuzzTarget

REPO = Path(__file__).resolve().parent.parent
REGRESSIONS = REPO / "fuzz" / "regressions"
#: the kinds of libFuzzer's artifact files (``crash-<sha1>``, ...)
STOPS = ("crash", "timeout", "oom", "leak")


def signature(target: str, error: BaseException) -> str:
    """Failures with the same signature are one bug: the error's type and where it was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/targetlang/" in f.filename or "/fuzz/" in f.filename]
    where = ours[-1] if ours else (frames[-1] if frames else None)
    place = f"{Path(where.filename).name}:{where.lineno}" if where else "?"
    return f"{target}: {type(error).__name__} at {place}"


def _bug(key: str) -> str:
    """A signature without its target: the same bug, whichever target met it."""
    return key.split(": ", 1)[1]


def failure(target: FuzzTarget, case: Case) -> BaseException | None:
    """The exception ``case`` makes the target's check raise, if any."""
    try:
        target.check(case)
    except Exception as error:  # noqa: BLE001 - every exception is a finding
        return error
    return None


def reproduce(target: FuzzTarget, data: bytes) -> tuple[Case, BaseException] | None:
    """The case a libFuzzer input stands for, and the failure it causes (None: it passes now)."""
    if target.decode is not None:
        case = target.decode(data)
        error = failure(target, case)
        return None if error is None else (case, error)
    seen: list[Case] = []

    def capture(case: Case) -> None:
        seen.append(case)
        target.check(case)

    try:
        target.property(capture).hypothesis.fuzz_one_input(data)
    except Exception as error:  # noqa: BLE001
        if seen:
            return seen[-1], error
        raise
    return None


def minimize(target: FuzzTarget, case: Case, error: BaseException,
             budget_seconds: float = 20.0) -> tuple[Case, BaseException]:
    """A smaller case failing with the same signature (delta debugging on the case itself)."""
    wanted = signature(target.name, error)
    deadline = time.monotonic() + budget_seconds
    best, best_error = case, error
    chunk = max(1, len(best) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        start, shrunk = 0, False
        while start < len(best) and time.monotonic() < deadline:
            candidate = best[:start] + best[start + chunk:]
            found = failure(target, candidate)
            if found is not None and signature(target.name, found) == wanted:
                best, best_error, shrunk = candidate, found, True
            else:
                start += chunk
        if not shrunk:
            chunk //= 2
    return best, best_error


def record(target: FuzzTarget, case: Case, error: BaseException) -> dict[str, Any]:
    text = case.decode("utf-8", "surrogateescape") if isinstance(case, bytes) else case
    out: dict[str, Any] = {"campaign": target.name, "input": text}
    if isinstance(case, bytes):
        out["bytes"] = True
    out["error"] = f"{type(error).__name__}: {error}"[:500]
    out["found"] = time.strftime("%Y-%m-%d")
    return out


def case_of(entry: dict[str, Any]) -> Case:
    """The case a regression record holds."""
    text: str = entry["input"]
    return text.encode("utf-8", "surrogateescape") if entry.get("bytes") else text


def save(target: FuzzTarget, case: Case, error: BaseException, directory: Path) -> Path:
    entry = record(target, case, error)
    key = entry["input"].encode("utf-8", "surrogatepass")
    digest = hashlib.sha256(target.name.encode() + b"\0" + key).hexdigest()[:12]
    path = directory / f"{target.name}-{digest}.json"
    pending = directory / "pending" / path.name
    if pending.exists():
        return pending  # known, and being fixed elsewhere (fuzz/regressions/README.md)
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        try:
            text = json.dumps(entry, indent=1, ensure_ascii=False)
            text.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: keep them as \\udcxx escapes
            text = json.dumps(entry, indent=1)
        path.write_text(text + "\n", encoding="utf-8")
    return path


class Findings:
    """The failures of one run: one minimized regression per signature."""

    def __init__(self, directory: Path, artifacts: Path) -> None:
        self.directory = directory
        self.artifacts = artifacts  # inputs that failed under libFuzzer but not here
        self.saved: dict[str, Path] = {}
        self.count = 0  # every failing input, duplicates included
        #: libFuzzer stops whose input passes when replayed here (kept, not failures): an
        #: input Hypothesis even rejects has stopped it, so the stop was not the input's
        #: (a signal, a stalled machine's wall-clock timeout)
        self.unreproduced = 0
        self._pending: dict[str, Path] | None = None

    def pending(self) -> dict[str, Path]:
        """The signatures of the pending regressions (known bugs being fixed elsewhere)."""
        if self._pending is None:
            self._pending = {}
            for path in sorted((self.directory / "pending").glob("*.json")):
                entry = json.loads(path.read_text(encoding="utf-8"))
                target = TARGETS.get(entry["campaign"])
                error = failure(target, case_of(entry)) if target is not None else None
                if target is not None and error is not None:
                    self._pending[_bug(signature(target.name, error))] = path
        return self._pending

    def add(self, target_name: str, case: Case, error: BaseException) -> Path | None:
        target = TARGETS[target_name]
        self.count += 1
        key = signature(target_name, error)
        if key in self.saved:
            return None
        known = self.pending().get(_bug(key))
        if known is not None:  # still failing, still counted; its input is already kept
            self.saved[key + " (pending)"] = known
            return None
        small, small_error = minimize(target, case, error)
        path = self.saved[key] = save(target, small, small_error, self.directory)
        return path

    def add_artifact(self, target_name: str, artifact: Path) -> Path | None:
        """A libFuzzer crash/timeout/oom file: reproduced here, then minimized and saved."""
        target = TARGETS[target_name]
        found = reproduce(target, artifact.read_bytes())
        if found is None:
            self.unreproduced += 1
            stop = next((part for part in artifact.name.split("-") if part in STOPS), "stop")
            key = f"{target_name}: {stop} (passes when replayed here; kept, not counted)"
            if key not in self.saved:
                self.artifacts.mkdir(parents=True, exist_ok=True)
                kept = self.artifacts / f"{target_name}-{artifact.name}"
                kept.write_bytes(artifact.read_bytes())
                self.saved[key] = kept
            return None
        return self.add(target_name, *found)
