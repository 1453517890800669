"""Other processes' strings are data (issue 21.4): a process whose command line, kernel name,
thread name and code file name hold ESC, BEL and an OSC 52 (which writes the clipboard) shows
them as escapes in stacks, pyspy, gdb and watch-python (once and live), never raw."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.stacks.stacks_support import DOTDBG

OSC52 = "\x1b]52;c;cHduZWQ=\x07"
SHOWN = "\\x1b]52;c;cHduZWQ=\\x07"
CONTROLS = [chr(code) for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if chr(code) != "\n"]
PROGRAM = f"""
import ctypes, threading, time
ctypes.CDLL(None).prctl(15, b"\\x1b]0;t\\x07", 0, 0, 0)  # PR_SET_NAME: its kernel name
threading.Thread(target=time.sleep, args=(600,), name={OSC52!r} + "w", daemon=True).start()
def wait():
    time.sleep(600)
print("ready", flush=True)
wait()
"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, str]]:
    folder = tmp_path_factory.mktemp("hostile")
    script = folder / "evil\x1b[2J\x07.py"  # a code file name that clears the screen
    script.write_text(PROGRAM)
    token = f"dotdbghostile{os.getpid()}"
    proc = subprocess.Popen(
        [sys.executable, str(script), OSC52, token],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        yield proc.pid, token
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def dotdbg(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "300"}
    return subprocess.run([DOTDBG, *args], capture_output=True, text=True, timeout=120, env=env)


def assert_only_escapes(done: subprocess.CompletedProcess[str]) -> None:
    for stream in (done.stdout, done.stderr):
        raw = [char for char in CONTROLS if char in stream]
        assert not raw, (raw, stream[-2000:])
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (("stacks", "{token}"), "evil\\x1b[2J\\x07.py"),
        (("stacks", "--all-threads", "{token}"), f"'{SHOWN}w'"),
        (("stacks", "--samples", "2", "--interval", "0.1", "{token}"), "evil\\x1b[2J\\x07.py"),
        (("pyspy", "{token}"), SHOWN),
        (("pyspy", "--json", "{token}"), "\\u001b]52;c;cHduZWQ=\\u0007w"),
        (("gdb", "{pid}"), "\\x1b]0;t\\x07"),
        (("watch-python", "--once", "--pattern", "{token}"), f"{SHOWN} {{token}}"),
    ],
    ids=["stacks", "all-threads", "samples", "pyspy", "pyspy-json", "gdb", "watch-once"],
)
def test_titles_threads_and_file_names_are_escaped(
    hostile: tuple[int, str], args: tuple[str, ...], shown: str
) -> None:
    pid, token = hostile
    done = dotdbg(*(arg.format(token=token, pid=pid) for arg in args))
    assert done.returncode == 0, done.stderr[-2000:]
    assert_only_escapes(done)
    assert shown.format(token=token) in done.stdout


def test_watch_python_live_shows_escapes(hostile: tuple[int, str]) -> None:
    """In a terminal (script's pty) rich draws the table with its own sequences; the
    process's OSC 52 and BEL are not among them."""
    if shutil.which("script") is None:
        pytest.skip("script (util-linux) is needed for a pty")
    _, token = hostile
    command = f"timeout -s INT 3 {DOTDBG} watch-python --pattern {token}"
    done = subprocess.run(
        ["script", "-qec", command, "/dev/null"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "COLUMNS": "300", "LINES": "40", "TERM": "xterm"},
    )  # fmt: skip
    out = done.stdout
    assert "\x1b]52" not in out and "\x07" not in out and "\x1b]0;" not in out
    assert SHOWN in out
    assert "Traceback" not in out
