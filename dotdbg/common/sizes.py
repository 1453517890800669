"""Memory and disk sizes as people type them: ``5G``, ``5GB``, ``5GiB``, ``512M``, ``1.5G``.

Every unit is binary, as in systemd, ``free -h`` and ``ps``: ``G``, ``GB`` and ``GiB`` all mean
2**30 bytes. A bare number is bytes; at most 1024P. Anything else is an error, never a guess.
"""

from __future__ import annotations

from dotdbg.errors import DotdbgError

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}
# Far above any machine, and small enough that sums of two sizes still fit the kernel's longs.
MAX_SIZE = 2**60
_HINT = "write a number and a binary unit: 512M, 5G, 5GB, 5GiB or 1.5G (G = 2**30 bytes)"


def parse_size(text: str, what: str = "size") -> int:
    """Bytes in ``text``; raises DotdbgError with an example of the accepted forms."""
    found = _number_and_unit(text.strip())
    if found is None:
        raise DotdbgError(f"{what} {text!r} is not a size", hint=_HINT)
    (whole, decimals), unit = found
    scale = 10 ** len(decimals)  # exact in integers: fractions.Fraction costs a decimal import
    try:
        scaled = (int(whole or "0") * scale + int(decimals or "0")) * _UNITS[unit]
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        raise DotdbgError(f"{what} {text!r} is not a size", hint=_HINT) from None
    if scaled > MAX_SIZE * scale:
        raise DotdbgError(
            f"{what} {text!r} is more than {MAX_SIZE // _UNITS['P']}P", hint="check the unit"
        )
    if not unit and scaled % scale:
        raise DotdbgError(f"{what} {text!r} has a fraction of a byte", hint="add a unit: 1.5G")
    return _round_half_even(scaled, scale)


def _number_and_unit(text: str) -> tuple[tuple[str, str], str] | None:
    """``NUMBER[UNIT][B|iB]`` split into (whole digits, decimals) and the unit, upper case; None
    for anything else. By hand: ``re`` costs every helper's start 2-3 ms (issue 27)."""
    # ASCII only: str.isdigit() also accepts digits of other scripts ("5\u0661G"), and
    # upper() turns the Kelvin sign into K and a dotless i into I.
    if not text.isascii():
        return None
    body = text.upper()
    if body.endswith("IB"):
        body = body[:-2]
        if not body.endswith(tuple(_UNITS)[1:]):  # "5iB": a binary prefix of nothing
            return None
    elif body.endswith("B"):
        body = body[:-1]
    unit = body[-1] if body.endswith(tuple(_UNITS)[1:]) else ""
    whole, dot, decimals = body[: len(body) - len(unit)].partition(".")
    if not _digits(whole, empty=bool(dot)) or not _digits(decimals, empty=not dot):
        return None
    return (whole, decimals), unit


def _digits(text: str, empty: bool) -> bool:
    return text.isdigit() or (empty and not text)


def _round_half_even(numerator: int, denominator: int) -> int:
    """``round(numerator / denominator)`` without a float: ties go to the even number."""
    quotient, remainder = divmod(numerator, denominator)
    if 2 * remainder > denominator or (2 * remainder == denominator and quotient % 2):
        quotient += 1
    return quotient


def format_size(num_bytes: float, precision: int = 2, trim: bool = False) -> str:
    """``5368709120`` → ``5.00G`` (``5G`` with ``trim``, as a limit is named: ``1.5G``); the
    largest unit that keeps the number at or above 1."""
    sign = "-" if num_bytes < 0 else ""
    value = abs(float(num_bytes))
    for unit in ("P", "T", "G", "M", "K"):
        if value >= _UNITS[unit]:
            text = f"{value / _UNITS[unit]:.{precision}f}"
            return f"{sign}{text.rstrip('0').rstrip('.') if trim else text}{unit}"
    return f"{sign}{int(value)}B"


def short_size(num_bytes: int) -> str:
    """``5368709120`` → ``5G``; ``1610612736`` → ``1.5G``; at most two decimals, no padding."""
    return format_size(num_bytes, trim=True)
