"""dotdbg's functions (l, df, wrap, git-replace…) run in a real interactive bash in tmux."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import install_home
from tests.homeshell import run_in_home
from tests.infra.tmux import Tmux

pytestmark = pytest.mark.e2e

# What a user's ~/.bashrc may hold before the dotdbg block.
USER_ALIASES = "alias ls='ls -F'\nalias grep='grep --color=always'\n"
USER_CONFIG = """
[aliases]
hello = "echo hello-from-an-alias"
[functions]
greet = 'hello; echo greeted'
"""


# One installed home and one shell per module, not per test (an install and a bash start were
# 90% of each test's time): each test runs its function in a directory of its own, leaves the
# shell at its prompt, and changes nothing in the home the next test reads.
@pytest.fixture(scope="module")
def installed_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return install_home(tmp_path_factory.mktemp("installed"))


@pytest.fixture(scope="module")
def shell(installed_home: Path) -> Iterator[Tmux]:
    session = Tmux.bash(installed_home)
    yield session
    session.close()


@pytest.fixture(scope="module")
def aliased_shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tmux]:
    """A shell whose ~/.bashrc defines aliases of its own before dotdbg's block."""
    root = tmp_path_factory.mktemp("aliased")
    session = Tmux.bash(install_home(root, bashrc=USER_ALIASES, user_config=USER_CONFIG))
    yield session
    session.close()


def test_the_users_aliases_stay_out_of_dotdbgs_functions(aliased_shell: Tmux) -> None:
    shown = aliased_shell.run("type l df")
    assert 'ls -lNhF --color="$color"' in shown
    assert "ls -F" not in shown
    assert 'grep -v "^/dev/loop"' in shown
    assert "--color=always -v" not in shown and "ls -F -lNhF" not in shown


def test_aliases_work_at_the_prompt_after_the_functions(aliased_shell: Tmux) -> None:
    assert aliased_shell.run("hello") == "hello-from-an-alias"
    assert "ls is aliased to `ls -F'" in aliased_shell.run("type ls")


def test_functions_from_the_config_can_use_aliases(aliased_shell: Tmux) -> None:
    assert aliased_shell.run("greet") == "hello-from-an-alias\ngreeted"


@pytest.mark.parametrize("state", ["on", "off"])
def test_alias_expansion_is_left_as_it_was(installed_home: Path, state: str) -> None:
    generated = installed_home / ".local/share/dotdbg/dotdbg.bash"
    flag = "-s" if state == "on" else "-u"
    script = (
        f'shopt {flag} expand_aliases; . "{generated}"; shopt expand_aliases; '
        'echo "left:${__dotdbg_expand_aliases-unset}"'
    )
    result = run_in_home(["bash", "--norc", "--noprofile", "-i", "-c", script], installed_home)
    assert result.stdout.split() == ["expand_aliases", state, "left:unset"]


def test_wrap_takes_the_trailing_slash_tab_adds(shell: Tmux, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/main.c").write_text("int main;\n")
    assert shell.run(f"cd {tmp_path} && wrap src/ && tar -tzf src.tgz; echo rc=$?").split() == [
        "src/",
        "src/main.c",
        "rc=0",
    ]
    assert not (tmp_path / "src/.tgz").exists()


def test_wrap_without_a_directory_says_how_and_runs_no_tar(shell: Tmux, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    output = shell.run(f"cd {work} && wrap; echo rc=$?")
    assert output == "usage: wrap DIR  (writes DIR.tgz)\nrc=2"
    assert list(work.iterdir()) == []


def test_wrap_refuses_what_does_not_exist_and_leaves_no_archive(
    shell: Tmux, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    output = shell.run(f"cd {work} && wrap nonexist/; echo rc=$?")
    assert output == "wrap: no such file or directory: nonexist\nrc=2"
    assert list(work.iterdir()) == []


def fake_gzip(folder: Path, script: str) -> Path:
    """A `gzip` for tar -z to run instead of the real one: it fails, or hangs until Ctrl-C."""
    folder.mkdir()
    (folder / "gzip").write_text(f"#!/bin/sh\n{script}\n")
    (folder / "gzip").chmod(0o755)
    return folder


def test_wrap_leaves_no_partial_archive_when_tar_fails_or_is_interrupted(
    shell: Tmux, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    (work / "src/main.c").write_text("int main;\n")
    (work / "src.tgz").write_bytes(b"the archive of yesterday")
    failing = fake_gzip(tmp_path / "failing", "cat >/dev/null; echo half-written; exit 1")
    output = shell.run(f"cd {work} && PATH={failing}:$PATH wrap src; echo rc=$?")
    assert output.endswith("\nrc=2")  # tar: "Child returned status 1"
    assert sorted(p.name for p in work.iterdir()) == ["src", "src.tgz"]
    assert (work / "src.tgz").read_bytes() == b"the archive of yesterday"

    started = tmp_path / "gzip-started"
    hanging = fake_gzip(tmp_path / "hanging", f"touch {started}; cat >/dev/null; sleep 30")
    shell.type(f"PATH={hanging}:$PATH wrap src; echo rc=$?")
    shell.keys("Enter")
    shell.wait_for(lambda _: started.exists(), "gzip to start")
    shell.keys("C-c")
    shell.wait_for(lambda screen: screen.rstrip().endswith("$"), "the prompt after Ctrl-C")
    assert sorted(p.name for p in work.iterdir()) == ["src", "src.tgz"]
    assert (work / "src.tgz").read_bytes() == b"the archive of yesterday"


@pytest.mark.parametrize("name", ["l", "lt", "la"])
def test_a_listing_fails_when_ls_fails(shell: Tmux, tmp_path: Path, name: str) -> None:
    assert shell.run(f"{name} {tmp_path}/nonexist; echo rc=$?").endswith("\nrc=2")
    assert shell.run(f"{name} {tmp_path} >/dev/null; echo rc=$?") == "rc=0"


def test_df_returns_the_status_of_df_not_grep(shell: Tmux, tmp_path: Path) -> None:
    # df prints the line for / (grep finds lines: 0) and fails on the other (df: 1)
    assert shell.run(f"df / {tmp_path}/nonexist >/dev/null 2>&1; echo rc=$?") == "rc=1"
    assert shell.run("df / >/dev/null; echo rc=$?") == "rc=0"


def git_repo(root: Path, files: dict[str, str]) -> Path:
    """A repository whose index holds ``files`` (tracked, nothing committed)."""
    root.mkdir()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    return root


def test_git_replace_covers_the_whole_repository_from_a_subdirectory(
    shell: Tmux, tmp_path: Path
) -> None:
    files = {"top.txt": "old\n", "sub/a.txt": "old\n", "other/ü n.txt": "an old one\n"}
    repo = git_repo(tmp_path / "repo", {**files, "sub/keep.txt": "gold\n"})
    # a user's setting that would make git grep print paths from the top, not from here
    subprocess.run(["git", "-C", str(repo), "config", "grep.fullName", "true"], check=True)
    output = shell.run(f"cd {repo}/sub && git-replace old new; echo rc=$?")
    assert output == " 4 files changed, 4 insertions(+), 4 deletions(-)\nrc=0"
    assert (repo / "top.txt").read_text() == "new\n"
    assert (repo / "sub/a.txt").read_text() == "new\n"
    assert (repo / "other/ü n.txt").read_text() == "an new one\n"
    assert (repo / "sub/keep.txt").read_text() == "gnew\n"


@pytest.mark.parametrize("arguments", ["", "old", "'' new"])
def test_git_replace_without_old_and_new_changes_nothing(
    shell: Tmux, tmp_path: Path, arguments: str
) -> None:
    repo = git_repo(tmp_path / "repo", {"a.txt": "old\n"})
    output = shell.run(f"cd {repo} && git-replace {arguments}; echo rc=$?")
    assert output == "usage: git-replace OLD NEW  (OLD: a literal string, not empty)\nrc=2"
    assert (repo / "a.txt").read_text() == "old\n"


def test_git_replace_fails_when_perl_cannot_write_a_file(shell: Tmux, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "repo", {"a.txt": "old\n"})
    if subprocess.run(["chattr", "+i", str(repo / "a.txt")], capture_output=True).returncode:
        pytest.skip("chattr +i is not possible here (needs root and a filesystem that has it)")
    try:
        output = shell.run(f"cd {repo} && git-replace old new; echo rc=$?")
    finally:
        subprocess.run(["chattr", "-i", str(repo / "a.txt")], check=True)
    assert "Cannot complete in-place edit" in output
    assert output.endswith("\nrc=1")  # perl's status, not git diff's 0


def coloured(shell: Tmux, command: str) -> bool:
    """Whether ``command`` drew any colour on the terminal (tmux shows SGR codes with -e)."""
    shell.run(f"clear; {command}")
    return "\x1b[" in shell.screen(wrapped=True, colours=True)


def test_listings_colour_a_terminal_only_and_honour_no_color(shell: Tmux, tmp_path: Path) -> None:
    (tmp_path / "a-dir").mkdir()
    for name in ("l", "lt", "la"):
        assert coloured(shell, f"{name} {tmp_path}"), name
        assert not coloured(shell, f"NO_COLOR=1 {name} {tmp_path}"), name
        piped = shell.run(f"{name} {tmp_path} | od -c | grep -c 033; echo rc=${{PIPESTATUS[0]}}")
        assert piped == "0\nrc=0", name
        shell.run(f"{name} {tmp_path} > {tmp_path}/{name}.txt")
        assert "a-dir/" in (tmp_path / f"{name}.txt").read_text()
        assert "\x1b" not in (tmp_path / f"{name}.txt").read_text(), name
