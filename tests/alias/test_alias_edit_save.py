"""Edits through the writer: validation, backups, re-install, and the reload line."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.home import edit
from dotdbg.home.backup import backup_dirs, read_backup
from dotdbg.home.install import install, restore
from dotdbg.paths import Paths
from tests.test_install import home_files, is_current


@pytest.fixture
def paths(tmp_path: Path) -> Paths:
    (tmp_path / ".bashrc").write_text("# the user's bashrc\n")
    return Paths.from_env(tmp_path)


@pytest.fixture
def installed(paths: Paths) -> Paths:
    install(paths, load_config(paths))
    return paths


def generated_bash(paths: Paths) -> str:
    return (paths.data_dir / "dotdbg.bash").read_text()


def test_not_installed_saves_the_config_only(paths: Paths) -> None:
    outcome = edit.add(paths, "aliases", "gss", "git status --short")
    assert outcome.action == "added"
    assert outcome.saved.install is None
    assert outcome.saved.backup is not None  # it notes that there was no config: restore deletes it
    assert read_backup(paths, outcome.saved.backup).absent == (paths.config_file,)
    assert paths.config_file.read_text() == '[aliases]\ngss = "git status --short"\n'
    assert not paths.data_dir.exists()


def test_every_edit_backs_the_old_file_up_first(paths: Paths) -> None:
    edit.add(paths, "aliases", "gss", "git status --short")
    before = paths.config_file.read_text()
    outcome = edit.add(paths, "aliases", "gss", "git status -s")
    assert outcome.action == "replaced"
    assert outcome.saved.backup is not None
    backup = outcome.saved.backup / ".config/dotdbg/config.toml"
    assert backup.read_text() == before
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert backup.is_relative_to(paths.backups_dir)


def test_one_edit_is_one_backup_folder_and_one_restore_undoes_it(installed: Paths) -> None:
    edit.add(installed, "aliases", "gss", "git status --short")
    before, folders = home_files(installed.home), backup_dirs(installed)
    outcome = edit.add(installed, "aliases", "zz", "echo zz")
    assert backup_dirs(installed) == [*folders, outcome.saved.backup]
    assert outcome.saved.install is not None
    assert outcome.saved.install.backup_dir == outcome.saved.backup
    saved = read_backup(installed, backup_dirs(installed)[-1]).saved
    assert {installed.config_file, installed.data_dir / "dotdbg.bash"} <= set(saved)
    restore(installed)  # the newest backup: the whole edit, config and shell files
    assert home_files(installed.home) == before
    assert is_current(installed)


def test_restoring_the_first_edit_deletes_the_config_it_created(installed: Paths) -> None:
    before = home_files(installed.home)
    edit.add(installed, "functions", "mkcd", 'mkdir -p "$1" && cd "$1"')
    restore(installed)
    assert home_files(installed.home) == before
    assert not installed.config_dir.exists()
    assert is_current(installed)


def test_installed_home_is_refreshed(installed: Paths) -> None:
    outcome = edit.add(installed, "aliases", "gss", "git status --short", "short", "git")
    assert outcome.saved.install is not None
    assert "alias gss='git status --short'" in generated_bash(installed)
    assert outcome.reload == f"source {installed.data_dir / 'dotdbg.bash'}"


def test_a_body_that_breaks_bash_changes_nothing(installed: Paths) -> None:
    edit.add(installed, "aliases", "gss", "git status --short")
    config_before, bash_before = installed.config_file.read_text(), generated_bash(installed)
    with pytest.raises(DotdbgError, match=r"bash -n") as error:
        edit.add(installed, "functions", "bad", "if then fi")
    assert str(installed.config_file) in error.value.location
    assert installed.config_file.read_text() == config_before
    assert generated_bash(installed) == bash_before


@pytest.mark.parametrize(("section", "name"), [("aliases", "g s"), ("functions", "a+b")])
def test_an_invalid_name_is_refused_before_anything_is_written(
    paths: Paths, section: edit.Section, name: str
) -> None:
    with pytest.raises(DotdbgError, match="is not a valid"):
        edit.add(paths, section, name, "git status")
    assert not paths.config_file.exists()


def test_what_the_config_refuses_is_refused_at_its_place_in_the_new_text(paths: Paths) -> None:
    with pytest.raises(DotdbgError, match=r"pack") as error:
        edit.add(paths, "aliases", "gx", "git x", pack="Not A Pack")
    # gx = { command = "git x", pack = "Not A Pack" }: column 27 is where pack starts
    assert error.value.location == f"{paths.config_file}:2:27"
    assert not paths.config_file.exists()


def test_user_comments_survive_an_edit(paths: Paths) -> None:
    paths.config_file.parent.mkdir(parents=True)
    paths.config_file.write_text("# keep me\n[aliases]\ngs = false  # not this one\n")
    edit.add(paths, "aliases", "st", "git status")
    assert paths.config_file.read_text() == (
        '# keep me\n[aliases]\ngs = false  # not this one\nst = "git status"\n'
    )


def test_removing_a_default_alias_switches_it_off(installed: Paths) -> None:
    assert "alias gs=" in generated_bash(installed)
    outcome = edit.remove(installed, "aliases", "gs")
    assert outcome.action == "switched off"
    assert outcome.reload == "unalias gs"
    assert "gs = false" in installed.config_file.read_text()
    assert "alias gs=" not in generated_bash(installed)


def test_removing_a_user_function_deletes_it(installed: Paths) -> None:
    edit.add(installed, "functions", "mkcd", 'mkdir -p "$1" && cd "$1"')
    outcome = edit.remove(installed, "functions", "mkcd")
    assert (outcome.action, outcome.reload) == ("removed", "unset -f mkcd")
    assert installed.config_file.read_text() == "[functions]\n"
    assert "mkcd" not in generated_bash(installed)


def test_a_function_may_take_the_name_of_a_removed_alias(installed: Paths) -> None:
    assert edit.remove(installed, "aliases", "gs").reload == "unalias gs"
    outcome = edit.add(installed, "functions", "gs", "git status")
    assert outcome.reload == f"source {installed.data_dir}/dotdbg.bash"
    assert "gs() {" in generated_bash(installed)


def test_names_of_the_other_kind_are_refused(paths: Paths) -> None:
    with pytest.raises(DotdbgError, match="l is a function") as error:
        edit.add(paths, "aliases", "l", "ls")
    assert error.value.hint.startswith("`dotdbg fn rm l`")
    with pytest.raises(DotdbgError, match="gs is an alias") as error:
        edit.remove(paths, "functions", "gs")
    assert error.value.hint == "`dotdbg alias rm gs` removes it"


def test_removing_an_unknown_name_is_an_error(paths: Paths) -> None:
    with pytest.raises(DotdbgError, match="there is no alias named nope"):
        edit.remove(paths, "aliases", "nope")


def test_a_file_with_windows_line_endings_keeps_them(paths: Paths) -> None:
    paths.config_file.parent.mkdir(parents=True)
    paths.config_file.write_bytes(b'# mine\r\n[aliases]\r\ngs = "git status"\r\n')
    edit.add(paths, "aliases", "gd2", "git diff")
    assert paths.config_file.read_bytes() == (
        b'# mine\r\n[aliases]\r\ngs = "git status"\r\ngd2 = "git diff"\r\n'
    )


def test_an_entry_in_a_switched_off_pack_is_saved_with_a_warning(installed: Paths) -> None:
    installed.config_file.parent.mkdir(parents=True)
    installed.config_file.write_text("[packs]\ngpu = false\n")
    # wn is a default of the gpu pack: the new command inherits the pack.
    assert edit.add(installed, "aliases", "wn", "watch -n 2 nvidia-smi").off_pack == "gpu"
    assert edit.add(installed, "aliases", "gq", "nvidia-smi -q", pack="gpu").off_pack == "gpu"
    assert edit.add(installed, "aliases", "gq", "nvidia-smi -q").off_pack == ""
    with pytest.raises(DotdbgError, match="wnm is in pack gpu, which is switched off"):
        edit.remove(installed, "aliases", "wnm")


def test_whitespace_is_not_a_command(paths: Paths) -> None:
    with pytest.raises(DotdbgError, match=r"aliases\.x is empty"):
        edit.add(paths, "aliases", "x", "   ")
    assert not paths.config_file.exists()


def test_the_reload_line_quotes_a_path_with_blanks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    in_home = Paths.from_env(env={"HOME": str(tmp_path), "XDG_DATA_HOME": f"{tmp_path}/my data"})
    assert edit.reload_line(in_home, "aliases", "x", removed=False) == (
        "source ~/'my data/dotdbg/dotdbg.bash'"
    )
    elsewhere = Paths.from_env(env={"HOME": str(tmp_path), "XDG_DATA_HOME": "/opt/my data"})
    assert edit.reload_line(elsewhere, "aliases", "x", removed=False) == (
        "source '/opt/my data/dotdbg/dotdbg.bash'"
    )


@pytest.mark.parametrize("section", ["aliases", "functions"])
def test_the_cheatsheet_shortcut_name_is_refused(paths: Paths, section: edit.Section) -> None:
    # The shortcut is defined after the aliases: the entry would be hidden without a word.
    with pytest.raises(DotdbgError, match="ch is both the cheatsheet shortcut") as error:
        edit.add(paths, section, "ch", "echo mine")
    assert error.value.location == f"{paths.config_file}:2:1"
    assert not paths.config_file.exists()


@pytest.mark.parametrize("had_config", [False, True])
def test_a_refresh_that_fails_puts_the_config_back(installed: Paths, had_config: bool) -> None:
    if had_config:
        installed.config_file.parent.mkdir(parents=True)
        installed.config_file.write_text("# mine\n")
    generated = installed.data_dir / "dotdbg.bash"
    generated.unlink()
    generated.mkdir()  # install cannot write it
    with pytest.raises(DotdbgError, match="is a directory"):
        edit.add(installed, "aliases", "zz", "echo z")
    if had_config:
        assert installed.config_file.read_text() == "# mine\n"
    else:
        assert not installed.config_file.exists()
