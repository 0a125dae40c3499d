"""Throw hostile input at every public function in every dialect: only TargetError may come out.

Huge numbers, deep nesting, strings that are not UTF-8, odd Unicode (line and paragraph
separators, NEL, BOM, bidi controls, full-width dashes, combining marks), huge inputs, and
random byte-level mutations of the golden corpus and the TopHub strings, given as legacy text,
JSON text and dicts to ``parse``, ``from_json``, ``lint``, ``explain``, ``diff``,
``detect_dialect``, ``migrate``, ``migrate_config``, ``parse_tvmc``,
``CompilationConfig.from_json`` and the ``Target`` methods (``to_string("tvm")``,
``with_attrs``, ``with_host``, ``tuning_key``). Prints a summary; exit 1 when anything else
than a TargetError was raised (each listed once by function, exception and message).

    python3 scripts/adversarial.py --seconds 300 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from shelf import REPO

import targetlang as tl
from targetlang._inspect.diff import diff
from targetlang._inspect.explain import explain
from targetlang.errors import show

ODD = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\ufeff", "\u202e", "\u200b",
       "\uff0d", "\u0301", "\U0001f600", "\ud800", "\udfff", "\x00", "\t", "\r", "\n", "\\",
       "'", '"', "=", "-", ",", " ", "{", "}", "[", "]", "\u00a0", "\u3000", "\u0660", "\uffff"]
HUGE_DIGITS = ["9" * 4301, "1" * 5000, "0" * 6000 + "7", "-" + "9" * 4400, "+" + "1" * 20,
               "9223372036854775808", "-9223372036854775809", "1e999999", "\u0661" * 5000]


def corpus() -> list[str]:
    texts = [json.loads(line)["input"] for line in
             (REPO / "tests" / "data" / "tvm-0.21" / "golden.jsonl").open(encoding="utf-8")]
    texts += (REPO / "tests" / "data" / "tophub" / "tophub-targets.txt").read_text(
        "utf-8").splitlines()
    return [t for t in texts if isinstance(t, str) and t]


def host_chain(levels: int, devices: bool = False) -> dict[str, Any]:
    config: dict[str, Any] = {"kind": "llvm"}
    for _ in range(levels - 1):
        config = {"kind": "composite", "devices": [config]} if devices else \
            {"kind": "llvm", "host": config}
    return config


def nested_list(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = [value]
    return value


def legacy_nest(levels: int) -> str:
    text = "llvm"
    for _ in range(levels):
        text = "cuda -host='" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return text


def fixed_inputs() -> Iterator[str | dict[str, Any]]:
    for digits in HUGE_DIGITS:
        for key in ("opt-level", "max_num_threads", "num-cores", "mcpu", "libs", "fast-math"):
            yield f"llvm -{key}={digits}"
            yield f"cuda -{key}={digits}"
        yield "mrvl -num_tiles=" + digits + ", llvm"
        yield '{"kind": "cuda", "max_num_threads": ' + digits.lstrip("+") + "}"
    for number in (10**4301, -(10**5000), 2**63, float("inf"), float("nan"), 1e308, True):
        yield {"kind": "cuda", "max_num_threads": number}
        yield {"kind": "cuda", "model": number}
        yield {"kind": "llvm", "libs": [number]}
        yield {"kind": number}
    for levels in (99, 100, 101, 256, 257, 1000, 20_000):
        yield json.dumps(host_chain(min(levels, 900)))
        yield host_chain(levels)
        yield host_chain(levels, devices=True)
        yield {"kind": "llvm", "libs": nested_list(levels)}
        yield '{"kind": "llvm", "libs": ' + "[" * levels + "]" * levels + "}"
        yield "{" * levels
        yield "[" * levels
        yield '{"kind": "llvm", "host": ' * levels
    for levels in (5, 12, 18):
        yield legacy_nest(levels)
    for odd in ODD:
        yield f"llvm -mcpu={odd}"
        yield f"cuda -arch=sm_80{odd} -libs=cudnn{odd}cublas"
        yield f"{odd}llvm"
        yield f"llvm -{odd}mcpu=x"
        yield f"llvm -host='{odd}'"
        yield {"kind": "llvm", "mcpu": odd}
        yield {"kind": "llvm", odd: 1}
        yield {odd: "llvm"}
        yield f"ethos-u -accelerator_config={odd}, c"
    yield "llvm " + "-mcpu=x " * 50_000
    yield "llvm -libs=" + "," * 1_000_000
    yield "llvm -mcpu=" + "x" * 2_000_000
    yield "llvm -mcpu='" + "x" * 1_000_000
    yield "composite --devices=" + ",".join(["llvm"] * 20_000)
    yield {"kind": "composite", "devices": [{"kind": "llvm"}] * 20_000}
    yield {"kind": "llvm", "keys": ["cpu"] * 100_000}
    yield "\\" * 100_001
    yield "'" * 100_001
    yield "-" * 100_001
    yield "llvm " + "-" * 100_000
    yield "c, " * 10_000 + "llvm"


def mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        action = rng.random()
        at = rng.randint(0, len(chars))
        if action < 0.4:
            chars.insert(at, rng.choice(ODD + list("0123456789-='\\ ,{}[]\":")))
        elif action < 0.6 and chars:
            del chars[min(at, len(chars) - 1)]
        elif action < 0.8:
            chars.insert(at, rng.choice(HUGE_DIGITS)[: rng.choice([5, 25, 5000])])
        else:
            chars[at:at] = list(rng.choice(["-host='", "--devices=", "-libs=", "{\"kind\":",
                                             "-keys=", "-tag=", "'", "\\'"]))
    return "".join(chars)


def calls(value: str | dict[str, Any], dialect: str) -> Iterator[tuple[str, Callable[[], Any]]]:
    if isinstance(value, str):
        yield "parse", lambda: tl.parse(value, dialect=dialect)
        yield "lint", lambda: tl.lint(value, dialect=dialect)
        yield "explain", lambda: explain(value, dialect=dialect)
        yield "from_json(str)", lambda: tl.from_json(value, dialect=dialect)
        if dialect == "tvm-0.21":
            yield "detect_dialect", lambda: tl.detect_dialect(value)
            yield "migrate", lambda: tl.migrate(value)
            yield "migrate_config", lambda: tl.migrate_config(value)
            yield "parse_tvmc", lambda: tl.parse_tvmc(value)
            yield "config.from_json", lambda: tl.CompilationConfig.from_json(
                {"targets": [value]})
    else:
        yield "from_json", lambda: tl.from_json(value, dialect=dialect)
        if dialect == "tvm-0.21":
            yield "migrate(dict)", lambda: tl.migrate(value)
            yield "config.from_json", lambda: tl.CompilationConfig.from_json(
                {"targets": [value]})
            yield "parse_tvmc(options)", lambda: tl.parse_tvmc("llvm", {"llvm": value})
    try:
        target = tl.parse(value, dialect=dialect) if isinstance(value, str) else \
            tl.from_json(value, dialect=dialect)
    except tl.TargetError:
        return
    yield "to_string(tvm)", lambda: target.to_string(style="tvm")
    yield "to_string", lambda: tl.parse(target.to_string(), dialect=dialect)
    yield "diff", lambda: diff(target, target)
    yield "tuning_key", lambda: target.tuning_key()
    yield "with_attrs", lambda: target.with_attrs({"mcpu": value if isinstance(value, str)
                                                  else "x"})
    yield "with_host", lambda: target.with_host(value)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rng = random.Random(args.seed)
    texts = corpus()
    dialects = list(tl.dialects())
    start = time.monotonic()
    counts = {"inputs": 0, "calls": 0, "target_errors": 0}
    bad: dict[tuple[str, str, str], str] = {}

    def inputs() -> Iterator[str | dict[str, Any]]:
        yield from fixed_inputs()
        while True:
            yield mutate(rng, rng.choice(texts))

    for value in inputs():
        if time.monotonic() - start > args.seconds:
            break
        counts["inputs"] += 1
        for dialect in dialects:
            for name, call in calls(value, dialect):
                counts["calls"] += 1
                try:
                    call()
                except tl.TargetError:
                    counts["target_errors"] += 1
                except Exception as error:  # noqa: BLE001 - what this script looks for
                    key = (name, type(error).__name__, show(str(error), 80))
                    bad.setdefault(key, f"{dialect}: {show(value, 120)}")
    elapsed = time.monotonic() - start
    print(f"{counts['inputs']} inputs, {counts['calls']} calls in {len(dialects)} dialects, "
          f"{counts['target_errors']} TargetErrors, {elapsed:.0f} s")
    for (name, kind, message), example in sorted(bad.items()):
        print(f"  {name}: {kind}: {message}\n      e.g. {example}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
