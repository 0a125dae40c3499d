"""The scripts' shelf: what every script under ``scripts/`` shares, in one place.

Scripts run from a checkout as ``python3 scripts/NAME.py`` after ``pip install -e .``: Python
puts the script's own directory on ``sys.path``, so ``import shelf`` finds this package and
``import targetlang`` the installed checkout. Nothing here inserts into ``sys.path``.

* where things are: ``REPO``, ``DATA`` (``targetlang/_data``), ``RELEASES_DATA``, ``TESTS_DATA``,
  ``SHARED`` (the shared folder with ``oracle/query.py``), ``ORACLE_DIR`` and
  :func:`oracle_python` (the TVM oracles, ``$TARGETLANG_ORACLE_DIR``), ``TVM_GIT`` (an apache/tvm
  git clone, ``$TVM_GIT_DIR`` or ``$TARGETLANG_TVM_GIT``) and :func:`tvm_git` /
  :func:`tvm_show` (git commands in it; a file at a release tag);
* writing generated files deterministically: :func:`render_json`, :func:`write_or_check`;
* running an oracle: :func:`oracle_env` (the environment in which an oracle's Python imports
  targetlang, lark and this shelf); in it, :func:`import_tvm` (its TVM as ``tvm``, TIRx's
  too) and :func:`plain` (a TVM value as plain JSON);
  :func:`shared_oracle_module` (``query.py``).

``shelf.tvm_source`` reads facts out of TVM's source at a git tag; ``shelf.tvm06`` is the
transcription of TVM 0.6 (which had no kind registry).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

#: The checkout the scripts belong to.
REPO = Path(__file__).resolve().parent.parent.parent
#: The package's data tables, and the per-release facts among them.
DATA = REPO / "targetlang" / "_data"
RELEASES_DATA = DATA / "releases"
#: The goldens and other recorded data of the tests.
TESTS_DATA = REPO / "tests" / "data"
#: The shared folder beside the worktrees (``oracle/query.py``, corpora, seeds).
SHARED = Path(os.environ.get("TARGETLANG_SHARED", REPO.parent / "shared"))
#: Where the TVM oracles are installed (``bin/tvm021-python``, ...).
ORACLE_DIR = Path(os.environ.get("TARGETLANG_ORACLE_DIR", Path.home() / ".cache/targetlang-oracle"))
#: An apache/tvm git clone with the release tags (``v0.6.0`` ... ``v0.26.0``).
#: Bare git mirrors of other public repositories (``owner+name/repo``), which some
#: generators read (NVIDIA/cutlass, ROCm/ROCm, linuxhw/LsCPU, ...).
MIRRORS = Path(os.environ.get("TARGETLANG_MIRRORS", "/work/.mirror"))
TVM_GIT = Path(os.environ.get("TVM_GIT_DIR") or os.environ.get("TARGETLANG_TVM_GIT")
               or "/work/.mirror/apache+tvm/repo")


def oracle_python(release: str) -> Path:
    """The Python of the oracle of ``release``: ``"0.21"`` or ``"tvm-0.21"`` ->
    ``.../bin/tvm021-python``, ``"tirx-0.1"`` (TVM TIRx) -> ``.../bin/tirx01-python``."""
    if release.startswith("tirx-"):
        major, minor = release.removeprefix("tirx-").split(".")
        return ORACLE_DIR / "bin" / f"tirx{int(major)}{int(minor)}-python"
    major, minor = release.removeprefix("tvm-").split(".")
    return ORACLE_DIR / "bin" / f"tvm{int(major)}{int(minor):02d}-python"


def require_oracle(release: str) -> Path:
    """:func:`oracle_python`, which must be installed: exits saying how to install it."""
    exe = oracle_python(release)
    if not exe.exists():
        raise SystemExit(f"no TVM {release} oracle at {exe}; run shared/oracle/install.sh")
    return exe


def import_tvm() -> ModuleType:
    """Inside an oracle: its TVM, importable as ``tvm``. TVM TIRx's package is ``tvm_tirx``
    (with the same ``target`` API), and importing the ``tvm`` package beside it aborts the
    process, so where only ``tvm_tirx`` is installed its loaded modules are also registered
    under ``tvm.*`` names: a probe's ``from tvm.target import Target`` reads TIRx's."""
    import sys

    try:
        import tvm  # type: ignore[import-not-found]
        import tvm.target  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        import tvm_tirx  # type: ignore[import-not-found]
        import tvm_tirx.target.tag  # type: ignore[import-not-found]  # noqa: F401

        for name, module in list(sys.modules.items()):
            if name == "tvm_tirx" or name.startswith("tvm_tirx."):
                sys.modules.setdefault("tvm" + name[len("tvm_tirx"):], module)
        return tvm_tirx  # type: ignore[no-any-return]
    return tvm  # type: ignore[no-any-return]


def oracle_env(*more: Path | str, **variables: str) -> dict[str, str]:
    """``os.environ`` for an oracle's Python (its venv has TVM only): ``PYTHONPATH`` is lark's
    directory, the checkout, ``scripts/`` and ``more``; ``variables`` are set too."""
    import lark  # the runtime dependency: installed beside targetlang

    path = [str(Path(lark.__file__).parent.parent), str(REPO), str(REPO / "scripts"),
            *(str(m) for m in more)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path), **variables}


def shared_oracle_module(name: str = "query") -> ModuleType:
    """A module of the shared folder's ``oracle/`` (``query.py``), imported by path."""
    path = SHARED / "oracle" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"shared_oracle_{name}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"no {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tvm_git(*args: str, ok: tuple[int, ...] = (0,)) -> str:
    """The output of ``git ARGS`` in :data:`TVM_GIT`; exits naming the command when its status
    is not in ``ok`` (``git grep`` answers 1 for "nothing found")."""
    done = subprocess.run(["git", "--git-dir", str(TVM_GIT), *args], capture_output=True,
                          text=True, check=False)
    if done.returncode not in ok:
        sys.exit(f"git {' '.join(args[:3])} failed in {TVM_GIT}: {done.stderr.strip()}")
    return done.stdout


def tvm_show(tag: str, path: str) -> str | None:
    """The file ``path`` of TVM at release tag ``tag``; None where that release has none."""
    done = subprocess.run(["git", "--git-dir", str(TVM_GIT), "show", f"refs/tags/{tag}:{path}"],
                          capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else None


def tvm_file(tag: str, path: str) -> str:
    """:func:`tvm_show`, for a file the release must have: exits naming it otherwise."""
    text = tvm_show(tag, path)
    if text is None:
        sys.exit(f"cannot read {path} at {tag} from {TVM_GIT}")
    return text


def render_json(data: Any) -> str:
    """A data file's text: sorted keys, one-space indent, UTF-8 as is, a final newline."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_or_check(path: Path, text: str, *, check: bool, source: str = "its source") -> int:
    """Write ``text`` to ``path`` (whole, by rename); or, with ``check``, say whether the file
    already holds it. Returns the exit status: 1 when checking finds it out of date, else 0."""
    shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path
    if check:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        print(f"{shown}: " + ("up to date" if same else f"differs from {source}"))
        return 0 if same else 1
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    print(f"wrote {shown} ({len(text.encode()):,} bytes)")
    return 0


def plain(value: Any, target_class: type) -> Any:
    """A TVM value (Map, Array, String, IntImm, Target) as plain JSON; runs in an oracle."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, target_class):
        return plain(value.export(), target_class)  # type: ignore[attr-defined]
    if hasattr(value, "dtype") and hasattr(value, "value"):
        return bool(value.value) if str(value.dtype) == "bool" else value.value
    if hasattr(value, "items"):
        return {str(k): plain(x, target_class) for k, x in value.items()}
    return [plain(x, target_class) for x in value]
