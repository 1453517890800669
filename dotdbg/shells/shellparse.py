"""Scripts read by a shell told to parse only, a few shells at a time: the one runner behind
the function-body probes of bash (bashcheck), zsh and fish (zshfishcheck)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import BinaryIO

from dotdbg.errors import DotdbgError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess

TIMEOUT = 60  # seconds, for a batch of parses
AT_ONCE = 16  # parsers running at a time


def stderr_of_each(
    argv: Sequence[str], scripts: Sequence[str], env: Mapping[str, str], what: str
) -> list[tuple[int, str]]:
    """Each script on the stdin of ``argv`` (the parser by its full path): its exit status and
    what it said on stderr. When a parser cannot start or does not answer, the ones already
    running are killed and reaped, and the error names ``what`` was being checked."""
    said: list[tuple[int, str]] = []
    for start in range(0, len(scripts), AT_ONCE):
        said += _batch(argv, scripts[start : start + AT_ONCE], env, what)
    return said


def _batch(
    argv: Sequence[str], batch: Sequence[str], env: Mapping[str, str], what: str
) -> list[tuple[int, str]]:
    import subprocess  # here: `seekable` alone (bash -n) imports none of it

    running: list[subprocess.Popen[str]] = []
    try:
        for script in batch:
            running.append(_parser(argv, script, env))
        outputs = [proc.communicate(timeout=TIMEOUT) for proc in running]
    except (OSError, subprocess.TimeoutExpired) as error:
        for proc in running:  # nothing is left running
            proc.kill()
            proc.wait()
        why = error.strerror if isinstance(error, OSError) else "no answer"
        raise DotdbgError(
            f"cannot run {os.path.basename(argv[0])} to check {what}: {why}, so dotdbg changed "
            "nothing",
            hint="run the command again",
        ) from None
    return [(proc.returncode, err) for proc, (_, err) in zip(running, outputs, strict=True)]


def _parser(argv: Sequence[str], script: str, env: Mapping[str, str]) -> subprocess.Popen[str]:
    import subprocess

    # errors="replace": a shell quotes the byte it choked on, which need not be UTF-8 (bash
    # says 0xff past the end of an unterminated `[[ '`)
    with seekable(script) as stdin:
        return subprocess.Popen(
            argv,
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
            errors="replace",
        )


def seekable(text: str) -> BinaryIO:
    """``text`` in an anonymous file, at its start, for a shell's stdin. A shell reading a pipe
    takes one byte per read(2) (it must leave the rest for the commands it runs): 15,000 reads
    for dotdbg.bash, 13 ms against 4 ms for bash -n, and every one a stop under strace. From a
    file it reads blocks and seeks back."""
    data = text.encode("utf-8", "surrogateescape")
    if hasattr(os, "memfd_create"):
        handle: BinaryIO = open(os.memfd_create("dotdbg-script"), "w+b")  # noqa: SIM115
    else:  # macOS: an unlinked temporary file
        import tempfile

        handle = tempfile.TemporaryFile()  # noqa: SIM115
    try:
        handle.write(data)
        handle.seek(0)
    except OSError:
        handle.close()
        raise
    return handle
