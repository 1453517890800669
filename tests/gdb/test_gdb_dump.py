"""``dotdbg gdb`` on real blocked processes and their core files, through pystack and gdb."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dotdbg.gdb import render, run
from dotdbg.stacks.record import StackRecord, Thread
from tests.gdb.gdb_procs import (
    BLOCKED,
    SYSTEM_PYTHON,
    VENV_BASE_PYTHON,
    assert_in_order,
    c,
    dotdbg,
    py,
    record_of,
    start,
    stop,
)

pytestmark = pytest.mark.e2e


def main_and_waiter(record: StackRecord) -> tuple[Thread, Thread]:
    assert record.error is None
    main = record.threads[0]
    assert main.native_id == record.pid  # the main thread comes first
    waiter = next(t for t in record.threads if any(f.function == "wait_for_lock" for f in t.frames))
    return main, waiter


def assert_mixed_order(record: StackRecord) -> None:
    """Innermost first: the sleep in C, the Python callback, qsort in C, the Python caller."""
    main, waiter = main_and_waiter(record)
    assert_in_order(
        main.frames,
        c("clock_nanosleep"),
        c("time_sleep"),
        py("compare"),
        c("_CallPythonObject", "closure_fcn"),
        c("qsort", "msort"),
        c("ffi_call"),
        py("sort_in_c"),
        py("<module>"),
        c("Py_RunMain", "Py_BytesMain"),
    )
    assert_in_order(
        waiter.frames,
        c("futex", "sem_wait"),
        c("PyThread_acquire_lock"),
        py("wait_for_lock"),
        py("run"),
        py("_bootstrap"),
        c("start_thread"),
    )
    assert main.idle and waiter.idle
    compare = next(frame for frame in main.frames if frame.function == "compare")
    assert compare.file and compare.file.endswith("blocked.py") and compare.line == 9


def test_live_process_through_pystack(blocked: int) -> None:
    done = dotdbg("--json", str(blocked))
    assert done.returncode == 0, done.stderr
    assert_shared_shape(json.loads(done.stdout))
    record = record_of(done)
    assert (record.pid, record.source, record.command) == (blocked, "pystack", "blocked.py")
    assert_mixed_order(record)
    assert not any(frame.function.startswith("_PyEval") for frame in record.threads[0].frames)
    assert_text_of(record)


def assert_text_of(record: StackRecord) -> None:
    """What ``dotdbg gdb PID`` prints for it: C and Py tags, the Python source line."""
    lines = render.record_text(record).splitlines()
    assert lines[0].startswith(f"── pid {record.pid} · blocked.py · {record.host} · pystack ")
    assert lines[1] == f'Thread {record.pid} "python3" (idle, no GIL), most recent call first:'
    at = next(i for i, line in enumerate(lines) if line.startswith("  Py  compare at "))
    assert lines[at + 1].strip() == "time.sleep(600)"
    assert any(line.startswith("  C   qsort_r at ") for line in lines)


def assert_shared_shape(data: dict[str, Any]) -> None:
    """Exactly the fields of the record every dumper shares (dotdbg stacks merges them)."""
    assert list(data) == [
        "host", "pid", "ppid", "rank", "local_rank", "launcher", "command", "source",
        "threads", "error", "world_size",
    ]  # fmt: skip
    for thread in data["threads"]:
        assert list(thread) == ["name", "id", "native_id", "idle", "gil", "frames"]
        for frame in thread["frames"]:
            assert list(frame) == ["function", "file", "line", "native"]
            assert isinstance(frame["native"], bool)


def test_live_process_through_gdb_and_python_gdb_py(blocked: int) -> None:
    done = dotdbg("--via", "gdb", "--json", str(blocked))
    assert done.returncode == 0, done.stderr
    record = record_of(done)
    assert record.source == "gdb"
    assert_mixed_order(record)
    assert done.stderr == ""  # python3-dbg is there: nothing is missing


def gcore(pid: int, directory: Path) -> str:
    subprocess.run(
        ["gcore", "-o", str(directory / "core"), str(pid)], check=True, capture_output=True,
        timeout=60,
    )  # fmt: skip
    return str(directory / f"core.{pid}")


@pytest.fixture(scope="module")
def blocked_core(blocked: int, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A gcore snapshot of ``blocked``, made once for the tests that only read it."""
    return gcore(blocked, tmp_path_factory.mktemp("core"))


def test_core_file_made_with_gcore(blocked: int, blocked_core: str) -> None:
    core = blocked_core
    done = dotdbg("--core", core, "--json")
    assert done.returncode == 0, done.stderr
    record = record_of(done)
    assert (record.pid, record.source) == (blocked, "pystack")
    assert_mixed_order(record)
    other_build = dotdbg("--core", core, "--exe", VENV_BASE_PYTHON)
    if os.path.realpath(SYSTEM_PYTHON) != VENV_BASE_PYTHON:
        assert other_build.returncode == 2
        assert other_build.stderr.startswith(
            "dotdbg: error: the core was made by another build of /usr/bin/python3"
        )


def test_another_interpreter_with_its_own_extension(
    blocked_venv_python: int, tmp_path: Path
) -> None:
    """pystack reads it without any gdb extension; gdb finds the python-gdb.py beside it, for
    the live process and for its core."""
    core = gcore(blocked_venv_python, tmp_path)
    for target in (["--via", "pystack", str(blocked_venv_python)],
                   ["--via", "gdb", str(blocked_venv_python)],
                   ["--via", "gdb", "--core", core]):  # fmt: skip
        done = dotdbg("--json", *target)
        assert done.returncode == 0, done.stderr
        assert_mixed_order(record_of(done))
    check = dotdbg("--check", str(blocked_venv_python))
    assert check.returncode == 0, check.stderr
    extension = check.stdout.splitlines()[2]
    assert extension.startswith("python-gdb.py  ") and extension.endswith("-gdb.py")


def test_check_names_each_piece(blocked: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert run.main(run.Request(pid=blocked, check=True)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "interpreter    /usr/bin/python3.11 (Python 3.11, distro)"
    assert "python-gdb.py  /usr/share/gdb/auto-load/usr/bin/python3.11-gdb.py" in lines
    assert lines[-1].endswith(f"-x /usr/share/gdb/auto-load/usr/bin/python3.11-gdb.py -p {blocked}")


def test_a_core_and_its_live_process_merge_into_one_class(real_gdb: None, tmp_path: Path) -> None:
    """Run through the venv's python, a link: the live process's frames name the link's target,
    and so must the core's (it said ``_start (python)`` against ``_start (python3.11)``)."""

    from dotdbg.stacks.framekey import key
    from dotdbg.stacks.merge import merge
    from dotdbg.stacks.record import Frame

    script = tmp_path / "blocked.py"
    script.write_text(BLOCKED)
    proc = start([sys.executable, str(script)])
    try:
        live = record_of(dotdbg("--json", str(proc.pid)))
        core = record_of(dotdbg("--core", gcore(proc.pid, tmp_path), "--json"))
    finally:
        stop(proc)
    roots = [key(record.threads[0].frames[-1]) for record in (core, live)]
    assert (
        roots[0]
        == roots[1]
        == Frame("_start", os.path.basename(os.path.realpath(sys.executable)), None, True)
    )
    (one,) = merge([core, live._replace(pid=live.pid + 1)], all_threads=True).classes
    assert len(one.members) == 2


SEGFAULT = """\
import ctypes, resource
resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
ctypes.string_at(0x10)
"""


def test_a_core_says_how_the_process_died_first(real_gdb: None, tmp_path: Path) -> None:
    pattern = Path("/proc/sys/kernel/core_pattern").read_text().strip()
    if pattern.startswith("|") or "/" in pattern:
        pytest.skip(f"cores go elsewhere here (core_pattern {pattern})")
    crashed = subprocess.run([SYSTEM_PYTHON, "-c", SEGFAULT], cwd=tmp_path, check=False)
    assert crashed.returncode == -11
    (core,) = [p for p in tmp_path.iterdir() if p.name.startswith("core")]
    done = dotdbg("--core", str(core))
    as_json = dotdbg("--core", str(core), "--json")
    first, second = done.stdout.splitlines()[:2]
    assert first == (
        "The process died of SIGSEGV (Segmentation fault) at address 0x10 (address not mapped), "
        f"in thread {record_of(as_json).pid}."
    )
    assert second.startswith("── pid ")
    assert "dotdbg: note: the process died of SIGSEGV" in as_json.stderr


def test_a_gcore_snapshot_tells_no_death(blocked_core: str) -> None:
    done = dotdbg("--core", blocked_core)
    assert done.stdout.startswith("── pid "), done.stdout[:200]
