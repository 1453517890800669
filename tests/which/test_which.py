"""``dotdbg which`` on real interpreters: a real editable install (pip install -e into a fresh
venv), a directory that shadows it, namespace packages, and ``--ran`` watching real programs
(sys.settrace on this Python, sys.monitoring on a 3.12+ one where the machine has it)."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.infra.editable import install_editable, write_project

Cli = Callable[..., subprocess.CompletedProcess[str]]

CORE = """\
class Base:
    def forward(self, x):
        return x + 1


class Model(Base):
    pass
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture(scope="module")
def editable(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A src-layout project ``mypkg`` installed with ``pip install -e`` in a new venv: its
    python and the project's folder."""
    root = tmp_path_factory.mktemp("editable")
    project = root / "proj"
    write_project(project, "mypkg")
    write(project / "src" / "mypkg" / "__init__.py", "from mypkg.core import Model\n")
    write(project / "src" / "mypkg" / "core.py", CORE)
    python = install_editable(project, root / "venv")
    return python, project


def which_json(cli: Cli, *args: str, env: dict[str, str] | None = None) -> dict[str, object]:
    done = cli("dotdbg", "which", "--json", *args, env=env or {})
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_an_editable_install_is_named_and_its_method_found_in_the_base_class(
    cli: Cli, editable: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, project = editable
    monkeypatch.chdir(tmp_path)
    found = which_json(cli, "--python", str(python), "mypkg:Model.forward")
    imported = found["imported"]
    assert imported["origin"] == str(project / "src" / "mypkg" / "__init__.py")  # type: ignore[index]
    assert imported["editable"]["dist"] == "mypkg"  # type: ignore[index]
    attr = found["attr"]
    assert attr["file"] == str(project / "src" / "mypkg" / "core.py")  # type: ignore[index]
    assert attr["line"] == 2  # type: ignore[index]
    assert attr["inherited_from"] == "mypkg.core.Base"  # type: ignore[index]
    text = cli("dotdbg", "which", "--python", str(python), "mypkg").stdout
    assert "editable install of mypkg 0.1" in text


def test_a_local_directory_shadows_the_editable_install(
    cli: Cli, editable: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, project = editable
    write(tmp_path / "mypkg" / "__init__.py", "LOCAL = True\n")
    monkeypatch.chdir(tmp_path)
    found = which_json(cli, "--python", str(python), "mypkg")
    assert found["imported"]["origin"] == str(tmp_path / "mypkg" / "__init__.py")  # type: ignore[index]
    roles = {copy["origin"]: (copy["role"], copy["source"]) for copy in found["copies"]}  # type: ignore[attr-defined]
    assert roles[str(tmp_path / "mypkg" / "__init__.py")] == ("imported", "current directory")
    shadowed = roles[str(project / "src" / "mypkg" / "__init__.py")]
    assert shadowed[0] == "shadowed"
    text = cli("dotdbg", "which", "--python", str(python), "mypkg:Model").stdout
    assert "shadows: " + str(project / "src" / "mypkg" / "__init__.py") in text
    assert "editable install of mypkg" in text
    assert "the current directory comes first" in text
    assert "mypkg has no attribute 'Model'" in text  # the local copy is what runs


def test_namespace_portions_are_listed_and_a_later_regular_package_wins(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, regular = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    write(first / "ns" / "one.py", "")
    write(second / "ns" / "two.py", "")
    monkeypatch.chdir(tmp_path)
    env = {"PYTHONPATH": f"{first}:{second}"}
    found = which_json(cli, "--python", sys.executable, "ns", env=env)
    assert found["imported"]["kind"] == "namespace package"  # type: ignore[index]
    portions = [c["entry"] for c in found["copies"] if c["role"] == "namespace portion"]  # type: ignore[attr-defined]
    assert portions == [str(first), str(second)]
    write(regular / "ns" / "__init__.py", "")
    env = {"PYTHONPATH": f"{first}:{second}:{regular}"}
    found = which_json(cli, "--python", sys.executable, "ns.one", env=env)
    assert found["imported"] is None  # the regular package replaces the namespace: no ns.one
    found = which_json(cli, "--python", sys.executable, "ns", env=env)
    assert found["imported"]["origin"] == str(regular / "ns" / "__init__.py")  # type: ignore[index]
    shadowed = {c["entry"] for c in found["copies"] if c["role"] == "shadowed"}  # type: ignore[attr-defined]
    assert shadowed == {str(first), str(second)}


def test_a_module_the_probe_itself_imports_is_still_the_users(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe imports json; a local json/ must still be the one reported and imported."""
    write(tmp_path / "json" / "__init__.py", "MINE = 1\n")
    monkeypatch.chdir(tmp_path)
    found = which_json(cli, "--python", sys.executable, "json:MINE")
    assert found["imported"]["origin"] == str(tmp_path / "json" / "__init__.py")  # type: ignore[index]
    assert "error" not in found["attr"]  # type: ignore[operator]


PROGRAM = """\
import subprocess
import sys


def decide(x):
    if x > 1:
        return "big"
    return "small"


if __name__ == "__main__":
    if sys.argv[1] == "child":
        print(subprocess.run([sys.executable, __file__, "5"]).returncode)
    else:
        print(decide(int(sys.argv[1])))
"""
BIG_LINE = 7


def pythons() -> list[str]:
    """This interpreter (settrace) and a 3.12+ one (sys.monitoring) where one is installed."""
    candidates = [shutil.which(f"python3.{minor}") for minor in (12, 13, 14)]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[2-9]*/bin/python3")))
    for candidate in filter(None, candidates):
        check = [candidate, "-c", "import sys; assert hasattr(sys, 'monitoring')"]
        if subprocess.run(check, capture_output=True).returncode == 0:
            return [sys.executable, candidate]
    return [sys.executable]


@pytest.mark.parametrize("python", pythons(), ids=lambda path: Path(path).name)
def test_ran_tells_whether_a_line_executed(cli: Cli, python: str, tmp_path: Path) -> None:
    program = write(tmp_path / "prog.py", PROGRAM)
    spot = f"{program}:{BIG_LINE}"
    done = cli("dotdbg", "which", "--json", "--ran", spot, "--", python, str(program), "5")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    method = "sys.monitoring" if python != sys.executable else "sys.settrace"
    [process] = found["processes"]
    assert (found["ran"], process["method"]) == (True, method)
    assert process["stack"][0][:2] == [str(program), BIG_LINE]
    done = cli("dotdbg", "which", "--ran", spot, "--", python, str(program), "0")
    assert done.returncode == 1
    assert "did NOT run" in done.stdout


def test_ran_follows_child_processes(cli: Cli, tmp_path: Path) -> None:
    program = write(tmp_path / "prog.py", PROGRAM)
    done = cli(
        "dotdbg",
        "which",
        "--json",
        "--ran",
        f"{program}:{BIG_LINE}",
        "--",
        sys.executable,
        str(program),
        "child",
    )
    found = json.loads(done.stdout)
    assert [p["ran"] for p in found["processes"]] == [False, True]


def test_ran_names_the_copy_of_the_same_name_that_ran_instead(cli: Cli, tmp_path: Path) -> None:
    edited = write(tmp_path / "checkout" / "prog.py", PROGRAM)
    installed = write(tmp_path / "installed" / "prog.py", PROGRAM)
    done = cli(
        "dotdbg",
        "which",
        "--ran",
        f"{edited}:{BIG_LINE}",
        "--",
        sys.executable,
        str(installed),
        "5",
    )
    assert done.returncode == 1
    assert "a file of the same name ran instead" in done.stdout
    assert str(installed) in done.stdout


def test_ran_keeps_a_sitecustomize_it_stands_in_front_of(cli: Cli, tmp_path: Path) -> None:
    write(tmp_path / "site" / "sitecustomize.py", "import os\nos.environ['CUSTOM'] = 'loaded'\n")
    program = write(tmp_path / "prog.py", "import os\nprint(os.environ.get('CUSTOM'))\n")
    done = subprocess.run(
        [
            Path(sys.executable).parent / "dotdbg",
            "which",
            "--ran",
            f"{program}:2",
            "--",
            sys.executable,
            str(program),
        ],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path / "site")},
    )
    assert done.stdout.splitlines()[0] == "loaded", done.stderr
    assert "RAN" in done.stdout


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["a-b"], "'a-b' is not a module name"),
        (["--python", "no-such-python", "json"], "no interpreter 'no-such-python' on PATH"),
        (["--ran", "nofile.py:3", "--", "true"], "--ran: no such file: nofile.py"),
        (["--ran", "x", "--", "true"], "--ran 'x' is not FILE:LINE"),
        (["--ran", "prog.py:1"], "--ran FILE:LINE needs the command to run after --"),
        ([], "missing MODULE"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    cli: Cli, args: list[str], error: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "prog.py", "x = 1\n")
    done = cli("dotdbg", "which", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(f"dotdbg: error: {error}"), done.stderr
    assert "Traceback" not in done.stderr


def test_ran_refuses_a_line_without_a_statement(cli: Cli, tmp_path: Path) -> None:
    program = write(tmp_path / "prog.py", PROGRAM)
    done = cli("dotdbg", "which", "--ran", f"{program}:3", "--", sys.executable, str(program))
    assert done.returncode == 2
    assert "holds no statement that runs" in done.stderr
