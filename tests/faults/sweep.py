"""The full fault sweep, run by an interpreter with no shellcheck beside it.

``python -m tests.faults.sweep [PYTEST ARGS]`` runs ``pytest --fault-sweep -n 0`` (every
matrix of ``test_every_fault_at_every_point`` unless the arguments name others) under a venv
made for the run: the test environment's packages, the ``dotdbg`` launcher (so a PATH block is
written as before) and no shellcheck. shellcheck comes with the ``check`` extra, which the tests
install; it costs 0.4 s of CPU at every render, more than the rest of an install under strace,
and makes no call in the home, so the points of a matrix are the same without it
(``test_points.py::test_the_sweeps_interpreter_makes_the_same_calls_in_the_home``) and the sweep
takes about half the time (measured: 660 → 290 ms a case of ``install``).

``python -m tests.faults.sweep --points OPERATION SHAPE`` prints a matrix's points, one per line.
"""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVERY_MATRIX = "tests/faults/test_fault_matrix.py::test_every_fault_at_every_point"


def sweep_python(root: Path) -> Path:
    """A venv at ``root`` that reads this one's packages, with the launcher and no shellcheck."""
    venv.EnvBuilder(with_pip=False).create(root)
    python = root / "bin" / "python"
    ours = sysconfig.get_path("purelib")
    own = Path(sysconfig.get_path("purelib", vars={"base": str(root), "platbase": str(root)}))
    # a .pth line that imports runs: addsitedir also reads the editable install's .pth files
    (own / "dotdbg-tests.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    launcher = Path(sys.executable).with_name("dotdbg")
    if launcher.is_file():
        script = launcher.read_text().split("\n", 1)[1]
        (root / "bin" / "dotdbg").write_text(f"#!{python}\n{script}")
        (root / "bin" / "dotdbg").chmod(0o755)
    return python


# what differs from run to run in a traced call: addresses, times and process ids in names
VARIES = re.compile(r"0x[0-9a-f]+|\d{8}T\d{6}Z(-\d+)?|\.\d+\.[0-9a-f]{12}\.dotdbg-tmp")


def print_points(operation: str, shape: str) -> None:
    """Each point's call, faults and paths (not its number: the interpreter's own start makes
    more or fewer calls of each kind outside the home; nor what it writes: a PATH block names
    the launcher's folder)."""
    from tests.faults.faultrun import OPERATIONS
    from tests.faults.test_fault_matrix import Matrix

    with tempfile.TemporaryDirectory() as tmp:
        in_home = re.compile(re.escape(tmp) + r'[^">]*')
        for point in Matrix(Path(tmp), OPERATIONS[operation], shape).points:
            where = " ".join(in_home.findall(point.line)).replace(tmp, "~")
            print(point.syscall, ",".join(point.faults), VARIES.sub("~", where))


def main(args: list[str]) -> int:
    if args[:1] == ["--points"]:
        print_points(*args[1:3])
        return 0
    named = [arg for arg in args if "::" in arg or arg.startswith("tests/")]
    with tempfile.TemporaryDirectory(prefix="dotdbg-sweep-") as tmp:
        python = sweep_python(Path(tmp))
        command = [str(python), "-m", "pytest", "--fault-sweep", "-n", "0", *args]
        return subprocess.run(command if named else [*command, EVERY_MATRIX], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
