"""What ``dotdbg gdb`` does with its arguments: a dump (text or JSON), a gdb prompt, a program
run under gdb for ``--break-in``, or ``--check``; each returns the exit code.

Exit codes: 0 the stacks were shown (native only, with the reason, counts); 1 the process could
not be dumped (ptrace refused, exited, timed out); 2 a user error (no such process, not a core
file, gdb missing, a core from another build of the interpreter).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from dotdbg.errors import DotdbgError
from dotdbg.gdb import DEFAULT_TIMEOUT, dump, interpreter, needs, program, render, tracee
from dotdbg.gdb.driver import Target, break_in_argv, exec_prompt, prompt_argv
from dotdbg.gdb.interpreter import Interpreter
from dotdbg.pyspy import dump as pyspy

USAGE = "dotdbg gdb PID | dotdbg gdb --core FILE | dotdbg gdb --break-in -- python train.py"


@dataclass(frozen=True)
class Request:
    pid: int | None = None
    core: str | None = None
    exe: str | None = None
    break_in: bool = False
    command: tuple[str, ...] = ()  # --break-in's
    prompt: bool = False  # -i or --tui
    tui: bool = False
    as_json: bool = False
    via: str = "auto"
    timeout: float = DEFAULT_TIMEOUT
    check: bool = False


def parse(
    words: Sequence[str],
    core: str | None,
    exe: str | None,
    interactive: bool,
    tui: bool,
    break_in: bool,
    as_json: bool,
    via: str,
    timeout: float,
    check: bool,
) -> Request:
    """The request the options make, or a DotdbgError saying which ones do not go together."""
    if break_in:
        _refuse(core or exe or as_json or check, "--break-in takes a command only (and --tui)")
        return Request(break_in=True, command=tuple(words), prompt=True, tui=tui)
    _refuse(as_json and (interactive or tui), "--json prints a dump; -i/--tui open a prompt")
    _refuse(exe is not None and core is None and not check, "--exe goes with --core")
    _refuse(core is not None and bool(words), "give a PID or --core FILE, not both")
    pid = _pid(words) if core is None and not (check and exe) else None
    prompt = interactive or tui
    return Request(pid, core, exe, False, (), prompt, tui, as_json, via, timeout, check)


def _refuse(wrong: object, message: str) -> None:
    if wrong:
        raise DotdbgError(message, hint=USAGE)


def _pid(words: Sequence[str]) -> int:
    if len(words) != 1 or not words[0].isdigit():
        given = " ".join(words) or "nothing"
        raise DotdbgError(f"expected one process id, got {given}", hint=USAGE)
    return int(words[0])


def main(request: Request) -> int:
    if request.break_in:
        return break_in(request.command, request.tui)
    if request.check:
        return _check(request)
    if request.prompt:
        if request.core is not None:
            return prompt_core(request.core, request.exe, request.tui)
        assert request.pid is not None
        return prompt_pid(request.pid, request.tui)
    if request.core is not None:
        return dump_core(request.core, request.exe, request.via, request.timeout, request.as_json)
    assert request.pid is not None
    return dump_pid(request.pid, request.via, request.timeout, request.as_json)


def _check(request: Request) -> int:
    if request.pid is not None:
        dump.process_record(request.pid)
        return check(interpreter.of_process(request.pid), Target(pid=request.pid))
    if request.core is not None:
        target, found = _core_target(request.core, request.exe)
        return check(found, target)
    assert request.exe is not None
    return check(interpreter.describe(request.exe), None)


def note(line: str) -> None:
    from dotdbg.visible import one_line

    print(f"dotdbg: note: {one_line(line)}", file=sys.stderr)  # paths of the target's files


def show_dump(result: dump.Result, as_json: bool) -> int:
    record = result.record
    print(record.to_json() if as_json else render.record_text(record), flush=True)
    for line in result.notes:
        note(line)
    if result.failure == "denied":
        print(_ptrace_advice(record.pid, record.source), file=sys.stderr)
    return 0 if record.error is None else 1


def _ptrace_advice(pid: int, source: str) -> str:
    try:
        others = os.stat(f"/proc/{pid}").st_uid != os.getuid()
    except OSError:
        others = False
    return pyspy.advice_here(others, source)


def dump_pid(pid: int, via: str, timeout: float, as_json: bool) -> int:
    return show_dump(dump.dump_process(pid, via, timeout), as_json)


def dump_core(core: str, exe: str | None, via: str, timeout: float, as_json: bool) -> int:
    """The cause of death first (a line before the stacks; a note beside the JSON)."""
    from dotdbg.gdb import death

    result = dump.dump_core(core, exe, via, timeout)
    cause = death.of_core(core)
    if cause is not None and as_json:
        note(cause.text())
    elif cause is not None:
        print(cause.text()[0].upper() + cause.text()[1:] + ".", flush=True)
    return show_dump(result, as_json)


def _needs_said(found: Interpreter | None) -> needs.Needs:
    """What gdb needs, with a note for each missing piece (none for a program not Python)."""
    wanted = needs.of(found)
    if found is None or found.looks_like_python:
        for line in wanted.notes:
            note(line)
    return wanted


def prompt(target: Target, found: Interpreter | None, tui: bool) -> int:
    """A gdb prompt on ``target`` with the extension loaded, the mixed stack shown first."""
    wanted = _needs_said(found)
    argv = prompt_argv(needs.find_gdb(), wanted, target, tui)
    if wanted.extension is not None:
        note(f"gdb loads {wanted.extension.path}: py-bt, py-list, py-up/py-down, py-locals work")
    if target.pid is not None:
        note("quit (or detach) lets the process run on; dotdbg-bt all shows every thread")
    if target.pid is None:
        return exec_prompt(argv)
    with tracee.kept_running(target.pid) as guard:
        code = exec_prompt(argv)
        if code < 0:  # gdb itself was killed, before it could detach
            guard.killed_tracer()
    return code if code >= 0 else 128 - code


def prompt_pid(pid: int, tui: bool) -> int:
    dump.process_record(pid)  # says so when there is no such process
    return prompt(Target(pid=pid), interpreter.of_process(pid), tui)


def prompt_core(core: str, exe: str | None, tui: bool) -> int:
    target, found = _core_target(core, exe)
    return prompt(target, found, tui)


def _core_target(core: str, exe: str | None) -> tuple[Target, Interpreter]:
    """The core file and its executable as a gdb target, and the interpreter that wrote it."""
    from dotdbg.gdb import corefile

    facts = corefile.inspect(core, exe)
    found = interpreter.describe(facts.executable, facts.mapped)
    return Target(core=core, executable=facts.executable), found


def break_in(command: Sequence[str], tui: bool) -> int:
    """Run ``command`` under gdb; SIGTRAP (or a crash) stops it with its mixed stack shown."""
    argv = program.resolve(command)
    wanted = _needs_said(interpreter.describe(argv[0]))
    return exec_prompt(break_in_argv(needs.find_gdb(), wanted, argv, tui))


def check(found: Interpreter | None, target: Target | None) -> int:
    """What gdb needs for this interpreter, where each piece is, and the command to type."""
    wanted = needs.of(found)
    gdb = needs.find_gdb()
    for label, value in _check_lines(wanted, gdb):
        print(f"{label:<15}{value}")
    if target is not None and wanted.extension is not None:
        print(f"{'by hand':<15}{shlex.join(by_hand(gdb, wanted.extension.path, target))}")
    for line in wanted.notes:
        note(line)
    return 0 if wanted.python_frames_possible else 1


def by_hand(gdb: str, extension: str, target: Target) -> list[str]:
    """The plain gdb command that loads the extension (the methodology's ``gdb -x``)."""
    return [gdb, "-iex", f"add-auto-load-safe-path {extension}", "-x", extension, *target.args()]


def _check_lines(wanted: needs.Needs, gdb: str) -> list[tuple[str, str]]:
    found = wanted.interpreter
    if found is None:
        return [("interpreter", "unknown"), ("gdb", gdb)]
    version = f"Python {found.full_version or found.version or '?'}"
    kind = f"{found.kind}, debug build" if found.debug_build else found.kind
    extension = wanted.extension
    return [
        ("interpreter", f"{found.exe} ({version}, {kind})"),
        ("libpython", found.library or "linked into the executable"),
        ("python-gdb.py", extension.path if extension else "not found"),
        ("debug symbols", "yes" if wanted.symbols else "no"),
        ("debuginfod", needs.debuginfod_urls() or "off (DEBUGINFOD_URLS is not set)"),
        ("gdb", gdb),
    ]
