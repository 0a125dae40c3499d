"""A small Chrome DevTools Protocol client, stdlib only, for driving headless Chromium in tests:
start the browser with a debugging port, open a WebSocket to a page, send commands, read replies.

Only what the tests need: text frames (masked, as a client must send them), replies of any
length (7-, 16- and 64-bit lengths, fragmented messages), ping answered, events skipped."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import struct
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_TEXT, _CLOSE, _PING, _PONG = 0x1, 0x8, 0x9, 0xA


class CDPError(RuntimeError):
    """The browser answered a command with an error, or did not answer in time."""


class WebSocket:
    """A client WebSocket (RFC 6455) over a plain TCP socket: ws:// on a local port only."""

    def __init__(self, url: str, timeout: float) -> None:
        parts = urllib.parse.urlsplit(url)
        assert parts.scheme == "ws" and parts.hostname and parts.port, url
        self._socket = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self._socket.sendall((f"GET {parts.path or '/'} HTTP/1.1\r\n"
                              f"Host: {parts.hostname}:{parts.port}\r\n"
                              "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                             .encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self._socket.recv(4096)
            if not chunk:
                raise CDPError("the browser closed the connection during the handshake")
            head += chunk
        head, _, self._buffer = head.partition(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            raise CDPError(f"WebSocket handshake refused: {status!r}")

    def send_text(self, text: str) -> None:
        payload = text.encode()
        size = len(payload)
        if size < 126:
            header = struct.pack("!BB", 0x80 | _TEXT, 0x80 | size)
        elif size < 1 << 16:
            header = struct.pack("!BBH", 0x80 | _TEXT, 0x80 | 126, size)
        else:
            header = struct.pack("!BBQ", 0x80 | _TEXT, 0x80 | 127, size)
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self._socket.sendall(header + mask + masked)

    def _read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            chunk = self._socket.recv(max(65536, count - len(self._buffer)))
            if not chunk:
                raise CDPError("the browser closed the connection")
            self._buffer += chunk
        data, self._buffer = self._buffer[:count], self._buffer[count:]
        return data

    def _frame(self) -> tuple[bool, int, bytes]:
        first, second = self._read(2)
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._read(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._read(8))
        mask = self._read(4) if second & 0x80 else b""  # servers do not mask; tolerate it
        payload = self._read(size)
        if mask:
            payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        return bool(first & 0x80), first & 0x0F, payload

    def receive_text(self, timeout: float) -> str:
        self._socket.settimeout(timeout)
        message = b""
        while True:
            final, opcode, payload = self._frame()
            if opcode == _PING:
                self._send_control(_PONG, payload)
                continue
            if opcode == _CLOSE:
                raise CDPError("the browser closed the WebSocket")
            if opcode == _PONG:
                continue
            message += payload  # a text frame or its continuations
            if final:
                return message.decode()

    def _send_control(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self._socket.sendall(struct.pack("!BB", 0x80 | opcode, 0x80 | len(payload)) + mask
                             + masked)

    def close(self) -> None:
        try:
            self._send_control(_CLOSE, struct.pack("!H", 1000))
        except OSError:
            pass
        self._socket.close()


class Page:
    """One page target of the browser, driven command by command."""

    def __init__(self, websocket_url: str, timeout: float = 30.0) -> None:
        self._socket = WebSocket(websocket_url, timeout)
        self._next_id = 0
        self.timeout = timeout

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        ident = self._next_id
        self._socket.send_text(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while (left := deadline - time.monotonic()) > 0:
            message = json.loads(self._socket.receive_text(left))
            if message.get("id") != ident:
                continue  # an event, or the reply to an earlier command
            if "error" in message:
                raise CDPError(f"{method}: {message['error']}")
            result: dict[str, Any] = message.get("result", {})
            return result
        raise CDPError(f"{method}: no answer in {self.timeout} s")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited if it is a promise)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise CDPError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float, every: float = 0.25) -> Any:
        """Poll until the expression is truthy; its value. CDPError after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CDPError(f"still false after {timeout} s: {expression}")
            time.sleep(every)

    def click(self, selector: str) -> None:
        """A real mouse click (press and release) at the middle of the element's box."""
        box = self.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                            ".getBoundingClientRect(); return [r.x + r.width / 2, "
                            "r.y + r.height / 2]; })()")
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def press(self, key: str, code: str, key_code: int) -> None:
        """A key pressed and released, e.g. press("Backspace", "Backspace", 8)."""
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=code,
                      windowsVirtualKeyCode=key_code, nativeVirtualKeyCode=key_code)

    def screenshot(self, path: Path) -> None:
        """The whole page as PNG, below the window's bottom too."""
        size = self.send("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip=clip)["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        self._socket.close()


class Browser:
    """Headless Chromium with a DevTools port, in its own profile directory; `close` kills it."""

    def __init__(self, executable: str, profile: Path, extra: Sequence[str] = (),
                 timeout: float = 30.0) -> None:
        self._process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-port=0", f"--user-data-dir={profile}", "--no-first-run",
             *extra, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.stderr: list[str] = []
        found = threading.Event()
        self.endpoint = ""

        def read_stderr() -> None:  # also keeps the pipe drained for the browser's lifetime
            assert self._process.stderr is not None
            for raw in self._process.stderr:
                line = raw.decode(errors="replace")
                self.stderr.append(line)
                match = re.search(r"DevTools listening on (ws://\S+)", line)
                if match and not found.is_set():
                    self.endpoint = match.group(1)
                    found.set()

        threading.Thread(target=read_stderr, daemon=True).start()
        if not found.wait(timeout):
            self.close()
            raise CDPError("Chromium did not say where DevTools listens:\n"
                           + "".join(self.stderr)[-2000:])

    def new_page(self, timeout: float = 30.0) -> Page:
        """The browser's first page target (about:blank), attached."""
        http = urllib.parse.urlsplit(self.endpoint)
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no *_proxy
        with direct.open(f"http://{http.netloc}/json/list", timeout=timeout) as reply:
            targets = json.load(reply)
        page = next(target for target in targets if target.get("type") == "page")
        return Page(page["webSocketDebuggerUrl"], timeout)

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait(timeout=30)
