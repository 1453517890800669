"""What memlimit tells the user, as pure functions of what happened."""

from __future__ import annotations

from dotdbg.common.sizes import format_size


def kill_message(
    kills: int, limit: str, backend: str, peak: int | None, verb: str, enclosing: bool = False
) -> str:
    """``a process was OOM-killed at the 5G limit (cgroup-v1, peak 5.00G)``."""
    who = "a process was" if kills == 1 else f"{kills} processes were"
    peak_text = f", peak {format_size(peak)}" if peak is not None else ""
    whose = " of an enclosing cgroup" if enclosing else ""
    return f"{who} {verb} at the {limit} limit{whose} ({backend}{peak_text})"
