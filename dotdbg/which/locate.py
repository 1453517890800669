"""Asking the user's interpreter where a module comes from (the probe runs inside it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from dotdbg.errors import DotdbgError

PROBE = Path(__file__).with_name("probe.py")
PROBE_TIMEOUT_SECONDS = 120.0  # importing a big package (torch) for :ATTR takes a while


def user_python(given: str | None) -> str:
    """``--python``, else the ``python`` (then ``python3``) the user's PATH runs."""
    for name in [given] if given else ["python", "python3"]:
        found = shutil.which(name)
        if found:
            return found
    what = given or "python or python3"
    raise DotdbgError(
        f"no interpreter {what!r} on PATH", hint="activate your environment or give --python PATH"
    )


def split_target(target: str) -> tuple[str, str]:
    """``pkg.mod:Class.method`` → (``pkg.mod``, ``Class.method``)."""
    module, _, attr = target.partition(":")
    names = [*module.split("."), *(attr.split(".") if attr else [])]
    if not all(name.isidentifier() for name in names):
        raise DotdbgError(
            f"{target!r} is not a module name",
            hint="write MODULE or MODULE:ATTR, e.g. json.decoder:JSONDecoder.decode",
        )
    return module, attr


def probe(python: str, module: str, attr: str) -> dict[str, object]:
    """The probe's answer, run as ``python -c`` from the current directory, as the user would."""
    argv = [python, "-c", PROBE.read_text(), module, attr]
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, errors="replace", timeout=PROBE_TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:
        raise DotdbgError(
            f"{python} did not answer in {PROBE_TIMEOUT_SECONDS:g}s",
            hint="importing the module for :ATTR may hang; try without :ATTR",
        ) from None
    try:
        found: dict[str, object] = json.loads(done.stdout)
    except ValueError:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise DotdbgError(
            f"{python} could not run the probe: {last}",
            hint="is it a Python 3 interpreter? give another with --python",
        ) from None
    return found
