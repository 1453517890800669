from __future__ import annotations

import pytest

from dotdbg.common.sizes import format_size, parse_size
from dotdbg.errors import DotdbgError

GiB = 2**30


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5G", 5 * GiB),
        ("5GB", 5 * GiB),
        ("5GiB", 5 * GiB),
        ("5g", 5 * GiB),
        ("512M", 512 * 2**20),
        ("1.5G", 3 * GiB // 2),
        ("0", 0),
        ("4096", 4096),
        ("1T", 2**40),
        (" 2K ", 2048),
        (".5G", GiB // 2),
        ("9007199254740993", 2**53 + 1),  # exact: no detour through a float
        ("1024P", 2**60),
    ],
)
def test_parse_size_accepts(text: str, expected: int) -> None:
    assert parse_size(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        *("", "G", "5X", "-1G", "5 G", "1.5", "5GG", "five", "5iB", "1e9", "inf", "nan"),
        "5\u0661G",  # an Arabic-Indic digit: \d and int() would take it for a 1
        "5\u212aB",  # the Kelvin sign, which upper() and re.IGNORECASE take for a K
        "5\u0131B",  # a dotless i, which upper() takes for an I
        *("5.", ".", "5KiBB", "KB"),
        "1025P",
        "9" * 400 + "G",  # float() would make it inf
        "9" * 5000,  # more digits than int() converts
    ],
)
def test_parse_size_rejects_with_hint(text: str) -> None:
    with pytest.raises(DotdbgError) as caught:
        parse_size(text, what="limit")
    assert "limit" in caught.value.message
    assert caught.value.hint


@pytest.mark.parametrize(
    ("num", "expected"),
    [(5 * GiB, "5.00G"), (1536 * 2**20, "1.50G"), (100, "100B"), (2048, "2.00K"), (-GiB, "-1.00G")],
)
def test_format_size(num: int, expected: str) -> None:
    assert format_size(num) == expected
