"""Generate what a TVM 0.21 target meant that later moved out of the target or changed default.

    python3 scripts/generate_moved_meaning.py            # writes targetlang/_data/moved-meaning.json
    python3 scripts/generate_moved_meaning.py --check    # exit 1 if the committed file differs

A migrated target can read the same and still mean something else: CUDA code of a cuda target
was compiled with fast-math intrinsics in TVM 0.21 and is not by default since 0.25; options
such as ``-system-lib`` left the target for the runtime, and then the runtime left TVM. Each
entry of ``MEANINGS`` below states one such change: its code, what a target must use for it to
matter (a kind, an option and its values, an attribute left out, a renamed option), the
message, the line that keeps TVM 0.21's meaning in each release (None where nothing does),
and the TVM commits that made it so. Nothing is taken on trust:

* every commit must be in the TVM mirror (``$TVM_GIT_DIR``); the first release tag holding it
  is recorded with its title;
* every cited line must be in its file: at a release's git tag, or for 0.27 and TVM TIRx (no
  git tag) in the wheel their oracle installed, or, for a compiled library of a wheel, among
  its strings;
* which releases an entry applies to is measured, not listed: the CUDA math of each oracle
  (0.21, 0.25, 0.26, 0.27, TIRx; ``cuda_math`` in the file) is asked of that oracle itself
  (``tirx.transform.LowerIntrin`` on a cuda PrimFunc per intrinsic and dtype, by default and
  under the PassContext option ``tirx.enable_fast_math`` where the release has it), 0.22 to
  0.24 by their intrinsic rules in git; the compile flags from each release's ``nvcc.py``
  (TIRx: its ``backend_config.py``); options and renames from the release facts
  (``releases/*.json``).

``targetlang/migration/meaning.py`` reads the file: ``migrate()`` warns with each entry that
applies to a target (``targetlang.MigrationWarning``), and ``meaning_notes()`` gives them to the
upgrade tools.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from shelf import (
    DATA,
    ORACLE_DIR,
    RELEASES_DATA,
    TVM_GIT,
    import_tvm,
    oracle_python,
    render_json,
    write_or_check,
)

OUT = DATA / "moved-meaning.json"
#: The oracles asked for their CUDA math, by dialect.
ORACLES = {"tvm-0.21": "0.21", "tvm-0.25": "0.25", "tvm-0.26": "0.26", "tvm-0.27": "0.27",
           "tirx-0.1": "tirx-0.1"}
#: Where a release without a git tag keeps its Python: its oracle's site-packages.
WHEELS = {"tvm-0.27": ("tvm-0.27", "tvm"), "tirx-0.1": ("tirx-0.1", "tvm_tirx")}
#: The TIR math intrinsics asked, and the dtypes.
MATH_OPS = ("exp", "exp2", "exp10", "log", "log2", "log10", "sin", "cos", "tan", "sinh", "cosh",
            "tanh", "sqrt", "rsqrt", "pow", "erf", "sigmoid", "atan")
MATH_DTYPES = ("float32", "float16", "float64")
FAST_MATH_OPTION = "tirx.enable_fast_math"

# What each entry says. ``trigger``: what a target uses for it to matter:
#   {"kind": K}                       a target (host, device) of kind K;
#   {"kind": K, "without": A}         ... whose migrated dict has no attribute A;
#   {"option": O, "values": [...]}    the source target sets option O (to one of the values;
#                                     JSON values as the source release typed them), which the
#                                     target release does not have;
#   {"renamed": O, "to": A, "kinds": [...]}  the source text spells LLVM's -O, which the
#                                     release read as attribute A.
# ``applies``: how the releases it applies to are found (see ``applies_to``). ``lines``: the line
# that keeps TVM 0.21's meaning, per release range (first, last; None: open) or product.
MEANINGS: list[dict[str, Any]] = [
    {
        "code": "TM101", "name": "cuda-fast-math-intrinsics", "trigger": {"kind": "cuda"},
        "applies": "cuda_math_changed",
        "lines": [{"dialects": ["tvm-0.25", "tvm-0.26", "tvm-0.27", "tirx-0.1"],
                   "line": "with tvm.transform.PassContext(config={\"tirx.enable_fast_math\": "
                           "True}):"}],
        "commits": ["48f346bb07", "59bfb21559"],
        "cite": [("v0.21.0", "src/target/source/intrin_rule_cuda.cc",
                  'TVM_REGISTER_OP("tir.exp").set_attr<FLowerIntrinsic>("cuda.FLowerIntrinsic",'),
                 ("v0.25.0", "src/backend/cuda/codegen/intrin_rule_cuda.cc",
                  '.set_attr<FLowerIntrinsic>("cuda.fastmath.FLowerIntrinsic", '
                  'DispatchPureExtern<CUDAFastMath>)'),
                 ("v0.25.0", "src/tirx/transform/lower_intrin.cc",
                  'ctx->GetConfig<bool>("tirx.enable_fast_math", false).value();')],
    },
    {
        "code": "TM102", "name": "cuda-compile-fast-math", "trigger": {"kind": "cuda"},
        "applies": "cuda_compile_fast_math",
        "lines": [{"dialects": ["tvm-0.26", "tvm-0.27"],
                   "line": "os.environ.update(TVM_CUDA_COMPILE_MODE=\"nvcc\", "
                           "TVM_CUDA_NVCC_NO_FAST_MATH=\"1\")"},
                  {"dialects": ["tirx-0.1"],
                   "line": "\"backend_config\": {\"cuda\": {\"nvcc\": [], \"nvrtc\": []}}"}],
        "commits": ["fa905d2b69", "859498dc01", "694dacb964", "981cdce66b"],
        "cite": [("v0.21.0", "python/tvm/contrib/nvcc.py", 'cmd += [f"--{target_format}", "-O3"]'),
                 ("v0.25.0", "python/tvm/support/nvcc.py",
                  'compiler = os.environ.get("TVM_CUDA_COMPILE_MODE", "nvrtc").lower()'),
                 ("v0.26.0", "python/tvm/support/nvcc.py",
                  '*([] if os.environ.get("TVM_CUDA_NVCC_NO_FAST_MATH") else ["--use_fast_math"])'),
                 ("tirx-0.1", "backend/cuda/backend_config.py", 'nvrtc=["--use_fast_math"],')],
    },
    {
        "code": "TM103", "name": "cuda-arch-without-gpu", "trigger": {"kind": "cuda",
                                                                       "without": "arch"},
        "applies": "no_gpu_cuda_arch_missing",
        "lines": [{"dialects": ["tirx-0.1"], "line": "\"arch\": \"sm_50\""}],
        "commits": [],
        "cite": [("v0.21.0", "src/target/target_kind.cc",
                  'LOG(WARNING) << "Unable to detect CUDA version, default to \\"-arch=sm_50\\" '
                  'instead";'),
                 ("tirx-0.1", "backend/cuda/backend_config.py",
                  '"CUDA compilation requires an explicit backend_config arch or Target arch "')],
    },
    {
        "code": "TM201", "name": "system-lib", "trigger": {"option": "system-lib",
                                                           "values": [True]},
        "applies": "option_gone",
        "lines": [{"first": "tvm-0.10", "last": "tvm-0.19",
                   "line": "runtime=tvm.relay.backend.Runtime(\"cpp\", {\"system-lib\": True})"},
                  {"first": "tvm-0.20", "last": None,
                   "line": "mod = mod.with_attr(\"system_lib_prefix\", \"\")"}],
        "commits": ["0cb633777a", "c15cc5ef6d", "ccaa534b2c"],
        "cite": [("v0.10.0", "src/relay/backend/runtime.cc",
                  'TVM_REGISTER_RUNTIME(kTvmRuntimeCpp).add_attr_option<Bool>("system-lib");'),
                 ("v0.21.0", "python/tvm/relax/vm_build.py",
                  'return tir_mod.with_attr("system_lib_prefix", "")'),
                 ("tvm-0.27", "relax/vm_build.py", 'return tir_mod.with_attr("system_lib_prefix", "")'),
                 ("tirx-0.1", "../tvm_tirx_llvm_targets/lib/libtvm_tirx_llvm_backend.so",
                  "system_lib_prefix")],
    },
    {
        "code": "TM202", "name": "link-params", "trigger": {"option": "link-params",
                                                            "values": [True]},
        "applies": "option_gone",
        "lines": [{"first": "tvm-0.10", "last": "tvm-0.19",
                   "line": "executor=tvm.relay.backend.Executor(\"graph\", {\"link-params\": True})"},
                  {"first": "tvm-0.20", "last": "tvm-0.27",
                   "line": "mod = tvm.relax.transform.BindParams(\"main\", params)(mod)"}],
        "commits": ["0cb633777a", "c15cc5ef6d", "ccaa534b2c", "a531d170b9"],
        "cite": [("v0.10.0", "src/relay/backend/executor.cc",
                  'TVM_REGISTER_EXECUTOR("graph").add_attr_option<Bool>("link-params", Bool(false));'),
                 ("v0.21.0", "python/tvm/relax/transform/transform.py", "def BindParams("),
                 ("tvm-0.27", "relax/transform/transform.py", "def BindParams(")],
    },
    {
        "code": "TM203", "name": "runtime-c", "trigger": {"option": "runtime", "values": ["c"]},
        "applies": "option_gone",
        "lines": [{"first": "tvm-0.10", "last": "tvm-0.18",
                   "line": "runtime=tvm.relay.backend.Runtime(\"crt\")"}],
        "commits": ["0cb633777a", "c15cc5ef6d", "f717c5655c"],
        "cite": [("v0.10.0", "src/relay/backend/runtime.cc", 'TVM_REGISTER_RUNTIME(kTvmRuntimeCrt)')],
    },
    {
        "code": "TM204", "name": "executor-aot", "trigger": {"option": "executor",
                                                             "values": ["aot"]},
        "applies": "option_gone",
        "lines": [{"first": "tvm-0.10", "last": "tvm-0.19",
                   "line": "executor=tvm.relay.backend.Executor(\"aot\")"}],
        "commits": ["0cb633777a", "c15cc5ef6d", "a531d170b9"],
        "cite": [("v0.10.0", "src/relay/backend/executor.cc", 'TVM_REGISTER_EXECUTOR("aot")')],
    },
    {
        "code": "TM205", "name": "aot-interface", "trigger": {"option": "interface-api",
                                                              "values": None},
        "applies": "option_gone",
        "lines": [{"first": "tvm-0.10", "last": "tvm-0.19",
                   "line": "executor=tvm.relay.backend.Executor(\"aot\", {\"interface-api\": "
                           "\"c\"})"}],
        "commits": ["0cb633777a", "c15cc5ef6d", "a531d170b9"],
        "cite": [("v0.10.0", "src/relay/backend/executor.cc",
                  '.add_attr_option<String>("interface-api")')],
    },
    {
        "code": "TM206", "name": "aot-unpacked-api", "trigger": {"option": "unpacked-api",
                                                                 "values": [True]},
        "applies": "option_gone",
        "lines": [{"first": "tvm-0.10", "last": "tvm-0.19",
                   "line": "executor=tvm.relay.backend.Executor(\"aot\", {\"unpacked-api\": "
                           "True})"}],
        "commits": ["0cb633777a", "c15cc5ef6d", "a531d170b9"],
        "cite": [("v0.10.0", "src/relay/backend/executor.cc",
                  '.add_attr_option<Bool>("unpacked-api")')],
    },
    {
        "code": "TM301", "name": "target-is-mtriple", "trigger": {"renamed": "target",
                                                                  "to": "mtriple",
                                                                  "kinds": ["llvm"]},
        "applies": "renamed",
        "lines": [],
        "commits": ["67a7497ad3"],
        "cite": [("v0.6.0", "src/codegen/llvm/llvm_common.cc", 'if (key == "-target" ||')],
    },
    {
        "code": "TM302", "name": "cuda-shared-memory-renamed",
        "trigger": {"renamed": "shared_memory_per_block", "to": "max_shared_memory_per_block",
                    "kinds": ["cuda"]},
        "applies": "renamed",
        "lines": [],
        "commits": ["8729f6b67a"],
        "cite": [("v0.8.0", "src/target/target_kind.cc",
                  '.add_attr_option<Integer>("shared_memory_per_block")')],
    },
]


# ---- inside an oracle: its CUDA math ---------------------------------------------------------

def probe_cuda_math() -> dict[str, Any]:
    """Runs inside an oracle: what each math intrinsic of a cuda PrimFunc lowers to."""
    tvm = import_tvm()
    from tvm.target import Target  # type: ignore[import-not-found]

    tir = getattr(tvm, "tirx", None) or tvm.tir
    prim_func = getattr(tir, "PrimFunc", None) or tir.Function  # TIRx: Function
    evaluate = getattr(tir, "Evaluate", None) or tvm.ir.stmt.Evaluate
    options = sorted(k for k in tvm.transform.PassContext.list_configs() if "fast_math" in k)
    target = Target({"kind": "cuda", "arch": "sm_80"})

    def lowered(op: str, dtype: str, config: dict[str, Any]) -> str:
        x = tir.Var("x", dtype)
        call = getattr(tir, op)(x, x) if op == "pow" else getattr(tir, op)(x)
        module = tvm.IRModule({"main": prim_func([x], evaluate(call)).with_attr("target",
                                                                                target)})
        with tvm.transform.PassContext(config=config):
            body = str(tir.transform.LowerIntrin()(module)["main"].body)
        # the quoted names of the lowered call: no dtype, not the variable (TIRx prints it)
        names = [n for n in re.findall(r'"(\w+)"', body) if n not in (*MATH_DTYPES, "x")]
        return ",".join(names) or body.strip()

    table = {}
    for dtype in MATH_DTYPES:
        for op in MATH_OPS:
            row = {"default": lowered(op, dtype, {})}
            if FAST_MATH_OPTION in options:
                row["fast"] = lowered(op, dtype, {FAST_MATH_OPTION: True})
            table[f"{op}:{dtype}"] = row
    return {"tvm_version": str(tvm.__version__), "options": options, "lowering": table}


def cuda_math(dialect: str) -> dict[str, Any]:
    exe = oracle_python(ORACLES[dialect])
    if not exe.exists():
        raise SystemExit(f"no oracle at {exe}; run shared/oracle/install.sh")
    done = subprocess.run([str(exe), __file__, "--probe"], check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# ---- sources -----------------------------------------------------------------------------------

def git(*args: str) -> str:
    return subprocess.run(["git", f"--git-dir={TVM_GIT}", *args], check=True,
                          stdout=subprocess.PIPE, text=True).stdout


def wheel_file(dialect: str, path: str) -> Path:
    venv, package = WHEELS[dialect]
    site = next((ORACLE_DIR / venv / "lib").glob(f"python3*/site-packages/{package}"))
    return (site / path).resolve()


def source_text(at: str, path: str) -> str | None:
    """A file at a git tag (``v0.21.0``) or in a wheel (``tvm-0.27``, ``tirx-0.1``); None if
    it is not there."""
    if at in WHEELS:
        file = wheel_file(at, path)
        if not file.exists():
            return None
        if file.suffix == ".so":  # a compiled library: its strings
            data = file.read_bytes()
            return "\n".join(m.decode() for m in re.findall(rb"[\x20-\x7e]{6,}", data))
        return file.read_text("utf-8")
    done = subprocess.run(["git", f"--git-dir={TVM_GIT}", "show", f"refs/tags/{at}:{path}"],
                          check=False, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True)
    return done.stdout if done.returncode == 0 else None


def cite(at: str, path: str, needle: str | None) -> str:
    """``at:path:line`` of ``needle`` (a library: ``at:path``); SystemExit if it is not there."""
    text = source_text(at, path)
    if text is None:
        raise SystemExit(f"{at}:{path}: no such file")
    if needle is None:
        return f"{at}:{path}"
    where = (f"apache-tvm-tirx 0.1.0a4 wheel:tvm_tirx/{path}" if at == "tirx-0.1" else
             f"apache-tvm 0.27.0.post1 wheel:tvm/{path}" if at == "tvm-0.27" else f"{at}:{path}")
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return where if path.endswith(".so") else f"{where}:{number}"
    raise SystemExit(f"{at}:{path}: {needle!r} not found")


def release_tags() -> list[str]:
    return [f"v0.{n}.0" for n in range(6, 27)]


def commit_facts(short: str) -> dict[str, Any]:
    full = git("rev-parse", "--verify", f"{short}^{{commit}}").strip()
    title = git("log", "-1", "--format=%s", full).strip()
    first = next((tag for tag in release_tags() if subprocess.run(
        ["git", f"--git-dir={TVM_GIT}", "merge-base", "--is-ancestor", full, f"refs/tags/{tag}"],
        check=False).returncode == 0), None)
    pr = re.search(r"\(#(\d+)\)\s*$", title)
    return {"commit": full[:10], "title": title, "first_release": first,
            "pr": int(pr.group(1)) if pr else None}


# ---- which releases each entry applies to --------------------------------------------------------

def release_facts(dialect: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RELEASES_DATA / f"{dialect}.json").read_text("utf-8"))
    return data


def release_dialects() -> list[str]:
    """The releases a migration can write: TVM's, oldest first, then other products'."""
    out = [f"tvm-0.{n}" for n in range(6, 28)]
    return out + sorted(p.stem for p in RELEASES_DATA.glob("tirx-*.json"))


def after_021(dialect: str) -> bool:
    """A release newer than 0.21's code (TVM's after 0.21, or a product that continues one)."""
    return not dialect.startswith("tvm-") or int(dialect.split(".")[1]) > 21


def first_release(entry: dict[str, Any], commits: list[dict[str, Any]]) -> tuple[int, int]:
    tag = commits[-1]["first_release"] if commits else "v0.6.0"
    return (0, int(tag.split(".")[1]))


def math_fast_by_git(tag: str) -> bool:
    """Whether a release without an oracle lowers cuda's exp to the fast intrinsic by default:
    its rule is registered as ``cuda.FLowerIntrinsic`` (not ``cuda.fastmath.``)."""
    for path in ("src/target/source/intrin_rule_cuda.cc", "src/target/cuda/intrin_rule_cuda.cc",
                 "src/backend/cuda/codegen/intrin_rule_cuda.cc"):
        text = source_text(tag, path)
        if text is not None:
            return bool(re.search(r'"cuda\.FLowerIntrinsic",\s*DispatchPureExtern<CUDAFastMath>',
                                  text))
    raise SystemExit(f"{tag}: no intrin_rule_cuda.cc")


def compile_fast_math(dialect: str) -> bool:
    """Whether a release compiles CUDA C with ``--use_fast_math`` by default (its default
    compiler's function in ``nvcc.py``; TIRx: its default ``backend_config``)."""
    if dialect.startswith("tirx-"):
        tree = ast.parse(source_text(dialect, "backend/cuda/backend_config.py") or "")
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "default_backend_config":
                call = next(n for n in ast.walk(node) if isinstance(n, ast.Call))
                values = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
                return "--use_fast_math" in values[values["compiler"]]
        raise SystemExit(f"{dialect}: no default_backend_config")
    at = dialect.replace("tvm-", "v") + ".0" if dialect not in WHEELS else dialect
    text = None
    for path in ("python/tvm/support/nvcc.py", "python/tvm/contrib/nvcc.py", "support/nvcc.py"):
        text = source_text(at, path)
        if text is not None:
            break
    assert text is not None, dialect
    mode = re.search(r'os\.environ\.get\("TVM_CUDA_COMPILE_MODE", "(\w+)"\)', text)
    function = f"_compile_cuda_{mode.group(1)}" if mode else "compile_cuda"
    tree = ast.parse(text)
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    body = functions.get(function) or functions["compile_cuda"]
    return any(isinstance(n, ast.Constant) and n.value in ("--use_fast_math", b"--use_fast_math")
               for n in ast.walk(body))


def applies_to(entry: dict[str, Any], math: dict[str, dict[str, Any]],
               commits: list[dict[str, Any]]) -> list[str]:
    rule = entry["applies"]
    out = []
    for dialect in release_dialects():
        if rule in ("cuda_math_changed", "cuda_compile_fast_math") and not after_021(dialect):
            continue  # (what changed since the reference meaning, TVM 0.21's)
        if rule == "cuda_math_changed":
            if dialect in math:
                old, new = math["tvm-0.21"]["lowering"], math[dialect]["lowering"]
                changed = any(old[k]["default"] != new[k]["default"] for k in old)
            else:
                changed = not math_fast_by_git(dialect.replace("tvm-", "v") + ".0")
        elif rule == "cuda_compile_fast_math":
            changed = compile_fast_math(dialect) and not compile_fast_math("tvm-0.21")
        elif rule == "no_gpu_cuda_arch_missing":
            fills = release_facts(dialect).get("no_gpu_fills", {})
            changed = "cuda" in fills and fills["cuda"].get("arch") is None
        elif rule == "option_gone":  # the releases after the last that had the option
            option = entry["trigger"]["option"]
            had = [n for n in range(6, 28) if any(
                option in k["attrs"] for k in release_facts(f"tvm-0.{n}")["kinds"].values())]
            changed = not dialect.startswith("tvm-") or int(dialect.split(".")[1]) > max(had)
        elif rule == "renamed":  # every release since the rename reads only the new name
            changed = not dialect.startswith("tvm-") or (
                0, int(dialect.split(".")[1])) >= first_release(entry, commits)
        else:
            raise SystemExit(f"unknown rule {rule}")
        if changed:
            out.append(dialect)
    return out


def lines_of(entry: dict[str, Any], dialects: list[str]) -> dict[str, str | None]:
    """The line for each release the entry applies to (None: no line keeps the meaning)."""
    def number(dialect: str) -> tuple[int, ...]:
        return tuple(int(n) for n in dialect.split("-")[1].split("."))

    out: dict[str, str | None] = {}
    for dialect in dialects:
        out[dialect] = None
        for spec in entry["lines"]:
            if "dialects" in spec:
                if dialect in spec["dialects"]:
                    out[dialect] = spec["line"]
            elif dialect.startswith("tvm-") and number(spec["first"]) <= number(dialect) and (
                    spec["last"] is None or number(dialect) <= number(spec["last"])):
                out[dialect] = spec["line"]
            elif dialect.startswith("tirx-") and spec["last"] is None:
                out[dialect] = spec["line"]  # (TIRx continues TVM's newest)
    return out


# ---- the messages ----------------------------------------------------------------------------------

def pr_list(commits: list[dict[str, Any]]) -> str:
    return ", ".join(f"#{c['pr']}" for c in commits if c["pr"])


def math_message(math: dict[str, dict[str, Any]]) -> tuple[str, list[str], list[str]]:
    """TM101's message: the float32 intrinsics 0.21 lowered fast, and those the fast-math
    option makes fast that 0.21 kept precise."""
    old = math["tvm-0.21"]["lowering"]
    new = math["tvm-0.27"]["lowering"]
    fast = [k.split(":")[0] for k in old if k.endswith(":float32") and k.split(":")[0] !=
            "sigmoid" and old[k]["default"].startswith("__") and new[k]["default"] != old[k]["default"]]
    beyond = [k.split(":")[0] for k in old if k.endswith(":float32") and
              new[k].get("fast", "").startswith("__") and not old[k]["default"].startswith("__")]
    # intrinsics whose lowering changed in any dtype and that no option gives back
    kept_apart = sorted({k.split(":")[0] for k in old if new[k]["default"] != old[k]["default"]
                         and new[k].get("fast", new[k]["default"]) != old[k]["default"]
                         and k.split(":")[0] not in fast + beyond + ["sigmoid"]})
    apart = "".join(f"; {op} is {new[op + ':float32']['default']} where 0.21 computed 1 / "
                    f"{old[op + ':float32']['default']}"
                    if old[op + ":float32"]["default"].startswith("sqrt") else
                    f"; {op} is {new[op + ':float32']['default']} where 0.21 called "
                    f"{old[op + ':float32']['default']}" for op in kept_apart)
    return ("float32 " + ", ".join(fast) + " lowered to fast intrinsics ("
            + ", ".join(old[f"{o}:float32"]["default"] for o in fast[:2]) + ", ...) in TVM 0.21; "
            f"precise since 0.25 unless the PassContext option {FAST_MATH_OPTION} is set (which "
            "also makes " + " and ".join(beyond) + " fast)" + apart), fast, beyond


MESSAGES = {
    "TM102": "TVM 0.21 compiled CUDA with nvcc -O3; since 0.25 with --use_fast_math (NVRTC "
             "by default, nvcc too): every float32 math function fast, denormals flushed, "
             "division and square root approximate",
    "TM103": "without arch, TVM 0.21 compiled for sm_50 on a machine without a GPU; TVM "
             "TIRx fills in none there and refuses to compile",
    "TM201": "out of the target since TVM 0.10 (a Runtime option since 0.9); "
             "Relay's Runtime was removed in TVM 0.20: the module attribute system_lib_prefix "
             "builds a system library",
    "TM202": "out of the target since TVM 0.10 (an Executor option since 0.9); "
             "the executors were removed with Relay in TVM 0.20: Relax links the parameters "
             "bound into the module",
    "TM203": "the C runtime (CRT, microTVM), out of the target since TVM 0.10 (a "
             "Runtime since 0.9), removed with microTVM in TVM 0.19: nothing replaces it",
    "TM204": "out of the target since TVM 0.10 (an Executor since 0.9); the AOT "
             "executor was removed with Relay in TVM 0.20: nothing replaces it",
    "TM205": "an AOT executor option, out of the target since TVM 0.10; the AOT "
             "executor was removed with Relay in TVM 0.20: nothing replaces it",
    "TM206": "an AOT executor option, out of the target since TVM 0.10; the AOT "
             "executor was removed with Relay in TVM 0.20: nothing replaces it",
    "TM301": "LLVM's other name for -mtriple, which TVM 0.6 read; TVM 0.7's target "
             "registry reads -mtriple only (renamed)",
    "TM302": "renamed max_shared_memory_per_block by TVM 0.9",
}


# ---- the file --------------------------------------------------------------------------------------

def generate() -> dict[str, Any]:
    math = {dialect: cuda_math(dialect) for dialect in ORACLES}
    meanings = []
    for entry in MEANINGS:
        commits = [commit_facts(c) for c in entry["commits"]]
        dialects = applies_to(entry, math, commits)
        if entry["code"] == "TM101":
            message, fast, beyond = math_message(math)
            evidence = {"fast_in_0.21": fast, "fast_option_also": beyond}
        else:
            message, evidence = MESSAGES[entry["code"]], {}
        if commits:
            message += f" ({pr_list(commits)})" if pr_list(commits) else ""
        meanings.append({
            "code": entry["code"], "name": entry["name"], "trigger": entry["trigger"],
            "dialects": dialects, "message": message, "lines": lines_of(entry, dialects),
            "commits": commits, "sources": [cite(*c) for c in entry["cite"]], **evidence,
        })
    return {
        "source": "scripts/generate_moved_meaning.py: what a TVM 0.21 target meant that moved "
                  "out of the target or changed default in a later release, each with the "
                  "commits that did it, the lines that show it, and the releases it applies "
                  "to (measured in the oracles and the sources)",
        "cuda_math": {d: {"tvm_version": m["tvm_version"], "options": m["options"],
                          "lowering": m["lowering"]} for d, m in math.items()},
        "meanings": meanings,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe:
        import os

        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # TVM's own prints go to stderr, the protocol to our copy of stdout
        out.write(json.dumps(probe_cuda_math()))
        out.close()
        return 0
    return write_or_check(OUT, render_json(generate()), check=args.check, source="the oracles")


if __name__ == "__main__":
    sys.exit(main())
