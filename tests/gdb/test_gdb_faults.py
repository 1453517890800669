"""What goes wrong, each said in one line with the right exit code, and no target left stopped:
ptrace refused, a process that exits, a missing gdb, a core from another interpreter, a dump
that times out or is interrupted."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from dotdbg.gdb import run, tracee
from tests.gdb.gdb_procs import (
    BLOCKED,
    DOTDBG,
    MANY_THREADS,
    SYSTEM_PYTHON,
    WITHOUT_PTRACE,
    assert_in_order,
    assert_running,
    c,
    dotdbg,
    gdb_wrapper,
    py,
    record_of,
    start,
    stop,
    wait_until,
)
from tests.infra.spawner import AS_NOBODY

IS_ROOT = os.getuid() == 0
PTRACE_ATTACH = 16


@pytest.mark.skipif(not IS_ROOT, reason="needs root to drop CAP_SYS_PTRACE with setpriv")
@pytest.mark.parametrize("via", ["pystack", "gdb"])
def test_container_without_cap_sys_ptrace(blocked: int, via: str) -> None:
    done = dotdbg("--via", via, str(blocked), prefix=WITHOUT_PTRACE)
    assert done.returncode == 1
    assert f"[error] ptrace refused: {via} may not attach" in done.stdout
    assert f"{via} was not allowed to attach to the process (ptrace was refused)." in done.stderr
    assert "docker run --cap-add SYS_PTRACE" in done.stderr
    assert f'sudo env "PATH=$PATH" dotdbg gdb --via {via} {blocked}' in done.stderr


@pytest.mark.skipif(not IS_ROOT, reason="needs root to start a process as nobody")
def test_another_users_process(real_gdb: None) -> None:
    code = "import time; print('ready', flush=True); time.sleep(600)"
    theirs = start([*AS_NOBODY, SYSTEM_PYTHON, "-c", code])
    try:
        done = dotdbg(str(theirs.pid), prefix=WITHOUT_PTRACE)
        assert done.returncode == 1
        assert "Some targets belong to another user; only root may trace them." in done.stderr
        assert_running(theirs.pid)
    finally:
        stop(theirs)


def test_a_process_that_has_exited(real_gdb: None) -> None:
    """A zombie still has a pid; ptrace answers EPERM, which is not a refusal."""
    child = subprocess.Popen([SYSTEM_PYTHON, "-c", "pass"])
    wait_until(lambda: tracee.thread_states(child.pid).get(child.pid) == "Z")
    try:
        done = dotdbg(str(child.pid))
        assert (done.returncode, done.stderr) == (1, "")
        assert "[error] the process has exited (its parent has not reaped it)" in done.stdout
    finally:
        child.wait()


def test_a_process_that_exits_mid_dump(real_gdb: None, tmp_path: Path) -> None:
    """It exits after dotdbg found it and before gdb attaches to it."""
    target = start([SYSTEM_PYTHON, "-c", "import time; print('ready', flush=True); time.sleep(60)"])
    waiting, go = tmp_path / "waiting", tmp_path / "go"
    hold = f"touch {waiting}; for i in $(seq 500); do [ -e {go} ] && break; sleep 0.01; done"
    path = f"{gdb_wrapper(tmp_path / 'bin', before=hold)}:{os.environ['PATH']}"
    dump = subprocess.Popen(
        [DOTDBG, "gdb", "--via", "gdb", str(target.pid)],
        env={**os.environ, "PATH": path},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(waiting.exists)
        stop(target)  # killed and reaped: the pid is gone
        go.touch()
        out, _err = dump.communicate(timeout=60)
    finally:
        stop(target)
        if dump.poll() is None:
            dump.kill()
            dump.wait()
    assert dump.returncode == 1
    assert "[error] the process exited during the dump" in out


def test_without_python_gdb_py_the_native_stack_comes_with_the_reason(
    real_gdb: None, tmp_path: Path
) -> None:
    """An interpreter whose name says no version (an embedding app): no extension is found."""
    renamed = tmp_path / "bin/trainer"
    renamed.parent.mkdir()
    shutil.copy2(os.path.realpath(SYSTEM_PYTHON), renamed)
    (tmp_path / "blocked.py").write_text(BLOCKED)
    proc = start([str(renamed), str(tmp_path / "blocked.py")])
    try:
        done = dotdbg("--via", "gdb", "--json", str(proc.pid))
        assert_running(proc.pid)
    finally:
        stop(proc)
    assert done.returncode == 0, done.stderr
    main = record_of(done).threads[0]
    assert all(frame.native for frame in main.frames)
    assert_in_order(main.frames, c("time_sleep"), c("_PyEval_EvalFrameDefault"), c("qsort"))
    assert done.stderr.splitlines() == [
        f"dotdbg: note: no python-gdb.py for {renamed}, whose Python version is not in its "
        f"name: copy Tools/gdb/libpython.py of that version to {renamed}-gdb.py",
        "dotdbg: note: no Python frames: the native stack only",
    ]


def test_missing_gdb_says_how_to_install_it(blocked: int, tmp_path: Path) -> None:
    done = dotdbg("--via", "gdb", str(blocked), env={"PATH": str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "dotdbg: error: gdb is not installed (not on PATH)",
        "hint: sudo apt-get install gdb   (Fedora: sudo dnf install gdb; conda: "
        "conda install -c conda-forge gdb)",
    ]


def test_core_of_an_interpreter_this_machine_does_not_have(real_gdb: None, tmp_path: Path) -> None:
    """A core from another machine names an interpreter path that is not here."""
    elsewhere = tmp_path / "opt/python/bin/python3.11"
    elsewhere.parent.mkdir(parents=True)
    shutil.copy2(os.path.realpath(SYSTEM_PYTHON), elsewhere)
    code = "import time; print('ready', flush=True); time.sleep(60)"
    proc = start([str(elsewhere), "-c", code])
    try:
        subprocess.run(["gcore", "-o", str(tmp_path / "core"), str(proc.pid)],
                       check=True, capture_output=True, timeout=60)  # fmt: skip
    finally:
        stop(proc)
    elsewhere.unlink()
    done = dotdbg("--core", str(tmp_path / f"core.{proc.pid}"))
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (
        f"dotdbg: error: the core was made by {elsewhere}, which is not on this machine"
    )
    assert done.stderr.splitlines()[1].startswith("hint: pass that interpreter with --exe: ")


def test_not_a_core_file(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    done = dotdbg("--core", str(tmp_path / "notes.txt"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"dotdbg: error: {tmp_path}/notes.txt is not a core file\n")


def test_a_dump_that_times_out_leaves_the_process_running(
    real_gdb: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """pystack needs more than 50 ms for 300 threads: it is stopped, the process runs on."""
    proc = start([SYSTEM_PYTHON, "-c", MANY_THREADS, "300"])
    try:
        assert run.dump_pid(proc.pid, "auto", 0.05, False) == 1
        assert "[error] pystack did not finish within 0.05s" in capsys.readouterr().out
        assert_running(proc.pid)
    finally:
        stop(proc)


def test_ctrl_c_mid_dump_leaves_the_process_running(real_gdb: None) -> None:
    proc = start([SYSTEM_PYTHON, "-c", MANY_THREADS, "1000"])  # a dump of a second or more
    dump = subprocess.Popen(
        [DOTDBG, "gdb", str(proc.pid)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        wait_until(lambda: tracee.tracer_of(proc.pid) != 0)  # pystack is attached
        os.killpg(dump.pid, signal.SIGINT)  # the terminal sends it to the whole group
        dump.communicate(timeout=60)
        assert dump.returncode == 130
        wait_until(lambda: tracee.tracer_of(proc.pid) == 0, timeout=5)
        assert_running(proc.pid)
    finally:
        if dump.poll() is None:
            os.killpg(dump.pid, signal.SIGKILL)
            dump.wait()
        stop(proc)


def test_a_tracer_killed_mid_attach_leaves_no_stopped_process(real_gdb: None) -> None:
    """PTRACE_ATTACH queues a SIGSTOP; a tracer gone before it is seen leaves the process in
    state T. This is the tracer dying at the worst moment, for real; release() undoes it."""
    proc = start([SYSTEM_PYTHON, "-c", "import time; print('ready', flush=True); time.sleep(60)"])
    try:
        with tracee.kept_running(proc.pid):
            tracer = os.fork()
            if tracer == 0:  # pragma: no cover - the tracer attaches and dies at once
                libc = ctypes.CDLL(None, use_errno=True)
                libc.ptrace(PTRACE_ATTACH, proc.pid, None, None)
                os._exit(0)
            os.waitpid(tracer, 0)
            wait_until(lambda: Counter(tracee.thread_states(proc.pid).values()) == {"T": 1})
        assert_running(proc.pid)
    finally:
        stop(proc)


def test_a_process_stopped_on_purpose_stays_stopped(real_gdb: None) -> None:
    proc = start([sys.executable, "-c", "import time; print('ready', flush=True); time.sleep(60)"])
    try:
        os.kill(proc.pid, signal.SIGSTOP)
        wait_until(lambda: tracee.is_stopped(proc.pid))
        with tracee.kept_running(proc.pid):
            pass
        assert tracee.thread_states(proc.pid) == {proc.pid: "T"}  # someone's Ctrl-Z, kept
    finally:
        stop(proc)


def test_without_pystack_gdb_reads_the_stack(blocked: int, tmp_path: Path) -> None:
    """pystack is not installed where it has no wheel (issue 25.1): `dotdbg gdb` falls back
    to gdb and still shows the Python and native frames."""
    absent = tmp_path / "pystack"
    absent.mkdir()
    (absent / "__init__.py").write_text("raise ImportError(\"No module named 'pystack'\")\n")
    done = dotdbg("--json", str(blocked), env={"PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    record = record_of(done)
    assert record.source == "gdb"
    main = max(record.threads, key=lambda thread: len(thread.frames))
    assert_in_order(main.frames, c("time_sleep"), py("compare"), c("qsort", "msort"))
    assert_running(blocked)
