"""The stream the remote script sources (dotdbg.remote.stream): whatever bytes a file holds,
the shell's builtin printf writes them back exactly, through a terminal in canonical mode too
(no line longer than it takes, no byte it reads as a key)."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dotdbg.remote import stream

SHELLS = [name for name in ("dash", "bash", "busybox") if shutil.which(name)]
CANONICAL_LINE = 4095  # the longest line a terminal in canonical mode takes


def written_by(shell: str, data: bytes, directory: Path) -> bytes:
    """``data`` as the stream writes it, sourced by ``shell`` from a file."""
    (directory / "s").write_text(stream.stream({"f": data}, "QUJD\n"))
    argv = [shell, "sh"] if shell == "busybox" else [shell]
    script = f'd={directory}; e=; . "$d/s"; [ -z "$e" ]'
    subprocess.run([*argv, "-c", script], check=True, timeout=30)
    assert (directory / stream.ARCHIVE).read_bytes() == b"\nQUJD\n"
    return (directory / "f").read_bytes()


@pytest.mark.parametrize("shell", SHELLS)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=3000))
def test_any_bytes_come_back_exactly(shell: str, data: bytes, tmp_path: Path) -> None:
    assert written_by(shell, data, tmp_path) == data


@given(data=st.binary(max_size=5000))
def test_no_line_is_longer_than_a_terminal_takes_and_no_byte_is_a_key(data: bytes) -> None:
    data = data.replace(b"\n", b"\n~.")  # a line that ssh would end the connection at
    text = stream.stream({"f": data}, "QUJD\n")
    assert all(len(line) <= stream.LINE < CANONICAL_LINE for line in text.splitlines())
    assert all(" " <= char < "~" for char in text.replace("\n", ""))  # printable ASCII
    assert "~" not in text  # ssh's escape key at a line's start ("~." ends the connection)


def test_long_lines_and_every_byte_through_a_terminal(tmp_path: Path) -> None:
    """The stream sourced as the script does, from a terminal up to the EOF key."""
    data = bytes(range(256)) * 4 + b"x" * 9000 + b"\n'%s\\047'\n" + "é".encode()
    text = stream.stream({"f": data}, "QUJD\n")
    leader, follower = pty.openpty()
    script = f'd={tmp_path}; e=; . /dev/stdin; [ -z "$e" ] && echo SOURCED'
    child = subprocess.Popen(["sh", "-c", script], stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    os.write(leader, text.encode() + b"\x04")
    said = b""
    deadline = time.monotonic() + 30
    while b"SOURCED" not in said and time.monotonic() < deadline:
        if select.select([leader], [], [], 1)[0]:
            try:
                said += os.read(leader, 65536)
            except OSError:
                break
    child.wait(timeout=30)
    os.close(leader)
    assert b"SOURCED" in said, said[-300:]
    assert (tmp_path / "f").read_bytes() == data
