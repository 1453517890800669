"""The ssh home filesystem's pure parts: a remote program's message read as an OSError."""

from __future__ import annotations

import errno

import pytest

from dotdbg.remote.sshfs import _os_error


@pytest.mark.parametrize(
    ("message", "code", "filename"),
    [
        ("/home/u/.bashrc: No space left on device", errno.ENOSPC, "/home/u/.bashrc"),
        ("base64: write error: No space left on device", errno.ENOSPC, None),
        ("mv: cannot move 'a' to 'b': Permission denied", errno.EACCES, None),
        ("something odd", errno.EIO, None),
    ],
)
def test_a_remote_message_becomes_the_oserror_it_names(
    message: str, code: int, filename: str | None
) -> None:
    error = _os_error(message)
    assert (error.errno, error.filename) == (code, filename)
