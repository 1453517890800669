"""``dotdbg errtrace`` on real programs under the real strace: each fails with one error among
the hundreds of harmless ones a Python start-up makes, and that one must come first."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dotdbg.errtrace.parse import path_of, read_trace
from tests.infra.spawner import AS_NOBODY, BIN

pytestmark = pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
TIMEOUT = 120  # a traced Python start-up takes about 1 s here at load 20


def program(folder: Path, text: str) -> Path:
    path = folder / "prog.py"
    path.write_text(textwrap.dedent(text))
    return path


def errtrace(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BIN / "dotdbg", "errtrace", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=TIMEOUT,
    )


def summary(*args: str, cwd: Path | None = None) -> tuple[int, dict[str, Any], str]:
    done = errtrace("--json", *args, cwd=cwd)
    return done.returncode, json.loads(done.stdout), done.stderr


WRITE = """\
import sys
with open(sys.argv[1], "w") as out:
    out.write("x" * 200_000)
"""


@pytest.fixture
def tiny_tmpfs(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_no_space_left_on_a_full_tmpfs_comes_first(tiny_tmpfs: Path, tmp_path: Path) -> None:
    prog = program(tmp_path, WRITE)
    target = tiny_tmpfs / "checkpoint.bin"
    code, found, stderr = summary("--", sys.executable, str(prog), str(target))
    assert code == 1  # the program's own exit status
    assert "No space left on device" in stderr  # its traceback passed through
    first = found["likely"][0]
    assert (first["errno"], first["path"], first["calls"]) == ("ENOSPC", str(target), ["write"])
    assert found["failures"] > 50  # among all the start-up's harmless failures


def test_no_space_left_on_dev_full(tmp_path: Path) -> None:
    prog = program(tmp_path, WRITE)
    done = errtrace("--", sys.executable, str(prog), "/dev/full")
    assert done.returncode == 1
    most_likely = done.stderr.split("most likely:\n", 1)[1].splitlines()[0]
    assert most_likely.strip().startswith("ENOSPC /dev/full  write")


def test_permission_denied_on_a_script_without_exec_bits(tmp_path: Path) -> None:
    tool = tmp_path / "tool.sh"
    tool.write_text("#!/bin/sh\necho hi\n")
    tool.chmod(0o644)  # even root cannot execute it
    prog = program(
        tmp_path,
        """\
        import subprocess
        subprocess.run(["./tool.sh"])
        """,
    )
    code, found, stderr = summary("--", sys.executable, str(prog), cwd=tmp_path)
    assert code == 1 and "PermissionError" in stderr
    first = found["likely"][0]
    assert first["errno"] == "EACCES" and first["path"] in ("./tool.sh", str(tool))


@pytest.mark.skipif(os.getuid() != 0, reason="runs the program as nobody, which needs root")
def test_permission_denied_writing_as_another_user(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    tmp_path.chmod(0o755)
    target = private / "out.txt"
    code, found, _ = summary("--", *AS_NOBODY, sys.executable, "-c", WRITE, str(target))
    assert code == 1
    first = found["likely"][0]
    assert (first["errno"], first["path"]) == ("EACCES", str(target))


def test_the_missing_file_the_program_named_beats_every_other_enoent(tmp_path: Path) -> None:
    prog = program(
        tmp_path,
        """\
        import json, sys
        with open("configs/train-small.yaml") as config:
            json.load(config)
        """,
    )
    code, found, _ = summary("--", sys.executable, str(prog), cwd=tmp_path)
    assert code == 1
    enoent = [g for g in found["groups"] if g["errno"] == "ENOENT"]
    assert len(enoent) > 10  # the interpreter's own misses
    first = found["likely"][0]
    assert (first["errno"], first["path"]) == ("ENOENT", str(tmp_path / "configs/train-small.yaml"))
    assert "the program printed this path" in first["why"]


def test_exit_status_and_death_by_signal_are_kept(tmp_path: Path) -> None:
    prog = program(
        tmp_path,
        "import os, signal, sys\nif sys.argv[1] == 'kill':\n"
        "    os.kill(os.getpid(), signal.SIGSEGV)\nsys.exit(int(sys.argv[1]))\n",
    )
    assert errtrace("--", sys.executable, str(prog), "3").returncode == 3
    assert errtrace("--", sys.executable, str(prog), "0").returncode == 0
    assert errtrace("--", sys.executable, str(prog), "kill").returncode == 128 + signal.SIGSEGV


def test_a_child_process_is_followed_and_named_by_pid(tmp_path: Path) -> None:
    prog = program(
        tmp_path,
        """\
        import subprocess, sys
        child = "out = open('/dev/full', 'w'); out.write('x'); out.close()"
        sys.exit(subprocess.run([sys.executable, "-c", child]).returncode)
        """,
    )
    code, found, _ = summary("--", sys.executable, str(prog))
    assert code == 1
    first = found["likely"][0]
    assert first["errno"] == "ENOSPC"
    assert first["pid"] != min(found["processes"])


LOOP = """\
import os, sys, time
while not os.path.exists(sys.argv[1]):
    time.sleep(0.05)
for _ in range(3):
    try:
        open("/nonexistent/dataset/shard-0001.bin")
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
sys.exit(4)
"""


def test_attach_to_a_running_process(tmp_path: Path) -> None:
    prog = program(tmp_path, LOOP)
    go = tmp_path / "go"
    target = subprocess.Popen([sys.executable, str(prog), str(go)])
    tracer = subprocess.Popen(
        [BIN / "dotdbg", "errtrace", "--json", "-p", str(target.pid)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: traced_by(target.pid) != 0)
        go.touch()
        out, _ = tracer.communicate(timeout=TIMEOUT)
    finally:
        target.kill()
        tracer.kill()
        target.wait()
    found = json.loads(out)
    assert tracer.returncode == 4  # the process's own exit status, read from the trace
    paths = [(g["errno"], g["path"], g["count"]) for g in found["groups"]]
    assert ("ENOENT", "/nonexistent/dataset/shard-0001.bin", 3) in paths


def test_ctrl_c_ends_the_program_and_still_prints_the_summary(tmp_path: Path) -> None:
    prog = program(
        tmp_path,
        """\
        import sys, time
        try:
            open("missing-before-the-hang.cfg")
        except OSError:
            pass
        print("ready", file=sys.stderr, flush=True)
        time.sleep(600)
        """,
    )
    tracer = subprocess.Popen(
        [BIN / "dotdbg", "errtrace", "--all", "--", sys.executable, str(prog)],
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert tracer.stderr is not None
    try:
        assert tracer.stderr.readline() == "ready\n"
        tracer.send_signal(signal.SIGINT)
        rest = tracer.stderr.read()
        tracer.wait(timeout=TIMEOUT)
    finally:
        tracer.kill()
    assert tracer.returncode == 128 + signal.SIGINT
    assert "missing-before-the-hang.cfg" in rest


def wait_until(condition: object, seconds: float = TIMEOUT) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def traced_by(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("TracerPid:")[1].split()[0])


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ([], "give a command after -- or -p PID"),
        (["-p", "1", "--", "true"], "give a command after -- or -p PID"),
        (["--", "no-such-program-qq"], "command 'no-such-program-qq' not found"),
        (["-p", "0"], "-p '0': at least 1"),
        (["-p", "99999999"], "no process 99999999"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], error: str) -> None:
    done = errtrace(*args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"dotdbg: error: {error}"), done.stderr
    assert "Traceback" not in done.stderr


def test_without_strace_the_error_says_how_to_get_it(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}
    (tmp_path / "true").symlink_to("/bin/true")
    done = subprocess.run(
        [BIN / "dotdbg", "errtrace", "--", "true"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "dotdbg: error: strace is not installed",
        "hint: install it: apt install strace",
    ]


# -- reading strace's lines ----------------------------------------------------------------------


def test_interrupted_calls_are_joined_and_exits_read() -> None:
    lines = [
        '10 01:02:03.000001 openat(AT_FDCWD</w>, "data/a.bin", O_RDONLY <unfinished ...>\n',
        "11 01:02:03.000002 +++ killed by SIGSEGV (core dumped) +++\n",
        "10 01:02:03.000003 <... openat resumed>) = -1 ENOENT (No such file or directory)\n",
        '10 01:02:03.000004 write(3</data/x y>, "ab\\"c", 4) = -1 ENOSPC (No space left)\n',
        "10 01:02:03.000005 +++ exited with 2 +++\n",
    ]
    failures, exits = read_trace(lines)
    assert [(f.call, f.errno, f.path, f.number) for f in failures] == [
        ("openat", "ENOENT", "/w/data/a.bin", 3),
        ("write", "ENOSPC", "/data/x y", 4),
    ]
    assert [(e.pid, e.code, e.signal) for e in exits] == [(11, None, "SIGSEGV"), (10, 2, None)]


@pytest.mark.parametrize(
    ("call", "args", "path"),
    [
        ("execve", '"./tool.sh", ["./tool.sh"], 0x7ff /* 3 vars */', "./tool.sh"),
        ("newfstatat", 'AT_FDCWD</home/u>, "x.py", 0x7ffe, 0', "/home/u/x.py"),
        ("unlinkat", '3</tmp/d>, "f", 0', "/tmp/d/f"),
        ("mkdir", '"/tmp/caf\\303\\251", 0777', "/tmp/café"),
        ("ioctl", "0</dev/null>, TCGETS, 0x7ffe", "/dev/null"),
        ("wait4", "-1, 0x7ffe, WNOHANG, NULL", None),
    ],
)
def test_the_path_of_a_call(call: str, args: str, path: str | None) -> None:
    assert path_of(call, args) == path


def test_with_json_the_programs_stdout_moves_to_stderr(tmp_path: Path) -> None:
    prog = program(
        tmp_path, "print('epoch 1')\nwith open('/dev/full', 'w') as out:\n    out.write('x')\n"
    )
    code, found, stderr = summary("--", sys.executable, str(prog))
    assert code == 1 and "epoch 1" in stderr
    assert found["likely"][0]["errno"] == "ENOSPC"
