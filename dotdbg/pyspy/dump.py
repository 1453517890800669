"""pyspy: ``py-spy dump`` of every Python process watch-python would show, or of a launcher's
whole tree, in parallel, one titled section per process.

py-spy stops each target while it reads its stacks, so every dump has a timeout. A refusal to
attach is explained (yama ``ptrace_scope``, another user's process, a container without
``SYS_PTRACE``) rather than shown as py-spy's one-line error.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from dotdbg.errors import DotdbgError
from dotdbg.procs import procfs, pyprocs
from dotdbg.procs.pyprocs import PyProcess, Scanner
from dotdbg.pyspy import outcome
from dotdbg.pyspy.outcome import find_py_spy

PTRACE_SCOPE = "/proc/sys/kernel/yama/ptrace_scope"
MAX_PARALLEL = 8


@dataclass(frozen=True)
class Dump:
    process: PyProcess
    status: str  # "ok", "gone", "denied", "traced", "timeout", "failed"
    text: str  # py-spy's output (JSON with as_json), or what went wrong


# py-spy children still running, so that a stop signal can end them before dotdbg exits.
_running: set[subprocess.Popen[str]] = set()
_running_lock = threading.Lock()


def select_targets(
    pattern: re.Pattern[str] | None, tree: int | None, all_users: bool
) -> list[PyProcess]:
    """The Python processes to dump: those matching ``pattern``, within ``tree``'s descendants."""
    pids = None
    if tree is not None:
        parents = procfs.parent_map()
        if tree not in parents:
            raise DotdbgError(
                f"there is no process {tree}", hint="pass the launcher's pid to --tree"
            )
        pids = sorted(procfs.descendants(tree, parents))
    # --tree names the processes itself, whoever owns them
    wanted = pyprocs.own_filter(pattern, all_users or tree is not None, skip_dotdbg=tree is None)
    # in the order they started: a launcher before its ranks, even where pids wrapped around
    return sorted(Scanner(wanted).scan(pids), key=lambda p: (p.stat.start_ticks, p.pid))


def _communicate(command: list[str], timeout: float) -> tuple[int, str, str] | None:
    """(returncode, stdout, stderr), or None after killing a run that overran ``timeout``."""
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True
    )
    with _running_lock:
        _running.add(proc)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    finally:
        with _running_lock:
            _running.discard(proc)
    return proc.returncode, out, err


def kill_running() -> None:
    """End every py-spy still running (a stop signal or Ctrl-C came in)."""
    with _running_lock:
        for proc in _running:
            proc.kill()


def dump_one(
    py_spy: str, process: PyProcess, native: bool, timeout: float, as_json: bool = False
) -> Dump:
    command = [py_spy, "dump", "--pid", str(process.pid)]
    command += ["--native"] * native + ["--json"] * as_json
    done = _communicate(command, timeout)
    status, text = outcome.explain(process.pid, process.stat.start_ticks, done, as_json, timeout)
    return Dump(process, status, text)


def dump_all(
    py_spy: str,
    targets: Iterable[PyProcess],
    native: bool,
    timeout: float,
    as_json: bool = False,
) -> Iterator[Dump]:
    """Dumps in the order of ``targets``, each yielded once it and all before it are done."""
    targets = list(targets)
    work = _Work(len(targets))

    def worker() -> None:
        while (at := work.take()) is not None:
            work.finish(at, lambda: dump_one(py_spy, targets[at], native, timeout, as_json))

    # threads of our own: concurrent.futures brings logging and more into every node's start
    threads = [threading.Thread(target=worker) for _ in range(min(MAX_PARALLEL, len(targets)))]
    for thread in threads:
        thread.start()
    try:
        for at in range(len(targets)):
            yield work.result(at)
    finally:
        work.stop()
        kill_running()
        for thread in threads:
            thread.join()


class _Work:
    """Positions handed to the dumping threads in order, and each one's dump or exception."""

    def __init__(self, count: int) -> None:
        self._lock = threading.Lock()
        self._next = 0
        self._count = count
        self._stopped = False
        self._done = [threading.Event() for _ in range(count)]
        self._results: list[Dump | BaseException | None] = [None] * count

    def take(self) -> int | None:
        with self._lock:
            if self._stopped or self._next == self._count:
                return None
            self._next += 1
            return self._next - 1

    def finish(self, at: int, dump: Callable[[], Dump]) -> None:
        try:
            self._results[at] = dump()
        except BaseException as error:  # handed to the reader, as a future would
            self._results[at] = error
        finally:
            self._done[at].set()

    def result(self, at: int) -> Dump:
        self._done[at].wait()
        found = self._results[at]
        if isinstance(found, BaseException):
            raise found
        assert found is not None
        return found

    def stop(self) -> None:
        with self._lock:
            self._stopped = True


def section(dump: Dump) -> str:
    """A title naming the process, then py-spy's output (or what went wrong)."""
    from dotdbg.stacks import identity
    from dotdbg.stacks.record import title
    from dotdbg.visible import one_line, visible

    body = dump.text if dump.status == "ok" else f"[{dump.status}] {dump.text}"
    # thread names, file names and the title are the target's: an OSC 52 must not get through
    return f"{one_line(title(identity.of_scanned(dump.process, 'py-spy')))}\n{visible(body)}\n"


def read_ptrace_scope() -> int | None:
    try:
        with open(PTRACE_SCOPE) as handle:
            return int(handle.read().strip())
    except (OSError, ValueError):
        return None


_SCOPE_MEANING = {
    0: "any process may trace another process of the same user",
    1: "a process may only be traced by its ancestors, so a tracer started elsewhere is refused",
    2: "only root (CAP_SYS_PTRACE) may trace",
    3: "no process may be traced at all until the next reboot",
}


def ptrace_advice(scope: int | None, others: bool, argv: list[str], tool: str = "py-spy") -> str:
    """Why ``tool`` could not attach and how to allow it, with what allowing it means."""
    import shlex

    again = 'sudo env "PATH=$PATH" ' + shlex.join(argv)
    # the shape of every finding: `dotdbg: what`, its details indented, then `hint: what to do`
    lines = [f"dotdbg: {tool} was not allowed to attach to the process (ptrace was refused)."]
    if scope is not None:
        lines.append(f"  kernel.yama.ptrace_scope is {scope}: {_SCOPE_MEANING.get(scope, '?')}.")
    if others:
        lines.append("  Some targets belong to another user; only root may trace them.")
    lines.append(f"hint: run it as root:  {again}")
    if scope in (1, 2):
        lines += [
            "  or let your processes trace each other until reboot:",
            "    echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope",
            "  (to keep it: kernel.yama.ptrace_scope = 0 in /etc/sysctl.d/10-ptrace.conf).",
            "  Security: with 0, any program running as you can read and change the memory of",
            "  your other processes (ssh-agent keys, tokens); fine on a compute node only you use.",
        ]
    if scope is None or not others:
        lines.append(
            "  In a container, ptrace also needs the capability: docker run --cap-add SYS_PTRACE"
        )
    return "\n".join(lines)


def run(
    pattern: re.Pattern[str] | None,
    tree: int | None,
    native: bool,
    timeout: float,
    all_users: bool,
) -> int:
    """Dump every target; 0 when all dumps worked, 1 when none matched or any failed."""
    py_spy = find_py_spy()
    targets = select_targets(pattern, tree, all_users)
    if not targets:
        print("dotdbg: no Python process matches", file=sys.stderr)
        return 1
    dumps = []
    for dump in dump_all(py_spy, targets, native, timeout):
        print(section(dump), flush=True)
        dumps.append(dump)
    denied = [dump for dump in dumps if dump.status == "denied"]
    if denied:
        others = any(dump.process.uid != os.getuid() for dump in denied)
        print(advice_here(others), file=sys.stderr)
    return 0 if succeeded(dumps) else 1


def succeeded(dumps: list[Dump]) -> bool:
    """Every process was dumped, but for those that exited meanwhile (at least one was)."""
    return all(d.status in ("ok", "gone") for d in dumps) and any(d.status == "ok" for d in dumps)


def advice_here(others: bool, tool: str = "py-spy") -> str:
    """``ptrace_advice`` for this machine's ptrace_scope and the command line that was refused."""
    command_line = [os.path.basename(sys.argv[0]), *sys.argv[1:]]
    return ptrace_advice(read_ptrace_scope(), others, command_line, tool)
