"""Run a real shell (or a program that starts one) in a test's home, with a bare environment."""

from __future__ import annotations

import subprocess
from pathlib import Path


def run_in_home(
    argv: list[str], home: Path, term: str = "dumb", timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """``argv`` with HOME=``home``, the system PATH and no terminal on stdin."""
    return subprocess.run(
        argv,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", "TERM": term},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
