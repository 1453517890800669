"""The default pdb aliases run in the debugged program's frame: none may change its names."""

from __future__ import annotations

import ast
import pdb
import re

import pytest

from dotdbg.config import load_config
from dotdbg.paths import Paths


def default_pdb_aliases() -> dict[str, str]:
    config = load_config(Paths.from_env())
    return {alias.name: alias.command for alias in config.pdb_aliases}


def python_parts(command: str) -> list[str]:
    """The parts of an alias (split on pdb's ``;;``) that pdb runs as Python, not as a command."""
    parts = [part.strip() for part in command.split(";;")]
    return [part for part in parts if not hasattr(pdb.Pdb, f"do_{part.split(' ', 1)[0]}")]


@pytest.mark.parametrize("name", sorted(default_pdb_aliases()))
def test_a_default_pdb_alias_assigns_no_name_in_the_frame(name: str) -> None:
    for part in python_parts(default_pdb_aliases()[name]):
        # A statement (`for k in …`, `x = …`) would bind names in the frame; an expression binds
        # none, unless it holds a walrus.
        tree = ast.parse(re.sub(r"%\d|%\*", "arg", part), mode="eval")
        assert not any(isinstance(node, ast.NamedExpr) for node in ast.walk(tree)), part
