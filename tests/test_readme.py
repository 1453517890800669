"""README.md says what the code does, and reads well on a package index."""

from __future__ import annotations

import re
from pathlib import Path

from dotdbg.config import load_config
from dotdbg.config.source import loads
from dotdbg.paths import Paths

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def ci_packages() -> list[str]:
    script = (REPO / ".ci/run").read_text(encoding="utf-8")
    listed = script.split("packages=(", 1)[1].split("\n)", 1)[0]
    return [word for line in listed.splitlines() for word in line.split("#", 1)[0].split()]


def test_development_names_every_package_ci_installs() -> None:
    packages = ci_packages()
    assert "e2fsprogs" in packages and "tmux" in packages
    named = set(re.findall(r"`([a-z0-9.+-]+)`", section("Development")))
    assert [package for package in packages if package not in named] == []


def test_the_history_words_match_the_default_histcontrol() -> None:
    # ignoredups drops only a repeat in a row; "duplicates are not kept" would claim erasedups.
    config = load_config(Paths.from_env())
    assert config.history is not None
    words = config.history.control.split(":")
    assert "ignoredups" in words and "erasedups" not in words
    history = README.split("**History search.**", 1)[1].split("\n\n", 1)[0]
    assert "repeated right after itself is kept once" in history
    assert "duplicates" not in history
    assert "leading space is not kept" in history and "ignorespace" in words


REPOSITORY = "https://github.com/dotdbg/dotdbg"


def test_every_link_works_on_a_package_index_page() -> None:
    # A package index shows README.md without the repository around it: a relative link breaks.
    targets = re.findall(r"\]\(([^)\s]+)\)", README)
    assert len(targets) > 5
    assert [target for target in targets if not target.startswith("https://")] == []
    in_repository = [t for t in targets if t.startswith(f"{REPOSITORY}/blob/main/")]
    assert in_repository
    for target in in_repository:
        path = target.removeprefix(f"{REPOSITORY}/blob/main/").partition("#")[0]
        assert (REPO / path).is_file(), target


def test_the_package_metadata_is_ready_for_an_index() -> None:
    project = loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    license_text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License") and "the dotdbg authors" in license_text
    assert project["authors"] == [{"name": "the dotdbg authors"}]
    assert all(url.startswith(REPOSITORY) for url in project["urls"].values())
    python = "Programming Language :: Python :: "
    versions = {c.removeprefix(python) for c in project["classifiers"] if c.startswith(python)}
    assert "3.10" in versions and project["requires-python"] == ">=3.10"
