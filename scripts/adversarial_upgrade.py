"""Attack ``targetlang upgrade`` as someone trying to break it would, and time its readers.

    python3 scripts/adversarial_upgrade.py [--scaling] [--cases] [--signals] [--program]

``--cases``: deep and huge files of every type, invalid JSON/YAML/TOML/notebooks, FIFOs,
sockets and unreadable directories in a walked tree; each must end in a report or an error
line, never a traceback or a hang, and leave every file byte for byte unless it upgraded it.
``--scaling``: each reader on files of 10k to 200k lines holding a target every few lines:
seconds per file and per 10k lines (linear means that figure stays flat).
``--signals``: ``kill -9`` and SIGINT at moments through ``--write`` over a tree: every file
old or new, exit 130 and no traceback on SIGINT, no temporary file left after the next run.
``--program``: trees read as one program: modules that import each other in a ring, a chain
longer than the upgrade follows, a module that does not parse, a FIFO named ``x.py``, and
trees of 500 to 4000 modules that all import one another's names (every module a config
and a user of the previous one's), timed: seconds per module stays flat when the reading
across modules is linear.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from targetlang.upgrade import Options, upgrade_text  # noqa: E402

LEGACY = "cuda -arch=sm_80"


def lines_of(kind: str, count: int) -> str:
    """A file of ``count`` lines of ``kind`` with a legacy target every fourth line."""
    if kind == "python":
        body = "".join(f"t{i} = tvm.target.Target('{LEGACY}')\nx{i} = {i}\ny{i} = 'a'\nz = 1\n"
                       for i in range(count // 4))
        return "import tvm\n" + body
    if kind == "yaml":
        return "".join(f"k{i}:\n  target: {LEGACY}\n  n: {i}\n  s: text\n"
                       for i in range(count // 4))
    if kind == "toml":
        return "".join(f"[t{i}]\ntarget = '{LEGACY}'\nn = {i}\ns = 'x'\n"
                       for i in range(count // 4))
    if kind == "json":
        items = ",\n".join(f' "k{i}": {{"target": "{LEGACY}", "n": {i}}}'
                           for i in range(count // 3))
        return "{\n" + items.replace(", \"n\"", ",\n  \"n\"") + "\n}\n"
    if kind == "shell":
        return "".join(f"TARGET='{LEGACY}'\necho $TARGET\npython t.py --target '{LEGACY}'\n"
                       "# c\n" for i in range(count // 4))
    if kind == "markdown":
        return "".join(f"Text {i}.\n\n```python\nt = tvm.target.Target('{LEGACY}')\n```\n\n"
                       for i in range(count // 6))
    if kind == "rst":
        return "".join(f"Text {i}.\n\n.. code-block:: python\n\n   t = tvm.target.Target("
                       f"'{LEGACY}')\n\n" for i in range(count // 6))
    if kind == "notebook":
        cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                  "source": ["import tvm\n", f"t = tvm.target.Target('{LEGACY}')\n",
                             "x = 1\n"]} for _ in range(count // 12)]
        return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                           "nbformat_minor": 5}, indent=1)
    raise ValueError(kind)


KINDS = ("python", "notebook", "markdown", "rst", "json", "yaml", "toml", "shell")


def scaling() -> None:
    print("reader    lines   seconds  s/10k-lines  sites")
    for kind in KINDS:
        for count in (10_000, 50_000, 100_000, 200_000):
            text = lines_of(kind, count)
            start = time.perf_counter()
            result = upgrade_text(text, path="f", file_type=kind, options=Options())
            took = time.perf_counter() - start
            lines = text.count("\n") + 1
            print(f"{kind:9} {lines:7d} {took:8.2f} {took / lines * 10_000:11.3f}  "
                  f"{len(result.changes)} {'INVALID' if result.invalid else ''}", flush=True)


DEEP = 100_000


def cases(root: Path) -> dict[str, str]:
    return {
        "deep.json": "[" * DEEP + "]" * DEEP,
        "deep_unclosed.json": "[" * DEEP,
        "deep_target.json": '{"target": ' + "[" * 5000 + f'"{LEGACY}"' + "]" * 5000 + "}",
        "deep.yaml": "a: " + "[" * 5000 + "]" * 5000 + "\n",
        "deep.toml": "a = " + "[" * 5000 + "]" * 5000 + "\n",
        "deep.py": "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
        "deep_call.py": "import tvm\nx = " + "f(" * 900 + f"tvm.target.Target('{LEGACY}')" +
                        ")" * 900 + "\n",
        "deep.md": "```python\n" + "x = " + "[" * 5000 + "]" * 5000 + "\n```\n",
        "deep.ipynb": json.dumps({"cells": [{"cell_type": "code", "source": [
            "x = " + "[" * 5000 + "]" * 5000]}], "nbformat": 4}),
        "deep.sh": "echo " + "$(" * 3000 + "x" + ")" * 3000 + "\n",
        "bad1.json": '{"target": "' + LEGACY + '",}', "bad2.json": "\x00",
        "bad3.json": "{" + '"a":1,' * 1000, "bad.ipynb": '{"cells": [{"cell_type": 1}]}',
        "bad2.ipynb": "[]", "bad3.ipynb": '{"cells": "x"}',
        "bad1.yaml": f"target: a: {LEGACY}\n", "bad2.yaml": f"target: '{LEGACY}\n",
        "bad3.yaml": f"target:\n\t- {LEGACY}\n", "bad4.yaml": "a: \x01\n",
        "bad5.yaml": f"target: [{LEGACY}\n",
        "bad1.toml": f'target = "{LEGACY}\n', "bad2.toml": "[[a]\nb=1\n",
        "bad3.toml": f"target = '{LEGACY}'\ntarget = 'x'\n",
        "bad.py": f"tvm.target.Target('{LEGACY}'\n", "bad2.py": "\x00",
        "latin1.py": "# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n",
        "bad.md": "```python\n" + f"tvm.target.Target('{LEGACY}'\n```\n",
        "long_line.py": "x = '" + "a" * 5_000_000 + "'\n",
        "long_line.yaml": "target: " + "a" * 5_000_000 + "\n",
        "huge_value.json": json.dumps({"target": LEGACY + " -mcpu=" + "x" * 1_000_000}),
        "many_lines.sh": "\\\n" * 100_000 + f"--target '{LEGACY}'\n",
        "crlf_mix.yaml": f"a: 1\r\ntarget: {LEGACY}\rb: 2\n",
        "bom.json": "\ufeff" + json.dumps({"target": LEGACY}),
        "empty.py": "", "empty.json": "", "empty.ipynb": "", "empty.yaml": "",
    }


def run_cases() -> int:
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        root = Path(work) / "tree"
        root.mkdir()
        for name, text in cases(root).items():
            data = text.encode("latin-1") if name == "latin1.py" else text.encode(
                "utf-8", "surrogatepass")
            (root / name).write_bytes(data)
        os.mkfifo(root / "fifo.py")
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(root / "socket.yaml"))
        locked = root / "locked"
        locked.mkdir()
        (locked / "x.py").write_text(f"import tvm\ntvm.target.Target('{LEGACY}')\n")
        locked.chmod(0)
        deep = root
        for _ in range(300):  # deeper than os.walk's recursion would go comfortably
            deep = deep / "d"
        deep.mkdir(parents=True)
        (deep / "x.yaml").write_text(f"target: {LEGACY}\n")
        before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and
                  "locked" not in str(p)}
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        for mode in ([], ["--check"], ["--write"], ["--format", "sarif"], ["--runtime"]):
            start = time.perf_counter()
            try:
                done = subprocess.run([sys.executable, "-m", "targetlang", "upgrade", *mode,
                                       str(root)], capture_output=True, text=True, timeout=600,
                                      env=env)
            except subprocess.TimeoutExpired:
                print(f"FAIL {mode}: hangs")
                failures += 1
                continue
            took = time.perf_counter() - start
            traceback = "Traceback" in done.stderr
            print(f"{' '.join(mode) or 'diff':16} exit {done.returncode} in {took:6.1f} s; "
                  f"reports {done.stderr.count(': TL')}, errors "
                  f"{done.stderr.count('error: ')}; traceback: {traceback}")
            failures += traceback or done.returncode != 2
        locked.chmod(0o700)
        listener.close()
        for path, data in before.items():
            now = path.read_bytes()
            if now != data and path.name not in ("deep_target.json", "x.yaml", "many_lines.sh",
                                                 "crlf_mix.yaml", "bom.json", "deep_call.py"):
                print(f"FAIL {path.name} changed")
                failures += 1
        print("rewritten by --write:", sorted(p.name for p, d in before.items()
                                              if p.read_bytes() != d))
        leftovers = [p.name for p in root.rglob("*.tmp")]
        print("temporary files left:", leftovers)
        failures += bool(leftovers)
    return failures


def run_signals() -> int:
    failures = 0
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as work:
        tree = Path(work) / "tree"
        tree.mkdir()
        kinds = {"py": f"import tvm\nt = tvm.target.Target('{LEGACY}')\n" + "x = 1\n" * 2000,
                 "yaml": f"target: '{LEGACY}'\n" + "a: 1\n" * 2000,
                 "json": json.dumps({"target": LEGACY, "x": list(range(3000))})}
        for number in range(150):
            for ending, text in kinds.items():
                (tree / f"f{number}.{ending}").write_text(text)
        old = {p.name: p.read_bytes() for p in tree.iterdir()}
        copy = Path(work) / "copy"
        shutil.copytree(tree, copy)
        subprocess.run([sys.executable, "-m", "targetlang", "upgrade", "--write", str(copy)],
                       capture_output=True, env=env, check=False)
        new = {p.name: p.read_bytes() for p in copy.iterdir()}
        for how, sig in (("kill -9", signal.SIGKILL), ("SIGINT", signal.SIGINT)):
            for jobs in ("1", "2"):
                for delay in (0.5, 1.0, 2.0, 3.0):
                    shutil.rmtree(tree)
                    shutil.copytree(copy.parent / "tree_orig", tree) if (
                        copy.parent / "tree_orig").exists() else None
                    if not tree.exists():
                        tree.mkdir()
                        for name, data in old.items():
                            (tree / name).write_bytes(data)
                    proc = subprocess.Popen([sys.executable, "-m", "targetlang", "upgrade",
                                             "--write", "--jobs", jobs, str(tree)],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                            env=env, start_new_session=sig == signal.SIGINT)
                    time.sleep(delay)
                    if sig == signal.SIGINT:
                        os.killpg(proc.pid, sig)  # as a terminal sends it: the whole group
                    else:
                        proc.send_signal(sig)
                    _, err = proc.communicate(timeout=120)
                    torn = [p.name for p in tree.iterdir() if not p.name.endswith(".tmp") and
                            p.read_bytes() not in (old[p.name], new[p.name])]
                    done = sum(p.read_bytes() == new.get(p.name) for p in tree.iterdir())
                    tmp = [p.name for p in tree.iterdir() if p.name.endswith(".tmp")]
                    again = subprocess.run([sys.executable, "-m", "targetlang", "upgrade",
                                            "--write", str(tree)], capture_output=True,
                                           env=env, check=False)
                    left = [p.name for p in tree.iterdir() if p.name.endswith(".tmp")]
                    same = {p.name: p.read_bytes() for p in tree.iterdir()} == new
                    bad = bool(torn) or bool(left) or not same or (
                        sig == signal.SIGINT and (b"Traceback" in err or
                                                  proc.returncode not in (130, 0)))
                    failures += bad
                    print(f"{how:7} --jobs {jobs} after {delay:.1f} s: exit {proc.returncode}, "
                          f"{done} of {len(old)} files written, torn {len(torn)}, temporary "
                          f"{len(tmp)} (after the next run {len(left)}), next run complete: "
                          f"{same}{', traceback' if b'Traceback' in err else ''}"
                          f"{'  FAIL' if bad else ''}", flush=True)
                    del again
    return failures


def program_cases() -> int:
    """Trees read as one program: each ends in reports, never a traceback, a hang or a
    guess; and the time per module of a tree of N modules that use each other's names."""
    failures = 0
    trees = {
        "ring": {"a.py": "import tvm\nfrom b import T\ntvm.target.Target(T)\n",
                 "b.py": "from c import T\n", "c.py": "from a import T\n"},
        "chain": {"m0.py": f"T = '{LEGACY}'\n", **{f"m{i}.py": f"from m{i - 1} import T\n"
                                                     for i in range(1, 40)},
                  "main.py": "import tvm\nfrom m39 import T\ntvm.target.Target(T)\n"},
        "unreadable": {"a.py": "import tvm\nfrom b import T\ntvm.target.Target(T)\n",
                       "b.py": "T = ('\n"},
        "calls": {"a.py": ("import tvm\nfrom b import g\ndef f(t):\n    g(t)\n"
                           "    tvm.target.Target(t)\n"),
                  "b.py": "from a import f\ndef g(t):\n    f(t)\n",
                  "c.py": f"from a import f\nf('{LEGACY}')\n"},
    }
    for name, files in trees.items():
        with tempfile.TemporaryDirectory() as work:
            root = Path(work)
            for file, text in files.items():
                (root / file).write_text(text, encoding="utf-8")
            if name == "ring":
                os.mkfifo(root / "x.py")
            before = {p.name: p.read_bytes() for p in root.iterdir() if p.is_file()}
            done = subprocess.run([sys.executable, "-m", "targetlang", "upgrade", "--write",
                                   str(root)], capture_output=True, text=True, timeout=120,
                                  env={**os.environ, "PYTHONPATH": str(REPO)})
            after = {p.name: p.read_bytes() for p in root.iterdir() if p.is_file()}
            codes = sorted({word for line in done.stderr.splitlines()
                            for word in line.split() if word.startswith("TL") and
                            word[2:].isdigit()})
            ok = "Traceback" not in done.stderr and done.returncode in (1, 2)
            if name != "calls":
                ok = ok and after == before  # nothing guessed
            print(f"program {name}: exit {done.returncode}, codes {codes}, files "
                  f"{'unchanged' if after == before else 'changed'}"
                  f"{'' if ok else '  FAILED'}")
            failures += not ok
    for count in (500, 1000, 2000, 4000):
        with tempfile.TemporaryDirectory() as work:
            root = Path(work)
            for i in range(count):
                previous = f"from m{i - 1} import T{i - 1}\n" if i else ""
                use = f"t = tvm.target.Target(T{i - 1})\n" if i else ""
                (root / f"m{i}.py").write_text(
                    f"import tvm\n{previous}T{i} = 'llvm -mcpu=skylake -num-cores={i % 64 + 1}'\n"
                    f"{use}", encoding="utf-8")
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "targetlang", "upgrade", "--jobs",
                                   "1", "-q", str(root)], capture_output=True, text=True,
                                  timeout=3600, env={**os.environ, "PYTHONPATH": str(REPO)})
            spent = time.perf_counter() - start
            print(f"program of {count} modules: {spent:.2f} s, {1000 * spent / count:.2f} ms "
                  f"a module (exit {done.returncode}, {done.stdout.count('+T')} rewritten)")
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--cases", action="store_true")
    parser.add_argument("--signals", action="store_true")
    parser.add_argument("--program", action="store_true")
    args = parser.parse_args()
    failures = 0
    if args.program:
        failures += program_cases()
    if args.cases:
        failures += run_cases()
    if args.signals:
        failures += run_signals()
    if args.scaling:
        scaling()
    print(f"failures: {failures}")
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
