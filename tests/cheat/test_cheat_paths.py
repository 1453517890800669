"""dotdbg.cheat.fast's locations mirror dotdbg.paths without importing it; these keep the two
in step. And the [[cheat.paths]] check (dotdbg.cheat.cheatpaths)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dotdbg import paths
from dotdbg.cheat import cheatpaths, fast


@pytest.mark.parametrize(
    "env",
    [
        {"HOME": "/home/u"},
        {"HOME": "/home/u", "XDG_CONFIG_HOME": "/xdg/config", "XDG_CACHE_HOME": "/xdg/cache"},
        {"HOME": "/home/u", "XDG_CONFIG_HOME": "relative/ignored", "XDG_CACHE_HOME": ""},
    ],
)
def test_locations_agree_with_paths(env: dict[str, str]) -> None:
    expected = paths.Paths.from_env(env=env)
    assert fast.user_cheat_dir(env) == str(expected.user_cheat_dir)
    assert fast.config_file(env) == str(expected.config_file)
    assert fast.cache_dir(env) == str(expected.cache_dir)


def test_builtin_dir_agrees_with_resource_dir() -> None:
    assert fast.builtin_dir() == str(paths.resource_dir("cheatsheets"))


def test_project_dir_is_the_nearest_dot_cheat(tmp_path: Path) -> None:
    (tmp_path / ".cheat").mkdir()
    (tmp_path / "a" / ".cheat").mkdir(parents=True)
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    assert fast.find_project_dir(str(deep)) == str(tmp_path / "a" / ".cheat")
    assert fast.find_project_dir(str(tmp_path)) == str(tmp_path / ".cheat")


def test_reserved_labels_are_the_ones_dotdbg_gives() -> None:
    """The config check (loaded by every command that reads the config) spells them out."""
    assert cheatpaths.RESERVED_LABELS == (fast.PERSONAL, fast.PROJECT, fast.BUILTIN)


def test_merge_order() -> None:
    configured = [fast.Cheatpath("community", "/c", readonly=True)]
    labels = [path.label for path in fast.all_cheatpaths({"HOME": "/h"}, "/", configured)]
    assert labels[:2] == ["personal", "community"]
    assert labels[2:] in ([], ["builtin"])


@pytest.mark.parametrize(
    ("config", "problem"),
    [
        ({"cheat": []}, r"\[cheat\] must be a table"),
        ({"cheat": {"paths": {}}}, "array of tables"),
        ({"cheat": {"paths": [{"path": "/x"}]}}, "number 1 has no name"),
        ({"cheat": {"paths": [{"name": "n"}]}}, "number 1 has no path"),
        ({"cheat": {"paths": [{"name": "n", "path": "/x", "readonly": "yes"}]}}, "true or false"),
    ],
)
def test_configured_paths_reject_bad_values(config: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        cheatpaths.configured_paths(config, "/cfg")


def test_configured_paths_default_writable_and_resolve(monkeypatch: pytest.MonkeyPatch) -> None:
    """readonly defaults to false, as dotdbg.config validates it."""
    monkeypatch.setenv("HOME", "/home/u")
    config = {
        "cheat": {
            "paths": [{"name": "a", "path": "~/s"}, {"name": "b", "path": "rel", "readonly": True}]
        }
    }
    found = cheatpaths.configured_paths(config, "/cfg")
    assert found == [("a", "/home/u/s", False), ("b", "/cfg/rel", True)]


def test_configured_paths_read_like_dotdbg_config_validates_them(tmp_path: Path) -> None:
    from dotdbg.config import load_config

    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")

    toml = (
        '[[cheat.paths]]\nname = "a"\npath = "~/s"\n'
        '[[cheat.paths]]\nname = "b"\npath = "/abs"\nreadonly = true\n'
    )
    validated = load_config(paths.Paths.from_env(tmp_path), user_text=toml).cheat.paths
    ours = cheatpaths.configured_paths(tomllib.loads(toml), str(tmp_path))
    assert [(p.name, p.readonly) for p in validated] == [(label, ro) for label, _, ro in ours]
