"""A headless Chromium driven over the DevTools protocol, with no dependency.

Chromium started with ``--remote-debugging-pipe`` reads protocol messages
(JSON, each ended by a NUL byte) on its file descriptor 3 and writes its
answers and events on descriptor 4; this module speaks that protocol through
two pipes, so the tests need neither a websocket library nor a driver.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Browser", "chromium", "open_browser"]

NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def chromium() -> str | None:
    """The path of a Chromium on this machine (``PU_SIM_CHROMIUM`` first), or None."""
    given = os.environ.get("PU_SIM_CHROMIUM")
    if given:
        return given
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One page of a running headless Chromium."""

    def __init__(self, proc: subprocess.Popen[bytes], send: int, recv: int) -> None:
        self.proc, self._send, self._recv = proc, send, recv
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def _read(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._recv, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its protocol pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        result: dict[str, Any] = json.loads(message)
        return result

    def call(self, method: str, timeout: float = 30.0, **params: Any) -> Any:
        """Send one command to the page (or the browser before ``attach``)."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if self.session is not None and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._send, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read(timeout)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        """The first event ``method`` (kept ones first)."""
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._read(timeout)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def attach(self) -> None:
        """Open a blank page and talk to it from now on."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call(
            "Target.attachToTarget", targetId=target, flatten=True
        )["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    def open(self, url: str, width: int = 1280, height: int = 900) -> None:
        """Load ``url`` in a window of this size and wait for its load event."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width, height=height, deviceScaleFactor=1, mobile=False,
        )  # fmt: skip
        self.events = [
            e for e in self.events if e.get("method") != "Page.loadEventFired"
        ]
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-able)."""
        answer = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True,
            awaitPromise=True,
        )  # fmt: skip
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression!r}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries so far."""
        self.call("Runtime.evaluate", expression="0")  # flush pending events
        found = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(json.dumps(params["exceptionDetails"])[:500])
            elif method == "Runtime.consoleAPICalled" and params["type"] in (
                "error", "assert",
            ):  # fmt: skip
                found.append(json.dumps(params["args"])[:500])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(json.dumps(params["entry"])[:500])
        return found

    def screenshot(self) -> bytes:
        """A PNG of the window as it shows now."""
        import base64

        data = self.call("Page.captureScreenshot", format="png")["data"]
        return base64.b64decode(data)


@contextmanager
def open_browser(executable: str) -> Iterator[Browser]:
    """A headless Chromium with one blank page; closed on exit."""
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()
    with tempfile.TemporaryDirectory(prefix="pu-sim-chromium-") as profile:
        args = [
            executable, "--headless", "--remote-debugging-pipe", "--no-sandbox",
            "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking",
            "--disable-dev-shm-usage", f"--user-data-dir={profile}",
        ]  # fmt: skip

        def pipes() -> None:  # the protocol's descriptors, as Chromium expects
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10)  # out of 3 and 4's way
                    for fd in (to_browser_r, from_browser_w)]  # fmt: skip
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        proc = subprocess.Popen(
            args, preexec_fn=pipes, pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        os.close(to_browser_r)
        os.close(from_browser_w)
        browser = Browser(proc, to_browser_w, from_browser_r)
        try:
            browser.attach()
            yield browser
        finally:
            try:
                browser.session = None
                browser.call("Browser.close", timeout=5)
            except (RuntimeError, TimeoutError, OSError):
                pass
            os.close(to_browser_w)
            os.close(from_browser_r)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
