"""The target constructors of TVM 0.21's Python API, returning exactly what TVM returned.

``cuda()``, ``rocm()``, ``mali()``, ``intel_graphics()``, ``arm_cpu(model)``, ``rasp()``,
``bifrost()``, ``riscv_cpu()``, ``hexagon()``, ``stm32()``, ``adreno()`` build the same
target text as ``tvm.target.<name>()`` and read it with :func:`targetlang.parse`; the model
tables come from TVM 0.21 (``_data/presets.json``, ``scripts/generate_config_data.py``).
``micro(model, options, executor)`` is the CompilationConfig RFC's version of the micro
constructor TVM 0.10 dropped: its target with executor and runtime beside it.

Each takes keyword-only ``environment`` (what TVM detected from the machine: ``cuda()``
without an arch, ``arm_cpu("unknown")`` without a triple; None leaves it out, as
:func:`targetlang.parse` does) and ``dialect``. TVM's warnings are given as TVM gave them.
"""

from __future__ import annotations

import functools
import json
import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from .._schema.resources import data_text
from ..environment import Environment
from ..errors import TargetValueError
from ..target import DEFAULT_DIALECT, Target, parse
from .backends import Executor, Runtime
from .config import CompilationConfig

__all__ = ["cuda", "rocm", "mali", "intel_graphics", "arm_cpu", "rasp", "bifrost", "riscv_cpu",
           "hexagon", "stm32", "adreno", "micro", "arm_cpu_models", "riscv_cpu_models",
           "micro_models", "stm32_series", "hexagon_versions"]

Options = str | Sequence[str] | None


@functools.cache
def _tables() -> Mapping[str, Any]:
    data: Mapping[str, Any] = json.loads(data_text("presets.json"))
    return data


def arm_cpu_models() -> dict[str, list[str]]:
    """``arm_cpu``'s model table: model -> its options (TVM 0.21)."""
    return json.loads(json.dumps(_tables()["arm_cpu_models"]))  # type: ignore[no-any-return]


def riscv_cpu_models() -> dict[str, list[str]]:
    """``riscv_cpu``'s model table: model -> its options (TVM 0.21)."""
    return json.loads(json.dumps(_tables()["riscv_cpu_models"]))  # type: ignore[no-any-return]


def micro_models() -> dict[str, list[str]]:
    """``MICRO_SUPPORTED_MODELS``: model -> its options (TVM 0.21)."""
    return json.loads(json.dumps(_tables()["micro_models"]))  # type: ignore[no-any-return]


def stm32_series() -> dict[str, list[str]]:
    """``STM32_SUPPORTED_SERIES``: series -> its options (TVM 0.21)."""
    return json.loads(json.dumps(_tables()["stm32_series"]))  # type: ignore[no-any-return]


def hexagon_versions() -> list[str]:
    """The Hexagon versions ``hexagon()`` accepts (TVM 0.21)."""
    return list(_tables()["hexagon"]["versions"])


def _merge_opts(opts: list[str], new_opts: Options) -> list[str]:
    """TVM's ``_merge_opts``: append the new options that are not already there, verbatim."""
    if isinstance(new_opts, str):
        new_opts = new_opts.split()
    if new_opts:
        present = set(opts)
        return opts + [opt for opt in new_opts if opt not in present]
    return opts


def _target(kind: str, opts: Sequence[str], environment: Environment | None,
            dialect: str) -> Target:
    return parse(" ".join([kind, *opts]), dialect=dialect, environment=environment)


def cuda(model: str = "unknown", arch: str | None = None, options: Options = None, *,
         environment: Environment | None = None, dialect: str = DEFAULT_DIALECT) -> Target:
    """A CUDA target (``tvm.target.cuda``); warns, as TVM did, when no ``-arch`` is given."""
    opts = _merge_opts([f"-model={model}"], options)
    if arch:
        opts = _merge_opts([f"-arch={arch}"], opts)
    if not any("-arch" in opt for opt in opts):
        warnings.warn("Try specifying cuda arch by adding 'arch=sm_xx' to your target.",
                      UserWarning, stacklevel=2)
    return _target("cuda", opts, environment, dialect)


def rocm(model: str = "unknown", options: Options = None, *,
         environment: Environment | None = None, dialect: str = DEFAULT_DIALECT) -> Target:
    """A ROCm target (``tvm.target.rocm``)."""
    return _target("rocm", _merge_opts([f"-model={model}"], options), environment, dialect)


def mali(model: str = "unknown", options: Options = None, *,
         environment: Environment | None = None, dialect: str = DEFAULT_DIALECT) -> Target:
    """An Arm Mali GPU: OpenCL with ``-device=mali`` (``tvm.target.mali``)."""
    opts = _merge_opts(["-device=mali", f"-model={model}"], options)
    return _target("opencl", opts, environment, dialect)


def intel_graphics(model: str = "unknown", options: Options = None, *,
                   environment: Environment | None = None,
                   dialect: str = DEFAULT_DIALECT) -> Target:
    """An Intel GPU: OpenCL with a warp of 16 (``tvm.target.intel_graphics``)."""
    opts = _merge_opts(["-device=intel_graphics", f"-model={model}", "-thread_warp_size=16"],
                       options)
    return _target("opencl", opts, environment, dialect)


def arm_cpu(model: str = "unknown", options: Options = None, *,
            environment: Environment | None = None, dialect: str = DEFAULT_DIALECT) -> Target:
    """An Arm CPU by board or phone name (``tvm.target.arm_cpu``); see :func:`arm_cpu_models`.

    A model not in the table is only an annotation (``-model=<model>``).
    """
    known = _tables()["arm_cpu_models"].get(model, [f"-model={model}"])
    opts = _merge_opts(["-keys=arm_cpu,cpu", "-device=arm_cpu", *known], options)
    return _target("llvm", opts, environment, dialect)


def rasp(options: Options = None, *, environment: Environment | None = None,
         dialect: str = DEFAULT_DIALECT) -> Target:
    """A Raspberry Pi 3b: ``arm_cpu("rasp3b")``, with TVM's deprecation warning."""
    warnings.warn("tvm.target.rasp() is going to be deprecated. "
                  'Please use tvm.target.arm_cpu("rasp3b")', UserWarning, stacklevel=2)
    return arm_cpu("rasp3b", options, environment=environment, dialect=dialect)


def bifrost(model: str = "unknown", options: Options = None, *,
            environment: Environment | None = None, dialect: str = DEFAULT_DIALECT) -> Target:
    """An Arm Mali GPU of the Bifrost architecture (``tvm.target.bifrost``)."""
    opts = _merge_opts(["-device=bifrost", f"-model={model}"], options)
    return _target("opencl", opts, environment, dialect)


def riscv_cpu(model: str = "sifive-u54", options: Options = None, *,
              environment: Environment | None = None,
              dialect: str = DEFAULT_DIALECT) -> Target:
    """A RISC-V CPU (``tvm.target.riscv_cpu``); see :func:`riscv_cpu_models`.

    TVM gave these the Arm keys and device (``-keys=arm_cpu,cpu -device=arm_cpu``); so do we.
    """
    known = _tables()["riscv_cpu_models"].get(model, [f"-model={model}"])
    opts = _merge_opts(["-keys=arm_cpu,cpu", "-device=arm_cpu", *known], options)
    return _target("llvm", opts, environment, dialect)


def _hexagon_version(cpu_ver: str) -> str:
    versions = _tables()["hexagon"]["versions"]
    # TVM keeps what follows the first "v" (so "hexagonv68" is v68) and names the
    # version it looked at in the error.
    start = cpu_ver.find("v")
    if start >= 0:
        cpu_ver = cpu_ver[start:].lower()
    if start < 0 or cpu_ver not in versions:
        raise TargetValueError(f"{cpu_ver} is not a valid Hexagon version\n"
                               f"valid versions include {versions}")
    return cpu_ver


def hexagon(cpu_ver: str = "v68", *, hvx: int | None = None, llvm_options: str | None = None,
            use_qfloat: bool | None = None, use_ieee_fp: bool | None = None,
            num_cores: int | None = None, vtcm_capacity: int | None = None,
            llvm_args: str | None = None, sim_args: str | None = None,
            sim_options: str | None = None, environment: Environment | None = None,
            dialect: str = DEFAULT_DIALECT) -> Target:
    """A Hexagon target (``tvm.target.hexagon``), with TVM's keyword options and defaults.

    ``hvx`` (128; 0 turns HVX off), ``llvm_options``, ``use_qfloat`` (on from v68),
    ``use_ieee_fp`` (off), ``num_cores`` (4), ``vtcm_capacity`` (by version, else 0).
    ``llvm_args``, ``sim_args`` and ``sim_options`` are deprecated, with TVM's warnings.
    """
    facts = _tables()["hexagon"]
    cpu_ver = _hexagon_version(cpu_ver)
    match = re.match(r"v([0-9]+)", cpu_ver)
    assert match is not None  # every listed version is "v<digits>..."
    arch_version = int(match.group(1))
    if sim_args or sim_options:
        warnings.warn("Setting simulator options in target is deprecated, set environment "
                      "variable HEXAGON_SIM_ARGS instead", UserWarning, stacklevel=2)
    if llvm_args:
        warnings.warn("The keyword parameter 'llvm_args' is deprecated, use 'llvm_options' "
                      "instead", UserWarning, stacklevel=2)
        llvm_options = llvm_args
    hvx = facts["defaults"]["hvx"] if hvx is None else hvx
    qfloat = arch_version >= 68 if use_qfloat is None else use_qfloat
    ieee_fp = bool(facts["defaults"]["use_ieee_fp"]) if use_ieee_fp is None else use_ieee_fp
    vtcm = facts["vtcm_sizes"].get(cpu_ver, 0) if vtcm_capacity is None else vtcm_capacity

    features: list[str] = []
    if hvx > 0:
        if hvx not in facts["hvx_lengths"]:
            raise TargetValueError(f"Invalid hvx value, should be one of {facts['hvx_lengths']}")
        features += [f"+hvx{cpu_ver}", f"+hvx-length{hvx}b"]
    else:
        features.append("-hvx")
    if arch_version >= 68:  # the floating-point features exist from v68 on
        features += [("+" if qfloat else "-") + "hvx-qfloat",
                     ("+" if ieee_fp else "-") + "hvx-ieee-fp"]
    opts = ["-mtriple=hexagon", f"-mcpu=hexagon{cpu_ver}", "-mattr=" + ",".join(features)]

    if arch_version == 68:  # TVM turns on float auto-vectorization for v68
        llvm_options = (llvm_options or "") + " -force-hvx-float"
    if llvm_options is not None and llvm_options.strip():
        # The target language has no '=' inside a value; TVM wrote LLVM's as '@'.
        opts.append("--llvm-options=" + ",".join(a.replace("=", "@")
                                                  for a in llvm_options.split()))
    opts.append(f"--num-cores={4 if num_cores is None else int(num_cores)}")
    opts.append(f"--vtcm-capacity={int(vtcm)}")
    return _target("hexagon", opts, environment, dialect)


def stm32(series: str = "unknown", options: Options = None, *,
          environment: Environment | None = None, dialect: str = DEFAULT_DIALECT) -> Target:
    """An STM32 board series, compiled to C (``tvm.target.stm32``); see :func:`stm32_series`."""
    table = _tables()["stm32_series"]
    if series not in table:
        raise TargetValueError(f"Series {series} is not supported by tvm.target.stm32.")
    return _target("c", _merge_opts(list(table[series]), options), environment, dialect)


def adreno(model: str = "unknown", options: Options = None, clml: bool = False, *,
           environment: Environment | None = None, dialect: str = DEFAULT_DIALECT) -> Target:
    """A Qualcomm Adreno GPU through OpenCL, optionally with CLML (``tvm.target.adreno``)."""
    keys = "--keys=adreno,opencl,gpu,clml" if clml else "--keys=adreno,opencl,gpu"
    opts = _merge_opts(["-device=adreno", keys, f"-model={model}"], options)
    return _target("opencl", opts, environment, dialect)


def micro(model: str = "unknown", options: Options = None, executor: str | Executor = "graph",
          *, environment: Environment | None = None,
          dialect: str = DEFAULT_DIALECT) -> CompilationConfig:
    """A microTVM configuration, as the CompilationConfig RFC writes ``micro()``.

    The target is ``c`` with the model's options and ``-model=<model>`` (what ``micro()``
    returned until TVM 0.10), host of itself; the executor is ``executor`` and the runtime
    ``crt`` with ``system-lib`` set for the graph executor. The RFC's ``-runtime=c`` target
    option is that runtime, so it is not repeated in the target (TVM 0.21's ``c`` kind has
    no ``runtime`` attribute). See :func:`micro_models`.
    """
    table = _tables()["micro_models"]
    if model not in table:
        raise TargetValueError(f"Model {model} not supported by tvm.target.micro.")
    opts = _merge_opts([*table[model], f"-model={model}"], options)
    target = _target("c", opts, environment, dialect)
    executor_value = executor if isinstance(executor, Executor) else Executor(executor)
    return CompilationConfig(target_host=target, targets=[target], executor=executor_value,
                             runtime=Runtime("crt", {"system-lib": executor_value.name == "graph"}))
