"""Run by gdb's own Python (``gdb -x ingdb.py``), never imported by dotdbg: gdb commands that
walk every thread's frames and put CPython's Python frames in place of the evaluation-loop
frames that run them, through CPython's gdb extension (python-gdb.py, loaded beforehand).

  dotdbg-load-extension PATH   source python-gdb.py unless gdb auto-loaded it already
  dotdbg-bt [all]              the mixed stack of this thread (or every thread), as dotdbg prints it
  dotdbg-json                  every thread's mixed stack, one JSON line for dotdbg to read
  dotdbg-break-in              print the mixed stack whenever a signal stops the program

Without the extension (or without the interpreter's debug information) the native frames are
still given, the evaluation loop among them.
"""
# mypy: ignore-errors
# gdb's embedded Python may be older than dotdbg's: this file and what it imports stay 3.8-clean.

from __future__ import annotations

import json
import os
import signal
import sys
from dataclasses import asdict

import gdb

# dotdbg's pure modules, from where this file is; the path is taken back so that nothing else
# gdb's Python imports later comes from dotdbg's environment
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, _ROOT)
try:
    from dotdbg.gdb import frames, render
finally:
    sys.path.remove(_ROOT)

JSON_MARK = "@dotdbg-json@ "
_READ_ERRORS = (gdb.error, gdb.MemoryError, RuntimeError, ValueError, AttributeError, TypeError)


def extension():
    """CPython's gdb module, once python-gdb.py has run in gdb's ``__main__``."""
    main = vars(sys.modules["__main__"])
    return main if "PyBacktrace" in main else None


def python_frames(lib, gdb_frame):
    """The Python frames one evaluation-loop call runs, innermost first; [] when unreadable."""
    found = []
    try:
        pyop = lib["Frame"](gdb_frame).get_pyop()
        while pyop is not None and not pyop.is_optimized_out():
            if not getattr(pyop, "is_shim", lambda: False)():
                name = pyop.co_name.proxyval(set())
                found.append(frames.python(str(name), pyop.filename(), pyop.current_line_num()))
            is_entry = getattr(pyop, "is_entry", None)  # 3.11+: one C call runs several frames
            if is_entry is None or is_entry():
                break
            pyop = pyop.previous()
    except _READ_ERRORS:
        pass
    return found


def native_frame(gdb_frame):
    name = gdb_frame.name()
    if name and gdb_frame.type() == gdb.INLINE_FRAME:
        name += " (inlined)"
    sal = gdb_frame.find_sal()
    file = sal.symtab.filename if sal.symtab else None
    library = gdb.solib_name(gdb_frame.pc()) or gdb.current_progspace().filename
    return frames.native(name, file, sal.line if sal.symtab else None, library)


def describe(lib, gdb_frame):
    name = gdb_frame.name() or ""
    if frames.is_eval_loop(name) and gdb_frame.type() == gdb.NORMAL_FRAME and lib is not None:
        return python_frames(lib, gdb_frame) or [native_frame(gdb_frame)]
    return [] if frames.is_plumbing(name) else [native_frame(gdb_frame)]


def thread_frames(lib):
    found = []
    gdb_frame = gdb.newest_frame()
    while gdb_frame is not None:
        found += describe(lib, gdb_frame)
        try:
            gdb_frame = gdb_frame.older()
        except gdb.error:  # a stack gdb cannot unwind further
            break
    return found


def current_thread(lib):
    thread = gdb.selected_thread()
    return frames.thread(thread.name, thread.ptid[1], None, thread_frames(lib))


def every_thread(lib):
    selected = gdb.selected_thread()
    found = []
    for thread in sorted(gdb.selected_inferior().threads(), key=lambda each: each.num):
        thread.switch()
        found.append(current_thread(lib))
    if selected is not None:
        selected.switch()
    return found


class LoadExtension(gdb.Command):
    """Source CPython's gdb extension (python-gdb.py) unless it is loaded already."""

    def __init__(self):
        super().__init__("dotdbg-load-extension", gdb.COMMAND_SUPPORT, gdb.COMPLETE_FILENAME)

    def invoke(self, argument, from_tty):
        if extension() is None:
            gdb.execute(f"source {argument.strip()}", to_string=False)


class MixedBacktrace(gdb.Command):
    """Python and native frames of this thread, innermost first ("dotdbg-bt all": every thread)."""

    def __init__(self):
        super().__init__("dotdbg-bt", gdb.COMMAND_STACK)

    def invoke(self, argument, from_tty):
        lib = extension()
        threads = every_thread(lib) if argument.strip() == "all" else [current_thread(lib)]
        print("\n\n".join(render.thread_text(thread) for thread in threads))


class JsonBacktrace(gdb.Command):
    """Every thread's mixed stack as one JSON line (for dotdbg)."""

    def __init__(self):
        super().__init__("dotdbg-json", gdb.COMMAND_STACK)

    def invoke(self, argument, from_tty):
        threads = [asdict(thread) for thread in every_thread(extension())]
        print(JSON_MARK + json.dumps({"python": extension() is not None, "threads": threads}))


def _sent_trap():
    """Whether the stop is a SIGTRAP a process sent (os.kill, kill -TRAP), not a step's trap."""
    try:
        info = gdb.parse_and_eval("$_siginfo")
        # si_code <= 0: sent by a process (SI_USER, SI_TKILL, SI_QUEUE); > 0: by the kernel
        return int(info["si_signo"]) == signal.SIGTRAP and int(info["si_code"]) <= 0
    except gdb.error:
        return False


def _on_stop(event):
    # gdb reports a SIGTRAP as a plain stop, other signals (SIGSEGV, SIGABRT...) as signal stops
    if isinstance(event, gdb.SignalEvent):
        name = event.stop_signal
    elif not isinstance(event, gdb.BreakpointEvent) and _sent_trap():
        name = "SIGTRAP"
    else:
        return
    print(f"\ndotdbg: the program stopped on {name}; its mixed stack:")
    print(render.thread_text(current_thread(extension())))
    print("dotdbg: py-bt, py-list, py-up, py-locals, bt; c continues, q quits")


class BreakIn(gdb.Command):
    """Print the mixed stack each time a signal (SIGTRAP, SIGSEGV, SIGABRT...) stops the program."""

    def __init__(self):
        super().__init__("dotdbg-break-in", gdb.COMMAND_RUNNING)

    def invoke(self, argument, from_tty):
        gdb.events.stop.connect(_on_stop)


LoadExtension()
MixedBacktrace()
JsonBacktrace()
BreakIn()
