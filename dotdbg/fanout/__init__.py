"""Running one command on many nodes through the engines already there: ``srun --overlap``
inside a running SLURM job (``fanout.slurm``), ssh to a host list with ClusterShell
(``fanout.ssh``). Each node's output comes back on its own, with its exit code, or as timed out
with what it had sent. Nothing is left running: a stop ends the step, or every ssh session and
the command behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

NOT_FOUND = 127  # what a shell returns for a command it cannot find or run

# dotdbg on a node: the path asked for ($1) when it is there, else the one on PATH, else
# ~/.local/bin's (where install.sh, pipx and uv put it). A non-interactive ssh or srun shell has
# not read the rc file that puts ~/.local/bin on PATH, and nobody should have to edit one.
FIND_DOTDBG = (
    'a=$1; p=$1; shift; [ -x "$p" ] || p=$(command -v dotdbg) || p=$HOME/.local/bin/dotdbg; '
    '[ -x "$p" ] || { echo "dotdbg: not found at $a, on PATH or in ~/.local/bin" >&2; exit 127; }; '
    'exec "$p" "$@"'
)


def found_on_node(argv: Sequence[str]) -> list[str]:
    """``argv`` run through FIND_DOTDBG when it runs dotdbg; any other program as it is."""
    if not argv or argv[0].rsplit("/", 1)[-1] != "dotdbg":
        return list(argv)
    return ["/bin/sh", "-c", FIND_DOTDBG, "dotdbg-find", *argv]


@dataclass(frozen=True)
class NodeResult:
    """One node's output and exit code, or that it did not answer in time."""

    node: str
    returncode: int | None  # None: it did not finish in time, or never reported
    stdout: str
    stderr: str
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def problem(self, argv: Sequence[str], timeout: float) -> str:
        """One line on what went wrong, or "" when nothing did."""
        said = _last_line(self.stderr)
        if self.timed_out:
            count = len(self.stdout.splitlines())
            sent = f"{count} line{'s' * (count != 1)} sent"
            return (
                f"{self.node}: no answer within {timeout:g}s ({sent}{'; ' + said if said else ''})"
            )
        if self.returncode is None:
            return f"{self.node}: ended without an exit code ({said or 'no message'})"
        if self.returncode == NOT_FOUND:
            import shlex

            return f"{self.node}: cannot run {shlex.quote(argv[0])} there ({said or 'not found'})"
        if self.returncode > 128:
            return (
                f"{self.node}: ended by signal {self.returncode - 128}{'; ' + said if said else ''}"
            )
        if self.returncode:
            return f"{self.node}: exit {self.returncode}{'; ' + said if said else ''}"
        return ""


def _last_line(text: str) -> str:
    """The error and its hint where the command printed dotdbg's two-line kind, else the last."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 2 and lines[-1].startswith("hint:"):
        return f"{lines[-2]}; {lines[-1]}"
    return lines[-1] if lines else ""
