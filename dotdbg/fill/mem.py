"""mem-fill: commit RAM step by step, prove it is resident, hold it, give it back.

``bytes(n)`` or calloc only map the shared zero page; the kernel commits nothing until each page
is written. mem-fill asks the kernel to fault every page in writable (``MADV_POPULATE_WRITE``,
Linux >= 5.14; ``MAP_POPULATE`` before that, touching every page as the last resort) and checks
after each step that the resident set really grew. Where zram or zswap would compress the pages
back, it writes random bytes instead.
"""

from __future__ import annotations

import errno
import mmap
import os
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dotdbg.common import child, holding, programs
from dotdbg.common.output import Report, reporter
from dotdbg.common.sizes import format_size
from dotdbg.errors import DotdbgError
from dotdbg.fill.mem_budget import check_target, current_budget
from dotdbg.fill.noise import Noise

MADV_POPULATE_WRITE = 23  # Linux 5.14; Python's mmap module does not name it yet
RESIDENT_SHORTFALL = 0.9  # warn when a step grew RSS by less than this share of its size
VICTIM_OOM_SCORE_ADJ = 1000


say = reporter("mem-fill")


@dataclass(frozen=True)
class MemFillOptions:
    target: int
    step: int
    hold_seconds: float | None = None
    command: tuple[str, ...] = ()
    force: bool = False
    incompressible: bool | None = None  # None: random bytes only when zram/zswap is active
    oom_score_adj: int = VICTIM_OOM_SCORE_ADJ


def plan_steps(target: int, step: int) -> list[int]:
    """Step sizes that add up to ``target``, each a whole number of pages."""
    if step <= 0:
        raise DotdbgError("--step must be more than 0")
    pages = _whole_pages(target)
    step = _whole_pages(step)  # a mapping takes whole pages: a smaller step would commit more
    return [min(step, pages - done) for done in range(0, pages, step)]


def _whole_pages(size: int) -> int:
    return -(-size // mmap.PAGESIZE) * mmap.PAGESIZE


# --- what the pages must hold ---------------------------------------------------------------


def compressed_swap(sys_root: Path = Path("/sys"), proc_swaps: str | None = None) -> str | None:
    """Why pages would be compressed (zswap enabled, or a zram device in use as swap), or None."""
    zswap = sys_root / "module/zswap/parameters/enabled"
    if zswap.is_file() and zswap.read_text().strip() in ("Y", "1"):
        return "zswap is enabled"
    swaps = Path("/proc/swaps").read_text() if proc_swaps is None else proc_swaps
    swap_devices = {line.split()[0] for line in swaps.splitlines()[1:] if line.strip()}
    for zram in sorted(sys_root.glob("block/zram*")):
        if f"/dev/{zram.name}" in swap_devices:
            return f"/dev/{zram.name} is in use as swap"
    return None


# --- committing ------------------------------------------------------------------------------


def resident_bytes(pid: int | str = "self") -> int:
    fields = Path(f"/proc/{pid}/statm").read_text().split()
    return int(fields[1]) * mmap.PAGESIZE


def kernel_has_populate_write() -> bool:
    probe = mmap.mmap(-1, mmap.PAGESIZE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        probe.madvise(MADV_POPULATE_WRITE)
    except OSError:
        return False
    finally:
        probe.close()
    return True


@dataclass(frozen=True)
class Step:
    size: int
    resident_growth: int
    seconds: float


class MemoryFiller:
    """Owns the committed blocks; ``release()`` unmaps them all."""

    def __init__(self, incompressible: bool, method: str | None = None) -> None:
        self.noise = Noise() if incompressible else None
        if method is None:
            method = "populate-write" if kernel_has_populate_write() else "map-populate"
        self.method = "random-write" if incompressible else method
        self.blocks: list[mmap.mmap] = []

    @property
    def committed(self) -> int:
        return sum(len(block) for block in self.blocks)

    def commit(self, size: int) -> Step:
        before, started = resident_bytes(), time.monotonic()
        self.blocks.append(self._commit_block(size))
        return Step(size, resident_bytes() - before, time.monotonic() - started)

    def release(self) -> None:
        while self.blocks:
            self.blocks.pop().close()

    def _commit_block(self, size: int) -> mmap.mmap:
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
        if self.method == "map-populate":
            flags |= mmap.MAP_POPULATE
        try:
            block = mmap.mmap(-1, size, flags=flags)
        except OSError as error:
            if error.errno != errno.ENOMEM:
                raise
            raise _refused(self.committed, error) from error
        try:
            self._populate(block)
        except BaseException:
            block.close()
            raise
        return block

    def _populate(self, block: mmap.mmap) -> None:
        if self.noise is not None:
            for offset, chunk in self.noise.chunks(len(block)):
                block[offset : offset + len(chunk)] = chunk
        elif self.method == "populate-write":
            _populate_write(block, self.committed)
        elif self.method == "touch":
            block[:: mmap.PAGESIZE] = b"\x01" * len(range(0, len(block), mmap.PAGESIZE))


def _populate_write(block: mmap.mmap, committed_before: int) -> None:
    try:
        block.madvise(MADV_POPULATE_WRITE)
    except OSError as error:
        if error.errno not in (errno.ENOMEM, errno.EFAULT):
            raise
        raise _refused(committed_before, error) from error


def _refused(committed_before: int, error: OSError) -> DotdbgError:
    return DotdbgError(
        f"the kernel refused to commit more memory after {format_size(committed_before)} "
        f"({error.strerror})",
        hint="overcommit or a memory limit stopped it; ask for less, or take smaller --step",
    )


def fill(filler: MemoryFiller, steps: Sequence[int], report: Report = say) -> None:
    target, started = sum(steps), time.monotonic()
    for size in steps:
        step = filler.commit(size)
        if step.resident_growth < RESIDENT_SHORTFALL * size and filler.method == "map-populate":
            filler.method = "touch"  # MAP_POPULATE was ignored: fault the pages in by hand
            filler.blocks.pop().close()
            step = filler.commit(size)
        report(_progress_line(filler.committed, target, step, time.monotonic() - started))
        if step.resident_growth < RESIDENT_SHORTFALL * size:
            report(
                f"warning: RSS grew by only {format_size(step.resident_growth)} for a "
                f"{format_size(size)} step (swapped out? see /proc/{os.getpid()}/status VmSwap)"
            )


def _progress_line(committed: int, target: int, step: Step, elapsed: float) -> str:
    rate = committed / elapsed if elapsed > 0 else 0.0
    return (
        f"{format_size(committed):>9} of {format_size(target)} committed "
        f"(RSS +{format_size(step.resident_growth)} this step, {format_size(rate)}/s)"
    )


# --- the whole run ----------------------------------------------------------------------------


def run_mem_fill(options: MemFillOptions, report: Report = say) -> int:
    """Fill, hold (or run the command), release; the exit code of the command, or 0."""
    if options.command and options.hold_seconds is not None:
        raise DotdbgError("--hold and a command do not mix: the memory is held while CMD runs")
    if options.command:
        programs.require_program(options.command[0])
    check_target(options.target, current_budget(), options.force)
    reason = compressed_swap()
    incompressible = bool(reason) if options.incompressible is None else options.incompressible
    filler = MemoryFiller(incompressible)
    steps = plan_steps(options.target, options.step)
    report(_start_line(options.target, steps, filler.method, reason))
    try:
        fill(filler, steps, report)
        if options.command:
            return _run_victim(options, filler.committed, report)
        holding.hold_announced(options.hold_seconds, format_size(filler.committed), report)
        return 0
    finally:
        committed = filler.committed
        filler.release()
        report(f"released {format_size(committed)}")


def _start_line(target: int, steps: list[int], method: str, reason: str | None) -> str:
    why = f"; random bytes because {reason}" if reason else ""
    return (
        f"pid {os.getpid()} committing {format_size(target)} in {len(steps)} step(s) "
        f"of up to {format_size(steps[0]) if steps else '0B'} ({method}{why})"
    )


def _run_victim(options: MemFillOptions, committed: int, report: Report) -> int:
    score = options.oom_score_adj
    why = ", so the OOM killer takes it before mem-fill" if score > 0 else ""
    report(
        f"holding {format_size(committed)} while running {shlex.join(options.command)} "
        f"with oom_score_adj {score}{why}"
    )
    returncode = child.run_command(options.command, _victim_prepare(options.oom_score_adj))
    report(f"{options.command[0]} {child.describe_exit(returncode)}")
    return programs.exit_code_of(returncode)


def _victim_prepare(score: int) -> Callable[[], None]:
    def set_oom_score_adj() -> None:
        try:
            Path("/proc/self/oom_score_adj").write_text(f"{score}\n")
        except OSError as error:
            os.write(2, f"mem-fill: warning: oom_score_adj {score}: {error.strerror}\n".encode())

    return set_oom_score_adj
