"""Loaded by every Python process of a ``dotdbg which --ran`` command, through PYTHONPATH.

Never imported by dotdbg itself. It watches for one line of one file, without editing it:
``sys.monitoring`` on Python 3.12 and later (a LINE event only on the code objects of that
file, each turned off after it fires), ``sys.settrace`` before (local tracing only in frames of
that file). Each event is one JSON line appended to a file (one short ``O_APPEND`` write, so
the processes of the command never interleave them, and a process that ends by ``os._exit``
has still said what it saw). Then the ``sitecustomize`` this one hides is imported, if any.

``DOTDBG_WHICH_RAN`` holds ``{"file": …, "line": …, "events": …}``.
"""

from __future__ import annotations

import json
import os
import sys
from types import FrameType

TOOL_NAME = "dotdbg which --ran"


class Watch:
    def __init__(self, file: str, line: int, events: str) -> None:
        self.file = file
        self.line = line
        self.events = events
        self.basename = os.path.basename(file)
        self.matches: dict[str, bool] = {}
        self.others: set[str] = set()
        self.hit = False

    def is_target(self, filename: str) -> bool:
        known = self.matches.get(filename)
        if known is None:
            real = os.path.realpath(filename)
            known = self.matches[filename] = real == self.file
            if not known and os.path.basename(filename) == self.basename:
                self.others.add(real)
                self.say({"event": "other", "file": real})
        return known

    def on_hit(self) -> None:
        self.hit = True
        frames: list[list[object]] = []
        frame = sys._getframe(2)
        while frame is not None and len(frames) < 8:
            code = frame.f_code
            frames.append([code.co_filename, frame.f_lineno, code.co_name])
            frame = frame.f_back  # type: ignore[assignment]
        self.say({"event": "hit", "stack": frames})

    def say(self, record: dict[str, object]) -> None:
        record["pid"] = os.getpid()
        data = (json.dumps(record) + "\n").encode()
        fd = os.open(self.events, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


def watch_with_monitoring(watch: Watch) -> str:
    monitoring = sys.monitoring  # type: ignore[attr-defined]
    tool = next(t for t in range(5, 0, -1) if monitoring.get_tool(t) is None)
    monitoring.use_tool_id(tool, TOOL_NAME)
    events = monitoring.events

    def on_start(code: object, _offset: int) -> object:
        if watch.is_target(code.co_filename) and not watch.hit:  # type: ignore[attr-defined]
            monitoring.set_local_events(tool, code, events.LINE)
        return monitoring.DISABLE

    def on_line(code: object, line: int) -> object:
        if line == watch.line and not watch.hit:
            watch.on_hit()
            monitoring.set_events(tool, 0)
        return monitoring.DISABLE

    monitoring.register_callback(tool, events.PY_START, on_start)
    monitoring.register_callback(tool, events.LINE, on_line)
    monitoring.set_events(tool, events.PY_START)
    return "sys.monitoring"


def watch_with_settrace(watch: Watch) -> str:
    import threading

    def local(frame: FrameType, event: str, _arg: object) -> object:
        if event == "line" and frame.f_lineno == watch.line and not watch.hit:
            watch.on_hit()
            sys.settrace(None)
            threading.settrace(None)
            return None
        return local

    def on_call(frame: FrameType, event: str, _arg: object) -> object:
        if event == "call" and watch.is_target(frame.f_code.co_filename):
            return local
        return None

    sys.settrace(on_call)  # type: ignore[arg-type]
    threading.settrace(on_call)  # type: ignore[arg-type]
    return "sys.settrace"


def start() -> None:
    settings = json.loads(os.environ["DOTDBG_WHICH_RAN"])
    watch = Watch(settings["file"], settings["line"], settings["events"])
    method = (
        watch_with_monitoring(watch) if hasattr(sys, "monitoring") else watch_with_settrace(watch)
    )
    watch.say({"event": "start", "argv": command_line(), "method": method})


def command_line() -> list[str]:
    """sys.argv is not set yet while site runs; the kernel's copy is."""
    try:
        with open("/proc/self/cmdline", "rb") as file:
            words = file.read().split(b"\0")[:-1]
    except OSError:
        return [sys.executable]
    return [word.decode(errors="replace") for word in words]


def import_hidden_sitecustomize() -> None:
    """The sitecustomize (of the venv, of the distribution) that this one stands in front of."""
    here = os.path.dirname(os.path.abspath(__file__))
    saved = sys.path[:]
    this = sys.modules.pop("sitecustomize")
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    try:
        import sitecustomize  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        sys.modules["sitecustomize"] = this  # the import system takes this module back out
    finally:
        sys.path[:] = saved


if "DOTDBG_WHICH_RAN" in os.environ:
    try:
        start()
    except Exception as error:  # never break the user's program
        sys.stderr.write(f"dotdbg which --ran: cannot watch this process: {error}\n")
import_hidden_sitecustomize()
