"""``dotdbg shell -- CMD…`` through a local ``sh``: the session arrives on the shell's input (a
200 KB sheet too, no alias body in any process's arguments or environment), its directory goes
at exit, and a command that gives no shell is one line."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pexpect

from tests.infra.procs import wait_for
from tests.remote.test_session_stream import (
    PROMPT,
    TOKEN,
    check_the_session,
    leaks,
    said,
)
from tests.remote.test_session_stream import local_home as local_home  # the fixture
from tests.remote.test_ssh_session import DOTDBG

ENV_OF_SH = {"PATH": os.environ["PATH"], "TERM": "xterm", "LANG": "C.UTF-8", "SHELL": "/bin/bash"}


def spawn_shell(home: Path, *command: str) -> pexpect.spawn:
    env = {**ENV_OF_SH, "HOME": str(home)}
    argv = [str(DOTDBG), "shell", "--", *command]
    return pexpect.spawn(argv[0], argv[1:], env=env, timeout=60, dimensions=(50, 200))


def test_a_session_through_a_local_sh(local_home: Path, tmp_path: Path) -> None:
    (local_home / ".profile").write_text(f"PS1='{PROMPT}'\nalias mine='echo from-their-rc'\n")
    child = spawn_shell(local_home, "sh")
    try:
        child.expect_exact("for this session only")
        child.expect_exact(PROMPT)
        directory = check_the_session(child, os.getuid())
        assert leaks(TOKEN) == []
        assert said(child, "echo $HISTFILE").strip() == f"{directory}/history"
        child.sendline("exit 3")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 3
    finally:
        child.close(force=True)
    wait_for(lambda: not directory.exists(), 30, "the session dir to go after exit")


def run_shell(home: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {**ENV_OF_SH, "HOME": str(home)}
    return subprocess.run(
        [str(DOTDBG), "shell", *command], capture_output=True, text=True, env=env, timeout=60
    )


def test_a_command_that_gives_no_shell_is_one_line(local_home: Path) -> None:
    done = run_shell(local_home, "--", "false")
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("dotdbg: error:")]
    assert errors == ["dotdbg: error: false ended (exit 1) before its shell started the session"]
    missing = run_shell(local_home, "--", "/nonexistent/kubectl", "exec", "-it", "pod", "sh")
    assert missing.returncode == 2
    assert "cannot run /nonexistent/kubectl: No such file or directory" in missing.stderr
    assert "Traceback" not in done.stderr + missing.stderr


def test_usage(local_home: Path) -> None:
    for words in ([], ["sh"], ["--"]):
        done = run_shell(local_home, *words)
        assert done.returncode == 2
        assert "dotdbg shell needs `--` and the command that gives a shell" in done.stderr
    shown = run_shell(local_home, "--help")
    assert shown.returncode == 0 and "kubectl exec -it POD -- sh" in shown.stdout


def test_ctrl_c_before_the_shell_ends_the_command(local_home: Path) -> None:
    child = spawn_shell(local_home, "sleep", "300")
    try:
        time.sleep(1)
        begin = time.monotonic()
        child.sendintr()
        child.expect(pexpect.EOF, timeout=30)
        child.close()
        assert time.monotonic() - begin < 30
        assert child.exitstatus == 2
        assert b"sleep ended (exit 129)" in child.before
    finally:
        if child.isalive():
            os.kill(child.pid, signal.SIGKILL)
        child.close(force=True)
