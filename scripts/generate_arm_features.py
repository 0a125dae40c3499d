"""Generate the Arm feature tables that TVM reads from LLVM, from the TVM oracles.

    python3 scripts/generate_arm_features.py            # writes targetlang/_data/arm-features.json
    python3 scripts/generate_arm_features.py --check    # exit 1 if the committed file differs
    python3 scripts/generate_arm_features.py --release 0.27   # .../arm-features-0.27.json
    python3 scripts/generate_arm_features.py --release tirx-0.1   # arm-features-tirx-0.1.json

Each release's oracle answers for itself (``--release``: 0.21, the default, or one of the JSON
releases 0.25, 0.26, 0.27 or TVM TIRx ``tirx-0.1``, whose wheels link their own LLVM). TVM 0.25 and later also accept
an LLVM CPU alias as ``-mcpu`` (``LLVMTargetInfo::IsValidCPU`` asks ``isCPUStringValid``;
0.21 only took the names of ``llvm_get_cpu_archlist``): the alias is recorded among the
CPUs with the features LLVM gives it where the oracle takes it, else among ``cpu_aliases``.
The JSON releases' wheels link LLVM statically and export none of its C API, so their
files hold the feature and CPU tables only, and whether that LLVM has assertions on
(``llvm_assertions``: 0.21's LLVM dies on a feature item without its sign and on an AArch32
triple whose object format and OS disagree; a release build reads the item as a removal and
builds the machine; ``fatal_mattr``, where it differs from what that implies: the ``-mattr``
items that kill it, as a sign without a feature name kills TVM TIRx's LLVM 23); what a triple adds is 0.21's recording (``arm-features.json``), which
the per-release differential (tests/golden/test_release_differential.py) checks on every
Arm target of TVM 0.21's features table.

TVM's A-profile parser (src/target/parsers/aprofile.cc) asks LLVM which subtarget features a
(triple, CPU, -mattr) combination has. The answer comes from LLVM's subtarget tables: which
features each CPU has, which features each feature implies, and which architecture feature
an AArch32 triple's sub-architecture adds. This script records those facts from the LLVM that
the oracle's TVM links, by asking TVM (``tvm.target._ffi_api``; TIRx's ``codegen.*`` global
functions) and nothing else:

* feature and CPU names: ``-mattr=+help`` (LLVM prints its tables; one family per process,
  as LLVM prints them once) and ``llvm_get_cpu_archlist`` (the CPUs TVM's ``-mcpu`` check
  accepts);
* what a feature implies: ``llvm_get_cpu_features`` with ``-mattr`` removing every feature
  and then adding that one (removing all leaves nothing, so what comes back is the feature
  and everything it implies);
* what a CPU has: ``llvm_get_cpu_features`` with that ``-mcpu``;
* what an AArch32 sub-architecture adds (``armv7a``, ``armv8.2a``, ...) when the CPU is
  ``generic``: ``llvm_get_cpu_features`` of ``arm<sub>-unknown-linux-gnueabihf``, for every
  name that can select an architecture (each suffix of a feature name that LLVM's
  sub-architecture syntax allows, and the usual spellings); whether LLVM makes the triple
  a Thumb one comes from LLVM's C API (``LLVMGetTargetFromTriple``) on the library TVM loaded;
* which OS names and object-format suffixes change whether LLVM can build a target machine
  for a triple (TVM dies where it cannot): each candidate is tried in a few triples, in
  forked children (``LLVMCreateTargetMachine``), and the pattern of refusals names its class
  under targetlang's model (``targetlang._lower.arm.machine_fails``), or fails the model.

Implications are stored as their transitive reduction and CPUs as their smallest generating
sets; the script checks that closing them again gives back every observed set. The oracle is
``$TARGETLANG_ORACLE_DIR/bin/tvm021-python`` (default ``~/.cache/targetlang-oracle``); this
script re-runs itself under it (``--probe ...``).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import string
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from shelf import ORACLE_DIR, REPO, import_tvm, oracle_python, write_or_check

ORACLE_PYTHON = ORACLE_DIR / "bin" / "tvm021-python"
#: The releases with an oracle to probe; 0.21's file is the full model, the others' only
#: their LLVM's feature and CPU tables.
RELEASES = ("0.21", "0.25", "0.26", "0.27", "tirx-0.1")


def output_of(release: str) -> Path:
    name = "arm-features.json" if release == "0.21" else f"arm-features-{release}.json"
    return REPO / "targetlang" / "_data" / name


def _llvm_api() -> Any:
    """Inside the oracle: TVM's LLVM queries (``llvm_get_cpu_features``, ...), from
    ``tvm.target._ffi_api``, or, in TVM TIRx, its ``codegen.*`` global functions."""
    import types

    import_tvm()
    from tvm.target import _ffi_api  # type: ignore[import-not-found]

    if hasattr(_ffi_api, "llvm_get_cpu_features"):
        return _ffi_api
    import tvm_ffi  # type: ignore[import-not-found]

    names = ("llvm_get_cpu_features", "llvm_get_cpu_archlist", "llvm_version_major")
    return types.SimpleNamespace(**{n: tvm_ffi.get_global_func(f"codegen.{n}") for n in names})

#: The triple each LLVM target is probed with (any triple of that target gives the same tables).
FAMILIES = {"aarch64": "aarch64-unknown-linux-gnu", "arm": "arm-unknown-linux-gnueabihf"}
#: A CPU LLVM does not know, to read the fallback message (and LLVM's full version) from TVM.
UNKNOWN_CPU = "targetlang-no-such-cpu"
#: OS and object-format names to classify (LLVM's own names, variants and decoys).
OS_CANDIDATES = (
    "aix", "amdhsa", "amdpal", "android", "bridgeos", "coff", "cuda", "cygwin", "darwin",
    "dragonfly", "driverkit", "eabi", "elf", "elfiamcu", "emscripten", "firmware", "freebsd",
    "fuchsia", "gnu", "haiku", "hermit", "hurd", "ios", "kfreebsd", "linux", "liteos", "lv2",
    "macho", "macos", "managarm", "mesa3d", "mingw32", "nacl", "netbsd", "none", "nvcl",
    "openbsd", "ps4", "ps5", "rtems", "serenity", "shadermodel", "solaris", "tvos", "uefi",
    "unknown", "visionos", "vulkan", "wasi", "watchos", "win", "win32", "window", "windows",
    "xros", "zos", "macosx", "ios17.0", "windows10", "darwin23", "netbsd10")
FORMAT_CANDIDATES = ("xcoff", "coff", "elf", "goff", "macho", "wasm", "spirv", "dxcontainer",
                     "dxil", "gnu", "msvc", "eabihf", "none", "ELF", "machO", "off", "lf",
                     "gnuelf", "gnu-elf", "foo-coff", "x-macho", "itanium-coff")
#: Sub-architecture spellings to probe besides the suffixes of feature names.
EXTRA_SUBARCH_SUFFIXES = ("", "a", "l", "hl", "r", "m", "em", "s", "k", "ve", "t", "te", "tej",
                          "j", "z", "zk", "kz", "sm", "t2", "e", "m.base", "m.main", "1m.main")


# ---- inside the oracle -------------------------------------------------------------------

def _stderr_of(call: Callable[[], Any]) -> tuple[Any, str]:
    """Run ``call`` with file descriptor 2 captured (LLVM and TVM write there directly)."""
    sys.stderr.flush()
    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        try:
            result = call()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        return result, tmp.read().decode("utf-8", "replace")


def _help_tables(text: str) -> tuple[list[str], list[str]]:
    """CPU and feature names from LLVM's ``+help`` listing."""
    cpus: list[str] = []
    features: list[str] = []
    section: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("Available CPUs"):
            section = cpus
        elif line.startswith("Available features"):
            section = features
        elif line.startswith("Use +feature"):
            section = None
        elif section is not None and line.startswith("  ") and line.strip():
            section.append(line.split()[0])
    return cpus, features


def probe_family(family: str) -> dict[str, Any]:
    """Runs inside the oracle: every table of one LLVM target (AArch64 or ARM)."""
    tvm = import_tvm()
    from tvm.target import Target  # type: ignore[import-not-found]

    ffi = _llvm_api()
    triple = FAMILIES[family]

    def features(**config: Any) -> list[str]:
        target = Target({"kind": "llvm", "mtriple": triple, **config})
        return sorted(str(f) for f in ffi.llvm_get_cpu_features(target))

    _, listing = _stderr_of(lambda: features(mattr=["+help"]))
    help_cpus, names = _help_tables(listing)
    if not names:
        raise SystemExit(f"LLVM printed no feature table for {triple}")
    archlist = sorted(str(c) for c in ffi.llvm_get_cpu_archlist(Target({"kind": "llvm",
                                                                         "mtriple": triple})))
    remove_all = ["-" + name for name in names]
    if features(mattr=remove_all):
        raise SystemExit("removing every feature left some set: the model does not hold")
    closures = {name: features(mattr=remove_all + ["+" + name]) for name in names}
    cpus = {cpu: features(mcpu=cpu) for cpu in archlist}
    # A CPU alias (listed by +help, not by the archlist): taken where TVM logs no fallback.
    aliases = {}
    for cpu in sorted(set(help_cpus) - set(archlist)):
        have, said = _stderr_of(lambda cpu=cpu: features(mcpu=cpu))
        aliases[cpu] = None if f"-mcpu={cpu}` is not valid" in said else have
    _, message = _stderr_of(lambda: Target({"kind": "llvm", "mtriple": triple,
                                            "mcpu": UNKNOWN_CPU}))
    found = re.search(r"Using LLVM (\S+) with `-mcpu=" + re.escape(UNKNOWN_CPU), message)
    if found is None:
        raise SystemExit(f"TVM did not report the -mcpu fallback: {message!r}")
    return {
        "tvm_version": str(tvm.__version__),
        "llvm_version": found.group(1),
        "llvm_version_major": int(ffi.llvm_version_major()),
        "help_cpus": sorted(help_cpus),
        "archlist": archlist,
        "closures": closures,
        "cpus": cpus,
        "aliases": aliases,
    }


def _llvm_library() -> ctypes.CDLL:
    """The libLLVM that TVM has loaded (found in this process's memory map)."""
    with open("/proc/self/maps", encoding="utf-8") as maps:
        for line in maps:
            path = line.split()[-1]
            if os.path.basename(path).startswith("libLLVM") and ".so" in path:
                lib = ctypes.CDLL(path)
                lib.LLVMGetTargetFromTriple.argtypes = [
                    ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                    ctypes.POINTER(ctypes.c_char_p)]
                lib.LLVMGetTargetFromTriple.restype = ctypes.c_int
                lib.LLVMGetTargetName.argtypes = [ctypes.c_void_p]
                lib.LLVMGetTargetName.restype = ctypes.c_char_p
                return lib
    raise SystemExit("TVM has not loaded a libLLVM")


def lookup_target(lib: ctypes.CDLL, triple: bytes) -> str | None:
    """LLVM's ``TargetRegistry::lookupTarget``: the target's name, or None (TVM then crashes)."""
    target = ctypes.c_void_p()
    error = ctypes.c_char_p()
    if lib.LLVMGetTargetFromTriple(triple, ctypes.byref(target), ctypes.byref(error)):
        return None
    name: bytes = lib.LLVMGetTargetName(target)
    return name.decode()


def probe_machines(triples: Iterable[str]) -> dict[str, str | None]:
    """Runs inside the oracle: can LLVM build a target machine for each triple?

    TVM builds one for an Arm triple (``GetAllLLVMTargetArches``); LLVM asserts (and TVM dies)
    when the triple's object format and the target's assembler info disagree. Each try runs
    in a forked child: "ok", "abort" (or another signal's name), "null" (LLVM gave no machine;
    TVM's check fails, or LLVM exits), or None without a target.
    """
    import signal

    from tvm.target import Target  # type: ignore[import-not-found]

    Target({"kind": "llvm", "mtriple": "aarch64-unknown-linux-gnu"})  # initialises LLVM
    lib = _llvm_library()
    lib.LLVMCreateTargetMachine.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                                            ctypes.c_char_p, ctypes.c_int, ctypes.c_int,
                                            ctypes.c_int]
    lib.LLVMCreateTargetMachine.restype = ctypes.c_void_p
    out: dict[str, str | None] = {}
    for triple in triples:
        raw = triple.encode("utf-8", "surrogateescape")
        target = ctypes.c_void_p()
        error = ctypes.c_char_p()
        if lib.LLVMGetTargetFromTriple(raw, ctypes.byref(target), ctypes.byref(error)):
            out[triple] = None
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            # TVM's arguments: no CPU, no features, default level, static, small code model.
            machine = lib.LLVMCreateTargetMachine(target, raw, b"", b"", 0, 1, 3)
            os._exit(0 if machine else 3)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            out[triple] = "abort" if os.WTERMSIG(status) == signal.SIGABRT \
                else signal.Signals(os.WTERMSIG(status)).name
        else:
            out[triple] = "ok" if os.WEXITSTATUS(status) == 0 else "null"
    return out


def probe_triples(job: Mapping[str, Any]) -> dict[str, Any]:
    """Runs inside the oracle: target names of triples, and features of some of them.

    ``job["lookup"]``: triples; ``job["features"]``: ``[triple, cpu or None, mattr?]`` lists
    (the caller keeps out ``-mattr`` items without a sign: LLVM aborts on them).
    """
    ffi = _llvm_api()
    from tvm.target import Target  # type: ignore[import-not-found]

    Target({"kind": "llvm", "mtriple": "aarch64-unknown-linux-gnu"})  # initialises LLVM
    lib = _llvm_library()
    names = {t: lookup_target(lib, t.encode("utf-8", "surrogateescape"))
             for t in job.get("lookup", ())}
    sets: list[list[str] | None] = []
    for triple, cpu, *mattr in job.get("features", ()):
        if lookup_target(lib, triple.encode("utf-8", "surrogateescape")) is None:
            sets.append(None)  # TVM would crash on it
            continue
        config: dict[str, Any] = {"kind": "llvm", "mtriple": triple}
        if cpu is not None:
            config["mcpu"] = cpu
        if mattr:
            config["mattr"] = mattr[0]
        sets.append(sorted(str(f) for f in ffi.llvm_get_cpu_features(Target(config))))
    return {"lookup": names, "features": sets}


# ---- outside: turning observations into tables -------------------------------------------

def run_probe(*args: str, stdin: str = "") -> Any:
    done = subprocess.run([str(ORACLE_PYTHON), __file__, "--probe", *args], input=stdin,
                          check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(done.stdout)


def closure(names: Iterable[str], implies: Mapping[str, list[str]]) -> set[str]:
    seen: set[str] = set()
    stack = list(names)
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack.extend(implies[name])
    return seen


def reduce_implications(closures: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """The transitive reduction of "feature implies feature" (a DAG: checked)."""
    sets = {name: set(c) for name, c in closures.items()}
    for name, implied in sets.items():
        if name not in implied:
            raise SystemExit(f"feature {name!r} does not imply itself: the model does not hold")
        for other in implied - {name}:
            if name in sets[other]:
                raise SystemExit(f"features {name!r} and {other!r} imply each other")
            if not sets[other] <= implied:
                raise SystemExit(f"implication of {name!r} is not transitive")
    direct = {}
    for name, implied in sets.items():
        strict = implied - {name}
        direct[name] = sorted(g for g in strict
                              if not any(g in sets[h] for h in strict if h != g))
    for name, implied in sets.items():
        if closure([name], direct) != implied:
            raise SystemExit(f"reduction of {name!r} does not close back")
    return direct


def generators(observed: Iterable[str], implies: Mapping[str, list[str]]) -> list[str]:
    """The smallest set of features whose closure is ``observed`` (which must be closed)."""
    have = set(observed)
    closures = {name: closure([name], implies) for name in have}
    gens = sorted(x for x in have if not any(x in closures[y] for y in have if y != x))
    if closure(gens, implies) != have:
        raise SystemExit(f"observed feature set is not closed: {sorted(have)}")
    return gens


def subarch_candidates(feature_names: Iterable[str]) -> list[str]:
    """Names that can select an AArch32 architecture: what follows ``arm`` in a triple.

    LLVM matches a sub-architecture (after its synonyms) as a suffix of an architecture
    name, and only accepts one that starts with ``v<digit>`` or has a single character;
    every such suffix of a feature name is a candidate, and so are the usual spellings.
    """
    out: set[str] = set(string.ascii_lowercase + string.digits + "._")
    for name in feature_names:
        for i in range(len(name)):
            tail = name[i:]
            if "-" not in tail and (len(tail) == 1 or (tail[0] == "v" and tail[1].isdigit())):
                out.add(tail)
    for major in range(2, 11):
        for suffix in EXTRA_SUBARCH_SUFFIXES:
            out.add(f"v{major}{suffix}")
        for minor in range(13):
            out.add(f"v{major}.{minor}a")
            out.add(f"v{major}.{minor}")
    return sorted(s for s in out if "eb" not in s)


def _arm_module() -> Any:
    """targetlang's model of LLVM (pure functions only are used here)."""
    from targetlang._lower import arm as _arm
    return _arm


#: Probe triples for a format suffix: (text before the suffix, target, big-endian, OS class).
FORMAT_PROBES = (("aarch64-unknown-linux-gnu-", "aarch64", False, "other"),
                 ("arm-unknown-linux-gnu-", "arm", False, "other"),
                 ("armeb-unknown-linux-gnu-", "arm", True, "other"),
                 ("arm-apple-macos-", "arm", False, "darwin"),
                 ("arm-pc-windows-", "arm", False, "windows"),
                 ("arm-unknown-uefi-", "arm", False, "uefi"),
                 ("arm-unknown-netbsd-", "arm", False, "netbsd"))
#: Probe triples for an OS name: (arch, target, big-endian, format suffix or None).
OS_PROBES = (("armeb", "arm", True, None), ("arm", "arm", False, None),
             ("arm", "arm", False, "coff"), ("arm", "arm", False, "wasm"),
             ("arm", "arm", False, "macho"), ("arm", "arm", False, "elf"),
             ("armebv7k", "arm", True, None))


def _classify(observed: Mapping[str, tuple[bool, ...]],
              expected: Mapping[str | None, tuple[bool, ...]], what: str) -> dict[str, str | None]:
    by_signature: dict[tuple[bool, ...], str | None] = {}
    for cls, signature in expected.items():
        if signature in by_signature:
            raise SystemExit(f"the {what} probes cannot tell {cls} from {by_signature[signature]}")
        by_signature[signature] = cls
    out = {}
    for name, signature in observed.items():
        if signature not in by_signature:
            raise SystemExit(f"{what} {name!r}: LLVM's answers {signature} fit no class "
                             "of the model")
        out[name] = by_signature[signature]
    return out


def _minimal(names: Mapping[str, str | None],
             match: Callable[[str, str], bool]) -> dict[str, list[str]]:
    """Per class, the names no shorter same-class name already covers (by prefix or suffix)."""
    out: dict[str, list[str]] = {}
    for name, cls in names.items():
        if cls is None or cls == "other" and match is str.startswith:
            continue
        covered = [t for t, c in names.items() if t != name and match(name, t)]
        if covered and names[max(covered, key=len)] == cls:
            continue
        out.setdefault(cls, []).append(name)
    return {cls: sorted(v) for cls, v in sorted(out.items())}


def triple_rules() -> dict[str, Any]:
    """How LLVM classifies a triple's OS and object format, as far as building a machine goes.

    Each candidate is tried in a few triples; the model's prediction of which of those LLVM
    refuses differs for every class, so LLVM's answers name the class (or fail the model).
    """
    arm = _arm_module()
    machine_fails = arm.machine_fails
    fmt_triples = {f: [head + f for head, *_ in FORMAT_PROBES] for f in FORMAT_CANDIDATES}
    os_triples = {o: [f"{a}-v-{o}" + (f"-{f}" if f else "") for a, _, _, f in OS_PROBES]
                  for o in OS_CANDIDATES}
    everything = [t for ts in (*fmt_triples.values(), *os_triples.values()) for t in ts]
    answers = run_probe("machines", stdin=json.dumps(everything))
    if any(answers[t] is None for t in everything):
        raise SystemExit("a probe triple has no target")
    fmt_expected = {cls: tuple(machine_fails(tgt, big, os, cls, False)
                               for _, tgt, big, os in FORMAT_PROBES)
                    for cls in (None, "elf", "macho", "coff", "fatal", "other")}
    formats = _classify({f: tuple(answers[t] != "ok" for t in ts)
                         for f, ts in fmt_triples.items()}, fmt_expected, "object format")
    suffix_class = {f: c for f, c in formats.items() if c is not None}
    os_expected = {}
    for cls in ("darwin", "windows", "uefi", "netbsd", "other"):
        os_expected[cls] = tuple(
            machine_fails(tgt, big, cls, None if f is None else suffix_class[f], a.endswith("v7k"))
            for a, tgt, big, f in OS_PROBES)
    oses = _classify({o: tuple(answers[t] != "ok" for t in ts)
                      for o, ts in os_triples.items()}, os_expected, "OS")
    for name, cls in (("linux", "other"), ("macos", "darwin"), ("windows", "windows"),
                      ("uefi", "uefi"), ("netbsd", "netbsd")):
        if oses[name] != cls:
            raise SystemExit(f"the format probes assumed {name} is {cls}, LLVM says {oses[name]}")
    return {"os_prefixes": _minimal(oses, str.startswith),
            "format_suffixes": _minimal(formats, str.endswith)}


def build(release: str = "0.21") -> dict[str, Any]:
    probed = {family: run_probe("family", family) for family in FAMILIES}
    versions = {(p["tvm_version"], p["llvm_version"]) for p in probed.values()}
    if len(versions) != 1:
        raise SystemExit(f"the probes disagree on versions: {versions}")
    ((tvm_version, llvm_version),) = versions
    targets: dict[str, Any] = {}
    for family, p in probed.items():
        implies = reduce_implications(p["closures"])
        taken = {cpu: have for cpu, have in p["aliases"].items() if have is not None}
        cpus = {cpu: generators(have, implies) for cpu, have in {**p["cpus"], **taken}.items()}
        targets[family] = {
            "probe_triple": FAMILIES[family],
            "features": implies,
            "cpus": cpus,
            # Names LLVM lists (its CPU aliases) that TVM's -mcpu check refuses: generic.
            "cpu_aliases": sorted(set(p["help_cpus"]) - set(p["archlist"]) - set(taken)),
        }
    if release != "0.21":  # the feature and CPU tables only (see the module's docstring)
        asserts, fatal = llvm_assertions()
        data = {"source": f"TVM {tvm_version} linked with LLVM {llvm_version}; recorded by "
                          f"scripts/generate_arm_features.py --release {release}",
                "tvm_version": tvm_version, "llvm_version": llvm_version,
                "llvm_assertions": asserts, "targets": targets}
        if fatal != (["unsigned"] if asserts else []):  # (what the assertions imply: unsaid)
            data["fatal_mattr"] = fatal
        return data
    targets["arm"].update(arm_subarchs(targets["arm"]))
    data = {
        "source": f"TVM {tvm_version} linked with LLVM {llvm_version}; recorded by "
                  "scripts/generate_arm_features.py",
        "tvm_version": tvm_version,
        "llvm_version": llvm_version,
        "targets": targets,
    }
    data["triples"] = triple_rules()
    return data


#: What an LLVM built with assertions dies on, and a release build goes through: a feature
#: item without its sign (a release build reads it as a removal), an object format at odds
#: with the OS (it builds the machine anyway); and what LLVM 23 (TVM TIRx's) dies on: a sign
#: without a feature name. Each is read as TVM reads a target, in a process of its own.
ASSERTION_PROBES = {"unsigned": {"mtriple": "aarch64-unknown-linux-gnu", "mattr": ["neon"]},
                    "bare-sign": {"mtriple": "aarch64-unknown-linux-gnu", "mattr": ["+"]},
                    "format": {"mtriple": "armeb-apple-macos"},
                    "uefi": {"mtriple": "arm-unknown-uefi"}}


def probe_assertions(name: str) -> dict[str, Any]:
    """Runs inside the oracle: the export of one assertion probe (if it lives)."""
    import_tvm()
    from tvm.target import Target  # type: ignore[import-not-found]

    exported = Target({"kind": "llvm", **ASSERTION_PROBES[name]}).export()
    return {str(k): bool(v) for k, v in exported.items() if str(k).startswith("feature.")}


def llvm_assertions() -> tuple[bool, list[str]]:
    """Whether the oracle's LLVM dies where one with assertions does on a triple (0.21's
    does: the probes kill it), and the ``-mattr`` item classes that kill it."""
    died = {}
    for name in ASSERTION_PROBES:
        done = subprocess.run([str(ORACLE_PYTHON), __file__, "--probe", "assertions", name],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        died[name] = done.returncode != 0
        if name == "unsigned" and not died[name] and json.loads(done.stdout).get(
                "feature.has_asimd", False):
            raise SystemExit("an unsigned 'neon' did not remove neon: the model does not hold")
    if died["format"] != died["uefi"]:
        raise SystemExit("the triple probes disagree: the model does not hold")
    return died["format"], sorted(n for n in ("unsigned", "bare-sign") if died[n])


def arm_subarchs(arm: Mapping[str, Any]) -> dict[str, Any]:
    """What the sub-architecture of an AArch32 triple adds, and which make it a Thumb one."""
    implies: Mapping[str, list[str]] = arm["features"]
    candidates = subarch_candidates(implies)
    triples = {s: f"arm{s}-unknown-linux-gnueabihf" for s in candidates}
    cpus = sorted(cpu for cpu in arm["cpus"] if cpu != "generic")
    thumb_triple = "armv6m-unknown-linux-gnueabihf"
    windows_triple = "arm-pc-windows-msvc"
    job = {"lookup": list(triples.values()) + [thumb_triple],
           "features": [[t, None] for t in triples.values()]
           + [[tt, cpu] for cpu in cpus for tt in (FAMILIES["arm"], thumb_triple, windows_triple)]}
    answer = run_probe("triples", stdin=json.dumps(job))
    names = answer["lookup"]
    sets = answer["features"]
    generic_sets = dict(zip(candidates, sets[:len(candidates)]))
    pairs = sets[len(candidates):]
    if names[thumb_triple] != "thumb":
        raise SystemExit(f"{thumb_triple} is not a Thumb triple: {names[thumb_triple]}")
    # A Thumb (or Windows) triple adds its features whatever the CPU: their union over CPUs
    # (no CPU has them all) is what it adds; then every CPU is checked against that.
    rows = list(zip(cpus, pairs[0::3], pairs[1::3], pairs[2::3]))
    added = {}
    for column, what in ((2, "Thumb"), (3, "Windows")):
        extra: set[str] = set()
        for row in rows:
            extra |= set(row[column]) - set(row[1])
        added[what] = generators(closure(extra, implies), implies)
        for row in rows:
            base = closure(arm["cpus"][row[0]], implies)
            if set(row[1]) != base or set(row[column]) != base | closure(added[what], implies):
                raise SystemExit(f"CPU {row[0]!r}: a {what} triple does not just add "
                                 f"{added[what]}")
    thumb_features = added["Thumb"]
    subarch: dict[str, str] = {}
    thumb: list[str] = []
    for s in candidates:
        name = names[triples[s]]
        if name is None:
            raise SystemExit(f"LLVM refuses the sub-architecture candidate {s!r}")
        is_thumb = name == "thumb"
        if name not in ("arm", "thumb"):
            raise SystemExit(f"arm{s} is neither an ARM nor a Thumb triple: {name}")
        observed = set(generic_sets[s] or ())
        extra = closure(thumb_features, implies) if is_thumb else set()
        if observed == extra:
            if is_thumb:
                raise SystemExit(f"Thumb sub-architecture {s!r} without an architecture")
            continue  # LLVM knows no architecture by that name: nothing is added
        matches = sorted(f for f in implies if closure([f], implies) | extra == observed)
        if not matches:
            raise SystemExit(f"sub-architecture {s!r}: no single feature explains {observed}")
        # Several features can have the same closure; LLVM adds the architecture's own.
        named = [f for f in matches if f.startswith(("armv", "iwmmxt", "xscale"))]
        subarch[s] = (named or matches)[0]
        if is_thumb:
            thumb.append(s)
    return {"thumb_features": thumb_features, "windows_features": added["Windows"],
            "subarch_features": subarch, "thumb_subarchs": thumb}


def render(data: Mapping[str, Any]) -> str:
    """JSON with one feature, CPU or sub-architecture per line (readable diffs, small file)."""
    def block(mapping: Mapping[str, Any], indent: str) -> str:
        lines = [f"{indent} {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(mapping.items())]
        return "{\n" + ",\n".join(lines) + "\n" + indent + "}"

    parts = []
    for key, value in data.items():
        if key not in ("targets", "triples"):
            parts.append(f" {json.dumps(key)}: {json.dumps(value)}")
    target_parts = []
    for family, table in sorted(data["targets"].items()):
        fields = []
        for key, value in table.items():
            text = block(value, "   ") if isinstance(value, dict) else json.dumps(value)
            fields.append(f"   {json.dumps(key)}: {text}")
        target_parts.append(f"  {json.dumps(family)}: {{\n" + ",\n".join(fields) + "\n  }")
    parts.append(' "targets": {\n' + ",\n".join(target_parts) + "\n }")
    if "triples" in data:
        rules = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in data["triples"].items()]
        parts.append(' "triples": {\n' + ",\n".join(rules) + "\n }")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    ap.add_argument("--release", choices=RELEASES, default="0.21",
                    help="the oracle to probe (default 0.21)")
    ap.add_argument("--probe", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe:
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # TVM's own prints go to stderr, the protocol to our copy of stdout
        if args.probe[0] == "family":
            result = probe_family(args.probe[1])
        elif args.probe[0] == "assertions":
            result = probe_assertions(args.probe[1])
        elif args.probe[0] == "machines":
            result = probe_machines(json.loads(sys.stdin.read()))
        else:
            result = probe_triples(json.loads(sys.stdin.read()))
        out.write(json.dumps(result))
        out.close()
        return 0
    global ORACLE_PYTHON
    ORACLE_PYTHON = oracle_python(args.release)
    if not ORACLE_PYTHON.exists():
        sys.exit(f"no TVM {args.release} oracle at {ORACLE_PYTHON}; run "
                 "../shared/oracle/install.sh")
    text = render(build(args.release))
    json.loads(text)  # the renderer must write valid JSON
    return write_or_check(output_of(args.release), text, check=args.check, source="the oracle")


if __name__ == "__main__":
    sys.exit(main())
