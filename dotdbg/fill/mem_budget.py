"""How much RAM mem-fill may take: MemAvailable, or the room left in its memory cgroup.

The cgroup counts too: under a 5G limit (memlimit, systemd, a container) a 10G fill would only
get mem-fill itself killed. Both cgroup v1 and v2 are read, for the cgroup and every parent.
"""

from __future__ import annotations

from pathlib import Path

from dotdbg.common.sizes import format_size
from dotdbg.errors import DotdbgError

SAFETY_MARGIN = 256 * 2**20
NO_LIMIT = 2**62  # cgroup v1 writes "no limit" as a huge page-rounded number


def parse_meminfo(text: str) -> dict[str, int]:
    """``/proc/meminfo`` as bytes per field (the kernel writes kB, meaning KiB)."""
    fields: dict[str, int] = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    return fields


def cgroup_dirs(proc_cgroup: str, cgroup_root: Path) -> list[tuple[Path, str, str]]:
    """(directory, limit file, usage file) of this process's memory cgroup, v2 and v1."""
    found = []
    for line in proc_cgroup.splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers == "":
            found.append((cgroup_root / path.lstrip("/"), "memory.max", "memory.current"))
        elif "memory" in controllers.split(","):
            found.append(
                (
                    cgroup_root / "memory" / path.lstrip("/"),
                    "memory.limit_in_bytes",
                    "memory.usage_in_bytes",
                )
            )
    return found


def cgroup_headroom(proc_cgroup: str, cgroup_root: Path = Path("/sys/fs/cgroup")) -> int | None:
    """The smallest (limit - usage) over this process's memory cgroups and their ancestors."""
    headrooms = []
    for directory, limit_file, usage_file in cgroup_dirs(proc_cgroup, cgroup_root):
        for level in (directory, *directory.parents):
            if not level.is_relative_to(cgroup_root):
                break
            headroom = _level_headroom(level / limit_file, level / usage_file)
            if headroom is not None:
                headrooms.append(headroom)
    return min(headrooms, default=None)


def _level_headroom(limit_file: Path, usage_file: Path) -> int | None:
    try:
        limit_text = limit_file.read_text().strip()
        usage = int(usage_file.read_text())
    except (OSError, ValueError):
        return None
    if limit_text == "max" or int(limit_text) >= NO_LIMIT:
        return None
    return max(0, int(limit_text) - usage)


def fill_budget(mem_available: int, headroom: int | None) -> int:
    """What mem-fill may take without --force: the tighter of RAM and cgroup, minus a margin."""
    room = mem_available if headroom is None else min(mem_available, headroom)
    return max(0, room - SAFETY_MARGIN)


def check_target(target: int, budget: int, force: bool) -> None:
    if target <= 0:
        raise DotdbgError("mem-fill 0 would commit nothing", hint="give a size: mem-fill 2G")
    if target > budget and not force:
        raise DotdbgError(
            f"{format_size(target)} is more than the {format_size(budget)} that can be taken "
            f"safely (MemAvailable or the cgroup's headroom, minus {format_size(SAFETY_MARGIN)})",
            hint="ask for less, or add --force to go on into the OOM killer's reach",
        )


def current_budget() -> int:
    meminfo = parse_meminfo(Path("/proc/meminfo").read_text())
    headroom = cgroup_headroom(Path("/proc/self/cgroup").read_text())
    return fill_budget(meminfo["MemAvailable"], headroom)
