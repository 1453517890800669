"""Any alias value a user can write comes back exactly from zsh's and fish's own listings, and
sourcing the generated file runs none of it (the property bash's test holds, for the others)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from dotdbg.config import load_config
from dotdbg.home.install import checked_render
from dotdbg.paths import Paths
from dotdbg.shells.zshfish import fishquote
from tests.test_render import alias_values, toml_basic_string

SETTINGS = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _env(tmp_path: Path, marker: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "MARKER": str(marker),
        "HOME": str(tmp_path),
        "TERM": "dumb",
        "LANG": "C.UTF-8",  # a user's locale: zsh reads UTF-8 text as characters, not bytes
    }


def _render(tmp_path: Path, shell: str, toml: str) -> Path:
    paths = Paths.from_env(tmp_path)
    rendered = checked_render(paths, load_config(paths, user_text=toml), (shell,))
    script = tmp_path / f"dotdbg.{shell}"
    script.write_bytes(rendered.files[script.name].encode("utf-8", "surrogateescape"))
    return script


def _run(argv: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(argv, capture_output=True, env=env, check=True, timeout=30)
    return done.stdout.decode("utf-8", "surrogateescape")


@SETTINGS
@given(value=alias_values)
def test_zsh_lists_any_alias_exactly_and_sourcing_runs_none(tmp_path: Path, value: str) -> None:
    marker = tmp_path / "executed"
    script = _render(tmp_path, "zsh", f"[aliases]\nq = {toml_basic_string(value)}\n")
    env = _env(tmp_path, marker)
    shown = _run(["zsh", "-f", "-i", "-c", f". {script}; print -rn -- $aliases[q]; alias q"], env)
    defined, listing = shown.removesuffix("\n").split("q=", 1)
    assert defined == value
    # zsh's listing, read back, gives the value too, except where zsh's listing is wrong
    # whatever defined the alias: it writes \x1c as $'\C-\', which it cannot read back, and an
    # unprintable character past ASCII (U+0080) as the single byte \M-\C-@
    if "\x1c" not in value and all(c.isprintable() or c < "\x80" for c in value):
        reread = _run(["zsh", "-f", "-c", f"alias -- q={listing}\nprint -rn -- $aliases[q]"], env)
        assert reread == value
    assert not marker.exists()


@SETTINGS
@given(value=alias_values)
def test_fish_lists_any_alias_exactly_and_sourcing_runs_none(tmp_path: Path, value: str) -> None:
    marker = tmp_path / "executed"
    script = _render(tmp_path, "fish", f"[aliases]\nq = {toml_basic_string(value)}\n")
    env = _env(tmp_path, marker)
    program = (
        f"source {fishquote(str(script))}; "
        "set -l line (functions q | string match -r -- '^function q .*'); "
        "eval set d (string match -rg -- ' --description (.*)$' $line); printf %s $d"
    )
    shown = _run(["fish", "--no-config", "-i", "-c", program], env)
    assert shown == f"alias q={value}"
    assert not marker.exists()


@SETTINGS
@given(value=alias_values)
def test_fish_abbreviations_show_any_value_exactly(tmp_path: Path, value: str) -> None:
    marker = tmp_path / "executed"
    toml = f"[fish]\nabbreviations = true\n[aliases]\nq = {toml_basic_string(value)}\n"
    script = _render(tmp_path, "fish", toml)
    program = (
        f"source {fishquote(str(script))}; "
        "eval set d (abbr --show | string replace -r -f -- '^abbr -a .*-- q ' ''); printf %s $d"
    )
    shown = _run(["fish", "--no-config", "-i", "-c", program], _env(tmp_path, marker))
    assert shown == value
    assert not marker.exists()
