"""``dotdbg which --ran FILE:LINE -- CMD``: did that line execute while CMD ran?

CMD runs unchanged, except that PYTHONPATH starts with a folder holding our
``sitecustomize`` (``hook/``), so every Python process of CMD (pytest's workers, torchrun's
ranks, subprocesses) watches for the line and says so in an events file.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dotdbg.errors import DotdbgError

HOOK = Path(__file__).with_name("hook") / "sitecustomize.py"


@dataclass(frozen=True)
class Spot:
    file: str  # real path
    line: int


@dataclass
class Outcome:
    spot: Spot
    exit_code: int
    processes: dict[int, dict[str, Any]] = field(default_factory=dict)
    hits: dict[int, list[list[object]]] = field(default_factory=dict)  # pid -> stack
    others: list[str] = field(default_factory=list)  # files of the same name that ran

    @property
    def ran(self) -> bool:
        return bool(self.hits)


def parse_spot(text: str) -> Spot:
    name, colon, number = text.rpartition(":")
    if not colon or not number.isdigit() or int(number) < 1:
        raise DotdbgError(f"--ran {text!r} is not FILE:LINE", hint="e.g. --ran src/model.py:42")
    path = Path(name).expanduser()
    if not path.is_file():
        raise DotdbgError(f"--ran: no such file: {name}", hint="give the path of the file you edit")
    spot = Spot(os.path.realpath(path), int(number))
    check_has_code(spot, path.read_bytes())
    return spot


def check_has_code(spot: Spot, source: bytes) -> None:
    """A blank line, a comment or the middle of a statement never runs: say so up front."""
    try:
        code = compile(source, spot.file, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        raise DotdbgError(
            f"{spot.file} does not compile: {error}", hint="Python could not import it either"
        ) from None
    if spot.line not in code_lines(code):
        raise DotdbgError(
            f"{spot.file}:{spot.line} holds no statement that runs (blank, a comment, a "
            "docstring or a continuation line)",
            hint="pick the line where a statement starts",
        )


def code_lines(code: object) -> set[int]:
    lines = {line for _, _, line in code.co_lines() if line is not None}  # type: ignore[attr-defined]
    for const in code.co_consts:  # type: ignore[attr-defined]
        if hasattr(const, "co_lines"):
            lines |= code_lines(const)
    return lines


def environment(spot: Spot, hook_dir: str, events: str) -> dict[str, str]:
    env = dict(os.environ)
    python_path = [hook_dir, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env["PYTHONPATH"] = os.pathsep.join(python_path)
    env["DOTDBG_WHICH_RAN"] = json.dumps({"file": spot.file, "line": spot.line, "events": events})
    return env


def run(spot: Spot, command: list[str]) -> Outcome:
    from dotdbg.common.child import run_command
    from dotdbg.common.programs import exit_code_of, require_program

    require_program(command[0])
    with tempfile.TemporaryDirectory(prefix="dotdbg-which-") as folder:
        shutil.copy(HOOK, folder)
        events = os.path.join(folder, "events.jsonl")
        env = environment(spot, folder, events)
        returncode = run_command(command, lambda: os.environ.update(env), "set the environment")
        text = Path(events).read_text() if os.path.exists(events) else ""
    return read_events(spot, exit_code_of(returncode), text)


def read_events(spot: Spot, exit_code: int, text: str) -> Outcome:
    outcome = Outcome(spot, exit_code)
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a process killed in the middle of its write
        pid = event.get("pid")
        if event.get("event") == "start":
            outcome.processes[pid] = event
        elif event.get("event") == "hit":
            outcome.hits.setdefault(pid, event.get("stack", []))
        elif event.get("event") == "other" and event.get("file") not in outcome.others:
            outcome.others.append(event["file"])
    return outcome


def outcome_json(outcome: Outcome) -> dict[str, object]:
    return {
        "file": outcome.spot.file,
        "line": outcome.spot.line,
        "ran": outcome.ran,
        "exit_code": outcome.exit_code,
        "processes": [
            {
                "pid": pid,
                "argv": event.get("argv"),
                "method": event.get("method"),
                "ran": pid in outcome.hits,
                "stack": outcome.hits.get(pid),
            }
            for pid, event in outcome.processes.items()
        ],
        "same_name_files_that_ran": outcome.others,
    }


def outcome_lines(outcome: Outcome) -> list[str]:
    from dotdbg.visible import one_line

    where = one_line(f"{outcome.spot.file}:{outcome.spot.line}")
    count = len(outcome.processes)
    if not count:
        return [
            f"{where}: no Python process of the command was watched (exit {outcome.exit_code})",
            "  hint: the command must start Python without -I, -E or -S (they skip PYTHONPATH "
            "or sitecustomize)",
        ]
    verdict = "RAN" if outcome.ran else "did NOT run"
    out = [
        f"{where} {verdict} (in {len(outcome.hits)} of {count} Python processes; "
        f"the command exited with {outcome.exit_code})"
    ]
    for pid, stack in outcome.hits.items():
        argv = " ".join(str(word) for word in outcome.processes.get(pid, {}).get("argv", []))
        out.append(f"  pid {pid}: {one_line(argv)}")
        for filename, line, function in stack[1:4]:
            out.append(
                f"    called from {one_line(str(filename))}:{line} in {one_line(str(function))}"
            )
    if not outcome.ran and outcome.others:
        out.append("  a file of the same name ran instead (are you editing the right copy?):")
        out += [f"    {one_line(other)}" for other in outcome.others]
    return out
