"""Helpers shared by the fill tests: the installed scripts and a process whose stderr is read."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

BIN = Path(sys.executable).parent


def script(name: str) -> str:
    return str(BIN / name)


class Running:
    """A started process whose stderr lines are collected in the background."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            argv, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines:
                if match := re.search(pattern, line):
                    return match
            try:
                read = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if read is None:
                break
            self.lines.append(read)
        raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(self.lines))

    def finish(self, timeout: float = 120) -> int:
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"{self.process.args!r} still running after {timeout:g}s; {where(self.process.pid)}"
                "; stderr so far:\n" + "\n".join(self.lines)
            ) from None
        while (line := self._queue.get(timeout=timeout)) is not None:
            self.lines.append(line)
        return code

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def where(pid: int) -> str:
    """Where a process that does not end waits: its state, its kernel wait channel and stack."""
    found = []
    for name in ("stat", "wchan", "stack"):
        try:
            found.append(f"{name}: {Path(f'/proc/{pid}/{name}').read_text().strip()}")
        except OSError as error:
            found.append(f"{name}: ({error.strerror})")
    return "; ".join(found)


def child_named(pid: int, name: str, timeout: float = 10) -> psutil.Process:
    """The child of ``pid`` called ``name``: a forked child keeps its parent's name until exec."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        named = [child for child in psutil.Process(pid).children() if child.name() == name]
        if named:
            return named[0]
        time.sleep(0.02)
    raise AssertionError(f"no child {name!r} of {pid}")
