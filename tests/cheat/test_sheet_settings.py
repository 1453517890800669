"""Entries of the sheets without a fixture of their own (gdb, readline, py-spy), each run in the
setting where an earlier text of it was wrong (issue 28.1): pasted alone, a second terminal, a
kernel without yama, gdb started in two directories, pdb of the oldest Python its tag names.

Each test takes the entry's current text from the sheet, so it runs what users copy.
"""

from __future__ import annotations

import glob
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from dotdbg.paths import resource_dir
from tests.cheat.entry_runner import Entry, entries_of

SHEETS = resource_dir("cheatsheets")
TIMEOUT = 60  # each program here runs well under a second alone


def entry_with(sheet: str, text: str) -> Entry:
    found = [entry for entry in entries_of(sheet, SHEETS / sheet) if text in entry.command]
    assert len(found) == 1, f"{sheet}: {len(found)} entries hold {text!r}"
    return found[0]


# -- gdb ------------------------------------------------------------------------------------------
def test_the_tracer_check_runs_pasted_alone_and_traps_under_gdb(tmp_path: Path) -> None:
    """gdb:80 was a NameError pasted alone (no `import os, signal`)."""
    code = entry_with("gdb", "TracerPid").command
    alone = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert alone.returncode == 0, alone.stderr  # no tracer: no SIGTRAP, which would kill it
    script = tmp_path / "trap.py"
    script.write_text(code + "\nprint('after the trap')\n")
    traced = subprocess.run(
        ["gdb", "-q", "-nx", "-batch", "-ex", "run", "--args", sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert "SIGTRAP" in traced.stdout, traced.stdout + traced.stderr


def test_gdbinit_keeps_one_history_wherever_gdb_starts(tmp_path: Path) -> None:
    """gdb:179 kept a .gdb_history in each directory gdb started in."""
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "TERM": "dumb"}
    gdbinit = entry_with("gdb", "set history save on").command
    subprocess.run(["bash", "-c", gdbinit], env=env, check=True)
    for word in ("first", "second"):
        where = tmp_path / word
        where.mkdir()
        gdb = pexpect.spawn("gdb", ["-q"], cwd=str(where), env=env, encoding="utf-8")
        gdb.expect_exact("(gdb) ", timeout=TIMEOUT)
        gdb.sendline(f"echo {word}\\n")
        gdb.expect_exact("(gdb) ", timeout=TIMEOUT)
        gdb.sendline("quit")
        gdb.expect(pexpect.EOF, timeout=TIMEOUT)
        assert not (where / ".gdb_history").exists()
    assert re.findall(r"echo (\w+)", (home / ".gdb_history").read_text()) == ["first", "second"]


SIGUSR1_PROBE = """\
import pathlib, signal, sys, time
signal.signal(signal.SIGUSR1, lambda *_: pathlib.Path(sys.argv[1]).write_text("got SIGUSR1"))
print("ready", flush=True)
time.sleep(60)
"""


PY_SPY = shutil.which("py-spy", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}")


@pytest.mark.skipif(PY_SPY is None, reason="py-spy is in the test extra")
def test_py_spy_dumps_without_sending_a_signal(tmp_path: Path) -> None:
    """gdb:149 said py-spy uses SIGUSR1; it reads the process's memory and sends nothing."""
    assert "py-spy reads memory and sends no signal" in entry_with("gdb", "SIGUSR1").comment
    marker = tmp_path / "signalled"
    with subprocess.Popen(
        [sys.executable, "-c", SIGUSR1_PROBE, str(marker)], stdout=subprocess.PIPE, text=True
    ) as program:
        try:
            assert program.stdout is not None and program.stdout.readline() == "ready\n"
            dump = subprocess.run(
                [str(PY_SPY), "dump", "--pid", str(program.pid)],
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
            if dump.returncode and "ermission" in dump.stderr:
                pytest.skip(f"py-spy may not attach here: {dump.stderr.strip()}")
            assert "time.sleep" in dump.stdout or "<module>" in dump.stdout, dump.stdout
            time.sleep(0.2)  # a signal, had one come, is handled at the next bytecode
            assert not marker.exists()
        finally:
            program.kill()


def test_ptrace_scope_answers_with_or_without_yama() -> None:
    """py-spy:57 failed (cat: no such file) on a kernel without yama."""
    command = entry_with("py-spy", "ptrace_scope 2>").command
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    yama = Path("/proc/sys/kernel/yama/ptrace_scope")
    expected = yama.read_text() if yama.exists() else "no yama here: it restricts nothing\n"
    assert done.stdout == expected


# -- readline -------------------------------------------------------------------------------------
class Terminal:
    """An interactive bash that saves each command to HISTFILE at its prompt, like a terminal
    with dotdbg's history settings; ``run`` returns once the command finished."""

    def __init__(self, env: dict[str, str]) -> None:
        self.shell = subprocess.Popen(
            ["bash", "--norc", "-i"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        self.count = 0

    def run(self, command: str) -> None:
        assert self.shell.stdin is not None and self.shell.stdout is not None
        self.count += 1
        done = f"qq-done-{self.count}"
        # the leading space keeps the marker out of the history (HISTCONTROL=ignorespace)
        self.shell.stdin.write(f"{command}\n echo {done}\n")
        self.shell.stdin.flush()
        while self.shell.stdout.readline().strip() != done:
            pass

    def close(self) -> None:
        self.shell.communicate("exit\n", timeout=TIMEOUT)


def test_deleting_a_history_entry_keeps_other_terminals_lines(tmp_path: Path) -> None:
    """readline:93 (history -n; history -d N; history -w) doubled and lost other lines."""
    histfile = tmp_path / "history"
    histfile.write_text("echo old1\necho old2\n")
    env = {
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "TERM": "dumb",
        "HISTFILE": str(histfile),
        "HISTCONTROL": "ignorespace",
        "PROMPT_COMMAND": "history -a",
    }
    mine = Terminal(env)
    mine.run("echo mine")
    mine.run("echo my-secret-token")  # entry 4: two read from the file, then these two
    other = Terminal(env)
    other.run("echo theirs")
    other.close()
    mine.run(entry_with("readline", "history -d <n>").command.replace("<n>", "4"))
    mine.close()
    kept = [line for line in histfile.read_text().splitlines() if line.startswith("echo ")]
    assert sorted(kept) == ["echo mine", "echo old1", "echo old2", "echo theirs"]


# -- pdb's version tags ---------------------------------------------------------------------------
def python_of(minor: int) -> str | None:
    """An interpreter of Python 3.minor on this machine (the system's, or pyenv's), if any."""
    found = shutil.which(f"python3.{minor}", path="/usr/local/bin:/usr/bin")
    pyenv = os.environ.get("PYENV_ROOT") or os.path.join(pwd.getpwuid(os.getuid()).pw_dir, ".pyenv")
    return found or next(iter(sorted(glob.glob(f"{pyenv}/versions/3.{minor}.*/bin/python3"))), None)


VERSIONED = [
    (entry, int(tag[4:]))
    for entry in entries_of("pdb", SHEETS / "pdb")
    if entry.syntax == "pdb"
    for tag in re.findall(r"\bpy3\.\d+\b", entry.comment.split("\n")[0])
]
CRASH = "def train():\n    raise ValueError('bad batch')\n\n\ntrain()\n"


@pytest.mark.parametrize(("entry", "minor"), VERSIONED, ids=[e.where for e, _ in VERSIONED])
def test_a_pdb_entry_works_on_the_python_its_tag_names(
    entry: Entry, minor: int, tmp_path: Path
) -> None:
    """In a post-mortem, as the comments say. pdb:188 ($_exception) was tagged 3.12: 3.13+."""
    python = python_of(minor)
    if python is None:
        pytest.skip(f"no Python 3.{minor} on this machine")
    (tmp_path / "crash.py").write_text(CRASH)
    done = subprocess.run(
        [python, "-m", "pdb", "-c", "continue", "crash.py"],
        input=f"{entry.command}\nq\n",
        cwd=tmp_path,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert "Uncaught exception" in done.stdout, done.stdout + done.stderr
    assert "\n*** " not in "\n" + done.stdout.split("(Pdb) ", 1)[1], done.stdout


def test_versioned_pdb_entries_are_found() -> None:
    assert {entry.command for entry, _ in VERSIONED} >= {"p $_exception", "exceptions"}


def test_sigtrap_kills_a_process_without_a_tracer() -> None:
    """What gdb:80's comment says, so the check before the trap is needed."""
    done = subprocess.run(
        [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTRAP)"],
        timeout=TIMEOUT,
    )
    assert done.returncode == -signal.SIGTRAP


# -- pytorch --------------------------------------------------------------------------------------
# torch cannot be installed here (no CPU-only wheel on PyPI); is_tensor is torch's own definition.
TORCH_STAND_IN = """\
class Tensor:
    shape, dtype, device = (2, 3), "float32", "cpu"


def is_tensor(obj):
    return isinstance(obj, Tensor)
"""
AFTER_DYNAMO = """\
import weakref
import torch


class Compiled:
    pass


compiled = Compiled()
kept = [weakref.proxy(compiled)]  # what torch._dynamo leaves: a proxy whose object is gone
del compiled
x = torch.Tensor()
found = {entry}
print(found)
"""


def test_the_tensor_scan_survives_dead_weak_proxies(tmp_path: Path) -> None:
    """pytorch:153 raised ReferenceError after torch._dynamo had run."""
    (tmp_path / "torch.py").write_text(TORCH_STAND_IN)
    entry = entry_with("pytorch", "gc.get_objects()").command
    imports, _, scan = entry.rpartition("; ")
    (tmp_path / "scan.py").write_text(f"{imports}\n" + AFTER_DYNAMO.format(entry=scan))
    done = subprocess.run(
        [sys.executable, "scan.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[('Tensor', (2, 3), 'float32', 'cpu')]\n"


# -- pip ------------------------------------------------------------------------------------------
MANAGED = sorted(glob.glob("/usr/lib/python3*/EXTERNALLY-MANAGED"))


@pytest.mark.skipif(not MANAGED, reason="this system's python is not externally managed")
def test_pip_install_user_is_refused_where_the_comment_says(tmp_path: Path) -> None:
    """pip:117 offered `pip install --user` where Debian 12 refuses it (PEP 668)."""
    entry = entry_with("pip", "pip install --user py-spy")
    assert "PEP 668" in entry.comment and "pipx" in entry.comment
    python = "/usr/bin/python3"
    if subprocess.run([python, "-m", "pip", "--version"], capture_output=True).returncode:
        pytest.skip("no pip for the system python")
    argv = entry.command.replace("pip", f"{python} -m pip", 1).split()
    done = subprocess.run(
        [*argv, "--no-index"],  # refused before any index is asked
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode != 0
    assert "externally-managed-environment" in done.stdout + done.stderr


@pytest.mark.parametrize("lines", [["echo my-secret-token"], ["ls", "echo my-secret-token", "ls"]])
def test_deleting_lines_by_text_works_when_no_line_is_left(
    tmp_path: Path, lines: list[str]
) -> None:
    """readline:96 stopped at grep's exit 1 when every line held the text: nothing deleted."""
    histfile = tmp_path / ".bash_history"
    histfile.write_text("".join(f"{line}\n" for line in lines))
    command = entry_with("readline", "grep -vF -- '<text>'").command.replace("<text>", "secret")
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path)}
    subprocess.run(["bash", "-c", command], env=env, check=False, timeout=TIMEOUT)
    assert histfile.read_text() == "".join(f"{line}\n" for line in lines if "secret" not in line)
    assert sorted(path.name for path in tmp_path.iterdir()) == [".bash_history"]  # no tmp left
