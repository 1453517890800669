"""Which GPUs a CUDA program sees: ``CUDA_VISIBLE_DEVICES`` read by CUDA's rules, ``--device``.

CUDA reads the variable as a comma-separated list of either ordinals or UUIDs (``GPU-…`` or
``MIG-…``, any unique prefix). It reads each ordinal like ``strtoul`` (``1gpu2`` is 1), stops at
the first entry it cannot use (``-1``, empty, text, a UUID among ordinals or the other way
round) and ignores the rest, and a repeated entry hides every device. The driver applies all of
this itself; gpu-fill parses it only to explain what the driver did.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dotdbg.errors import DotdbgError

UUID_PREFIXES = ("GPU-", "MIG-")
_LEADING_DIGITS = re.compile(r"\+?([0-9]+)")  # ASCII only, as strtoul reads them

Entry = int | str


@dataclass(frozen=True)
class VisibleDevices:
    value: str | None  # the variable as set, None when unset
    entries: tuple[Entry, ...]  # what CUDA uses, in order
    ignored: str = ""  # the tail CUDA ignores, from the first entry it could not use
    repeated: bool = False  # a repeated entry: CUDA shows no device at all

    @property
    def hides_all(self) -> bool:
        return self.value is not None and not self.entries

    def explain(self) -> str:
        if self.value is None:
            return "CUDA_VISIBLE_DEVICES is unset: CUDA sees every GPU"
        used = ",".join(str(entry) for entry in self.entries) or "no device"
        text = f"CUDA_VISIBLE_DEVICES={self.value!r}: CUDA uses {used}"
        if self.repeated:
            return f"{text} (an entry is repeated, which hides every device)"
        return f"{text}, ignoring {self.ignored!r} and after" if self.ignored else text


def _parse_entry(text: str, kind: type) -> Entry | None:
    """One entry of the given kind (int ordinal or str UUID), or None where CUDA stops."""
    if kind is str:
        return text if text.startswith(UUID_PREFIXES) else None
    match = _LEADING_DIGITS.match(text)
    return int(match[1]) if match else None


def parse_visible_devices(value: str | None) -> VisibleDevices:
    if value is None:
        return VisibleDevices(None, ())
    items = value.split(",")
    kind: type = str if items[0].strip().startswith(UUID_PREFIXES) else int
    entries: list[Entry] = []
    for position, item in enumerate(items):
        entry = _parse_entry(item.strip(), kind)
        if entry is None:
            return VisibleDevices(value, tuple(entries), ",".join(items[position:]))
        if entry in entries:
            return VisibleDevices(value, (), repeated=True)
        entries.append(entry)
    return VisibleDevices(value, tuple(entries))


def uuid_body(uuid: str) -> str:
    """``GPU-8f2c…`` → ``8f2c…``: CUDA's UUID bytes do not say whether they name a MIG slice."""
    for prefix in UUID_PREFIXES:
        if uuid.startswith(prefix):
            return uuid[len(prefix) :]
    return uuid


def select_devices(requested: Sequence[str], uuids: Sequence[str]) -> list[int]:
    """CUDA ordinals for ``--device`` values (ordinals or UUID prefixes); every device if none."""
    if not requested:
        return list(range(len(uuids)))
    chosen: list[int] = []
    for text in requested:
        ordinal = _resolve_device(text.strip(), uuids)
        if ordinal not in chosen:
            chosen.append(ordinal)
    return chosen


def _resolve_device(text: str, uuids: Sequence[str]) -> int:
    if text.isascii() and text.isdigit():
        if int(text) < len(uuids):
            return int(text)
        raise DotdbgError(
            f"--device {text}: CUDA sees {len(uuids)} device(s), numbered from 0",
            hint="ordinals count the devices CUDA_VISIBLE_DEVICES leaves visible",
        )
    body = uuid_body(text).lower()
    matches = [ordinal for ordinal, uuid in enumerate(uuids) if body and uuid.startswith(body)]
    if len(matches) == 1:
        return matches[0]
    problem = "matches several devices" if matches else "matches no visible device"
    raise DotdbgError(
        f"--device {text!r} {problem}",
        hint="give an ordinal or a longer GPU-/MIG- UUID; nvidia-smi -L lists them",
    )
