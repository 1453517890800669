from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dotdbg.errors import DotdbgError
from dotdbg.home import blocks

BLOCK = blocks.make_block("source x\n")


@pytest.mark.parametrize(
    "original",
    ["", "a\n", "a", "a\r\nb\r\n", "a\n\n\n", "line one\nno newline at end", "\n"],
)
def test_remove_takes_back_exactly_what_upsert_added(original: str) -> None:
    installed, separator = blocks.upsert(original, BLOCK)
    assert blocks.block_text(installed) == BLOCK
    assert blocks.remove(installed, separator) == original


def test_upsert_replaces_in_place_and_never_duplicates() -> None:
    text = "before\n" + blocks.make_block("old\n") + "after\n"
    updated, separator = blocks.upsert(text, BLOCK)
    assert updated == "before\n" + BLOCK + "after\n"
    assert separator == ""
    assert blocks.upsert(updated, BLOCK)[0] == updated


def test_upsert_is_idempotent() -> None:
    once, _ = blocks.upsert("x\n", BLOCK)
    twice, _ = blocks.upsert(once, BLOCK)
    assert once == twice


@pytest.mark.parametrize(
    ("original", "left"),
    [("a\n", "a\n"), ("a", "a\n"), ("a\n\n", "a\n\n"), ("", "")],
)
def test_user_text_after_the_block_survives_removal(original: str, left: str) -> None:
    """A peer's init line added after dotdbg's block (`eval "$(starship init bash)"`): the file
    is what it would be had the user added that line without dotdbg, the blank line dotdbg put
    before its block taken back."""
    installed, separator = blocks.upsert(original, BLOCK)
    edited = installed + "export EDITOR=vim\n"
    assert blocks.remove(edited, separator) == left + "export EDITOR=vim\n"


@pytest.mark.parametrize(
    "text",
    [
        BLOCK + BLOCK,
        f"{blocks.START}\nno end\n",
        f"{blocks.END}\n{blocks.START}\n",
    ],
)
def test_damaged_blocks_are_an_error_not_a_guess(text: str) -> None:
    with pytest.raises(DotdbgError) as caught:
        blocks.find_block(text, "~/.bashrc")
    assert "~/.bashrc" in caught.value.location
    assert caught.value.hint


def test_markers_with_crlf_are_found() -> None:
    text = "a\r\n" + BLOCK.replace("\n", "\r\n")
    span = blocks.find_block(text)
    assert span is not None
    assert text[span.start :].startswith(blocks.START)


@given(st.text().filter(lambda t: "dotdbg" not in t))
def test_round_trip_for_any_text(original: str) -> None:
    installed, separator = blocks.upsert(original, BLOCK)
    assert blocks.remove(installed, separator) == original
