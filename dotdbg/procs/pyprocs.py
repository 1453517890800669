"""Finding Python processes, in two phases: a cheap filter over every process, then the full
attributes of the matches only.

Phase one reads ``/proc/PID/stat`` of every process (one read gives the kernel name, the start
time and the numbers shown) and remembers its verdict per process, keyed by pid, start time and
name: an ``exec`` changes the name, a reused pid the start time. Only a new process pays for
the executable link and the command line. Phase two reads the matches' command line (it changes
with ``setproctitle``) and, once per process, its environment. A process that vanishes mid-scan
is skipped; a zombie or another user's process shows what can be read.

An exec publishes the new program's name first, then its arguments, then its environment; a
read in between finds them empty. What such a read concluded is not remembered, so the next
refresh looks again.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from dotdbg.common.record import Record, replace
from dotdbg.errors import DotdbgError
from dotdbg.procs import procfs, pycmdline
from dotdbg.procs.procfs import EnvFacts, Stat


class ScanFilter(Record):
    uid: int | None  # None: every user
    pattern: re.Pattern[str] | None
    exclude: frozenset[int]
    # dotdbg's own commands are tools, not the job: a concurrent ``stacks --job``'s helper on a
    # node, or the caller itself where a node is this machine, would show as one of its processes
    skip_dotdbg: bool = False

    def wants_argv(self, argv: tuple[str, ...]) -> bool:
        if self.skip_dotdbg and pycmdline.is_dotdbg_inspector(argv):
            return False
        return self.pattern is None or self.pattern.search(" ".join(argv)) is not None


class Candidate(Record):
    """A process phase one found to be Python."""

    pid: int
    uid: int
    exe: str | None
    stat: Stat

    @property
    def key(self) -> tuple[int, int, str]:
        return self.pid, self.stat.start_ticks, self.stat.name


class PyProcess(Record):
    pid: int
    uid: int
    exe: str | None
    argv: tuple[str, ...]
    stat: Stat
    environ: EnvFacts | None  # None: not readable (another user's process, a zombie)

    @property
    def identity(self) -> tuple[int, int]:
        """Stays the same for the life of the process, unlike a pid that may be reused."""
        return self.pid, self.stat.start_ticks

    @property
    def started_seconds(self) -> float:
        """Start time in seconds after boot."""
        return self.stat.start_ticks / procfs.CLOCK_TICKS


Verdict = tuple[int, str | None] | None  # (uid, executable) of a wanted Python process


def classify(pid: int, stat: Stat, wanted: ScanFilter) -> tuple[Verdict, bool]:
    """The verdict, and whether it holds for the life of the (pid, start time, name).

    It does not when all there was to go on was an empty command line: an exec half done (the
    kernel names the new program before it publishes its arguments) of a process whose
    executable cannot be read (another user's).
    """
    uid = os.stat(f"{procfs.PROC}/{pid}").st_uid
    if wanted.uid is not None and uid != wanted.uid:
        return None, True
    exe = procfs.readlink(f"{procfs.PROC}/{pid}/exe")
    if exe is not None and pycmdline.is_python(exe, (), None):
        return (uid, exe), True
    argv = procfs.read_argv(pid)
    if pycmdline.is_python(None, argv, stat.name):
        return (uid, exe), True
    settled = exe is not None or bool(argv) or stat.state == "Z" or stat.kernel_thread
    return None, settled


class Scanner:
    """Scans repeatedly, remembering per process what does not change between refreshes."""

    def __init__(self, wanted: ScanFilter) -> None:
        self.wanted = wanted
        self._verdicts: dict[tuple[int, int, str], Verdict] = {}
        self._environ: dict[tuple[int, int, tuple[str, ...]], EnvFacts | None] = {}
        self._environ_next: dict[tuple[int, int, tuple[str, ...]], EnvFacts | None] = {}

    def scan(self, pids: Iterable[int] | None = None) -> list[PyProcess]:
        self._environ_next = {}
        found = [self.details(candidate) for candidate in self.candidates(pids)]
        self._environ, self._environ_next = self._environ_next, {}
        return [process for process in found if process is not None]

    def candidates(self, pids: Iterable[int] | None = None) -> list[Candidate]:
        """Phase one: every process that is Python, by the cheapest reads that tell."""
        verdicts: dict[tuple[int, int, str], Verdict] = {}
        found = []
        for pid in procfs.all_pids() if pids is None else pids:
            if pid in self.wanted.exclude:
                continue
            try:
                stat = procfs.read_stat(pid)
                key = (pid, stat.start_ticks, stat.name)
                if key in self._verdicts:
                    verdict, settled = self._verdicts[key], True
                else:
                    verdict, settled = classify(pid, stat, self.wanted)
            except OSError:  # gone since the directory was listed
                continue
            if settled:
                verdicts[key] = verdict
            if verdict is not None:
                found.append(Candidate(pid, verdict[0], verdict[1], stat))
        self._verdicts = verdicts
        return found

    def details(self, candidate: Candidate) -> PyProcess | None:
        """Phase two: command line and environment; None if the process has gone or is unwanted."""
        try:
            argv = procfs.read_argv(candidate.pid)
            if not argv and candidate.stat.state != "Z":
                return None  # mid-exec: argv and environ are not set up yet
            if not self.wanted.wants_argv(argv):
                return None
            environ = self._environ_of(candidate, argv)
        except (FileNotFoundError, ProcessLookupError):
            return None
        return PyProcess(candidate.pid, candidate.uid, candidate.exe, argv, candidate.stat, environ)

    def _environ_of(self, candidate: Candidate, argv: tuple[str, ...]) -> EnvFacts | None:
        """Read once per process and command line: the environment it started with is fixed."""
        key = (candidate.pid, candidate.stat.start_ticks, argv)
        facts = self._environ[key] if key in self._environ else _read_env_facts(candidate, argv)
        if facts is None or facts.settled:  # else read again next time: the exec may be half done
            self._environ_next[key] = facts
        return facts


def _read_env_facts(candidate: Candidate, argv: tuple[str, ...]) -> EnvFacts | None:
    if candidate.stat.state == "Z":
        return None
    facts = procfs.read_environ(candidate.pid)
    if facts is None or facts.env is not None:
        return facts
    return replace(facts, env=procfs.interpreter_env(candidate.pid, argv, candidate.exe))


def own_filter(
    pattern: re.Pattern[str] | None, all_users: bool, skip_dotdbg: bool = True
) -> ScanFilter:
    """The current user's processes (or everyone's), never this process itself, nor (unless
    asked for by pid) any other dotdbg command."""
    me = frozenset({os.getpid()})
    return ScanFilter(None if all_users else os.getuid(), pattern, me, skip_dotdbg)


def compile_pattern(text: str | None, what: str = "--pattern") -> re.Pattern[str] | None:
    """The user's pattern, or a DotdbgError that says what is wrong with it."""
    if text is None:
        return None
    try:
        return re.compile(text)
    except re.error as error:
        raise DotdbgError(
            f"{what} {text!r} is not a regular expression: {error}",
            hint="it is a Python regex searched in the whole command line, e.g. 'train|torchrun'",
        ) from None
