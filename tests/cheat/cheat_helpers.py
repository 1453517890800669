"""Constants and helpers the cheat tests import (a unique name: every conftest is `conftest`)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

FIXTURE_SHEETS = Path(__file__).resolve().parent / "sheets"
DOTDBG = str(Path(sys.executable).parent / "dotdbg")

RunCheat = Callable[..., subprocess.CompletedProcess[str]]


def write_sheet(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
