"""``dotdbg.common.spawn``: commands at once, each with its output, exit code and deadline."""

from __future__ import annotations

import os
import select
import time
from pathlib import Path

import pytest

from dotdbg.common.spawn import Child, beside_interpreter, run_all
from tests.infra.procs import wait_for


def sh(script: str) -> list[str]:
    return ["/bin/sh", "-c", script]


def test_each_command_gives_its_code_and_both_streams_in_order() -> None:
    done = run_all(
        [sh("echo one; echo err >&2"), sh("exit 3"), sh("kill -9 $$"), sh("printf '%s' x")],
        timeout=60,
        at_once=8,
    )
    assert done == [(0, "one\n", "err\n"), (3, "", ""), (-9, "", ""), (0, "x", "")]


def test_output_larger_than_a_pipe_is_read_whole() -> None:
    big = 1 << 20  # a pipe holds 64 KiB: the child would block if nobody read while it writes
    done = run_all([sh(f"head -c {big} /dev/zero | tr '\\0' a")], timeout=60, at_once=1)
    assert done[0] is not None and len(done[0][1]) == big


def test_a_command_past_its_deadline_is_killed_and_none(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    started = time.monotonic()
    done = run_all([sh(f"echo $$ > {pid_file}; exec sleep 60"), sh("echo fine")], 1.0, 8)
    assert done == [None, (0, "fine\n", "")]
    assert time.monotonic() - started < 30
    assert not os.path.exists(f"/proc/{pid_file.read_text().strip()}")  # killed and reaped


def test_at_most_at_once_run_together(tmp_path: Path) -> None:
    """Each command notes itself as started, waits, and says how many were running then."""
    log = tmp_path / "log"
    running = f"$(( $(grep -c + {log}) - $(grep -c - {log}) ))"
    step = f"echo + >> {log}; sleep 1; echo {running}; echo - >> {log}"
    done = run_all([sh(step)] * 5, timeout=60, at_once=2)
    counts = [int(d[1]) for d in done if d is not None and d[0] == 0]
    assert len(counts) == 5 and max(counts) == 2


def test_stdin_is_empty_not_the_callers() -> None:
    assert run_all([["/bin/cat"]], timeout=60, at_once=1) == [(0, "", "")]


def test_stdin_may_be_an_open_file_read_from_its_start(tmp_path: Path) -> None:
    """bash -n reads the generated file this way (``bashcheck._run``): a file, not a pipe."""
    script = tmp_path / "script"
    script.write_text("echo from the file\n")
    with script.open("rb") as handle:
        assert run_all([["/bin/cat"]], 60, 1, stdin=handle.fileno()) == [
            (0, "echo from the file\n", "")
        ]


def test_a_bare_name_is_found_on_path_and_keeps_its_name() -> None:
    """As subprocess and a shell start it: bash's messages begin with its $0, `bash: line 3`."""
    assert run_all([["sh", "-c", 'printf %s "$0"']], 60, 1) == [(0, "sh", "")]


def test_an_exception_kills_the_children_running() -> None:
    """A stop signal's exception (here: the second command cannot start) leaves none behind."""
    sleeper = ["/bin/sleep", f"60.{os.getpid()}"]  # a command line no other test has
    fds = len(os.listdir("/proc/self/fd"))
    with pytest.raises(FileNotFoundError):
        run_all([sleeper, ["/nonexistent/program"]], timeout=60, at_once=2)
    wait_for(lambda: not _running(sleeper), 10, "the sleep killed")
    assert len(os.listdir("/proc/self/fd")) == fds  # no pipe left open


def _running(argv: list[str]) -> bool:
    wanted = "".join(f"{word}\0" for word in argv).encode()
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if handle.read() == wanted:
                    return True
        except OSError:
            continue
    return False


def test_beside_interpreter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = tmp_path / "bin" / "tool"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n")
    monkeypatch.setattr("sys.executable", str(program.parent / "python"))
    assert beside_interpreter("tool") is None  # not executable
    program.chmod(0o755)
    assert beside_interpreter("tool") == str(program)
    assert beside_interpreter("python") is None


def test_stop_asks_with_sigterm_then_kills_after_the_grace() -> None:
    """A child that traps SIGTERM may still write (srun says it cancels its step): its pipes
    stay open until it ends. One that ignores SIGTERM is killed after the grace."""
    polite = Child(sh("trap 'echo bye; exit 3' TERM; echo up; while :; do sleep 0.05; done"))
    wait_for(lambda: select.select([polite.streams[0]], [], [], 0)[0] != [], 30, "the trap set")
    polite.stop(grace=30)
    assert polite.status is not None and os.waitstatus_to_exitcode(polite.status) == 3
    stubborn = Child(sh("trap '' TERM; echo up; while :; do sleep 0.05; done"))
    wait_for(lambda: select.select([stubborn.streams[0]], [], [], 0)[0] != [], 30, "the trap set")
    started = time.monotonic()
    stubborn.stop(grace=0.5)
    assert stubborn.status is not None and os.waitstatus_to_exitcode(stubborn.status) == -9
    assert 0.5 <= time.monotonic() - started < 30
    assert polite.open == set() and stubborn.open == set()
