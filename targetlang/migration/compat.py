"""The run-time bridge: TVM 0.21's ``Target(...)`` and target helpers on the TVM installed.

    import targetlang.compat as compat

    target = compat.Target(args.target)            # "cuda -arch=sm_80", a tag, a dict, ...
    gpu = compat.cuda("a100", arch="sm_80")        # the helpers TVM 0.24 removed

Each returns a ``tvm.target.Target`` of the TVM installed in the running interpreter that
means what TVM 0.21 meant: the value is read as TVM 0.21 read it (:mod:`targetlang.presets`
for the helpers), migrated to the installed release (read from ``tvm.__version__``) and
handed to its ``tvm.target.Target`` as the minimal dict (only what that release would not
fill in by itself, so it still detects the machine's triple and GPU as TVM 0.21 did). On a
TVM that still reads legacy text itself (before 0.24), the value goes through unchanged to
its own ``tvm.target.Target`` (and helpers).

A program that runs on TVM TIRx (``tvm_tirx``, which aborts when ``tvm`` is imported beside
it) gets a ``tvm_tirx.target.Target`` read in ``tirx-0.1``: the bridge serves the TVM the
program imported, ``tvm`` or ``tvm_tirx``, and never imports the other; when it imported
neither, the first call imports ``tvm``, or ``tvm_tirx`` where only that is installed.

Text TVM 0.21 refused that an older release read (``llvm --system-lib``, ``-target=``,
``-link-params``, ``-runtime=c``, ``c -executor=aot``) is read in that release, and a
:class:`targetlang.MigrationWarning` names each option renamed, moved out of the target or
dropped; text no release read raises a ``ValueError`` (:class:`targetlang.TargetError`).

``import targetlang.compat`` does not import ``tvm``: the first call does, and raises an
:class:`ImportError` saying how to install TVM when it is missing.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from .._lower.dialects import DIALECTS
from .._memo import memoized
from ..configuration import presets
from ..target import Target as _Legacy
from ._sites import migrate_as_legacy, minimal
from .targets import LEGACY_DIALECT

__all__ = ["Target", "cuda", "rocm", "mali", "intel_graphics", "arm_cpu", "rasp", "bifrost",
           "riscv_cpu", "hexagon", "stm32", "adreno", "create", "release_dialect"]

#: a ``tvm.target.Target`` of the installed TVM (typed loosely: tvm is not imported here)
TVMTarget = Any

#: The releases that read TargetJSON only, oldest first (0.24 removed the text parser).
_FIRST_JSON_RELEASE = 24
_JSON_RELEASES = tuple(sorted((int(m.group(1)) for name in DIALECTS
                               if (m := re.fullmatch(r"tvm-0\.(\d+)", name))
                               and int(m.group(1)) >= _FIRST_JSON_RELEASE)))

#: TVM TIRx's releases by dialect, oldest first (``tirx-0.1``: ``(0, 1)``).
_TIRX_RELEASES = tuple(sorted((int(m.group(1)), int(m.group(2))) for name in DIALECTS
                              if (m := re.fullmatch(r"tirx-(\d+)\.(\d+)", name))))

_INSTALL_HINT = ("targetlang.compat needs TVM (it returns tvm.target.Target objects of the "
                 "installed release): install it, e.g. `pip install apache-tvm`")
_TIRX = "tvm_tirx"


def _tvm() -> Any:
    """The TVM package the program runs: the one it imported (``tvm`` or TVM TIRx's
    ``tvm_tirx``), else ``tvm``, or ``tvm_tirx`` where only that is installed. Never both:
    TIRx aborts the process when ``tvm`` is imported beside it."""
    loaded = sys.modules.get("tvm")
    if loaded is None and _TIRX in sys.modules:
        name = _TIRX
    elif loaded is None and importlib.util.find_spec("tvm") is None \
            and importlib.util.find_spec(_TIRX) is not None:
        name = _TIRX
    else:
        name = "tvm"
    try:
        tvm = importlib.import_module(name)
        importlib.import_module(tvm.__name__ + ".target")
    except ImportError as error:
        raise ImportError(f"{_INSTALL_HINT} ({error})") from error
    return tvm


def _dialect_of(tvm: Any) -> str | None:
    """The dialect of the TVM package ``tvm`` (:func:`_tvm`): from ``__version__``, TIRx's
    own releases for ``tvm_tirx`` (also when a program aliased it as ``tvm``)."""
    version = str(tvm.__version__)
    if tvm.__name__ != _TIRX:
        return release_dialect(version)
    match = re.match(r"\s*v?(\d+)\.(\d+)", version)
    known = (int(match.group(1)), int(match.group(2))) if match else _TIRX_RELEASES[-1]
    release = known if known in _TIRX_RELEASES else _TIRX_RELEASES[-1]
    return f"tirx-{release[0]}.{release[1]}"


def release_dialect(version: str) -> str | None:
    """The dialect of TVM release ``version`` (``tvm.__version__``), or None for a release
    that reads legacy target text itself (before 0.24).

    ``"0.25.0.post1"`` is ``tvm-0.25``; a dev or rc build counts as its release
    (``"0.26.dev0"``: ``tvm-0.26``); a release newer than any known reads as the newest.
    """
    match = re.match(r"\s*v?(\d+)\.(\d+)", version)
    if match is None:
        return f"tvm-0.{_JSON_RELEASES[-1]}"  # no release number (a source build): the newest
    major, minor = int(match.group(1)), int(match.group(2))
    if major == 0 and minor < _FIRST_JSON_RELEASE:
        return None
    if major == 0 and minor in _JSON_RELEASES:
        return f"tvm-0.{minor}"
    return f"tvm-0.{_JSON_RELEASES[-1]}"


def _config(value: str | Mapping[str, Any] | _Legacy, dialect: str) -> dict[str, Any]:
    """The dict release ``dialect`` reads as TVM 0.21 read ``value`` (text, a tag, a dict,
    JSON text, or a target read in the legacy dialect), minimal.

    A value TVM 0.21 refuses is read as the newest release that reads it (a dict already
    written for a newer release, TopHub's ``-target=`` text); if none does, 0.21's error.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if isinstance(value, str):  # a program asks for the same text again and again: memo
            # (so a MigrationWarning, e.g. for -system-lib, is given on the first reading only)
            answer: dict[str, Any] = json.loads(_text_config(value, dialect))
        else:
            answer = _uncached_config(value, dialect)
    for warning in caught:  # at the program's line: Target() or a helper, then _config
        warnings.warn(warning.message, warning.category, stacklevel=4)
    return answer


@memoized(maxsize=1024)
def _text_config(text: str, dialect: str) -> str:
    return json.dumps(_uncached_config(text, dialect))


def _uncached_config(value: str | Mapping[str, Any] | _Legacy, dialect: str) -> dict[str, Any]:
    return minimal(migrate_as_legacy(value, dialect), dialect)


def Target(target: Any, host: Any = None) -> TVMTarget:  # noqa: N802 (TVM's name)
    """``tvm.target.Target(target, host)`` as TVM 0.21 read it, on the installed TVM.

    ``target`` and ``host``: legacy text, a tag, a dict, JSON text, a ``tvm.target.Target``
    (returned as it is when no host is given) or a :class:`targetlang.Target`. As in TVM
    0.21, a ``host`` replaces the target's own host. Raises :class:`targetlang.TargetError`
    (a ``ValueError``) for a value TVM 0.21 refused.
    """
    tvm = _tvm()
    dialect = _dialect_of(tvm)
    if dialect is None:
        return tvm.target.Target(target, host)
    for value in (target, host):  # TVM 0.21's Python wrapper warned for each text
        if isinstance(value, str) and "-libs=mkldnn" in value:
            warnings.warn("Legacy support of mkldnn is going to be deprecated. Please use "
                          "-libs=dnnl instead.", UserWarning, stacklevel=2)
    if host is None:
        return _installed(tvm, target, dialect)
    return tvm.target.Target(_installed(tvm, target, dialect), _installed(tvm, host, dialect))


def _installed(tvm: Any, value: Any, dialect: str) -> TVMTarget:
    if isinstance(value, tvm.target.Target):
        return value
    if not isinstance(value, (str, Mapping, _Legacy)):  # a targetlang.Target: what it reads
        raise ValueError(f"target has to be a string or dictionary. instead get {type(value)}")
    return tvm.target.Target(_config(value, dialect))


def create(target: Any) -> TVMTarget:
    """TVM 0.21's deprecated ``tvm.target.create(target)``: ``Target(target)``, with its warning."""
    warnings.warn("tvm.target.create() is being deprecated. Please use tvm.target.Target() "
                  "instead", UserWarning, stacklevel=2)
    return Target(target)


def _helper(name: str, *args: Any, **kwargs: Any) -> TVMTarget:
    """TVM 0.21's helper ``name`` on the installed TVM: its own where it still has it (before
    0.24), else what TVM 0.21's returned, migrated there."""
    tvm = _tvm()
    dialect = _dialect_of(tvm)
    if dialect is None and hasattr(tvm.target, name):
        return getattr(tvm.target, name)(*args, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        legacy = _legacy_helper(name, args, kwargs)
    for warning in caught:  # TVM's warnings, shown at the caller's line
        warnings.warn(warning.message, warning.category, stacklevel=3)
    if dialect is None:  # an old TVM without this helper reads the 0.21 TargetJSON
        return tvm.target.Target(legacy.to_json())
    return tvm.target.Target(_config(legacy, dialect))


def _legacy_helper(name: str, args: tuple[Any, ...] | list[Any],
                   kwargs: Mapping[str, Any]) -> _Legacy:
    """What TVM 0.21's ``tvm.target.<name>(*args, **kwargs)`` returned (:mod:`presets`)."""
    if name == "hexagon":  # TVM 0.21 accepted any keyword and read only its own
        kwargs = {key: value for key, value in kwargs.items() if key in _HEXAGON_KEYWORDS}
    build: Callable[..., _Legacy] = getattr(presets, name)
    return build(*args, dialect=LEGACY_DIALECT, **kwargs)


def _helper_config(name: str, dialect: str, args: tuple[Any, ...] | list[Any],
                   kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The dict a helper call hands the TVM of ``dialect`` (what checks replay without TVM)."""
    return _config(_legacy_helper(name, args, kwargs), dialect)


Options = str | list[str] | tuple[str, ...] | None


def cuda(model: str = "unknown", arch: str | None = None, options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.cuda``: a CUDA target; without ``arch`` the installed TVM
    detects the GPU's (and, as TVM 0.21, warns)."""
    return _helper("cuda", model, arch, options)


def rocm(model: str = "unknown", options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.rocm``."""
    return _helper("rocm", model, options)


def mali(model: str = "unknown", options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.mali``: OpenCL with ``device`` ``mali``."""
    return _helper("mali", model, options)


def intel_graphics(model: str = "unknown", options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.intel_graphics``."""
    return _helper("intel_graphics", model, options)


def arm_cpu(model: str = "unknown", options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.arm_cpu``: a board or phone name (``"rasp4b"``), see
    :func:`targetlang.presets.arm_cpu_models`."""
    return _helper("arm_cpu", model, options)


def rasp(options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.rasp``: ``arm_cpu("rasp3b")``, with its deprecation warning."""
    return _helper("rasp", options)


def bifrost(model: str = "unknown", options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.bifrost``."""
    return _helper("bifrost", model, options)


def riscv_cpu(model: str = "sifive-u54", options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.riscv_cpu``."""
    return _helper("riscv_cpu", model, options)


#: the keyword parameters TVM 0.21's ``hexagon()`` reads; it ignores any other
_HEXAGON_KEYWORDS = ("hvx", "llvm_options", "use_qfloat", "use_ieee_fp", "num_cores",
                     "vtcm_capacity", "llvm_args", "sim_args", "sim_options")


def hexagon(cpu_ver: str = "v68", **kwargs: Any) -> TVMTarget:
    """TVM 0.21's ``tvm.target.hexagon(cpu_ver, **kwargs)``: ``hvx``, ``llvm_options``,
    ``use_qfloat``, ``use_ieee_fp``, ``num_cores``, ``vtcm_capacity`` (and the deprecated
    ``llvm_args``, ``sim_args``, ``sim_options``); as in TVM 0.21, other keywords
    (``link_params=True``) are accepted and have no effect."""
    return _helper("hexagon", cpu_ver, **kwargs)


def stm32(series: str = "unknown", options: Options = None) -> TVMTarget:
    """TVM 0.21's ``tvm.target.stm32``: an STM32 series compiled to C."""
    return _helper("stm32", series, options)


def adreno(model: str = "unknown", options: Options = None, clml: bool = False) -> TVMTarget:
    """TVM 0.21's ``tvm.target.adreno``: a Qualcomm Adreno GPU, optionally with CLML."""
    return _helper("adreno", model, options, clml)
