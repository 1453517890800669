"""Reading the rc files' text for the keys peers and the user bind (issue 24.4): each spelling
of a key, each peer's init line, and who is loaded last."""

from __future__ import annotations

import pytest

from dotdbg.config import load_config
from dotdbg.paths import Paths
from dotdbg.shells.peers import aliases_in, bindings_in, clashes, key_name


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("\\C-g", "ctrl-g"),
        ("^G", "ctrl-g"),
        ("\\cg", "ctrl-g"),
        ("\\e[A", "up"),
        ("^[[A", "up"),
        ("^[OA", "up"),
        ("\\ep", "alt-p"),
        ("\\C-x\\C-e", None),
    ],
)
def test_key_names(spelling: str, name: str | None) -> None:
    assert key_name(spelling) == name


@pytest.mark.parametrize(
    ("shell", "line", "keys"),
    [
        ("bash", 'eval "$(atuin init bash)"', {("atuin", "up"), ("atuin", "ctrl-r")}),
        ("bash", 'eval "$(atuin init bash --disable-up-arrow)"', {("atuin", "ctrl-r")}),
        ("zsh", 'eval "$(navi widget zsh)"', {("navi", "ctrl-g")}),
        ("fish", "navi widget fish | source", {("navi", "ctrl-g")}),
        (
            "bash",
            "source /usr/share/doc/fzf/examples/key-bindings.bash",
            {("fzf", "ctrl-r"), ("fzf", "ctrl-t"), ("fzf", "alt-c")},
        ),
        ("bash", "bind -x '\"\\C-g\": my_widget'", {("", "ctrl-g")}),
        ("zsh", "bindkey '^G' my-widget", {("", "ctrl-g")}),
        ("zsh", "bindkey -M viins '^[[A' up-line-or-search", {("", "up")}),
        ("fish", "bind \\cg my_widget", {("", "ctrl-g")}),
        ("bash", '# eval "$(navi widget bash)"', set()),
    ],
)
def test_bindings_in_each_shells_words(shell: str, line: str, keys: set[tuple[str, str]]) -> None:
    assert {(b.peer, b.key) for b in bindings_in(f"# mine\n{line}\n", shell)} == keys


def test_who_wins_is_who_is_loaded_last(fake_home: object) -> None:
    config = load_config(Paths.from_env())
    block = "# >>> dotdbg >>>\n# <<< dotdbg <<<\n"
    text = f'eval "$(navi widget bash)"\n{block}eval "$(atuin init bash)"\n'
    found = {(c.theirs.peer, c.key): c for c in clashes(config, "bash", text, "~/.bashrc", 2)}
    assert not found["navi", "ctrl-g"].they_win  # before dotdbg's block
    assert found["atuin", "up"].they_win
    assert "Ctrl-G: dotdbg's cheatsheet picker takes it from navi's widget (~/.bashrc:1)" in (
        found["navi", "ctrl-g"].message()
    )
    assert ("atuin", "ctrl-r") not in found  # dotdbg does not bind Ctrl-R


def test_framework_alias_values() -> None:
    text = "alias gl='git pull'\nalias -g G='| grep'\nalias gc=\"git commit --verbose\"\n"
    assert aliases_in(text) == {"gl": "git pull", "G": "| grep", "gc": "git commit --verbose"}
