"""Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: the
browser reads commands on fd 3 and writes answers on fd 4, each a JSON message ended by a NUL
byte), for pages that change while they are open (the web face's live pages: an event stream
never ends, so ``--dump-dom`` with ``--virtual-time-budget`` would wait for it forever). No
WebSocket, no third-party client: a test opens a page and evaluates JavaScript in it, as often as
it likes, while it drives the server."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]


class Browser:
    """A headless Chromium (``binary``) with one page; :meth:`evaluate` runs JavaScript in it."""

    def __init__(self, binary: str, profile: Path, size: str = "1366,768") -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # the browser's fd 3 reads our commands, its fd 4 writes its answers
        def to_3_and_4() -> None:  # in the child: the pipe's ends become fds 3 and 4 (inherited)
            os.dup2(to_browser_r, 200)
            os.dup2(from_browser_w, 201)
            os.dup2(200, 3)
            os.dup2(201, 4)

        self.process = subprocess.Popen(
            [binary, *FLAGS, f"--window-size={size}", f"--user-data-dir={profile}", "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            close_fds=False, preexec_fn=to_3_and_4, env={**os.environ, "LANG": "C.UTF-8"})
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.stderr: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()
        self._buffer = b""
        self._next = 0
        self.session = ""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Runtime.enable")

    def _drain(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def call(self, method: str, timeout: float = 60, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" not in self._buffer:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no answer to {method}")
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("the browser closed its pipe: " + "".join(self.stderr[-20:]))
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def open(self, url: str) -> None:
        self.call("Page.enable")
        self.call("Page.navigate", url=url)

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30) -> Any:
        """The value of ``expression`` once it is truthy (polled)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {expression}")

    def screenshot(self, path: Path) -> None:
        import base64

        data = self.call("Page.captureScreenshot", format="png")["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(15)
        os.close(self._to_browser)
        os.close(self._from_browser)
