from __future__ import annotations

import pytest

from dotdbg.config.position import locate

TEXT = """\
# a comment
[aliases]
gs = "git status"
pyx = { command = "pytest -x", desc = 3 }

[aliases.foo]
command = 1
[[cheat.paths]]
name = 2
"quoted.key" = 1
[[cheat.paths]]
name = 3
"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (("aliases", "gs"), (3, 1)),
        (("aliases", "pyx"), (4, 1)),
        (("aliases", "pyx", "command"), (4, 9)),
        (("aliases", "pyx", "desc"), (4, 32)),
        (("aliases", "foo"), (6, 1)),
        (("aliases", "foo", "command"), (7, 1)),
        (("cheat", "paths", "0", "name"), (9, 1)),
        (("cheat", "paths", "0", "quoted.key"), (10, 1)),
        (("cheat", "paths", "1", "name"), (12, 1)),
        (("cheat", "paths", "1"), (11, 1)),
        (("aliases", "missing"), (2, 1)),
        (("nowhere",), (1, 1)),
    ],
)
def test_locate_finds_the_key_or_its_nearest_parent(
    path: tuple[str, ...], expected: tuple[int, int]
) -> None:
    assert locate(TEXT, path) == expected


def test_locate_dotted_keys_on_one_line() -> None:
    assert locate("x = 1\npacks.gpu = 3\n", ("packs", "gpu")) == (2, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[readline]\nbindings = { "\\\\C-x\\\\C-y" = "f" }\n', (2, 14)),
        ("[readline]\nbindings = { '\\C-x\\C-y' = 'f' }\n", (2, 14)),
        ('[readline.bindings]\n"\\\\ep" = 1\n"\\\\C-x\\\\C-y" = "f"\n', (3, 1)),
        ("[readline]\nbindings.'\\C-x\\C-y' = \"f\"\n", (2, 1)),
    ],
)
def test_locate_keys_written_with_backslashes(text: str, expected: tuple[int, int]) -> None:
    assert locate(text, ("readline", "bindings", "\\C-x\\C-y")) == expected
