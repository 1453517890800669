"""The memlimit command line: `memlimit` and `dotdbg memlimit`, errors as one line and exit 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dotdbg.cli.entry import helper
from dotdbg.memlimit.backends import BACKEND_NAMES
from dotdbg.memlimit.backends.cgroup1 import Cgroup1Backend
from tests.memlimit.memlimit_fakes import (
    DOTDBG,
    NOT_IMPORTED_BY_A_LIMITED_RUN,
    memlimit_cgroups,
    run_cli,
)


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["5X"], "memlimit: error: limit '5X' is not a size"),
        (["0"], "memlimit: error: limit '0' is below 1M; nothing useful runs under it"),
        (["1G", "--swap", "lots"], "memlimit: error: --swap 'lots' is not a size"),
        (["2000P"], "memlimit: error: limit '2000P' is more than 1024P"),
        (["1G", "--high", "2G"], "memlimit: error: --high '2G' must lie between 1M and the limit"),
        (["1G", "--backend", "docker"], "memlimit: error: unknown backend 'docker'"),
        (["1G", "--", "no-such-command-xyz"], "memlimit: error: command 'no-such-command-xyz' not"),
        (["1G", "--", "/nonexistent/tool"], "memlimit: error: command '/nonexistent/tool' not"),
    ],
)
def test_bad_arguments_are_one_error_line_a_hint_and_exit_2(
    argv: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cgroups = memlimit_cgroups if Cgroup1Backend().probe().works else list
    before = cgroups()
    assert helper("memlimit", argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert err[0].startswith(error)
    assert err[1].startswith("hint: ")
    assert cgroups() == before  # bad input changes nothing


def test_the_console_script_reports_a_bad_size_without_a_traceback() -> None:
    done = run_cli("5 G", "--", "true")
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == "memlimit: error: limit '5 G' is not a size"
    assert "Traceback" not in done.stderr


def test_dotdbg_memlimit_runs_the_same_command() -> None:
    show = "import os; print(os.environ['MEMLIMIT'])"
    done = subprocess.run(
        [str(DOTDBG), "memlimit", "1.5G", "--", sys.executable, "-c", show],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, "1.5G\n")
    assert "memlimit: 1.5G RAM, no swap, backend " in done.stderr


def test_help_says_what_g_means() -> None:
    done = run_cli("--help")
    assert done.returncode == 0
    assert "2**30" in done.stdout


def test_the_modules_of_a_limited_run_import_only_what_it_uses() -> None:
    """On any machine, cgroups or not: the command, the run and every backend a limited run
    probes on its way to a cgroup, imported by a fresh interpreter (the real run's own list is
    test_memlimit_cgroup1.py::test_a_limited_run_imports_only_what_it_uses)."""
    modules = "dotdbg.cli.entry dotdbg.cli.registry dotdbg.cli.commands.memlimit dotdbg.memlimit"
    backends = " ".join(f"dotdbg.memlimit.backends.{name}" for name in BACKEND_NAMES[:-1])
    code = f"import sys, {', '.join(f'{modules} {backends}'.split())}; print(*sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    found = set(done.stdout.split())
    assert "dotdbg.memlimit.backends.cgroup1" in found
    assert found & NOT_IMPORTED_BY_A_LIMITED_RUN == set()
