"""What a real run of a program imports, read from ``python -X importtime`` (issue 27: the
helpers' fixed cost is their imports; a test guards each one's list, not a timing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def imported_by(script: str, *args: str, expect: int = 0) -> set[str]:
    """The modules a run of this environment's ``script`` imported; it must exit ``expect``."""
    argv = [sys.executable, "-X", "importtime", str(BIN / script), *args]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == expect, done.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
