"""Memory and disk sizes as people type them: ``5G``, ``5GB``, ``5GiB``, ``512M``, ``1.5G``.

Every unit is binary, as in systemd, ``free -h`` and ``ps``: ``G``, ``GB`` and ``GiB`` all mean
2**30 bytes. A bare number is bytes. Anything else is an error, never a guess.
"""

from __future__ import annotations

import re

from dotdbg.errors import DotdbgError

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}
_SIZE = re.compile(r"(?P<number>\d+(?:\.\d+)?|\.\d+)(?P<unit>[KMGTP]?)(?:I?B)?", re.IGNORECASE)


def parse_size(text: str, what: str = "size") -> int:
    """Bytes in ``text``; raises DotdbgError with an example of the accepted forms."""
    match = _SIZE.fullmatch(text.strip())
    if match is None or (text.strip().lower().endswith("ib") and not match["unit"]):
        raise DotdbgError(
            f"{what} {text!r} is not a size",
            hint="write a number and a binary unit: 512M, 5G, 5GB, 5GiB or 1.5G (G = 2**30 bytes)",
        )
    value = float(match["number"]) * _UNITS[match["unit"].upper()]
    if not match["unit"] and not value.is_integer():
        raise DotdbgError(f"{what} {text!r} has a fraction of a byte", hint="add a unit: 1.5G")
    return round(value)


def format_size(num_bytes: float, precision: int = 2) -> str:
    """``5368709120`` → ``5.00G``; the largest unit that keeps the number at or above 1."""
    sign = "-" if num_bytes < 0 else ""
    value = abs(float(num_bytes))
    for unit in ("P", "T", "G", "M", "K"):
        if value >= _UNITS[unit]:
            return f"{sign}{value / _UNITS[unit]:.{precision}f}{unit}"
    return f"{sign}{int(value)}B"
