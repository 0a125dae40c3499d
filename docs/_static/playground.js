// The playground (docs/playground.md): Pyodide and the two wheels are files of this site
// (scripts/build_docs.py copies them into playground-files/); nothing is asked of any other host.
"use strict";

const FILES = new URL("playground-files/", document.baseURI).href;
let ready = null;

function show(id, text) {
  const element = document.getElementById(id);
  element.textContent = text;
  element.closest("section.tl-answer").hidden = !text;
}

const manifestLoaded = fetch(FILES + "manifest.json").then((response) => response.json());

async function start() {
  const manifest = await manifestLoaded;
  if (!manifest.pyodide) {
    throw new Error("This site was built without Pyodide (" + manifest.reason + "): the " +
                    "playground needs it. Rebuild with node and npm installed.");
  }
  const { loadPyodide } = await import(FILES + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: FILES });
  for (const wheel of manifest.wheels) {
    const bytes = new Uint8Array(await (await fetch(FILES + wheel)).arrayBuffer());
    pyodide.FS.writeFile("/tmp/" + wheel, bytes);
  }
  const app = await (await fetch(FILES + "playground_app.py")).text();
  pyodide.FS.writeFile("/tmp/playground_app.py", app);
  pyodide.runPython(`
import site, sys, zipfile
for name in ${JSON.stringify(manifest.wheels)}:
    zipfile.ZipFile("/tmp/" + name).extractall(site.getsitepackages()[0])
sys.path.insert(0, "/tmp")
import playground_app
`);
  return pyodide;
}

async function go() {
  const status = document.getElementById("tl-status");
  const text = document.getElementById("tl-input").value;
  const release = document.getElementById("tl-release").value;
  try {
    status.textContent = "loading Python and targetlang (first time only)...";
    const pyodide = await (ready = ready || start());
    const runJson = pyodide.globals.get("playground_app").run_json;
    const answer = JSON.parse(runJson(text, release));
    status.textContent = "read as " + answer.input + (answer.dialect ? " (" + answer.dialect + ")" : "") +
                         " by targetlang " + answer.version;
    const json = (value) => value === undefined ? "" : JSON.stringify(value, null, 2);
    show("tl-error", answer.error || "");
    show("tl-json", json(answer.json));
    show("tl-canonical", answer.canonical || "");
    show("tl-explain", answer.explain || "");
    show("tl-upgrade", json(answer.upgrade));
    show("tl-tvmc", json(answer.tvmc_json));
    show("tl-python", answer.diff || (answer.upgraded_python !== undefined ? "(nothing to change)" : ""));
    show("tl-notes", (answer.findings || []).concat(answer.warnings || []).join("\n"));
    document.body.dataset.playground = "done";
  } catch (error) {
    status.textContent = String(error.message || error);
    document.body.dataset.playground = "failed";
  }
}

window.addEventListener("DOMContentLoaded", async () => {
  document.getElementById("tl-run").addEventListener("click", go);
  const select = document.getElementById("tl-release");
  try {
    const manifest = await manifestLoaded;
    for (const dialect of manifest.dialects) select.add(new Option(dialect, dialect));
    select.value = "tvm-0.27";
    if (!manifest.pyodide) document.getElementById("tl-status").textContent =
      "This site was built without Pyodide (" + manifest.reason + "): the playground cannot run.";
  } catch (error) {
    document.getElementById("tl-status").textContent = "no playground files: " + error;
  }
  // A query in the address (playground.html#q=...&release=...) runs at once: a link that
  // shows an answer, and how the browser test drives the page.
  const query = new URLSearchParams(location.hash.slice(1));
  if (query.has("release")) document.getElementById("tl-release").value = query.get("release");
  if (query.has("q")) {
    document.getElementById("tl-input").value = query.get("q");
    go();
  }
});
