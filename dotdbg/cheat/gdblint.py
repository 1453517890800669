"""``[gdb]`` entries checked by gdb itself: one ``gdb -batch`` per sheet, no program loaded.

gdb has no parse-only mode, so each command is executed in a session with no program and no
process, inside gdb's own Python: what gdb does not know (``Undefined command``, ``Ambiguous``,
a syntax error in an expression) is an error; what fails only for want of a process or symbols
(``No stack.``, ``No symbol table is loaded``) is what the command would do here, not a fault.
Commands that would leave the session, run something or reach out (``quit``, ``shell``, ``run``,
``attach``, ``target``, ``python``...) are not executed: gdb's ``help`` confirms their name and
Python's compiler reads a ``python`` block. CPython's gdb extension (``py-bt``...) is loaded
first when this machine has it (python3-dbg); gdb runs in a fresh directory with HOME there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile

# Errors that say the command is not gdb's, or does not parse; anything else is a runtime error.
PARSE_ERRORS = (
    "Undefined ",
    "Ambiguous ",
    "A syntax error",
    "Junk after",
    "Junk at end",
    "Unrecognized ",
    "Argument required",
    '"on" or "off" expected',
)
NOT_EXECUTED = {
    "quit", "q", "shell", "!", "pipe", "|", "make", "run", "r", "start", "starti", "attach",
    "kill", "detach", "target", "python", "py", "python-interactive", "pi", "file", "core",
    "core-file", "source", "cd", "signal", "continue", "c", "next", "n", "step", "s", "finish",
    "until", "advance", "jump", "call", "return", "gcore", "generate-core-file",
    "tui", "layout", "refresh", "focus", "edit", "list", "l",
}  # fmt: skip
EXTENSION_GLOBS = ("/usr/share/gdb/auto-load/usr/bin/python3*-gdb.py",)

DRIVER = r"""
import json
import gdb

commands, extension, not_executed, out_path = json.load(open(INPUT))
if extension:
    try:
        gdb.execute("source " + extension, to_string=True)
    except gdb.error:
        pass
answers = []
for text in commands:
    word = text.split(None, 1)[0] if text.strip() else ""
    try:
        if word in ("python", "py", "python-interactive", "pi"):
            if "\n" in text:
                body = text.split("\n", 1)[1].rsplit("\nend", 1)[0]
            else:
                body = text.split(None, 1)[1]
            compile(body + "\n", "<gdb python>", "exec")
        elif word in not_executed:
            gdb.execute("help " + word, to_string=True)
        else:
            gdb.execute(text, to_string=True)
        answers.append("")
    except SyntaxError as error:
        answers.append("Python: A syntax error: " + str(error.msg))
    except IndexError:
        answers.append("Argument required (python with nothing to run)")
    except Exception as error:  # gdb.error, gdb.GdbError, gdb.MemoryError
        answers.append(str(error))
json.dump(answers, open(out_path, "w"))
"""


def gdb_available() -> bool:
    return shutil.which("gdb") is not None


def gdb_faults(commands: list[str]) -> list[str]:
    """For each command (a line, or a block ending in ``end``), why gdb would not take it, or
    "" (gdb not found: "" for all)."""
    if not commands or not gdb_available():
        return ["" for _ in commands]
    with tempfile.TemporaryDirectory(prefix="dotdbg-gdblint-") as place:
        answers = _ask_gdb(commands, place)
    return [_fault(answer) for answer in answers]


def _ask_gdb(commands: list[str], place: str) -> list[str]:
    given, answered = os.path.join(place, "in.json"), os.path.join(place, "out.json")
    with open(given, "w") as file:
        json.dump([commands, _extension(), sorted(NOT_EXECUTED), answered], file)
    driver = os.path.join(place, "driver.py")
    with open(driver, "w") as file:
        file.write(f"INPUT = {given!r}\n{DRIVER}")
    done = subprocess.run(
        ["gdb", "-nx", "-batch", "-q", "-x", driver],
        cwd=place,
        env={**os.environ, "HOME": place},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
    )
    try:
        with open(answered) as file:
            answers: list[str] = json.load(file)
    except (OSError, ValueError):
        said = (done.stderr or done.stdout).strip().splitlines()
        return [f"gdb could not check it: {said[-1] if said else done.returncode}"] * len(commands)
    return answers


def _extension() -> str:
    import glob

    found = sorted(path for pattern in EXTENSION_GLOBS for path in glob.glob(pattern))
    return found[-1] if found else ""


def _fault(answer: str) -> str:
    first = answer.strip().splitlines()[0] if answer.strip() else ""
    if first.startswith("Python: ") or first.startswith("gdb could not"):
        return first
    return f"gdb: {first}" if first.startswith(PARSE_ERRORS) else ""
