"""The documentation site: built with warnings as errors, an API entry for every public name, and
a playground that reads targets with the real library, in CPython and in headless Chromium."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import posixpath
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import REPO

import targetlang

DOCS = REPO / "docs"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # A script imports its shelf (scripts/shelf/) from its own directory, as when it is run.
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


# ---- the playground's Python side, in CPython ----------------------------------------------------

APP = _load("playground_app", DOCS / "_static" / "playground_app.py")


def test_playground_reads_text_tags_and_json() -> None:
    for text in ("cuda -arch=sm_80 -libs=cudnn,cublas", "nvidia/jetson-nano",
                 '{"kind": "cuda", "arch": "sm_80"}'):
        answer = APP.run(text, "tvm-0.24")
        target = targetlang.parse(text)
        assert answer["input"] == "target"
        assert answer["json"] == target.to_json()
        assert answer["canonical"] == target.to_string()
        assert answer["upgrade"] == targetlang.migrate(text, target_dialect="tvm-0.24",
                                                       minimal=True)
        assert answer["explain"].startswith(target.kind + "  (")
        assert "error" not in answer


def test_playground_shows_errors_with_the_caret() -> None:
    answer = APP.run("cuda -arch=sm_80 -libz=x")
    assert "error" in answer and "json" not in answer
    assert answer["error"].splitlines()[-1] == " " * 22 + "^"
    assert "did you mean 'libs'" in answer["error"]


def test_playground_reads_old_strings_in_their_release_and_says_what_moved() -> None:
    answer = APP.run("llvm -mcpu=skylake -link-params", "tvm-0.24")
    assert answer["dialect"] == targetlang.detect_dialect("llvm -mcpu=skylake -link-params")
    assert "link-params" not in answer["upgrade"]
    assert any("link-params" in warning for warning in answer["warnings"])


def test_playground_reads_tvmc_lines_and_python() -> None:
    answer = APP.run('tvmc compile --target="ethos-u, cmsis-nn, llvm" '
                     "--target-llvm-mcpu cortex-a72 model.tflite")
    assert answer["input"] == "tvmc"
    assert [c["name"] for c in answer["tvmc_json"]["codegens"]] == ["ethos-u", "cmsis-nn"]
    assert answer["json"]["mcpu"] == "cortex-a72"
    script = 'import tvm\ntarget = tvm.target.Target("llvm -mcpu=skylake")\n'
    answer = APP.run(script, "tvm-0.27")
    assert answer["input"] == "python"
    assert answer["upgraded_python"] == targetlang.migration.pyscripts.migrate_source(script).text
    assert '"mcpu": "skylake"' in answer["diff"]


# ---- the site ----------------------------------------------------------------------------------

def _docs_tools_missing() -> str | None:
    for module in ("sphinx", "myst_parser", "furo"):
        if importlib.util.find_spec(module) is None:
            return f"needs {module}: pip install -e '.[docs]'"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    missing = _docs_tools_missing()
    if missing:
        pytest.skip(missing)
    builder = _load("build_docs", REPO / "scripts" / "build_docs.py")
    out = tmp_path_factory.mktemp("site")
    manifest = builder.build(out)  # -W: any warning fails the build (CalledProcessError)
    return out, manifest


def _inventory(site: Path) -> dict[str, dict[str, Any]]:
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "", posixpath.join)
    return {kind: dict(entries) for kind, entries in inventory.items()}  # type: ignore[attr-defined]


def test_every_page_is_built(site: tuple[Path, dict[str, Any]]) -> None:
    out, _ = site
    for page in DOCS.glob("*.md"):
        assert (out / page.with_suffix(".html").name).is_file(), page.name
    index = (out / "index.html").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        if page.stem != "index":
            assert f'href="{page.stem}.html"' in index, f"{page.name} is not in the contents"


def _has_entry(documented: set[str], value: object, name: str) -> bool:
    """An entry for this very object: under the module that lists it, or under another public
    module that lists it too (one class re-exported by two modules has one entry)."""
    for entry in documented:
        owner, _, attr = entry.rpartition(".")
        if attr != name:
            continue
        try:  # a module may not be loaded yet
            module = importlib.import_module(owner)
        except ImportError:
            continue  # a class's member
        if getattr(module, attr, None) is value:
            return True
    return False


def test_api_reference_has_every_public_name_and_module(site: tuple[Path, dict[str, Any]]) -> None:
    out, _ = site
    documented = {name for entries in _inventory(out).values() for name in entries
                  if name.startswith("targetlang")}
    for name in targetlang.__all__:
        if name != "__version__" and not isinstance(getattr(targetlang, name), ModuleType):
            assert f"targetlang.{name}" in documented, name
    builder = _load("targetlang_api", DOCS / "_ext" / "targetlang_api.py")
    modules = builder.public_modules()
    assert {"targetlang", "targetlang.migration", "targetlang.migration.pyscripts"} <= set(modules)
    for module in modules:
        assert module in documented, module
        for name in getattr(importlib.import_module(module), "__all__", ()):
            value = getattr(importlib.import_module(module), name)
            if isinstance(value, ModuleType) or name == "__version__":
                continue  # modules have their own entry; the version string has none
            assert _has_entry(documented, value, name), f"{module}.{name}"


def test_api_reference_covers_the_contract(site: tuple[Path, dict[str, Any]]) -> None:
    contract = next((place / "shared" / "API.md" for place in (REPO.parent, REPO.parent.parent)
                     if (place / "shared" / "API.md").is_file()), None)
    if contract is None:
        pytest.skip("the API contract (../shared/API.md) is not beside this checkout")
    out, _ = site
    documented = {name for entries in _inventory(out).values() for name in entries}
    names = set(re.findall(r"`(targetlang(?:\.[A-Za-z_]\w*)+)", contract.read_text("utf-8")))
    checked = 0
    for dotted in sorted(names):
        value: object = targetlang
        try:
            for part in dotted.split(".")[1:]:
                value = getattr(value, part)
        except AttributeError:
            continue  # not in this version of the library
        checked += 1
        assert dotted in documented, dotted
    assert checked >= 10


# ---- the playground in a real browser ----------------------------------------------------------

def _chromium() -> str | None:
    return next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))),
                None)


@pytest.fixture(scope="module")
def served(site: tuple[Path, dict[str, Any]]) -> Iterator[str]:
    out, manifest = site
    if _chromium() is None:
        pytest.skip("needs Chromium (Debian: apt-get install chromium)")
    if not manifest["pyodide"]:
        pytest.skip(f"the site was built without Pyodide: {manifest.get('reason')}")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _browse(url: str, *extra: str) -> str:
    # Every host but this one unreachable: the page must need nothing from a CDN or PyPI.
    done = subprocess.run([str(_chromium()), "--headless", "--no-sandbox", "--disable-gpu",
                           "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                           "--virtual-time-budget=120000", "--window-size=1100,1500", *extra,
                           url], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _answers(dom: str) -> dict[str, str]:
    import html

    found = dict(re.findall(r'<(?:pre|span) id="tl-([a-z]+)">(.*?)</(?:pre|span)>', dom, re.S))
    return {key: html.unescape(value) for key, value in found.items()}


@pytest.mark.parametrize("text, release", [
    ("cuda -arch=sm_80 -libs=cudnn,cublas", "tvm-0.24"),
    ("cuda -arch=sm_80 -libz=x", "tvm-0.27"),
    ("llvm -mcpu=skylake -link-params", "tvm-0.25"),
])
def test_playground_in_headless_chromium(served: str, text: str, release: str,
                                         tmp_path: Path) -> None:
    query = urllib.parse.urlencode({"q": text, "release": release}, quote_via=urllib.parse.quote)
    url = f"{served}playground.html#{query}"
    dom = _browse(url, "--dump-dom")
    assert 'data-playground="done"' in dom, _answers(dom).get("status")
    shown = _answers(dom)
    expected = APP.run(text, release)  # the same library, in CPython
    if "error" in expected:
        assert shown["error"] == expected["error"]
        assert shown["json"] == ""
    else:
        assert json.loads(shown["json"]) == expected["json"]
        assert shown["canonical"] == expected["canonical"]
        assert shown["explain"] == expected["explain"]
        assert json.loads(shown["upgrade"]) == expected["upgrade"]
    assert shown["status"].startswith("read as target")
    screenshot = tmp_path / "playground.png"
    _browse(url, f"--screenshot={screenshot}")
    assert screenshot.stat().st_size > 10_000


# ---- the playground typed into, in a real browser (Chrome DevTools Protocol) -------------------

@pytest.fixture(scope="module")
def playground_page(served: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The playground open in headless Chromium, driven over DevTools like a user would."""
    import cdp

    browser = cdp.Browser(str(_chromium()), tmp_path_factory.mktemp("chromium-profile"), [
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--window-size=1100,1500"])
    try:
        page = browser.new_page()
        try:
            page.send("Page.navigate", url=f"{served}playground.html")
            # The page is ready to be typed into once it listed the releases from its manifest.
            page.wait_for("document.readyState === 'complete' && "
                          "document.getElementById('tl-release').options.length > 0", 30)
            yield page
        finally:
            page.close()
    finally:
        browser.close()


@pytest.mark.parametrize("text, release", [
    ("cuda -arch=sm_80 -libs=cudnn,cublas", "tvm-0.27"),
    ("cuda -arch=sm_80 -libz=x", "tvm-0.27"),
])
def test_playground_typed_into_in_headless_chromium(playground_page: Any, text: str, release: str,
                                                    tmp_path: Path) -> None:
    page = playground_page
    page.evaluate("delete document.body.dataset.playground")  # the state of an earlier answer
    # Focus the text box, select what is in it, erase it with Backspace, and type, as a user does.
    page.evaluate("(() => { const box = document.getElementById('tl-input'); box.focus(); "
                  "box.select(); })()")
    page.press("Backspace", "Backspace", 8)
    assert page.evaluate("document.getElementById('tl-input').value") == ""
    page.send("Input.insertText", text=text)
    assert page.evaluate("document.getElementById('tl-input').value") == text
    page.evaluate(f"(() => {{ const select = document.getElementById('tl-release'); "
                  f"select.value = {json.dumps(release)}; "
                  "select.dispatchEvent(new Event('change', {bubbles: true})); })()")
    assert page.evaluate("document.getElementById('tl-release').value") == release
    page.click("#tl-run")
    # The first answer loads Pyodide and the wheels: seconds on a quiet machine, more on a busy one.
    state = page.wait_for("document.body.dataset.playground", 120)
    shown = page.evaluate("Object.fromEntries(['status', 'error', 'json', 'canonical', 'explain', "
                          "'upgrade'].map((name) => { const element = document.getElementById("
                          "'tl-' + name); const section = element.closest('section'); "
                          "return [name, section && section.hidden ? null : element.textContent]; "
                          "}))")
    assert state == "done", shown["status"]
    expected = APP.run(text, release)  # the same library, in CPython
    if "error" in expected:
        assert shown["error"] == expected["error"]
        assert shown["error"].splitlines()[-1].strip() == "^"
        assert shown["json"] is None and shown["upgrade"] is None  # their sections are hidden
    else:
        assert shown["error"] is None
        assert json.loads(shown["json"]) == expected["json"]
        assert shown["canonical"] == expected["canonical"]
        assert shown["explain"] == expected["explain"]
        assert json.loads(shown["upgrade"]) == expected["upgrade"]
    assert shown["status"].startswith("read as target")
    screenshot = tmp_path / "playground-typed.png"
    page.screenshot(screenshot)
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert screenshot.stat().st_size > 10_000
