"""``dotdbg --help`` reads each command's summary from ``dotdbg/cli/summaries.py`` instead of
importing every command's module (3.3x Python's start-up, issue 22.1): that file is derived from
the commands' definitions, and this test fails when it drifts (``pytest --update-golden``
writes it again)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dotdbg.cli import summaries
from dotdbg.cli.registry import COMMANDS, command

FILE = Path(summaries.__file__)
HEADER = FILE.read_text().split("SUMMARIES = ", 1)[0]


def derived() -> dict[str, str]:
    return {name: command(name).summary for name in COMMANDS}


def written(found: dict[str, str]) -> str:
    # JSON strings are Python strings, in the double quotes ruff format keeps
    rows = "".join(
        f"    {json.dumps(name)}: {json.dumps(summary)},\n" for name, summary in found.items()
    )
    return f"{HEADER}SUMMARIES = {{\n{rows}}}\n"


def test_the_summaries_are_those_of_the_commands(update_golden: bool) -> None:
    if update_golden:
        FILE.write_text(written(derived()))
    assert derived() == summaries.SUMMARIES, "run: pytest tests/cli --update-golden"


def test_the_root_help_imports_no_command_module() -> None:
    code = (
        "import sys\n"
        "from dotdbg.cli.roothelp import root_help\n"
        "root_help()\n"
        "print(sorted(m for m in sys.modules if m.startswith('dotdbg.cli.commands')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr
