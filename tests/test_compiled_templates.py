"""home.compiled: where jinja2 renders (a template edited since home/templatecode.py was
compiled from it), a template is compiled once, kept beside dotdbg's .pyc files, and never used
for a template whose text changed (issue 27: compiling took as long as importing jinja2)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from dotdbg.config import load_config
from dotdbg.home import compiled, render, templatecode
from dotdbg.home.install import render_for
from dotdbg.paths import Paths, resource_dir

Render = Callable[[], dict[str, str]]


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates jinja2 compiles from here on."""
    names: list[str] = []
    original = jinja2.Environment.compile

    def counted(
        env: jinja2.Environment, source: str, name: str | None = None, *a: object
    ) -> object:
        names.append(str(name))
        return original(env, source, name, *a)  # type: ignore[call-overload]

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


@pytest.fixture
def renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Render:
    """A render of the defaults, its compiled templates in ``tmp_path/compiled``, its templates
    a copy in ``tmp_path/templates`` (a test may change them). Through jinja2, as for templates
    edited since ``templatecode`` was compiled from them."""
    monkeypatch.setattr(templatecode, "SOURCES", {})
    shutil.copytree(resource_dir("templates"), tmp_path / "templates")
    monkeypatch.setattr(compiled, "FOLDER", tmp_path / "compiled")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(render, "resource_dir", lambda name: tmp_path / name)
    paths = Paths.from_env(tmp_path / "home")
    config = load_config(paths)
    return lambda: render_for(paths, config, ("bash", "zsh", "fish")).files


def test_a_template_is_compiled_once(renders: Render, compiles: list[str], tmp_path: Path) -> None:
    first = renders()
    assert "dotdbg.bash.j2" in compiles
    assert len(list((tmp_path / "compiled").glob("*.jinja"))) == len(set(compiles))
    compiles.clear()
    assert renders() == first
    assert compiles == []


def test_a_changed_template_is_compiled_again(
    renders: Render, compiles: list[str], tmp_path: Path
) -> None:
    before = renders()["pdbrc"]
    template = tmp_path / "templates/pdbrc.j2"
    template.write_text(template.read_text() + "# changed here\n")
    compiles.clear()
    assert renders()["pdbrc"] == before + "# changed here\n"
    assert compiles == ["pdbrc.j2"]


def test_a_damaged_or_unwritable_cache_only_costs_a_compile(
    renders: Render, compiles: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = renders()
    for kept in (tmp_path / "compiled").iterdir():
        kept.write_bytes(kept.read_bytes()[:40])
    assert renders() == first
    monkeypatch.setattr(compiled, "FOLDER", tmp_path / "a-file" / "compiled")
    (tmp_path / "a-file").write_text("")
    compiles.clear()
    assert renders() == first
    assert "dotdbg.bash.j2" in compiles


def test_no_compiled_template_is_written_where_python_writes_no_pyc(
    renders: Render, compiles: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PYTHONDONTWRITEBYTECODE: the fault sweep's runs must make the same calls each time."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    first = renders()
    compiles.clear()
    assert renders() == first
    assert "dotdbg.bash.j2" in compiles
    assert not (tmp_path / "compiled").exists()
