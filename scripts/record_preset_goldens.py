"""Record what TVM 0.21's target constructors return, for targetlang.configuration.presets to replay.

    python3 scripts/record_preset_goldens.py            # writes tests/data/presets/golden.jsonl
    python3 scripts/record_preset_goldens.py --check    # exit 1 if TVM now says something else
    python3 scripts/record_preset_goldens.py --stdout   # print the answers, write nothing

Every call below runs in the TVM 0.21 oracle (``$TARGETLANG_ORACLE_DIR/bin/tvm021-python``):
``tvm.target.cuda()``, ``arm_cpu(model)`` for every model of its table, ``hexagon(v, **kw)``
for every version, ``stm32(series)`` for every series, ... One JSON line per call:
``{"fn", "args", "kwargs", "ok", "export", "str", "warnings", "error_type", "error"}``.

TVM 0.21 no longer has ``micro()``; its table ``MICRO_SUPPORTED_MODELS`` remains. For each
micro model the case ``micro_target`` records ``Target("c " + opts + " -model=<model>")``,
the target that ``micro()`` built until TVM 0.10 and that the CompilationConfig RFC wraps.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

from shelf import ORACLE_DIR, REPO

OUTPUT = REPO / "tests" / "data" / "presets" / "golden.jsonl"
ORACLE_PYTHON = ORACLE_DIR / "bin" / "tvm021-python"

MARK = "@@answers@@ "
Case = tuple[str, list[Any], dict[str, Any]]


def cases(tables: dict[str, Any]) -> list[Case]:
    """The calls to record; ``tables`` is targetlang/_data/presets.json (every model in it)."""
    out: list[Case] = []
    add = out.append
    for model in ("unknown", "1080ti", "a100"):
        for arch in (None, "sm_80"):
            for options in (None, "-libs=cudnn", ["-libs=cublas", "-max_num_threads=512"]):
                add(("cuda", [model], {"arch": arch, "options": options}))
    add(("cuda", [], {"options": "-arch=sm_86"}))
    add(("cuda", [], {"arch": "sm_80", "options": "-arch=sm_86"}))
    add(("cuda", [], {"arch": "sm_80", "options": "-arch=sm_80"}))
    add(("cuda", [], {"options": "-model=unknown -arch=sm_70 -libs=cudnn,cublas"}))
    for model in ("unknown", "mi100"):
        for options in (None, "-mcpu=gfx908", "-libs=rocblas,miopen"):
            add(("rocm", [model], {"options": options}))
    for fn in ("mali", "bifrost", "intel_graphics"):
        for model in ("unknown", "rk3399", "g76"):
            for options in (None, "-max_num_threads=128", ["-libs=clml"]):
                add((fn, [model], {"options": options}))
    for model in ("unknown", "sd8gen1"):
        for clml in (False, True):
            for options in (None, "-max_num_threads=512"):
                add(("adreno", [model], {"options": options, "clml": clml}))
    for model in [*tables["arm_cpu_models"], "unknown", "my-board"]:
        add(("arm_cpu", [model], {}))
        add(("arm_cpu", [model], {"options": "-num-cores=4"}))
    add(("arm_cpu", ["rasp4b"], {"options": ["-mcpu=cortex-a72", "-libs=nnpack"]}))
    add(("arm_cpu", ["pixel2"], {"options": "-model=snapdragon835"}))
    for options in (None, "-mcpu=cortex-a53", "-device=arm_cpu"):
        add(("rasp", [], {"options": options}))
    for model in [*tables["riscv_cpu_models"], "unknown"]:
        add(("riscv_cpu", [model], {}))
        add(("riscv_cpu", [model], {"options": "-mattr=+m,+a,+f,+d,+c"}))
    add(("riscv_cpu", [], {}))
    for version in [*tables["hexagon"]["versions"], "hexagonv68", "V69", "v60", "68", ""]:
        add(("hexagon", [version], {}))
    for kwargs in ({"hvx": 0}, {"hvx": 64}, {"hvx": 32}, {"hvx": 0, "use_qfloat": True},
                   {"use_qfloat": False}, {"use_ieee_fp": True}, {"num_cores": 2},
                   {"vtcm_capacity": 1024}, {"llvm_options": "-a=b -c"},
                   {"llvm_options": "   "}, {"llvm_args": "-x=1"}, {"sim_options": "-y"},
                   {"llvm_options": "-a", "num_cores": 8, "vtcm_capacity": 0}):
        for version in ("v66", "v68", "v73"):
            add(("hexagon", [version], kwargs))
    for series in [*tables["stm32_series"], "unknown", "stm32h7xx"]:
        add(("stm32", [series], {}))
    add(("stm32", ["stm32F4xx"], {"options": "-mcpu=cortex-m4 -model=nucleo"}))
    for model in tables["micro_models"]:
        add(("micro_target", [model], {}))
    return out


def probe(calls: list[Case]) -> list[dict[str, Any]]:
    """Runs inside the oracle interpreter: make every call, record what TVM returned."""
    import warnings

    import tvm  # type: ignore[import-not-found]
    from tvm.target import target as tvm_target  # type: ignore[import-not-found]

    def micro_target(model: str) -> Any:
        opts = tvm_target.MICRO_SUPPORTED_MODELS[model] + [f"-model={model}"]
        return tvm.target.Target(" ".join(["c"] + opts))

    def plain(value: Any) -> Any:
        return json.loads(json.dumps(value, default=lambda v: plain(dict(v)) if hasattr(v, "items")
                                     else [plain(x) for x in v] if hasattr(v, "__len__")
                                     else bool(v) if str(getattr(v, "dtype", "")) == "bool"
                                     else getattr(v, "value", str(v))))

    answers = []
    for fn, args, kwargs in calls:
        answer: dict[str, Any] = {"fn": fn, "args": args, "kwargs": kwargs, "ok": False,
                                  "export": None, "str": None, "warnings": [],
                                  "error_type": None, "error": None}
        function = micro_target if fn == "micro_target" else getattr(tvm.target, fn)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = function(*args, **kwargs)
                answer.update(ok=True, export=plain(result.export()), str=str(result))
            except Exception as error:  # noqa: BLE001 - TVM's failures are the answer
                answer.update(error_type=type(error).__name__, error=str(error)[:500])
        answer["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
        answers.append(answer)
    return answers


def record() -> list[dict[str, Any]]:
    if not ORACLE_PYTHON.exists():
        sys.exit(f"no TVM 0.21 oracle at {ORACLE_PYTHON}: run ../shared/oracle/install.sh")
    tables = json.loads((REPO / "targetlang" / "_data" / "presets.json").read_text("utf-8"))
    done = subprocess.run([str(ORACLE_PYTHON), __file__, "--probe"], capture_output=True,
                          text=True, check=True, input=json.dumps(cases(tables)))
    line = next(x for x in done.stdout.splitlines() if x.startswith(MARK))
    answers: list[dict[str, Any]] = json.loads(line[len(MARK):])
    return answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file")
    parser.add_argument("--stdout", action="store_true", help="print, write nothing")
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        # TVM prints notes of its own on stdout ("ROCm not detected"): mark our line.
        print(MARK + json.dumps(probe([tuple(c) for c in json.load(sys.stdin)])))  # type: ignore[misc]
        return 0
    text = "".join(json.dumps(a, sort_keys=True) + "\n" for a in record())
    if args.stdout:
        sys.stdout.write(text)
    elif args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT.relative_to(REPO)} differs from what TVM says now", file=sys.stderr)
            return 1
    else:
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(REPO)} ({text.count(chr(10))} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
