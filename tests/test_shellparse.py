"""The one runner of shell parsers: each script's status and stderr, and nothing left running."""

from __future__ import annotations

import shutil

import psutil
import pytest

from dotdbg.errors import DotdbgError
from dotdbg.shells import shellparse


def test_each_script_gets_its_status_and_stderr() -> None:
    bash = shutil.which("bash") or "/bin/bash"
    done = shellparse.stderr_of_each([bash, "-n"], ["echo ok\n", "if\n"], {}, "x")
    assert done[0] == (0, "")
    assert done[1][0] != 0 and "syntax error" in done[1][1]


def test_a_parser_that_does_not_answer_is_killed_with_the_rest_of_its_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shellparse, "TIMEOUT", 0.3)
    sleep = shutil.which("sleep") or "/bin/sleep"
    with pytest.raises(DotdbgError, match="cannot run sleep to check the test file: no answer"):
        shellparse.stderr_of_each([sleep, "30"], ["a", "b", "c"], {}, "the test file")
    left = [child.cmdline() for child in psutil.Process().children(recursive=True)]
    assert ["sleep", "30"] not in [
        [c.rsplit("/", 1)[-1] for c in cmd[:1]] + cmd[1:] for cmd in left
    ]


def test_a_parser_reads_its_script_from_a_file_not_a_pipe() -> None:
    # bash and zsh read a pipe one byte per read(2): 15,000 calls for dotdbg.bash
    bash = shutil.which("bash") or "/bin/bash"
    probe = "[ -f /dev/stdin ] || echo 'not a file' >&2\nset -n\necho ok\n"
    assert shellparse.stderr_of_each([bash, "-s"], [probe], {}, "x") == [(0, "")]


def test_bash_n_reads_its_text_from_a_file_not_a_pipe() -> None:
    from dotdbg.shells import bashcheck

    probe = "[ -f /dev/stdin ] || echo 'not a file' >&2\n"
    assert bashcheck._run(["bash", "-s"], probe, "bash").stderr == ""
