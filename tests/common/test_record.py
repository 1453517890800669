"""common.record: what the home commands' frozen dataclasses gave, kept by plain classes."""

from __future__ import annotations

import pickle
from functools import cached_property
from typing import Any

import pytest

from dotdbg.common.record import Record, field, replace
from dotdbg.config.model import Alias, Config


class Spot(Record):
    name: str
    line: int = 1
    notes: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @cached_property
    def shout(self) -> str:
        return self.name.upper()


def test_fields_by_position_or_name_with_defaults() -> None:
    assert Spot("a") == Spot(name="a", line=1) == Spot("a", 1, ())
    assert Spot("a", line=2).line == 2
    assert repr(Spot("a", 2, ("n",))) == "Spot(name='a', line=2)"


@pytest.mark.parametrize(
    ("args", "kwargs", "said"),
    [
        ((), {}, "missing name"),
        (("a",), {"name": "b"}, "second 'name'"),
        (("a",), {"colour": "red"}, "wrong or second 'colour'"),
        (("a", 1, (), 4), {}, "takes 3 arguments"),
    ],
)
def test_wrong_arguments_are_type_errors(
    args: tuple[object, ...], kwargs: dict[str, object], said: str
) -> None:
    make: Any = Spot  # the wrong calls mypy would refuse
    with pytest.raises(TypeError, match=said):
        make(*args, **kwargs)


def test_frozen_and_hashed_over_the_compared_fields() -> None:
    spot = Spot("a", 2, ("n",))
    with pytest.raises(AttributeError, match="frozen Spot"):
        spot.name = "b"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del spot.line
    assert spot == Spot("a", 2) and hash(spot) == hash(Spot("a", 2))
    assert spot != Spot("a", 3) and spot != ("a", 2)
    assert len({spot, Spot("a", 2, ("other",))}) == 1


def test_replace_copies_and_cached_properties_still_work() -> None:
    spot = Spot("a", 2)
    assert spot.shout == "A"  # cached in the instance, not a field
    moved = replace(spot, line=3)
    assert (moved, spot) == (Spot("a", 3), Spot("a", 2))
    assert pickle.loads(pickle.dumps(moved)) == moved


def test_a_field_without_a_default_cannot_follow_one() -> None:
    with pytest.raises(TypeError, match="without a default"):

        class Wrong(Record):
            first: int = 0
            second: int  # type: ignore[misc]


def test_config_keeps_its_uncompared_fields_out_of_equality() -> None:
    alias = Alias("gst", "git status", "", "git")
    config = Config((), (alias,), (), (), None, None, None, ())  # type: ignore[arg-type]
    assert config == replace(config, warnings=("said",), cut=("x",))
    assert config != replace(config, aliases=())
