"""What the user asked for, checked once: the RAM limit, the swap allowance and the soft limit.

Pure: no file or process is touched here, so every rule is a plain function to test.
"""

from __future__ import annotations

from dotdbg.common.record import Record
from dotdbg.common.sizes import parse_size, short_size
from dotdbg.errors import DotdbgError

# Below this even an idle shell is OOM-killed at once, which is never what anyone meant.
MIN_LIMIT = 2**20


class Limits(Record):
    """RAM ceiling, swap allowed on top of it, optional soft limit; all in bytes.

    A common.record Record: a NamedTuple imports typing, about 10 ms of every memlimit run
    (issue 27)."""

    ram: int
    swap: int = 0
    high: int | None = None

    @property
    def ram_plus_swap(self) -> int:
        return self.ram + self.swap

    @property
    def label(self) -> str:
        """The limit as MEMLIMIT shows it and messages name it: ``5G``, ``1.5G``, ``100M``."""
        return short_size(self.ram)

    def describe(self) -> str:
        swap = f"{short_size(self.swap)} swap" if self.swap else "no swap"
        high = f", soft limit {short_size(self.high)}" if self.high is not None else ""
        return f"{self.label} RAM, {swap}{high}"


def build_limits(limit: str, swap: str = "0", high: str | None = None) -> Limits:
    """Parse and check the three sizes; DotdbgError (exit 2) on anything doubtful."""
    ram = parse_size(limit, what="limit")
    if ram < MIN_LIMIT:
        raise DotdbgError(
            f"limit {limit!r} is below 1M; nothing useful runs under it",
            hint="give the RAM ceiling with a unit, e.g. memlimit 500M",
        )
    high_bytes = None if high is None else parse_size(high, what="--high")
    if high_bytes is not None and not MIN_LIMIT <= high_bytes <= ram:
        raise DotdbgError(
            f"--high {high!r} must lie between 1M and the limit ({short_size(ram)})",
            hint="memory.high throttles below the hard limit; leave it out to throttle nothing",
        )
    return Limits(ram=ram, swap=parse_size(swap, what="--swap"), high=high_bytes)


def limit_in_force(requested: int, read_back: int, page_size: int) -> bool:
    """The kernel rounds a limit down to whole pages; anything else means it was not applied."""
    return 0 <= requested - read_back < page_size


def v1_write_order(
    current: tuple[int, int], target: tuple[int, int]
) -> tuple[tuple[str, int], tuple[str, int]]:
    """Order the writes of (memory.limit_in_bytes, memory.memsw.limit_in_bytes).

    cgroup v1 rejects any moment where memsw < limit (EINVAL). The limit goes first when it fits
    under the current memsw (shrinking, or a fresh cgroup where both are unlimited); when it
    grows past the current memsw, memsw has to go up first.
    """
    limit_write = ("memory.limit_in_bytes", target[0])
    memsw_write = ("memory.memsw.limit_in_bytes", target[1])
    if target[0] <= current[1]:
        return limit_write, memsw_write
    return memsw_write, limit_write
