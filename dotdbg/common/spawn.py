"""Commands started without ``subprocess``: several short ones at once, each with its output
and a deadline (``run_all``), or one to read as it goes (``Child``: the srun of ``--job``).

subprocess brings threading, selectors, signal and more: about 16 ms of a Python start, where
the node-side entry of ``stacks --job`` should cost little more than Python does and its caller
little more than srun (issue 27). posix_spawn, pipes and poll do the same for commands that
read nothing.
"""

from __future__ import annotations

import os
import select
import sys
import time

from dotdbg.common.rawsignal import signal

TYPE_CHECKING = False  # typing costs milliseconds of every node's start; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

Finished = tuple[int, str, str]  # exit code (-N: killed by signal N), stdout, stderr
_CHUNK = 65536
_KILL = 9
_TERM = 15
# Python ignores these, and an ignored signal stays ignored across exec: a child gets them back,
# as subprocess's restore_signals gives them (a write to a closed pipe ends it, as in a shell)
_IGNORED_BY_PYTHON = (signal.SIGPIPE, signal.SIGXFSZ)


def beside_interpreter(program: str) -> str | None:
    """A program a wheel put in dotdbg's own environment (py-spy), beside the interpreter, as
    ``paths.own_program`` finds it without pathlib: install.sh does not put it on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), program)
    return beside if os.path.isfile(beside) and os.access(beside, os.X_OK) else None


class Child:
    """A started command: stdin /dev/null (or the open file ``stdin``), stdout and stderr pipes
    (``streams``) to read."""

    def __init__(
        self,
        argv: Sequence[str],
        timeout: float = 0.0,
        env: Mapping[str, str] | None = None,
        new_session: bool = False,
        stdin: int | None = None,
    ) -> None:
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)
            if stdin is None
            else (os.POSIX_SPAWN_DUP2, stdin, 0),
            (os.POSIX_SPAWN_DUP2, out_write, 1),
            (os.POSIX_SPAWN_DUP2, err_write, 2),
        ]
        environment = os.environ if env is None else env
        # a bare name is looked up on PATH, as subprocess and a shell do; $0 stays that name
        start = os.posix_spawn if "/" in argv[0] else os.posix_spawnp
        try:
            self.pid = start(
                argv[0],
                list(argv),
                environment,
                file_actions=actions,
                setsid=new_session,
                setsigdef=_IGNORED_BY_PYTHON,
            )
        except OSError:
            os.close(out_read)
            os.close(err_read)
            raise
        finally:
            os.close(out_write)
            os.close(err_write)
        self.deadline = time.monotonic() + timeout
        self.chunks: dict[int, list[bytes]] = {out_read: [], err_read: []}
        self.open = {out_read, err_read}
        self.streams = (out_read, err_read)
        self.status: int | None = None  # its wait status, once reaped

    def text(self, fd: int) -> str:
        return b"".join(self.chunks[fd]).decode(errors="replace")

    def close(self) -> None:
        for fd in self.open:
            os.close(fd)
        self.open.clear()

    def reap(self, kill: bool) -> Finished | None:
        """Its end (None when ``kill``: it overran and is killed)."""
        if kill:
            os.kill(self.pid, _KILL)
        self.close()
        _, self.status = os.waitpid(self.pid, 0)
        if kill:
            return None
        out, err = self.streams
        return os.waitstatus_to_exitcode(self.status), self.text(out), self.text(err)

    def stop(self, grace: float) -> None:
        """End it if it still runs: SIGTERM, and SIGKILL after ``grace`` seconds; reaped. Its
        pipes close after it ends, so that what it writes meanwhile (srun, cancelling its step,
        says so) does not kill it with SIGPIPE first."""
        if self.status is None and not self._ended():
            os.kill(self.pid, _TERM)
            until = time.monotonic() + grace
            while not self._ended():
                if time.monotonic() >= until:
                    os.kill(self.pid, _KILL)
                    _, self.status = os.waitpid(self.pid, 0)
                    break
                time.sleep(0.01)
        self.close()

    def _ended(self) -> bool:
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:
            return False
        self.status = status
        return True


def run_all(
    commands: Sequence[Sequence[str]],
    timeout: float,
    at_once: int,
    env: Mapping[str, str] | None = None,
    stdin: int | None = None,
) -> list[Finished | None]:
    """Each command's (exit code, stdout, stderr), in order, or None for one that ran past
    ``timeout`` seconds (it is killed); at most ``at_once`` run at a time. A command that
    cannot start raises OSError; on any exception (a stop signal's) those running are killed.
    ``stdin``: an open file the commands read (they share its offset: give it to one)."""
    results: list[Finished | None] = [None] * len(commands)
    queue = list(range(len(commands)))[::-1]
    children: dict[int, Child] = {}  # position: child
    poller = select.poll()
    owners: dict[int, int] = {}  # fd: position
    try:
        while queue or children:
            while queue and len(children) < at_once:
                at = queue.pop()
                children[at] = Child(commands[at], timeout, env, stdin=stdin)
                for fd in children[at].streams:
                    poller.register(fd, select.POLLIN)
                    owners[fd] = at
            _read_some(poller, owners, children)
            now = time.monotonic()
            for at, child in list(children.items()):
                if not child.open or now >= child.deadline:
                    for fd in child.open:
                        poller.unregister(fd)
                    results[at] = child.reap(kill=bool(child.open))
                    del children[at]
    finally:
        for child in children.values():
            child.reap(kill=True)
    return results


def _read_some(poller: select.poll, owners: dict[int, int], children: dict[int, Child]) -> None:
    """What is there to read, waiting at most until the nearest deadline."""
    nearest = min(child.deadline for child in children.values())
    wait_ms = max(0, int((nearest - time.monotonic()) * 1000) + 1)
    for fd, _ in poller.poll(wait_ms):
        child = children[owners[fd]]
        chunk = os.read(fd, _CHUNK)
        if chunk:
            child.chunks[fd].append(chunk)
        else:
            poller.unregister(fd)
            os.close(fd)
            child.open.discard(fd)
