"""The kinds' target parsers of TVM 0.21 (``set_target_parser``): config in, config and features out.

They run on the raw config before its attributes are type-checked, exactly where TVM runs
them (``FromConfig``), so they see JSON values as given and must refuse wrong types as
TVM's ``Downcast`` does. Machine-dependent values come only from the ``Environment``.

Sources: ``src/target/target_kind.cc`` (cuda, nvptx, rocm, test) and
``src/target/parsers/{cpu,mprofile,aprofile}.cc``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._memo import Memo
from .._syntax.rules import int64_from_decimal
from ..environment import Environment
from ..errors import AttributeTypeError, TargetError, TargetValueError, show, type_name
from . import arm as _arm

Config = dict[str, Any]
Features = dict[str, Any]
if TYPE_CHECKING:  # (typing's aliases cost start-up time when built at run time)
    #: A target parser: the config, the environment, and a set to which it adds each key it
    #: filled in from the environment (the lowering's trace says where values came from).
    TargetParser = Callable[[Config, Environment | None, set[str]],
                            tuple[Config, Features | None]]


_ABSENT: Any = object()


class Hook:
    """A kind's target-parser hook: TVM's name for it, what it does, and what it reads.

    ``reads`` is data: the config members ``run`` reads (besides ``kind``), the only ones it
    may change when it has no environment (a test holds every hook to it). So whether the
    hook leaves a target as it is depends on those values only, and :meth:`keeps` answers it
    by running the hook itself once per such values (kept in a bounded memo): no predicate
    restates what a hook does.

    (A plain slotted class: a dataclass would cost ``import targetlang`` more.)
    """

    __slots__ = ("name", "run", "reads", "_reads_keys", "_reads_attrs", "_absent_each")

    def __init__(self, name: str, run: TargetParser, reads: tuple[str, ...]) -> None:
        self.name = name
        self.run = run
        self.reads = reads
        self._reads_keys = "keys" in reads
        self._reads_attrs = tuple(name for name in reads if name not in ("kind", "keys"))
        self._absent_each = (_ABSENT,) * len(self._reads_attrs)

    def keeps(self, kind: str, keys: Sequence[str], attrs: Mapping[str, Any],
              typed: tuple[str, str] | None = None) -> bool:
        """Whether ``run``, with no environment, leaves a target of this kind, keys and
        attributes as it is (each value the same, of the same type) and raises nothing:
        canonical text then needs no read-back to show it reads as the target.

        Answered by running the hook on the members it reads (``reads``), once per their
        values and types. ``typed``: the (dialect, kind) whose target's attributes these
        are (each value of its attribute's type, or None), which then fixes the types: the
        answer is kept by the values alone."""
        keys_read = (keys if type(keys) is tuple else tuple(keys)) if self._reads_keys else None
        # (one flat tuple: a nested one costs a third more to make, hash and compare)
        if typed is not None:
            key: tuple[Any, ...] = (self, typed, keys_read,
                                    *map(attrs.get, self._reads_attrs, self._absent_each))
        else:
            values = tuple(map(attrs.get, self._reads_attrs, self._absent_each))
            key = (self, kind, keys_read, *values, *map(type, values))
        try:
            known = _KEPT.get(key)
        except TypeError:  # an unhashable value: run, not kept
            return self._runs_unchanged(kind, keys, attrs)
        if known is None:
            known = _KEPT.put(key, self._runs_unchanged(kind, keys, attrs))
        return known

    def _runs_unchanged(self, kind: str, keys: Sequence[str], attrs: Mapping[str, Any]) -> bool:
        """Whether ``run`` leaves the members it reads of this target as they are."""
        config: Config = {"kind": kind}
        if self._reads_keys:
            config["keys"] = keys
        for name in self._reads_attrs:
            if name in attrs:
                config[name] = attrs[name]
        given = dict(config)
        try:
            out, _features = self.run(config, None, set())
        except TargetError:
            return False
        if out.keys() != given.keys():
            return False
        for name, value in out.items():
            before = given[name]
            if name == "keys":
                if type(value) not in (list, tuple) or tuple(value) != tuple(before):
                    return False
            elif value is not before and (type(value) is not type(before) or value != before):
                return False
        return True

    def __repr__(self) -> str:
        return f"Hook({self.name!r})"


#: (hook, kind, keys if it reads them, *the values it reads, *their types) -> whether it keeps
#: them (the types too: True and 1 are equal keys, and a hook may tell them apart; or, for a
#: target's attributes, its (dialect, kind), which fixes their types, in place of both). The
#: Arm targets of a tuning log repeat a few triples, CPUs and ``-mattr`` lists, and the
#: Arm checks cost more than the rest of writing a target's text.
_KEPT: Memo[tuple[Any, ...], bool] = Memo(4096)


def _optional_str(config: Mapping[str, Any], key: str) -> str | None:
    """``Downcast<Optional<String>>(config.Get(key))``."""
    value = config.get(key)
    if value is None or isinstance(value, str):
        return value
    raise AttributeTypeError(f"{key!r} must be a string, not {type_name(value)}", path=key)


def _required_str(config: Mapping[str, Any], key: str) -> str:
    """``Downcast<String>(config.at(key))``: present, so it must be a string (not null)."""
    value = config[key]
    if isinstance(value, str):
        return value
    raise AttributeTypeError(f"{key!r} must be a string, not {type_name(value)}", path=key)


def _optional_str_array(config: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
    """``Downcast<Optional<Array<String>>>(config.Get(key))``."""
    value = config.get(key)
    if value is None:
        return None
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise AttributeTypeError(f"{key!r} must be an array of strings", path=key)


def _check_or_set(config: Config, key: str, expected: str) -> None:
    """``CheckOrSetAttr``: fill in ``key``, or insist that it already has that value."""
    if key not in config:
        config[key] = expected
    elif config[key] != expected or not isinstance(config[key], str):
        raise TargetValueError(f'expects {key!r} to be "{expected}", but gets: {show(config[key])}',
                               path=key)


def _merge_arm_keys(config: Config) -> None:
    """``MergeKeys`` of the Arm parsers: ``arm_cpu`` and ``cpu`` follow the given keys."""
    keys = list(_optional_str_array(config, "keys") or ())
    for key in ("arm_cpu", "cpu"):
        if key not in keys:
            keys.append(key)
    config["keys"] = keys


# ---- Arm M-profile (parsers/mprofile.cc) -------------------------------------------------

_MPROFILE_BASE = ("cortex-m0", "cortex-m3")
_MPROFILE_DSP = ("cortex-m55", "cortex-m4", "cortex-m7", "cortex-m33", "cortex-m35p", "cortex-m85")
_MPROFILE_MVE = ("cortex-m55", "cortex-m85")
_MPROFILE = _MPROFILE_BASE + _MPROFILE_DSP


def _cpu_matches(mcpu: str | None, prefixes: tuple[str, ...]) -> bool:
    return mcpu is not None and mcpu.startswith(prefixes)


def _has_flag(mcpu: str | None, mattr: tuple[str, ...] | None, flag: str) -> bool:
    return (mcpu is not None and flag in mcpu) or any(flag in item for item in mattr or ())


def _is_mprofile(mcpu: str | None) -> bool:
    """``mprofile::IsArch``."""
    return _cpu_matches(mcpu, _MPROFILE)


#: Every feature name a target parser derives, in any kind (``Target.features``); any other
#: name reads as None, as TVM's ``TargetGetFeature`` answered it.
DERIVED_FEATURES = frozenset([name for name, _ in _arm.APROFILE_FEATURES]
                             + ["has_dsp", "has_mve", "is_test"])


def _mprofile_features(config: Config) -> Features:
    mcpu = _optional_str(config, "mcpu")
    mattr = _optional_str_array(config, "mattr")
    nomve = _has_flag(mcpu, mattr, "+nomve")
    nodsp = _has_flag(mcpu, mattr, "+nodsp")
    if _cpu_matches(mcpu, _MPROFILE_MVE) and not nomve and not nodsp:
        return {"has_dsp": True, "has_mve": True}
    if _cpu_matches(mcpu, _MPROFILE_DSP) and not nodsp:
        return {"has_dsp": True, "has_mve": False}
    return {"has_dsp": False, "has_mve": False}


# ---- Arm A-profile (parsers/aprofile.cc) -------------------------------------------------

def is_aarch64(mtriple: str | None) -> bool:
    return mtriple is not None and mtriple.startswith("aarch64")


#: what every triple of either Arm test (is_aarch32, is_aarch64) starts with
_ARM_TRIPLES = ("arm", "aarch64")


def is_aarch32(mtriple: str | None, mcpu: str | None) -> bool:
    if mtriple is None:
        return False
    return mtriple.startswith("arm") and not (mcpu is not None and mcpu.startswith("cortex-m"))


def _is_aprofile(mtriple: str | None, mcpu: str | None) -> bool:
    """``aprofile::IsArch``."""
    return is_aarch32(mtriple, mcpu) or is_aarch64(mtriple)


def _aprofile_features(config: Config, arm_tables: str = _arm.DATA_FILE) -> Features:
    """``aprofile::GetFeatures``: TVM asks LLVM which features the triple, CPU and ``-mattr`` give.

    The steps follow TVM's ``LLVMTargetInfo``: the option types, the triple (TVM crashes when
    LLVM has no target for it), the option values, then the features (LLVM aborts on an
    ``-mattr`` item without a sign). LLVM's answers come from recorded tables (``_arm``;
    ``arm_tables`` names the release's).
    """
    mtriple, triple, mcpu, mattr = _aprofile_checked(config, arm_tables)
    return dict(_arm.aprofile_features(mtriple, triple, mcpu, mattr, arm_tables))


def _aprofile_checked(config: Mapping[str, Any], arm_tables: str = _arm.DATA_FILE
                      ) -> tuple[str, _arm.ArmTriple, str | None, tuple[str, ...]]:
    """``_aprofile_features``' checks (each raising as TVM fails), and what the features need.

    What only an LLVM with assertions dies on (0.21's) is refused only with such tables."""
    kind = config.get("kind")
    if kind != "llvm":
        raise TargetValueError(f"Arm A-profile features need target kind 'llvm', but got {kind!r}")
    mtriple = _optional_str(config, "mtriple")
    mcpu = _optional_str(config, "mcpu")
    mattr = _optional_str_array(config, "mattr") or ()
    assert mtriple is not None  # an A-profile target has an Arm triple
    llvm = _arm.tables_of(arm_tables)
    asserts = llvm.llvm_assertions
    problem = _arm.triple_problem(mtriple, asserts)
    if problem is not None:
        raise TargetValueError(f"-mtriple {mtriple!r}: {problem} (TVM crashes on it)",
                               path="mtriple")
    triple = _arm.arm_triple(mtriple)
    assert triple is not None
    _check_llvm_options(config)
    fatal = _arm.fatal_item(mattr, llvm.fatal_mattr) if llvm.fatal_mattr else None
    if fatal is not None:
        # LLVM aborts the process on a feature without its sign (one with assertions) or,
        # in LLVM 23, without a name; TVM dies with it.
        why = ("names no feature" if fatal in ("+", "-") else "must start with '+' or '-'")
        raise TargetValueError(f"-mattr item {fatal!r} {why} (LLVM aborts on it)",
                               path="mattr")
    return mtriple, triple, mcpu, tuple(mattr)


def _check_llvm_options(config: Mapping[str, Any]) -> None:
    """The option checks of ``LLVMTargetInfo``'s constructor (src/target/llvm/llvm_instance.cc)."""
    cl_opts = _optional_str_array(config, "cl-opt")
    if cl_opts is not None and not all(_is_llvm_option(opt) for opt in cl_opts):
        raise TargetValueError("there were errors parsing command-line options", path="cl-opt")
    float_abi = _optional_str(config, "mfloat-abi")
    if float_abi is not None and float_abi not in ("hard", "soft"):
        raise TargetValueError(f"invalid -mfloat-abi option {float_abi}", path="mfloat-abi")
    jit = _optional_str(config, "jit")
    if jit is not None and jit not in ("mcjit", "orcjit"):
        raise TargetValueError(f"invalid jit option {jit} (can be `orcjit` or `mcjit`).",
                               path="jit")
    width = config.get("vector-width")
    if isinstance(width, int) and not 0 < width <= 65536:
        raise TargetValueError(f"Invalid -vector-width value: {width}", path="vector-width")
    if "mabi" in config:
        _required_str(config, "mabi")


_CL_OPT_TYPES = ("bool", "int", "uint", "string")


def _is_llvm_option(text: str) -> bool:
    """``LLVMTargetInfo::ParseOptionString``: ``-name[:type][=value]`` with a value of that type."""
    body = text.lstrip("-")
    if len(text) - len(body) not in (1, 2):
        return False
    name_end = min((i for i in (body.find(":"), body.find("=")) if i >= 0), default=len(body))
    if name_end == 0:
        return False
    rest = body[name_end:]
    type_ = "bool?"
    if rest.startswith(":"):
        type_, equals, value = rest[1:].partition("=")
        if type_ not in _CL_OPT_TYPES or not equals:
            return False  # TVM's tokenizer reads "-a:int" as a type followed by a stray value
        rest = equals + value
    if not rest:
        return type_ in ("bool", "bool?")
    value = rest[1:]  # rest starts with "="
    if type_ in ("int", "uint"):
        return _stoll(value) is not None
    if type_ == "string":
        return True
    number = _stoll(value)
    return number in (0, 1) or value.lower() in ("true", "false")


def _stoll(text: str) -> int | None:
    """``std::stoll`` that must consume the whole text."""
    stripped = text.lstrip(" \t\n\v\f\r")
    body = stripped[1:] if stripped[:1] in "+-" else stripped
    if not body.isascii() or not body.isdigit():
        return None
    return int64_from_decimal(stripped)


# ---- the parsers -------------------------------------------------------------------------

def _cpu_triple(config: Config, env: Environment | None,
                from_env: set[str]) -> tuple[str | None, str | None]:
    """A CPU target's ``-mtriple`` and ``-mcpu``: an llvm target with neither gets the
    machine's triple (the environment's)."""
    mtriple = _optional_str(config, "mtriple")
    mcpu = _optional_str(config, "mcpu")
    if config.get("kind") == "llvm" and mtriple is None and mcpu is None:
        if env is not None and env.system_triple is not None:
            mtriple = config["mtriple"] = env.system_triple
            from_env.add("mtriple")
    return mtriple, mcpu


def parse_cpu(config: Config, env: Environment | None, from_env: set[str],
              arm_tables: str = _arm.DATA_FILE) -> tuple[Config, Features | None]:
    """``parsers::cpu::ParseTarget`` (llvm and c); the A-profile features by the LLVM tables
    ``arm_tables`` (TVM 0.21's by default; see :func:`cpu_hooks`)."""
    mtriple, mcpu = _cpu_triple(config, env, from_env)
    if (mtriple is None or not mtriple.startswith(_ARM_TRIPLES)) and \
            (mcpu is None or not mcpu.startswith(_MPROFILE)):
        return config, None  # neither profile (in one test: most targets are not Arm)
    if _is_mprofile(mcpu):
        features = _mprofile_features(config)
        _merge_arm_keys(config)
        return config, features
    if _is_aprofile(mtriple, mcpu):
        aprofile = _aprofile_features(config, arm_tables)
        _merge_arm_keys(config)
        return config, aprofile
    return config, None


#: Every member the Arm checks read (``_mprofile_features``, ``_aprofile_checked``; a test
#: holds them to it): the cpu hook reads these, its kind and its keys.
ARM_CHECKS_READ = ("mtriple", "mcpu", "mattr", "cl-opt", "mfloat-abi", "jit", "vector-width",
                   "mabi")
_CPU_READS = ("kind", "keys", *ARM_CHECKS_READ)


def parse_cuda(config: Config, env: Environment | None, from_env: set[str]) -> tuple[Config, Features | None]:
    """``UpdateCUDAAttrs``: validate ``-arch`` or fill it in from the first GPU."""
    if "arch" in config:
        arch = _required_str(config, "arch")
        if not arch.startswith("sm_"):
            raise TargetValueError(f"CUDA target gets an invalid CUDA arch: -arch={arch}", path="arch")
    elif env is not None and env.cuda_arch is not None:
        config["arch"] = env.cuda_arch
        from_env.add("arch")
    return config, None


def parse_nvptx(config: Config, env: Environment | None, from_env: set[str]) -> tuple[Config, Features | None]:
    """``UpdateNVPTXAttrs``: fixed ``-mtriple``; validate ``-mcpu`` or fill it in."""
    _check_or_set(config, "mtriple", "nvptx64-nvidia-cuda")
    if "mcpu" in config:
        mcpu = _required_str(config, "mcpu")
        if not mcpu.startswith("sm_"):
            raise TargetValueError(f"NVPTX target gets an invalid CUDA arch: -mcpu={mcpu}", path="mcpu")
    elif env is not None and env.cuda_arch is not None:
        config["mcpu"] = env.cuda_arch
        from_env.add("mcpu")
    return config, None


def _has_gfx_version(mcpu: str) -> bool:
    """Whether ``ExtractStringWithPrefix(mcpu, "gfx")`` (the ASCII letters and digits after
    ``gfx``) is not empty: it is exactly when the first character after ``gfx`` is one."""
    after = mcpu[3:4]
    return mcpu.startswith("gfx") and after.isascii() and after.isalnum()


def parse_rocm(config: Config, env: Environment | None, from_env: set[str]) -> tuple[Config, Features | None]:
    """``UpdateROCmAttrs``: fixed ``-mtriple``; validate ``-mcpu`` or fill it in; old-ROCm mattr."""
    _check_or_set(config, "mtriple", "amdgcn-amd-amdhsa-hcc")
    if "mcpu" in config:
        mcpu = _required_str(config, "mcpu")
        if not _has_gfx_version(mcpu):
            raise TargetValueError(f"ROCm target gets an invalid GFX version: -mcpu={mcpu}",
                                   path="mcpu")
    elif env is not None and env.rocm_arch is not None:
        config["mcpu"] = env.rocm_arch
        from_env.add("mcpu")
    if env is not None and env.rocm_api_version is not None and env.rocm_api_version < 305:
        mattr = list(_optional_str_array(config, "mattr") or ())
        mattr.append("-code-object-v3")
        config["mattr"] = mattr
        from_env.add("mattr")
    return config, None


def parse_test(config: Config, env: Environment | None, from_env: set[str]) -> tuple[Config, Features | None]:
    """``TestTargetParser``: the ``test`` kind only says that it is one."""
    return config, {"is_test": True}


# ---- hooks of other releases --------------------------------------------------------------

def parse_cuda_tirx(config: Config, env: Environment | None,
                    from_env: set[str]) -> tuple[Config, Features | None]:
    """TVM TIRx's ``UpdateCUDAAttrs``: as TVM's, but without a GPU no ``arch`` at all (TVM's
    ``sm_50`` fallback is gone: the TIRx oracle's ``{"kind": "cuda"}`` exports none)."""
    if "arch" not in config and env is not None and env.cuda_arch_fallback:
        return config, None
    return parse_cuda(config, env, from_env)


#: TVM TIRx's cuda hook.
HOOK_CUDA_TIRX = Hook("UpdateCUDAAttrs", parse_cuda_tirx, ("arch",))


def parse_cpu_tirx(config: Config, env: Environment | None, from_env: set[str],
                   arm_tables: str, arches: frozenset[str]) -> tuple[Config, Features | None]:
    """TVM TIRx's llvm canonicalizer: one per triple architecture it registers (``arches``;
    the rest get none): an AArch64 one (``aarch64``, ``aarch64_be``, ``aarch64_32``) always
    derives the A-profile features, an M-profile CPU's too; an AArch32 one (``arm``,
    ``arm64``, ``armv7a``, ...) the M-profile features for such a CPU, else, for a CPU not
    named ``cortex-m*``, the A-profile ones. Any triple gets the M-profile features of an
    M-profile CPU, as in TVM 0.27."""
    mtriple, mcpu = _cpu_triple(config, env, from_env)
    arch = mtriple.split("-", 1)[0] if mtriple is not None else None
    mprofile = _is_mprofile(mcpu)
    aprofile = arch in arches and (arch.startswith("aarch64") or (
        not mprofile and not _cpu_matches(mcpu, ("cortex-m",))))
    if not aprofile and not mprofile:
        return config, None
    features: Features = _aprofile_features(config, arm_tables) if aprofile else {}
    if mprofile:
        features.update(_mprofile_features(config))
    _merge_arm_keys(config)
    return config, features


def parse_webgpu_027(config: Config, env: Environment | None,
                     from_env: set[str]) -> tuple[Config, Features | None]:
    """``UpdateWebGPUAttrs`` (src/backend/webgpu/codegen/target_kind.cc, TVM 0.27): a warp
    wider than 1 needs subgroups, and subgroups mean a warp of 32."""
    subgroups = config.get("supports_subgroups", False)
    if not isinstance(subgroups, int):
        raise AttributeTypeError("'supports_subgroups' must be a boolean",
                                 path="supports_subgroups")
    if "thread_warp_size" in config:
        warp = config["thread_warp_size"]
        if not isinstance(warp, int):
            raise AttributeTypeError("'thread_warp_size' must be an integer",
                                     path="thread_warp_size")
        if not subgroups and warp > 1:
            raise TargetValueError(f"WebGPU target with thread_warp_size={warp} requires "
                                   "supports_subgroups=true", path="thread_warp_size")
    if subgroups:
        config["thread_warp_size"] = 32
    return config, None


def cpu_hooks(arm_tables: str) -> Mapping[str, Hook]:
    """The llvm and c hooks of a release whose LLVM answers as the tables ``arm_tables``
    (``_arm.RELEASE_FILES``): TVM 0.24 and later run the same parser on their own LLVM."""
    def run(config: Config, env: Environment | None,
            from_env: set[str]) -> tuple[Config, Features | None]:
        return parse_cpu(config, env, from_env, arm_tables)

    hook = Hook("parsers::cpu::ParseTarget", run, _CPU_READS)
    return {"llvm": hook, "c": hook}


def cpu_hooks_tirx(arm_tables: str, data_file: str) -> Mapping[str, Hook]:
    """TVM TIRx's llvm and c hooks (:func:`parse_cpu_tirx`): the architectures come from
    ``data_file``'s ``llvm_canonicalizer_arches`` (read on first use)."""
    found: list[frozenset[str]] = []

    def run(config: Config, env: Environment | None,
            from_env: set[str]) -> tuple[Config, Features | None]:
        if not found:
            from .._schema.facts import data_json  # on first use: a TIRx target of these kinds

            found.append(frozenset(data_json(data_file)["llvm_canonicalizer_arches"])
                         - {"default"})
        return parse_cpu_tirx(config, env, from_env, arm_tables, found[0])

    hook = Hook("codegen.llvm.canonicalize_target", run, _CPU_READS)
    return {"llvm": hook, "c": hook}


#: The target-parser hooks TVM 0.27 has and TVM 0.21 had not.
HOOKS_027: Mapping[str, Hook] = {
    "webgpu": Hook("UpdateWebGPUAttrs", parse_webgpu_027, ("supports_subgroups", "thread_warp_size")),
}


#: Which kinds have a target parser (``set_target_parser`` in target_kind.cc).
TARGET_PARSERS: Mapping[str, Hook] = {
    "llvm": Hook("parsers::cpu::ParseTarget", parse_cpu, _CPU_READS),
    "c": Hook("parsers::cpu::ParseTarget", parse_cpu, _CPU_READS),
    "cuda": Hook("UpdateCUDAAttrs", parse_cuda, ("arch",)),
    "nvptx": Hook("UpdateNVPTXAttrs", parse_nvptx, ("mtriple", "mcpu")),
    "rocm": Hook("UpdateROCmAttrs", parse_rocm, ("mtriple", "mcpu", "mattr")),
    "test": Hook("TestTargetParser", parse_test, ()),
}
