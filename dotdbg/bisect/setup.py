"""The reinstall step: ``--setup``, else ``pip install -e .`` when the user's python has this
checkout installed in editable mode (then entry points, compiled parts and metadata follow
each commit), else none."""

from __future__ import annotations

import os
import shlex
import subprocess

# Run by the user's python: the folders of its editable installs, one a line.
EDITABLE_FOLDERS = """
import json
from importlib import metadata
from urllib.parse import unquote, urlparse
for dist in metadata.distributions():
    try:
        data = json.loads(dist.read_text("direct_url.json") or "{}")
    except (OSError, ValueError):
        continue
    if data.get("dir_info", {}).get("editable"):
        print(unquote(urlparse(data.get("url", "")).path))
"""


def setup_command(given: str | None, disabled: bool, top: str) -> list[str] | None:
    if disabled:
        return None
    if given is not None:
        return ["sh", "-c", given]
    python = _python()
    if python is None or not _installed_editable(python, top):
        return None
    return [python, "-m", "pip", "install", "-q", "-e", top]


def describe(setup: list[str] | None) -> str:
    if setup is None:
        return "no setup step (not an editable install of this checkout; --setup CMD gives one)"
    shown = setup[2] if setup[:2] == ["sh", "-c"] else shlex.join(setup)
    return f"setup at each step: {shown}"


def _python() -> str | None:
    from dotdbg.errors import DotdbgError
    from dotdbg.which.locate import user_python

    try:
        return user_python(None)
    except DotdbgError:
        return None


def _installed_editable(python: str, top: str) -> bool:
    try:
        done = subprocess.run(
            [python, "-c", EDITABLE_FOLDERS], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    folders = {os.path.realpath(line) for line in done.stdout.splitlines() if line}
    return os.path.realpath(top) in folders
