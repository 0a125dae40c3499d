"""Build the documentation site: python3 scripts/build_docs.py [OUTDIR] (default build/site).

Sphinx with warnings as errors (``-W --keep-going -n``: any warning, unresolved reference or
broken internal link fails the build; nothing is fetched from the network), then the
playground's files beside the pages, in OUTDIR/playground-files/:

- Pyodide's core files, from its npm package (``npm pack pyodide``);
- the targetlang wheel of this checkout (``python -m build --wheel``) and lark's wheel
  (``pip download lark``), which the page unpacks in the browser;
- docs/_static/playground_app.py and manifest.json (the wheels, the dialects, Pyodide's
  version, or why it is missing).

Without node/npm the site is still built and the playground page says it cannot run.
Preview: python3 -m http.server -d build/site (then open http://127.0.0.1:8000/).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from shelf import REPO

import targetlang

# What loadPyodide() fetches from its indexURL (pyodide-lock.json lists the optional packages,
# of which the playground needs none).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json", "package.json")


def sphinx(out: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q",
                           "-b", "html", str(REPO / "docs"), str(out)],
                          capture_output=True, text=True,
                          cwd=REPO / "docs")  # not the checkout's root: conf.py picks the package
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        raise SystemExit(f"the site has warnings (errors here):\n{done.stderr}")


def pyodide(files: Path, work: Path) -> str:
    """Pyodide's core files into ``files``; its version."""
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed")
    done = subprocess.run([npm, "pack", "pyodide", "--silent", "--pack-destination", str(work)],
                          capture_output=True, text=True, cwd=work, timeout=600)
    if done.returncode != 0:
        raise RuntimeError("npm pack pyodide failed: " + done.stderr.strip()[-500:])
    (archive,) = work.glob("pyodide-*.tgz")
    with tarfile.open(archive) as packed:
        for name in PYODIDE_FILES:
            member = packed.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeError(f"the pyodide package has no {name}")
            (files / name).write_bytes(member.read())
    return str(json.loads((files / "package.json").read_text(encoding="utf-8"))["version"])


def wheels(files: Path, work: Path) -> list[str]:
    """This checkout's wheel and lark's into ``files``; their names."""
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(work / "wheels"),
                    str(REPO)], check=True, capture_output=True, timeout=900)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary", ":all:", "--dest", str(work / "wheels"), "lark"],
                   check=True, timeout=600)
    names = []
    for wheel in sorted((work / "wheels").glob("*.whl")):
        shutil.copyfile(wheel, files / wheel.name)
        names.append(wheel.name)
    return names


def build(out: Path, *, with_pyodide: bool = True) -> dict[str, object]:
    """The site into ``out``; the playground's manifest."""
    sphinx(out)
    files = out / "playground-files"
    files.mkdir(exist_ok=True)
    shutil.copyfile(REPO / "docs" / "_static" / "playground_app.py", files / "playground_app.py")
    manifest: dict[str, object] = {"dialects": list(targetlang.dialects()), "pyodide": None}
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        try:
            if not with_pyodide:
                raise RuntimeError("--no-pyodide")
            manifest["wheels"] = wheels(files, work)
            manifest["pyodide"] = pyodide(files, work)
        except (RuntimeError, OSError, subprocess.SubprocessError) as error:
            manifest["reason"] = str(error)
            print(f"playground built without Pyodide: {error}", file=sys.stderr)
    (files / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=REPO / "build" / "site")
    parser.add_argument("--no-pyodide", action="store_true",
                        help="skip the playground's files (faster; the page says so)")
    args = parser.parse_args()
    manifest = build(args.out, with_pyodide=not args.no_pyodide)
    pages = len(list(args.out.glob("*.html"))) - len(list(args.out.glob("genindex.html")))
    print(f"built {args.out}: {pages} pages, Pyodide {manifest['pyodide']}")


if __name__ == "__main__":
    main()
