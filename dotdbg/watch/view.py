"""Turning a snapshot into text: plain aligned columns (pipes, ``--once``), a styled rich Text
(the live view) and a JSON document (``--json``).

Columns nobody has a value for are hidden; a value that cannot be read shows ``n/a``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dotdbg.gpu.nvml import GpuSnapshot
from dotdbg.procs import ranks
from dotdbg.visible import one_line
from dotdbg.watch.rows import Row, Totals, unattributed_bytes

if TYPE_CHECKING:
    from rich.text import Text

GB = 2**30
NOT_AVAILABLE = "n/a"


@dataclass(frozen=True)
class Snapshot:
    rows: tuple[Row, ...]  # in display order
    totals: Totals
    gpu: GpuSnapshot
    show_user: bool = False
    show_pss: bool = False
    gpu_unattributable: str = ""  # why GPU memory cannot be put against processes, if it cannot

    @property
    def gpu_per_process(self) -> bool:
        return self.gpu.available and not self.gpu_unattributable

    def attributed_pids(self) -> set[int]:
        """The listed pids NVML's per-process memory may be matched with."""
        return {row.process.pid for row in self.rows} if self.gpu_per_process else set()


ALWAYS = 99  # a column a narrow terminal never hides: PID, and the command (cut instead)


@dataclass(frozen=True)
class Column:
    header: str
    cell: Callable[[Row], str]
    total: Callable[[Totals], str] = lambda _: ""
    right: bool = True  # numbers, right-aligned and never cut; text is left-aligned and may be
    keep: int = 5  # a narrow terminal hides the lowest first (the rightmost of equals)


def gigabytes(num_bytes: int | None) -> str:
    """Three decimals of binary GB, as the methodology's ``ps | perl`` one-liner prints them."""
    return NOT_AVAILABLE if num_bytes is None else f"{num_bytes / GB:.3f}"


def elapsed(seconds: float) -> str:
    """``ps``-style ``[[dd-]hh:]mm:ss``."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    text = f"{minutes:02d}:{secs:02d}"
    if hours or days:
        text = f"{hours:02d}:{text}"
    return f"{days}-{text}" if days else text


def _env(row: Row) -> str:
    facts = row.process.environ
    return NOT_AVAILABLE if facts is None else facts.env or "-"


def _rank(row: Row) -> str:
    return NOT_AVAILABLE if row.process.environ is None else ranks.text(row.ranks)


def columns(snapshot: Snapshot) -> list[Column]:
    """The columns this snapshot needs, in order; the command is last and never padded."""
    rows = snapshot.rows
    chosen = [
        Column("PID", lambda r: str(r.process.pid), lambda t: processes(t.processes), keep=ALWAYS),
        Column("PPID", lambda r: str(r.process.stat.ppid), keep=1),
        Column(
            "RSS_GB",
            lambda r: gigabytes(r.process.stat.rss_bytes),
            lambda t: gigabytes(t.rss_bytes),
            keep=9,
        ),
        Column("%CPU", lambda r: f"{r.cpu_percent:.1f}", lambda t: f"{t.cpu_percent:.1f}", keep=8),
        Column("THR", lambda r: str(r.process.stat.threads), lambda t: str(t.threads), keep=2),
        Column("ELAPSED", lambda r: elapsed(r.elapsed_seconds), keep=2),
    ]
    if snapshot.gpu_per_process:
        gpu = Column(
            "GPU_GB", lambda r: gigabytes(r.gpu_bytes), lambda t: gigabytes(t.gpu_bytes), keep=9
        )
        chosen.append(gpu)
    if snapshot.show_pss:
        chosen.append(Column("PSS_GB", lambda r: gigabytes(r.pss_bytes), keep=3))
        chosen.append(Column("USS_GB", lambda r: gigabytes(r.uss_bytes), keep=3))
    if snapshot.show_user:
        chosen.append(Column("USER", lambda r: r.user, right=False, keep=3))
    if any(_env(row) != "-" for row in rows):
        chosen.append(Column("ENV", _env, right=False, keep=4))
    if any(_rank(row) != "-" for row in rows):
        chosen.append(Column("RANK", _rank, right=False, keep=7))
    if any(row.launcher for row in rows):
        chosen.append(Column("LAUNCHER", lambda r: r.launcher or "", right=False, keep=3))
    command = Column(
        "COMMAND", lambda r: r.tree_prefix + r.command, lambda _: "total", False, keep=ALWAYS
    )
    return [*chosen, command]


def processes(count: int) -> str:
    return f"{count} proc" if count == 1 else f"{count} procs"


@dataclass(frozen=True)
class Line:
    text: str
    kind: str  # "title", "header", "row", "launcher", "total", "note"


MIN_COMMAND = 24  # before the command is cut below this (or a third of the width), others give way
MIN_TEXT = 6  # a text column (ENV, USER, LAUNCHER…) is cut no shorter than this or its header


@dataclass(frozen=True)
class Layout:
    """Which columns are shown, how wide, how far apart; the last is cut to ``last_width``."""

    shown: tuple[int, ...]  # indexes into the column list, the command last
    widths: tuple[int, ...]  # of each shown column but the last
    gap: int = 2
    last_width: int | None = None  # None: not cut

    def render(self, cells: Sequence[str], specs: Sequence[Column]) -> str:
        parts = []
        for index, width in zip(self.shown[:-1], self.widths, strict=True):
            cell = cut(cells[index], width)
            parts.append(cell.rjust(width) if specs[index].right else cell.ljust(width))
        last = cells[self.shown[-1]]
        parts.append(last if self.last_width is None else cut(last, self.last_width))
        return (" " * self.gap).join(parts)


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, an ellipsis marking the cut."""
    if len(text) <= width:
        return text
    return text[: width - 1] + "…" if width > 0 else ""


def fit(specs: Sequence[Column], grid: Sequence[Sequence[str]], width: int | None) -> Layout:
    """Natural widths; in a terminal narrower than that, first the gaps close to one space, then
    text columns are cut, then columns are hidden (lowest ``keep`` first), until the command has
    ``MIN_COMMAND`` characters or a third of the width (or all it needs); the command gets
    whatever room is left."""
    widths = [max(len(cells[i]) for cells in grid) for i in range(len(specs))]
    shown, gap = list(range(len(specs))), 2
    if width is None:
        return Layout(tuple(shown), tuple(widths[:-1]), gap)
    floors = [min(w, max(MIN_TEXT, len(s.header))) for w, s in zip(widths, specs, strict=True)]
    wanted = min(widths[-1], MIN_COMMAND, width // 3)

    def room() -> int:
        return width - sum(widths[i] + gap for i in shown[:-1])

    while room() < wanted:
        cuttable = [i for i in shown[:-1] if not specs[i].right and widths[i] > floors[i]]
        hideable = [i for i in shown[:-1] if specs[i].keep < ALWAYS]
        if gap > 1:
            gap = 1
        elif cuttable:
            widths[max(cuttable, key=lambda i: widths[i])] -= 1
        elif hideable:
            shown.remove(min(hideable, key=lambda i: (specs[i].keep, -i)))
        else:
            break
    return Layout(tuple(shown), tuple(widths[i] for i in shown[:-1]), gap, max(room(), 0))


def table_lines(
    snapshot: Snapshot, max_rows: int | None = None, width: int | None = None
) -> list[Line]:
    """Header, the first ``max_rows`` rows, a line counting the rest, totals, one line per GPU;
    fitted to ``width`` if given."""
    specs = columns(snapshot)
    shown = snapshot.rows if max_rows is None else snapshot.rows[: max(0, max_rows)]
    header = [spec.header for spec in specs]
    body = [[one_line(spec.cell(row)) for spec in specs] for row in shown]  # titles are data
    total = [spec.total(snapshot.totals) for spec in specs]
    layout = fit(specs, [header, *body, total], width)
    lines = [Line(layout.render(header, specs), "header")]
    for row, cells in zip(shown, body, strict=True):
        kind = "launcher" if row.launcher else "row"
        lines.append(Line(layout.render(cells, specs), kind))
    hidden = len(snapshot.rows) - len(shown)
    if hidden:
        lines.append(Line(f"… {hidden} more (sorted out of view; enlarge the terminal)", "note"))
    lines.append(Line(layout.render(total, specs), "total"))
    lines.extend(Line(text, "note") for text in gpu_lines(snapshot))
    if width is not None:
        lines = [Line(line.text[:width], line.kind) for line in lines]
    return lines


def gpu_lines(snapshot: Snapshot) -> list[str]:
    """One line per device: memory used and how much of it no listed process accounts for."""
    if not snapshot.gpu.devices:
        return []
    listed = snapshot.attributed_pids()
    return [
        f"GPU{device.index} {device.name}: {gigabytes(device.used_bytes)}/"
        f"{gigabytes(device.total_bytes)} GB used, "
        f"{gigabytes(unattributed_bytes(device, listed))} GB not attributed to a listed process"
        + (f" ({snapshot.gpu_unattributable})" if snapshot.gpu_unattributable else "")
        for device in snapshot.gpu.devices
    ]


def plain_text(snapshot: Snapshot) -> str:
    return "".join(line.text.rstrip() + "\n" for line in table_lines(snapshot))


_STYLES = {
    "header": "bold reverse",
    "total": "bold",
    "launcher": "cyan",
    "note": "dim",
    "row": "",
    "title": "bold",
}


def rich_text(title: str, snapshot: Snapshot, height: int, width: int) -> Text:
    """The live view: a title line, then as many rows as the terminal has room for."""
    room = row_budget(height, len(snapshot.gpu.devices), len(snapshot.rows))
    lines = table_lines(snapshot, max_rows=room, width=width)
    return styled([Line(title[:width], "title"), *lines])


def styled(lines: Sequence[Line]) -> Text:
    from rich.text import Text

    text = Text(no_wrap=True, overflow="crop")
    for line in lines:
        text.append(line.text + "\n", style=_STYLES[line.kind])
    text.rstrip()
    return text


def row_budget(height: int, gpu_devices: int, rows: int) -> int:
    """How many process rows fit a terminal ``height`` lines tall under the title and header."""
    room = height - 3 - gpu_devices  # title, header, totals, one line per GPU
    if room < rows:
        room -= 1  # the "… N more" line
    return max(0, room)


def snapshot_json(snapshot: Snapshot) -> dict[str, Any]:
    listed = snapshot.attributed_pids()
    per_process = snapshot.gpu_unattributable or snapshot.gpu.reason or "ok"
    return {
        "processes": [_row_json(row, snapshot.show_pss) for row in snapshot.rows],
        "gpus": [
            {
                "index": device.index,
                "uuid": device.uuid,
                "name": device.name,
                "total_bytes": device.total_bytes,
                "used_bytes": device.used_bytes,
                "free_bytes": device.free_bytes,
                "unattributed_bytes": unattributed_bytes(device, listed),
            }
            for device in snapshot.gpu.devices
        ],
        "gpu_status": "ok" if snapshot.gpu.available else snapshot.gpu.reason,
        "gpu_per_process": per_process,
    }


def _row_json(row: Row, with_pss: bool) -> dict[str, Any]:
    process, facts = row.process, row.process.environ
    out: dict[str, Any] = {
        "pid": process.pid,
        "ppid": process.stat.ppid,
        "user": row.user,
        "name": process.stat.name,
        "state": process.stat.state,
        "rss_bytes": process.stat.rss_bytes,
        "cpu_percent": round(row.cpu_percent, 1),
        "threads": process.stat.threads,
        "elapsed_seconds": round(row.elapsed_seconds, 2),
        "command": row.command,
        "argv": list(process.argv),
        "launcher": row.launcher,
        "env": facts.env if facts else None,
        "rank": row.ranks.rank,
        "local_rank": row.ranks.local_rank,
        "world_size": row.ranks.world_size,
        "environ_readable": facts is not None,
        "gpu_memory_bytes": row.gpu_bytes,
    }
    if with_pss:
        out["pss_bytes"], out["uss_bytes"] = row.pss_bytes, row.uss_bytes
    return out
