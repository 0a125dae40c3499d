"""Issue 11, sections 2 and 4: the command line does what it says, files are never lost or
corrupted, and the program behaves as a Unix tool on its streams. Each test here failed
before its fix; the console-script tests run the installed ``targetlang``."""

from __future__ import annotations

import ast
import io
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from select import select as wait_readable

import pytest
from test_cli import SCRIPT, needs_script

import targetlang
from targetlang import _files
from targetlang.cli import main
from targetlang.logs import LogSummary, lines_of, normalize, select, stats
from targetlang.migration import meaning_changes
from targetlang.migration._sites import minimal
from targetlang.pyscripts import migrate_file, migrate_source

RECORD = b'{"input": ["llvm -device=arm_cpu", "t", [], {}], "result": [1]}'
NORMALIZED = b'{"input": ["llvm -keys=arm_cpu,cpu -device=arm_cpu", "t", [], {}], "result": [1]}'


def cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err, environ={})
    return code, out.getvalue(), err.getvalue()


def console(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None,
            **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    assert SCRIPT is not None
    done: subprocess.CompletedProcess[bytes] = subprocess.run(
        [SCRIPT, *args], input=stdin, capture_output=True, timeout=60, check=False,
        env={**os.environ, **(env or {})}, **kwargs)  # type: ignore[call-overload]
    return done


def interruptible() -> None:
    """In the child: Ctrl-C as a terminal delivers it. A shell that starts jobs in the
    background (`cmd &`, as some CI runners do) makes them ignore SIGINT, and the child would
    inherit that; Python then installs no KeyboardInterrupt handler at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def no_traceback(done: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in done.stderr, done.stderr.decode()


# ---- section 2: the command line ----------------------------------------------------------------

def _script(tmp_path: Path, name: str, target: str) -> Path:
    path = tmp_path / name
    path.write_text(f'import tvm\nt = tvm.target.Target("{target}")\n')
    return path


def test_migrate_py_write_takes_the_files_after_the_flags(tmp_path: Path) -> None:
    a = _script(tmp_path, "a.py", "llvm -mcpu=skylake")
    b = _script(tmp_path, "b.py", "llvm -device=arm_cpu")
    code, out, err = cli("migrate", "--py", "--write", str(a), str(b))
    assert code == 0, err
    assert "rewrote" in err and out == ""
    assert "{" in a.read_text() and "{" in b.read_text()
    code, _, err = cli("migrate", "--py")
    assert code == 2 and "--py takes the Python files" in err


def test_color_after_the_subcommand() -> None:
    code, out, _ = cli("kinds", "--color", "always")
    assert code == 0 and "\x1b[" in out
    code, out, _ = cli("--color", "never", "kinds", "--color", "always")
    assert "\x1b[" in out  # the later one wins
    code, out, _ = cli("--color", "always", "kinds")
    assert "\x1b[" in out  # the one before is not reset by the subcommand's default


@pytest.mark.parametrize("argv", [["parse", "cuda", "-arch=sm_80"],
                                  ["parse", "cuda", "-host=llvm"],
                                  ["migrate", "llvm", "-mcpu=x", "-mtriple=y"],
                                  ["tvmc", "cmsis-nn,", "c", "-mcpu=x"]])
def test_an_unquoted_target_gets_a_hint_to_quote_it(argv: list[str]) -> None:
    code, _, err = cli(*argv)
    assert code == 2
    assert "hint: a target is one argument: quote it" in err
    assert "'" in err.split("hint:")[1]  # the command again, the target quoted


@pytest.mark.parametrize("command", [["parse"], ["parse", "--compact"], ["migrate", "--compact"],
                                     ["tvmc", "--compact"], ["explain", "--json"]])
def test_batches_stay_aligned_with_their_input(command: list[str]) -> None:
    code, out, err = cli(*command, stdin="llvm\ncuda -arch=\nllvm -mcpu=x\n")
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 3
    assert lines[1]["line"] == 2 and lines[1]["input"] == "cuda -arch="
    assert "empty value" in lines[1]["error"]["message"]
    assert "error" not in lines[0] and "error" not in lines[2]
    assert err.startswith("error: line 2: ")


def test_several_target_arguments_are_a_batch_too() -> None:
    code, out, err = cli("parse", "llvm", "cuda -arch=", "llvm -mcpu=x")
    documents = [json.loads(d) for d in out.replace("}\n{", "}\0{").split("\0")]
    assert code == 1 and len(documents) == 3 and documents[1]["line"] == 2
    assert err.startswith("error: line 2: ")


def test_format_prints_an_empty_line_for_a_failed_target() -> None:
    code, out, _ = cli("format", stdin="llvm\ncuda -arch=\nllvm -mcpu=x\n")
    assert code == 1 and out.split("\n")[1] == "" and len(out.splitlines()) == 3


def test_batch_warnings_name_their_line_and_target() -> None:
    code, _, err = cli("migrate", "--compact", stdin="cuda\nllvm -system-lib\n")
    assert code == 0
    assert err.startswith("warning: line 1: TM101 cuda: ") and "\n    cuda\n" in err
    assert "warning: line 2: TM201 -system-lib=1" in err and "\n    llvm -system-lib\n" in err
    code, _, err = cli("check", "--strict", stdin="llvm\nllvm -opt-level=3x\n")
    assert code == 1 and err.startswith("warning: line 2: -opt-level=3x")


# ---- tags keep their meaning ---------------------------------------------------------------------

def test_a_tag_stays_a_tag_only_where_it_means_the_same() -> None:
    shared = set(targetlang.tags("tvm-0.21")) & set(targetlang.tags("tvm-0.27"))
    changed = {t for t in shared if targetlang.parse(t, dialect="tvm-0.21").to_json()
               != targetlang.parse(t, dialect="tvm-0.27").to_json()}
    assert "apple/m1-gpu" in changed and "nvidia/jetson-nano" not in changed
    for tag in sorted(shared):
        result = migrate_source(f'import tvm\nt = tvm.target.Target("{tag}")\n')
        assert result.changed == (tag in changed), tag
        assert bool(meaning_changes(tag)) == (tag in changed), tag
        if tag in changed:  # written out with the meaning it had
            assert "apple-m1" not in result.text or tag not in ("apple/m1-gpu",)


@pytest.mark.parametrize("tag", ["apple/m1-gpu", "apple/m2-gpu", "nvidia/jetson-agx-xavier",
                                 "nvidia/jetson-agx-orin-64gb", "raspberry-pi/4b-aarch64"])
def test_migrate_auto_keeps_the_legacy_meaning_of_a_drifted_tag_at_every_entry_point(
        tag: str) -> None:
    import warnings

    legacy = targetlang.migrate(tag, source_dialect="tvm-0.21")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the reading is the legacy one: nothing to warn about
        # (but how TVM 0.25+ compiles a cuda target, where the tag is one: moved meaning)
        warnings.simplefilter("ignore", targetlang.MeaningWarning)
        assert targetlang.migrate(tag) == legacy
        assert targetlang.migrate_config(tag).targets[0].to_json() == \
            targetlang.from_json(legacy, dialect="tvm-0.27").to_json()
    # The command line, and --py on a script (both start from the same rule).
    code, out, err = cli("migrate", "--compact", tag)
    assert code == 0 and json.loads(out) == legacy
    said = [line for line in err.splitlines() if line]
    assert all(line.startswith(("warning: TM101 cuda", "warning: TM102 cuda")) for line in said)
    assert len(said) == (2 if legacy["kind"] == "cuda" else 0)
    result = migrate_source(f'import tvm\nt = tvm.target.Target("{tag}")\n')
    assert ast.literal_eval(result.rewrites[0].new) == minimal(legacy, "tvm-0.27")
    if tag.startswith("apple/"):
        assert legacy["host"]["mcpu"] == "apple-m4"  # 0.21's; 0.27's tag says apple-m1
        newest = targetlang.parse(tag, dialect="tvm-0.27").host
        assert newest is not None and newest.attrs["mcpu"] != "apple-m4"
        assert targetlang.migrate({"tag": tag})["host"]["mcpu"] == newest.attrs["mcpu"]  # 0.27's


# ---- section 4: Python's line model -------------------------------------------------------------

SPLITLINES_ONLY = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


@pytest.mark.parametrize("char", list(SPLITLINES_ONLY))
def test_migrate_py_positions_follow_pythons_line_model(char: str) -> None:
    # Where Python allows them: in a comment, in a string (a form feed also as whitespace).
    text = (f'import tvm\n# a{char}b\n{char if char == chr(12) else ""}\nx = "{char}"\n'
            'a = tvm.target.Target("llvm -mcpu=skylake")\n'
            'b = tvm.target.Target("llvm -device=arm_cpu")\n')
    result = migrate_source(text)
    assert len(result.rewrites) == 2
    namespace: dict[str, object] = {}
    exec(compile(result.text.replace("import tvm", "import types; tvm = types.SimpleNamespace("
                                     "target=types.SimpleNamespace(Target=lambda t: t))"),
                 "<test>", "exec"), namespace)
    for name, value in (("a", "llvm -mcpu=skylake"), ("b", "llvm -device=arm_cpu")):
        assert targetlang.from_json(namespace[name], dialect="tvm-0.27").to_json() == \
            targetlang.migrate(value)
    assert namespace["x"] == char


def test_migrate_py_lone_cr_and_crlf_lines() -> None:
    for newline in ("\r", "\r\n"):
        text = newline.join(['import tvm', 'a = tvm.target.Target("llvm -mcpu=skylake")',
                             'b = tvm.target.Target("llvm -device=arm_cpu")', ''])
        result = migrate_source(text)
        assert len(result.rewrites) == 2 and result.text.count(newline) == 3
        compile(result.text, "<test>", "exec")


def test_migrate_py_reports_files_it_cannot_read_and_goes_on(tmp_path: Path) -> None:
    files = {
        "latin.py": b'import tvm\nt = tvm.target.Target("llvm -mcpu=skylake")\n# \xe9\n',
        "binary.py": bytes(range(256)) * 4,
        "cookie.py": b"# -*- coding: klingon -*-\nimport tvm\n",
        "long.py": b"import tvm\nx = " + b"+".join([b"1"] * 50000) + b"\n",
        "nul.py": b"import tvm\x00\n",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    good = _script(tmp_path, "zgood.py", "llvm -mcpu=skylake")
    paths = [str(tmp_path / n) for n in files] + [str(tmp_path / "missing.py"), str(good)]
    code, out, err = cli("migrate", "--py", *paths)
    assert code == 2  # a file that could not be read; the rest were still migrated
    for name in files:
        assert f"{tmp_path / name}:" in err and "not Python" in err.split(name)[1].split("\n")[0]
    assert "error: " in err and "missing.py: No such file" in err
    assert "+t = tvm.target.Target({" in out


def test_migrate_py_keeps_an_encoding_it_cannot_write_in(tmp_path: Path) -> None:
    path = tmp_path / "ascii.py"
    path.write_bytes(b'# -*- coding: ascii -*-\nimport tvm\nt = tvm.target.Target("cuda -model=\\u00e9")\n')
    before = path.read_bytes()
    result = migrate_file(path, write=True)
    assert path.read_bytes() == before
    assert not result.changed or any("encoding" in f.message for f in result.findings)


# ---- section 4: logs ----------------------------------------------------------------------------

def _normalize(data: bytes) -> tuple[bytes, LogSummary]:
    summary = LogSummary()
    return b"".join(normalize(lines_of(io.BytesIO(data)), summary)), summary


@pytest.mark.parametrize("record", [b'{"input": [', b'{"input": [\n', b'{"i": [',
                                    b'{"input": [' + b"[" * 100_000 + b"]" * 100_000 + b", 1]}",
                                    b'{"input": [{' + b'"a": [' * 100_000 + b"}]}",
                                    b'{"x": ' + b"[" * 100_000 + b', "input": ["llvm"]}'])
def test_logs_keep_a_bad_record_verbatim_and_report_it(record: bytes) -> None:
    out, summary = _normalize(record)
    assert out == record and summary.failed == 1
    for tool in (lambda lines, s: list(select(lines, "llvm", s)), stats):
        summary = LogSummary()
        tool(lines_of(io.BytesIO(record)), summary)
        assert summary.failed == 1


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_logs_read_every_line_ending_and_keep_each(newline: bytes) -> None:
    data = RECORD + newline + b"# comment" + b"\r" + RECORD + b"\r\n" + RECORD + newline
    out, summary = _normalize(data)
    assert summary.records == 3 and summary.comments == 1 and summary.failed == 0
    assert out == data.replace(RECORD, NORMALIZED)


def test_lines_of_keeps_a_crlf_split_across_blocks() -> None:
    data = b"ab\r\ncd\ref\n\r\r\ngh"
    for block in range(1, 8):
        assert list(lines_of(io.BytesIO(data), block)) == [b"ab\r\n", b"cd\r", b"ef\n", b"\r",
                                                           b"\r\n", b"gh"]


# ---- section 4: writing files ----------------------------------------------------------------------

@pytest.fixture()
def log(tmp_path: Path) -> Path:
    path = tmp_path / "in.log"
    path.write_bytes(RECORD + b"\n")
    return path


def _logs_to(log: Path, out: str) -> tuple[int, str, str]:
    return cli("logs", "normalize", "--quiet", str(log), "-o", out)


def test_output_errors_are_one_error_line(log: Path, tmp_path: Path) -> None:
    for out in (str(tmp_path / "missing" / "x.log"), str(tmp_path), "/proc/version"):
        code, _, err = _logs_to(log, out)
        assert code == 2 and err.startswith(f"error: {out}: ") and err.count("\n") == 1, err
    if os.geteuid() != 0:  # root writes into a read-only directory anyway
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        code, _, err = _logs_to(log, str(locked / "x.log"))
        assert code == 2 and "Permission denied" in err


def test_output_through_a_symlink_keeps_the_link_and_the_mode(log: Path, tmp_path: Path) -> None:
    real = tmp_path / "real.log"
    real.write_bytes(b"old\n")
    real.chmod(0o640)
    link = tmp_path / "link.log"
    link.symlink_to(real.name)
    assert _logs_to(log, str(link))[0] == 0
    assert link.is_symlink() and real.read_bytes() == NORMALIZED + b"\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_migrate_py_write_goes_through_a_symlink(tmp_path: Path) -> None:
    real = _script(tmp_path, "real.py", "llvm -mcpu=skylake")
    real.chmod(0o751)
    link = tmp_path / "link.py"
    link.symlink_to(real.name)
    code, _, err = cli("migrate", "--py", "--write", str(link))
    assert code == 0, err
    assert link.is_symlink() and "{" in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o751


def test_output_into_a_fifo_or_device_is_written_not_replaced(log: Path, tmp_path: Path) -> None:
    # A device node of our own (never the system's /dev/null: a broken build would replace
    # it for everyone on the machine). Making one needs root; the FIFO part runs anyway.
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pass
    else:
        assert _logs_to(log, str(device))[0] == 0
        assert stat.S_ISCHR(device.lstat().st_mode)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    assert _logs_to(log, str(fifo))[0] == 0
    assert reader.communicate(timeout=30)[0] == NORMALIZED + b"\n"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_socket_is_refused(log: Path, tmp_path: Path) -> None:
    import socket

    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        code, _, err = _logs_to(log, str(path))
    assert code == 2 and "not a regular file; not replaced" in err
    assert stat.S_ISSOCK(path.lstat().st_mode)


def test_a_full_disk_is_an_error_and_leaves_the_file(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    target.write_bytes(b"precious")

    def chunks() -> object:
        yield b"x"
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left") as raised:
        _files.write_atomically(target, chunks())  # type: ignore[arg-type]
    assert getattr(raised.value, "targetlang_input", False)
    assert target.read_bytes() == b"precious"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


def test_a_temp_file_of_a_killed_run_is_removed_by_the_next(tmp_path: Path) -> None:
    target = tmp_path / "out.log"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    stale = tmp_path / f".out.log.targetlang-{int(dead.stdout)}-abcd1234.tmp"
    stale.write_bytes(b"half")
    mine = tmp_path / f".out.log.targetlang-{os.getpid()}-abcd1234.tmp"
    mine.write_bytes(b"live")
    _files.write_atomically(target, b"whole")
    assert target.read_bytes() == b"whole" and not stale.exists() and mine.exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_a_temp_file_whose_pid_now_names_a_younger_process_is_removed(tmp_path: Path) -> None:
    # PIDs wrap around (32768 by default): the PID in a killed run's temp file may name a
    # process started since, which did not write it.
    younger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        target = tmp_path / "out.log"
        reused = tmp_path / f".out.log.targetlang-{younger.pid}-abcd1234.tmp"
        reused.write_bytes(b"half")
        an_hour_ago = time.time() - 3600
        os.utime(reused, (an_hour_ago, an_hour_ago))
        current = tmp_path / f".out.log.targetlang-{younger.pid}-5678abcd.tmp"
        current.write_bytes(b"being written")
        _files.write_atomically(target, b"whole")
        assert target.read_bytes() == b"whole"
        assert not reused.exists() and current.exists()
    finally:
        younger.kill()
        younger.wait()


@needs_script
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_killed_mid_write_leaves_the_old_file(tmp_path: Path, sig: int) -> None:
    out = tmp_path / "out.log"
    out.write_bytes(b"old\n")
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen([str(SCRIPT), "logs", "normalize", "--quiet", str(fifo), "-o",
                             str(out)], stderr=subprocess.PIPE, preexec_fn=interruptible)
    with open(fifo, "wb") as feed:
        feed.write((RECORD + b"\n") * 1000)
        feed.flush()
        deadline = time.monotonic() + 30
        while not any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):
            assert time.monotonic() < deadline, "no temporary file appeared"
            time.sleep(0.02)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    assert out.read_bytes() == b"old\n"
    assert b"Traceback" not in err
    temps = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    if sig == signal.SIGKILL:
        assert len(temps) <= 1
        _files.write_atomically(out, b"new\n")  # the next run removes it
        temps = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    else:
        assert proc.returncode in (-sig, 128 + sig)
    assert temps == []


# ---- section 4: the streams of the console script ---------------------------------------------------

@needs_script
def test_closed_or_full_standard_output() -> None:
    closed = subprocess.run(f"'{SCRIPT}' parse llvm >&-", shell=True, capture_output=True,
                            timeout=60, check=False)
    no_traceback(closed)
    assert closed.returncode == 2 and closed.stderr.startswith(b"error: ")
    with open("/dev/full", "wb") as full:
        done = subprocess.run([str(SCRIPT), "parse", "llvm"], stdout=full,
                              stderr=subprocess.PIPE, timeout=60, check=False)
    no_traceback(done)
    assert done.returncode == 2 and b"No space left on device" in done.stderr


@needs_script
def test_closed_standard_input() -> None:
    done = subprocess.run(f"'{SCRIPT}' parse <&-", shell=True, capture_output=True,
                          timeout=60, check=False)
    no_traceback(done)
    assert done.returncode == 2 and done.stderr == b"error: standard input: closed\n"


@needs_script
def test_a_reader_that_goes_away_is_quiet() -> None:
    done = subprocess.run(f"'{SCRIPT}' tags | head -n 1", shell=True, capture_output=True,
                          timeout=60, check=False)
    assert done.stderr == b"" and done.stdout.startswith(b"tag")
    proc = subprocess.Popen([str(SCRIPT), "parse", "--compact"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=interruptible)
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdout.close()
    _, err = proc.communicate(b"llvm\n" * 100_000, timeout=60)
    assert err == b""


#: The environment without PYTHONUNBUFFERED (set on some machines, CI runners among them):
#: the console script's output is then buffered, as on a user's machine.
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


@needs_script
@pytest.mark.parametrize("command", [["parse", "--compact"], ["migrate", "--compact"],
                                     ["explain", "--json"], ["format"]])
def test_a_filter_answers_each_line_before_reading_the_next(command: list[str]) -> None:
    proc = subprocess.Popen([str(SCRIPT), *command], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=BUFFERED)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for _ in range(2):
            proc.stdin.write(b"cuda -arch=sm_80\n")
            proc.stdin.flush()
            ready, _, _ = wait_readable([proc.stdout], [], [], 60)
            assert ready, "no answer to a line before the next was written"
            assert proc.stdout.readline().strip()
    finally:
        proc.kill()
        proc.communicate()


@needs_script
def test_ctrl_c_exits_130_without_a_traceback() -> None:
    proc = subprocess.Popen([str(SCRIPT), "parse", "--compact"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=interruptible, env=BUFFERED)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"llvm\n")
    proc.stdin.flush()
    # (a line answered before the next is read: a filter on a pipe flushes line by line)
    ready, _, _ = wait_readable([proc.stdout], [], [], 60)
    if not ready:
        proc.kill()
        pytest.fail("no answer to the first line before the second was written")
    assert proc.stdout.readline().startswith(b'{"kind": "llvm"')  # running, reading line 2
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and b"Traceback" not in err


@needs_script
def test_an_ascii_terminal_gets_escapes_not_a_crash() -> None:
    done = console("parse", "--compact", "llvm -mcpu=\u00e9", env={"PYTHONIOENCODING": "ascii"})
    no_traceback(done)
    assert done.returncode == 0 and b'"mcpu": "\\xe9"' in done.stdout
    done = console("check", "cuda -arhc=\u00e9", env={"PYTHONIOENCODING": "ascii"})
    no_traceback(done)
    assert done.returncode == 1 and b"\\xe9" in done.stderr


@needs_script
def test_bytes_that_are_not_text_on_standard_input() -> None:
    done = console("parse", "--compact", stdin=b"llvm\n\xff\xfe\n", env={"PYTHONIOENCODING": "utf-8"})
    no_traceback(done)
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 2 and b'"error"' in lines[1]
    assert done.stderr.startswith(b"error: line 2: ")


def test_migrate_py_refuses_files_that_never_end(tmp_path: Path) -> None:
    code, _, err = cli("migrate", "--py", "/dev/zero")
    assert code == 2 and err.startswith("error: /dev/zero: not a regular file\n")
    fifo = tmp_path / "p.py"
    os.mkfifo(fifo)
    code, _, err = cli("migrate", "--py", "--write", str(fifo))  # refused before it is opened
    assert code == 2 and "not a regular file" in err


def test_a_line_longer_than_any_record_is_read_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    from targetlang.migration import logs

    monkeypatch.setattr(logs, "LINE_LIMIT", 100)
    data = b"x" * 350 + b"\n" + RECORD + b"\n"
    pieces = list(lines_of(io.BytesIO(data), 64))
    assert b"".join(pieces) == data and max(len(p) for p in pieces) <= 100 + 64
    assert len(pieces) > 3 and pieces[-1] == RECORD + b"\n"


@needs_script
def test_a_closed_standard_output_matters_only_when_printed_to(log: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.log"
    done = subprocess.run(f"'{SCRIPT}' logs normalize --quiet '{log}' -o '{out}' >&-",
                          shell=True, capture_output=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, b"")
    assert out.read_bytes() == NORMALIZED + b"\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_the_owner_is_kept_where_allowed(tmp_path: Path) -> None:
    path = tmp_path / "owned.py"
    path.write_bytes(b"x")
    os.chown(path, 1234, 1234)
    path.chmod(0o754)
    _files.write_atomically(path, b"y")
    info = path.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (1234, 1234, 0o754)
