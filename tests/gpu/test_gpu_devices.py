"""Which GPUs the target sees: CUDA_VISIBLE_DEVICES read by CUDA's rules, and --device values."""

from __future__ import annotations

import pytest

from dotdbg.errors import DotdbgError
from dotdbg.gpu.devices import parse_visible_devices, select_devices, uuid_body


@pytest.mark.parametrize(
    ("value", "entries", "ignored"),
    [
        ("0,1", (0, 1), ""),
        ("1,0", (1, 0), ""),  # order matters: CUDA device 0 is physical 1
        (" 2 , 3", (2, 3), ""),
        ("+1", (1,), ""),
        ("0,2,-1,1", (0, 2), "-1,1"),  # a negative entry ends the list
        ("1gpu2,2ampere", (1, 2), ""),  # read like strtoul: leading digits only
        ("0,,1", (0,), ",1"),
        ("abc,0", (), "abc,0"),
        ("", (), ""),
        ("GPU-8f2c,GPU-1234", ("GPU-8f2c", "GPU-1234"), ""),
        ("MIG-5a1b", ("MIG-5a1b",), ""),
        ("GPU-8f2c,1", ("GPU-8f2c",), "1"),  # no mixing: an ordinal after UUIDs ends the list
        ("0,GPU-8f2c", (0,), "GPU-8f2c"),
        ("0,\u0661", (0,), "\u0661"),  # strtoul reads ASCII digits only
    ],
)
def test_cuda_visible_devices_is_read_like_cuda(
    value: str, entries: tuple[object, ...], ignored: str
) -> None:
    visible = parse_visible_devices(value)
    assert (visible.entries, visible.ignored, visible.repeated) == (entries, ignored, False)


@pytest.mark.parametrize("value", ["0,0", "1,0,1", "GPU-8f2c,GPU-8f2c"])
def test_a_repeated_entry_hides_every_device(value: str) -> None:
    visible = parse_visible_devices(value)
    assert visible.repeated and visible.hides_all
    assert visible.explain().endswith("(an entry is repeated, which hides every device)")


def test_unset_means_every_device() -> None:
    visible = parse_visible_devices(None)
    assert visible.entries == () and not visible.hides_all
    assert visible.explain() == "CUDA_VISIBLE_DEVICES is unset: CUDA sees every GPU"


def test_explanations_name_what_is_used_and_what_is_ignored() -> None:
    assert parse_visible_devices("0,2,-1,1").explain() == (
        "CUDA_VISIBLE_DEVICES='0,2,-1,1': CUDA uses 0,2, ignoring '-1,1' and after"
    )
    assert parse_visible_devices("").explain() == "CUDA_VISIBLE_DEVICES='': CUDA uses no device"


UUIDS = [
    "8f2c1a5e-0b6d-4c1e-9f3a-1234567890ab",
    "8f2c77aa-0000-4c1e-9f3a-abcdefabcdef",
    "11111111-2222-3333-4444-555555555555",
]


@pytest.mark.parametrize(
    ("requested", "ordinals"),
    [
        ((), [0, 1, 2]),
        (("2",), [2]),
        (("2", "0"), [2, 0]),
        (("GPU-8f2c1",), [0]),
        (("MIG-8f2c77",), [1]),  # CUDA's UUID bytes do not say GPU or MIG: compare the body
        (("GPU-1111",), [2]),
        (("8f2c77",), [1]),  # a bare UUID prefix; bare digits would be an ordinal
        (("GPU-8F2C1A5E",), [0]),  # case does not matter
        (("0", "GPU-8f2c1a"), [0]),  # the same device twice is filled once
    ],
)
def test_device_option_resolves_to_cuda_ordinals(
    requested: tuple[str, ...], ordinals: list[int]
) -> None:
    assert select_devices(requested, UUIDS) == ordinals


@pytest.mark.parametrize(
    ("requested", "message"),
    [
        ("3", "--device 3: CUDA sees 3 device(s), numbered from 0"),
        ("GPU-8f2c", "--device 'GPU-8f2c' matches several devices"),
        ("GPU-ffff", "--device 'GPU-ffff' matches no visible device"),
        ("GPU-", "--device 'GPU-' matches no visible device"),
        ("-1", "--device '-1' matches no visible device"),
        ("\u0661", "--device '\u0661' matches no visible device"),  # not the ordinal 1
    ],
)
def test_bad_device_values_are_user_errors(requested: str, message: str) -> None:
    with pytest.raises(DotdbgError) as caught:
        select_devices([requested], UUIDS)
    assert caught.value.message == message


def test_uuid_body_drops_the_prefix() -> None:
    assert uuid_body("GPU-abc") == uuid_body("MIG-abc") == uuid_body("abc") == "abc"
