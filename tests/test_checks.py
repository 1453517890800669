"""The check cache: a generated text that passed its shell's checks is not checked again
(status and diff do not run shellcheck on what install checked), anything else is."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg import shells
from dotdbg.common.record import replace
from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.home import checks
from dotdbg.home.install import install, render_for
from dotdbg.paths import Paths
from dotdbg.shells import bashcheck
from dotdbg.shells.bash import BASH


def refuse(*args: object) -> list[str]:
    raise AssertionError("shellcheck ran")


@pytest.fixture
def installed(tmp_path: Path) -> Paths:
    (tmp_path / ".bashrc").write_text("")
    paths = Paths.from_env(tmp_path)
    install(paths)
    return paths


def test_status_after_install_runs_no_checker(
    installed: Paths, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bashcheck, "shellcheck_errors", refuse)
    monkeypatch.setattr(bashcheck, "bash_syntax_error", refuse)
    assert install(installed, dry_run=True).plan.pending == ()


def test_a_changed_text_is_checked(installed: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bashcheck, "shellcheck_errors", refuse)
    config = load_config(installed, user_text='[functions]\nzz = "echo zz"\n')
    with pytest.raises(AssertionError, match="shellcheck ran"):
        install(installed, config, dry_run=True)


def test_a_new_checker_checks_again(installed: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    newer = replace(BASH, checker_key=lambda: "shellcheck 99")
    every = {target.name: target for target in shells.registered()}
    monkeypatch.setattr(shells, "_registry", {**every, "bash": newer})
    monkeypatch.setattr(bashcheck, "shellcheck_errors", refuse)
    assert install(installed, dry_run=True).plan.pending == ()  # installed: checked then
    with pytest.raises(AssertionError, match="shellcheck ran"):
        install(installed)  # a run that writes renders and checks again


def test_a_failure_is_never_remembered(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    bad = '[functions]\nf = "if then"\n'
    for _ in range(2):
        with pytest.raises(DotdbgError, match="function f is not valid bash"):
            install(paths, load_config(paths, user_text=bad))
    assert checks.known_keys(paths) == []


def test_the_cache_keeps_the_newest_keys(installed: Paths, monkeypatch: pytest.MonkeyPatch) -> None:
    from dotdbg.home.install import render_for

    monkeypatch.setattr(checks, "KEEP", 3)
    for n in range(checks.KEEP + 2):
        config = load_config(installed, user_text=f'[aliases]\nz{n} = "echo {n}"\n')
        checks.remember(installed, render_for(installed, config, ("bash",)))
    known = checks.known_keys(installed)
    assert len(known) == checks.KEEP
    assert checks.rendered_keys(render_for(installed, config, ("bash",)))["bash"] in known


def test_an_alias_edit_runs_bash_but_not_shellcheck(
    installed: Paths, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dotdbg.home import edit

    ran: list[str] = []
    real = bashcheck.bash_syntax_error

    def recorded(text: str) -> str:
        ran.append("bash")
        return real(text)

    monkeypatch.setattr(bashcheck, "bash_syntax_error", recorded)
    monkeypatch.setattr(bashcheck, "shellcheck_errors", refuse)
    edit.add(installed, "aliases", "zz", "echo zz")  # shellcheck's input is the same as before
    assert ran
    with pytest.raises(AssertionError, match="shellcheck ran"):
        edit.add(installed, "functions", "yy", "echo yy")  # a function: new input


def test_shellcheck_reads_no_alias_and_no_completion_word_list() -> None:
    text = (
        "# gs: status [git]\nalias gs='git status'\nf() {\n"
        "    __dotdbg_complete_words \"$cur\" 'gs' 'gd'\n}\n"
    )
    assert bashcheck.shellcheck_input(text) == (
        "f() {\n    __dotdbg_complete_words \"$cur\" 'words'\n}\n"
    )


def with_checks(monkeypatch: pytest.MonkeyPatch, check: Callable[[str], None]) -> None:
    """Every shell's check (and bash's check of known parts) is ``check(shell name)``."""
    every = {}
    for target in shells.registered():

        def checked(text: str, config: object, *passed: object, name: str = target.name) -> None:
            check(name)

        every[target.name] = replace(
            target, check=checked, check_known=checked if target.check_known else None
        )
    monkeypatch.setattr(shells, "_registry", every)


def test_the_shells_are_checked_side_by_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each check waits for the other two: checked one after another, the first waits alone
    all_three = threading.Barrier(3, timeout=15)

    def check(name: str) -> None:
        all_three.wait()

    with_checks(monkeypatch, check)
    paths = Paths.from_env(tmp_path)
    config = load_config(paths)
    rendered = render_for(paths, config, ("bash", "zsh", "fish"))
    checks.check_rendered(paths, config, rendered)
    assert all_three.n_waiting == 0 and not all_three.broken


def test_the_first_shell_that_fails_is_blamed_after_every_check_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []

    def check(name: str) -> None:
        ran.append(name)
        if name != "bash":
            raise DotdbgError(f"{name} refused it")

    with_checks(monkeypatch, check)
    paths = Paths.from_env(tmp_path)
    config = load_config(paths)
    rendered = render_for(paths, config, ("bash", "zsh", "fish"))
    with pytest.raises(DotdbgError, match="zsh refused it"):
        checks.check_rendered(paths, config, rendered)
    assert sorted(ran) == ["bash", "fish", "zsh"]
