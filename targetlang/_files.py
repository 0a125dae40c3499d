"""Writing files safely: the one helper every writer of targetlang uses.

:func:`write_atomically` keeps the promise the tools make about files:

- a regular file is replaced in one step (a temporary file beside it, fsynced, then
  renamed over it), keeping its permission bits (and its owner, where allowed); a new file
  gets ``0o666 & ~umask``; like ``sed -i``, other hard links to it keep the old content;
- a symbolic link is written through: its target is replaced, the link stays;
- a character device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is written
  straight into, as a shell redirection would; it is never replaced;
- anything else that is not a regular file (a directory, a socket, a block device) is
  refused with an :class:`OSError`, and nothing is written;
- the temporary file is removed on any error, on Ctrl-C and on SIGTERM; one left by a run
  that was killed outright (SIGKILL) is named after its process and removed by the next
  write to the same file once that process is gone.

:func:`write_directory_atomically` writes a set of files as one new directory (a MetaSchedule
database): all of them or none. They are written into a temporary directory beside it, then
that is renamed into place; the directory must not exist or be empty (an existing file, a
non-empty directory or a symbolic link is refused: nothing is merged into or replaced).
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import os
import re
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from types import FrameType

__all__ = ["unified_diff", "write_atomically", "write_directory_atomically"]

_TEMP = ".{name}.targetlang-{pid}-{random}.tmp"
_TEMP_RE = r"\.{name}\.targetlang-(\d+)-[0-9a-f]+\.tmp"


class _Terminated(BaseException):
    """SIGTERM while a temporary file exists: unwind (removing it), then exit as killed."""


def _refuse(path: str, why: str) -> OSError:
    return OSError(errno.EINVAL, f"{why}; not replaced", path)


def _target_of(path: str) -> str:
    """The file that writing ``path`` changes: symbolic links followed (even dangling)."""
    return os.path.realpath(path)


def write_atomically(path: str | os.PathLike[str], data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` (bytes, or chunks of bytes) to ``path`` as the module docstring says.

    Raises :class:`OSError` naming ``path`` (never the temporary file) when it cannot.
    """
    shown = os.fspath(path)
    try:
        _write(shown, [data] if isinstance(data, bytes) else _marked(data))
    except OSError as error:
        if error.filename != shown and not getattr(error, "targetlang_input", False):
            # the temporary file, the directory, a full disk: name the file being written
            raise OSError(error.errno, error.strerror or str(error), shown) from error
        raise


def _marked(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """``chunks``, an error while producing them marked as the input's, not the output's."""
    iterator = iter(chunks)
    while True:
        try:
            chunk = next(iterator)
        except StopIteration:
            return
        except OSError as error:
            error.targetlang_input = True  # type: ignore[attr-defined]
            raise
        yield chunk


def _write(shown: str, chunks: Iterable[bytes]) -> None:
    real = _target_of(shown)
    try:
        info: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            with open(real, "wb") as out:  # noqa: PTH123 - a device: written into, in place
                for chunk in chunks:
                    out.write(chunk)
            return
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise _refuse(shown, f"is {kind}")
    directory, name = os.path.split(real)
    directory = directory or "."
    _remove_stale(directory, name)
    mode = (info.st_mode & 0o7777) if info is not None else 0o666 & ~_umask()
    with _temporary(directory, name) as (fd, temp):
        with os.fdopen(fd, "wb", buffering=1 << 20) as out:
            for chunk in chunks:
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        if info is not None and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):  # keep the owner where we may (root)
                os.chown(temp, info.st_uid, info.st_gid)
                os.chmod(temp, mode)  # chown clears set-user-ID bits
        os.replace(temp, real)
    _sync_directory(directory)


def _sync_directory(directory: str | os.PathLike[str]) -> None:
    """Make a rename in ``directory`` durable, where the system allows."""
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _temporary(directory: str, name: str) -> Iterator[tuple[int, str]]:
    """A new temporary file beside the target, removed unless renamed away."""
    with _terminate_raises():
        for _ in range(100):
            temp = os.path.join(directory, _TEMP.format(name=name, pid=os.getpid(),
                                                        random=os.urandom(4).hex()))
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                break
            except FileExistsError:
                continue
            except OSError as error:
                raise OSError(error.errno, f"cannot create a file in {directory}: "
                                           f"{error.strerror}", temp) from error
        else:  # pragma: no cover - 100 collisions of 32 random bits
            raise FileExistsError(errno.EEXIST, "no free temporary file name", directory)
        try:
            yield fd, temp
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise


@contextlib.contextmanager
def _terminate_raises() -> Iterator[None]:
    """SIGTERM (and SIGHUP) raise instead of killing, so the temporary file is removed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)
        raise _Terminated(signum)

    names = [s for s in ("SIGTERM", "SIGHUP") if hasattr(signal, s)]
    previous = {}
    for sig_name in names:
        number = getattr(signal, sig_name)
        try:
            previous[number] = signal.signal(number, handler)
        except (ValueError, OSError):  # pragma: no cover - not allowed here
            continue
    try:
        yield
    except _Terminated:
        for number, old in previous.items():
            signal.signal(number, old)
        previous.clear()
        os.kill(os.getpid(), caught[0])  # die of the same signal, now the temp is gone
        raise
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


def _remove_stale(directory: str, name: str) -> None:
    """Remove temporary files for ``name`` left by processes that no longer run."""
    pattern = re.compile(_TEMP_RE.format(name=re.escape(name)))
    try:
        entries = os.listdir(directory)
    except OSError:
        return
    for entry in entries:
        match = pattern.fullmatch(entry)
        if match is None:
            continue
        temp = os.path.join(directory, entry)
        try:
            written = os.lstat(temp).st_mtime
        except OSError:
            continue
        if _alive(int(match.group(1)), written):
            continue
        with contextlib.suppress(OSError):
            os.unlink(temp)


def _alive(pid: int, written: float) -> bool:
    """Whether the process that wrote a temporary file last modified at ``written`` may
    still run. A PID is reused once the kernel's numbers wrap around (32768 by default on
    Linux), so a live process with that PID that started after the file was written is
    another process, and the file is stale."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    started = _start_time(pid)
    return started is None or started <= written + 1.0  # start times are in clock ticks


def _start_time(pid: int) -> float | None:
    """When process ``pid`` started (seconds since the epoch), where /proc says; else None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat_file:
            fields = stat_file.read().rpartition(b")")[2].split()
        with open("/proc/stat", "rb") as kernel:
            boot = next(float(line.split()[1]) for line in kernel if line.startswith(b"btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def write_directory_atomically(path: str | os.PathLike[str], files: dict[str, bytes]) -> None:
    """Write ``files`` (name -> content) as the new directory ``path``: complete or not at all.

    ``path`` must not exist or be an empty directory (a symbolic link is refused); the new
    directory gets ``0o777 & ~umask`` and its files ``0o666 & ~umask``. Raises
    :class:`OSError` naming ``path`` when it cannot, and then nothing is left behind.
    """
    shown = os.fspath(path)
    if os.path.islink(shown):
        raise _refuse(shown, "is a symbolic link")
    try:
        info: os.stat_result | None = os.stat(shown)
    except FileNotFoundError:
        info = None
    if info is not None:
        if not stat.S_ISDIR(info.st_mode):
            raise OSError(errno.EEXIST, "exists and is not a directory; not replaced", shown)
        if os.listdir(shown):
            raise OSError(errno.ENOTEMPTY, "is a directory that is not empty; not replaced",
                          shown)
    parent, name = os.path.split(os.path.abspath(shown))
    umask = _umask()
    with _terminate_raises():
        temp = os.path.join(parent, _TEMP.format(name=name, pid=os.getpid(),
                                                 random=os.urandom(4).hex()))
        try:
            os.mkdir(temp, 0o700)
        except OSError as error:
            raise OSError(error.errno, f"cannot create a directory in {parent}: "
                                       f"{error.strerror}", shown) from error
        try:
            for file_name, content in files.items():
                fd = os.open(os.path.join(temp, file_name),
                             os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~umask)
                with os.fdopen(fd, "wb") as out:
                    out.write(content)
                    out.flush()
                    os.fsync(out.fileno())
            os.chmod(temp, 0o777 & ~umask)
            os.rename(temp, shown)  # over an empty directory too (POSIX)
        except BaseException as error:
            for file_name in os.listdir(temp):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(temp, file_name))
            with contextlib.suppress(OSError):
                os.rmdir(temp)
            if isinstance(error, OSError) and error.filename != shown:
                raise OSError(error.errno, error.strerror or str(error), shown) from error
            raise
    _sync_directory(parent)


#: a line with its own ending (\r\n, \r or \n), as Python's tokenizer splits lines
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def unified_diff(path: str, old: str, new: str) -> str:
    """The unified diff of a file's text ``old`` to ``new`` (every line ending kept), as
    ``git apply`` and ``patch -p1`` take it: ``a/`` and ``b/`` before the path (no ``./``,
    no second slash), and ``\\ No newline at end of file`` after a last line without one."""
    shown = os.path.normpath(path).replace(os.sep, "/").lstrip("/")
    out = []
    for line in difflib.unified_diff(_LINE.findall(old), _LINE.findall(new),
                                     fromfile=f"a/{shown}", tofile=f"b/{shown}"):
        out.append(line)
        if not line.endswith(("\n", "\r")):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)
