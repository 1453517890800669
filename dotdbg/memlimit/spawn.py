"""Start the command held at a gate, so it is under the limit before it runs a single instruction.

The child is ``/bin/sh`` running a tiny script: it reports ready on fd 4, waits for a line on
fd 3, then execs the command (same pid). Meanwhile the parent moves that pid into the cgroup
(or sets its rlimit) and checks the limit. This needs no preexec_fn: posix_spawn runs no Python
in the child, so it is safe whatever threads exist, and it gives the child an empty signal mask
although memlimit itself keeps its signals blocked.
"""

from __future__ import annotations

import fcntl
import os
import select

from dotdbg.common.rawsignal import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

GATE_FD = 3
READY_FD = 4
# Exit 125 means memlimit went away before opening the gate: the command never ran.
GATE_SCRIPT = (
    f"echo >&{READY_FD}; exec {READY_FD}>&-; "
    f'read -r _ <&{GATE_FD} || exit 125; exec "$@" {GATE_FD}<&-'
)


def gated(command: list[str]) -> list[str]:
    return ["/bin/sh", "-c", GATE_SCRIPT, "memlimit", *command]


def _high_fd(fd: int) -> int:
    # Above the target numbers, so the two dup2 actions below can never overwrite each other.
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class GatedChild:
    def __init__(self, pid: int, gate_fd: int, ready_fd: int) -> None:
        self.pid, self.gate_fd, self.ready_fd = pid, gate_fd, ready_fd
        self.closed = False

    def wait_ready(self, timeout: float) -> bool:
        """True once the child is waiting at the gate; False if it died or took too long."""
        readable, _, _ = select.select([self.ready_fd], [], [], timeout)
        return bool(readable) and os.read(self.ready_fd, 1) == b"\n"

    def open_gate(self) -> None:
        os.write(self.gate_fd, b"go\n")
        self.close_pipes()

    def abort(self) -> None:
        """Kill and reap a child that never got past the gate."""
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        self.close_pipes()

    def close_pipes(self) -> None:
        if not self.closed:
            os.close(self.gate_fd)
            os.close(self.ready_fd)
            self.closed = True


def spawn_gated(argv: list[str], env: Mapping[str, str]) -> GatedChild:
    """Start ``argv`` (which ends in ``gated(command)``) and return it waiting at the gate."""
    gate_read, gate_write = os.pipe()
    ready_read, ready_write = os.pipe()
    gate_read, ready_write = _high_fd(gate_read), _high_fd(ready_write)
    actions = [
        (os.POSIX_SPAWN_DUP2, gate_read, GATE_FD),
        (os.POSIX_SPAWN_DUP2, ready_write, READY_FD),
    ]
    try:
        pid = os.posix_spawn(
            argv[0],
            argv,
            env,
            file_actions=actions,
            setsigmask=(),
            # Python ignores these two; a command expects the default (as subprocess restores).
            setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),
        )
    except BaseException:
        for fd in (gate_write, ready_read):
            os.close(fd)
        raise
    finally:
        os.close(gate_read)
        os.close(ready_write)
    return GatedChild(pid=pid, gate_fd=gate_write, ready_fd=ready_read)
