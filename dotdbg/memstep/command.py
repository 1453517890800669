"""``dotdbg memstep -- python SCRIPT ARGS``: the command line rewritten so that the user's
interpreter runs the script through ``runner.py``, and the readings read back. Pure but for
``run``."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from dotdbg.errors import DotdbgError

RUNNER = Path(__file__).with_name("runner.py")
FLAGS_WITH_VALUE = ("-W", "-X", "-Q")
HINT = (
    "give a script: dotdbg memstep -- python train.py ARGS; from code, wrap sections in "
    "`with dotdbg.memstep.step(...)`"
)


def through_runner(command: list[str]) -> list[str]:
    """``python -u train.py --lr 1`` → ``python -u RUNNER train.py --lr 1``."""
    if not os.path.basename(command[0]).startswith("python"):
        raise DotdbgError(f"{command[0]!r} is not a Python interpreter", hint=HINT)
    at = 1
    while at < len(command) and command[at].startswith("-"):
        if command[at] in ("-m", "-c", "-"):
            raise DotdbgError(f"python {command[at]} cannot be stepped through", hint=HINT)
        at += 2 if command[at] in FLAGS_WITH_VALUE else 1
    if at >= len(command):
        raise DotdbgError("no script in the command", hint=HINT)
    if not os.path.isfile(command[at]):
        raise DotdbgError(f"no such script: {command[at]}", hint="check the path")
    return [*command[:at], str(RUNNER), *command[at:]]


def run(command: list[str], stdout_to_stderr: bool) -> tuple[int, list[dict[str, object]]]:
    """``stdout_to_stderr``: the script's stdout goes to stderr (stdout then holds only JSON)."""
    from dotdbg.common.child import run_command
    from dotdbg.common.programs import exit_code_of, require_program

    argv = through_runner(command)
    require_program(argv[0])
    with tempfile.TemporaryDirectory(prefix="dotdbg-memstep-") as folder:
        out = os.path.join(folder, "steps.json")

        def prepare() -> None:
            os.environ["DOTDBG_MEMSTEP_OUT"] = out
            if stdout_to_stderr:
                os.dup2(2, 1)

        code = run_command(argv, prepare, "set the environment")
        readings = json.loads(Path(out).read_text()) if os.path.exists(out) else []
    return exit_code_of(code), readings


def largest(readings: list[dict[str, object]]) -> str | None:
    """The step whose RSS grew the most and stayed: where to look for a leak."""
    from dotdbg.common.sizes import format_size
    from dotdbg.visible import one_line

    grown = [(r["rss_delta"], str(r["label"])) for r in readings]
    kept = [(delta, label) for delta, label in grown if isinstance(delta, int) and delta > 0]
    if not kept:
        return None
    delta, label = max(kept)
    return f"memstep: the most RSS kept: {one_line(label)} (+{format_size(delta)})"
