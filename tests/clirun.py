"""Running ``dotdbg …`` or a helper in the test's own process: what ``subprocess.run(…,
text=True, capture_output=True)`` returns, through the same entry points as the installed
scripts, without a Python start-up per call. Tests that need a real process (signals, a
closed pipe, the launchers) start one; the e2e tests drive the installed programs."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from collections.abc import Iterator, Mapping

from dotdbg.cli.entry import helper, main


def run_cli(
    program: str, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    with environ(env or {}), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args)) if program == "dotdbg" else helper(program, list(args))
    return subprocess.CompletedProcess([program, *args], code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def environ(changes: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(changes)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
