"""Memory per step on real programs: one that leaks in one section among sections that
allocate and free, run by ``dotdbg memstep``, from its own code, and from pdb."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dotdbg.memstep.meter import Meter
from tests.infra.spawner import BIN

MIB = 2**20
TIMEOUT = 120

LEAKY = """\
import sys
cache = []


def load(mib):
    return bytearray(mib * 2**20)  # zero-filled, so its pages are really touched


# %% load and drop a batch: no growth, a peak
batch = load(64)
del batch

# %% the leak: every batch kept
for _ in range(3):
    cache.append(load(32))

# %% report
print("kept", sum(map(len, cache)) // 2**20, "MiB", file=sys.stderr)
"""


def script(folder: Path, text: str, name: str = "prog.py") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def memstep(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BIN / "dotdbg", "memstep", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=TIMEOUT,
    )


def test_the_leaking_cell_is_the_one_that_keeps_memory(tmp_path: Path) -> None:
    prog = script(tmp_path, LEAKY)
    done = memstep("--json", "--", sys.executable, str(prog))
    assert done.returncode == 0, done.stderr
    steps = {s["label"].split()[0]: s for s in json.loads(done.stdout)["steps"]}
    dropped, leak, report = steps["prog.py:10-11"], steps["prog.py:14-15"], steps["prog.py:18"]
    assert abs(dropped["rss_delta"]) < 8 * MIB and dropped["rss_peak_delta"] >= 60 * MIB
    assert 90 * MIB <= leak["rss_delta"] <= 110 * MIB
    assert abs(report["rss_delta"]) < 8 * MIB
    assert "memstep: the most RSS kept: prog.py:14-15 for _ in range(3):" in done.stderr
    assert "kept 96 MiB" in done.stderr  # the script's own output, in order


def test_statements_and_the_main_guard_body_are_steps(tmp_path: Path) -> None:
    prog = script(
        tmp_path,
        """\
        import sys
        held = []

        if __name__ == "__main__":
            held.append(bytearray(48 * 2**20))
            print(sys.argv[1:])
        """,
    )
    done = memstep("--json", "--", sys.executable, str(prog), "a", "b")
    labels = [s["label"] for s in json.loads(done.stdout)["steps"]]
    assert labels == [
        "prog.py:1 import sys",
        "prog.py:2 held = []",
        "prog.py:5 held.append(bytearray(48 * 2**20))",
        "prog.py:6 print(sys.argv[1:])",
    ]
    assert "['a', 'b']" in done.stderr  # the script's own argv; its stdout moved for --json


def test_the_scripts_exit_status_and_traceback_are_kept(tmp_path: Path) -> None:
    exits = script(tmp_path, "import sys\nx = 1\nsys.exit(3)\n")
    assert memstep("--", sys.executable, str(exits)).returncode == 3
    raises = script(tmp_path, "x = 1\nraise ValueError('bad batch')\n", "raises.py")
    done = memstep("--", sys.executable, str(raises))
    assert done.returncode == 1
    assert "ValueError: bad batch" in done.stderr
    assert "memstep: raises.py:2 raise ValueError('bad batch') (raised ValueError)" in done.stderr


def test_step_as_context_manager_and_decorator_in_the_users_code(tmp_path: Path) -> None:
    prog = script(
        tmp_path,
        """\
        from dotdbg.memstep import step

        kept = []

        @step
        def leak():
            kept.append(bytearray(40 * 2**20))

        with step("allocate and free"):
            bytearray(40 * 2**20)

        leak()
        leak()
        """,
    )
    done = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True)
    lines = done.stderr.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == ["allocate and free", "leak", "leak"]
    assert all(re.search(r"RSS +\+40\.0M", line) for line in lines[1:]), lines


def test_mark_from_pdb(tmp_path: Path) -> None:
    prog = script(
        tmp_path,
        """\
        kept = []
        kept.append(bytearray(40 * 2**20))
        print("done")
        """,
    )
    mark = "p __import__('dotdbg.memstep').memstep.mark('{}')"
    commands = (
        "\n".join([mark.format("start"), "n", "n", mark.format("after the append"), "c"]) + "\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pdb", str(prog)],
        input=commands,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    marks = [line for line in done.stderr.splitlines() if line.startswith("memstep:")]
    assert [line.split(":")[1].strip() for line in marks] == ["start", "after the append"]
    assert re.search(r"RSS +\+40\.0M", marks[1]), marks


class FakeCuda:
    """The seam where PyTorch's allocator is read: a GPU cannot exist in this test."""

    def __init__(self) -> None:
        self.allocated = [0, 3 * 2**30]
        self.peaks = [4 * 2**30]

    def now(self) -> int:
        return self.allocated.pop(0)

    def reset_peak(self) -> None:
        pass

    def peak(self) -> int:
        return self.peaks.pop(0)


def test_gpu_growth_and_peak_are_shown_when_the_program_uses_cuda() -> None:
    lines: list[str] = []

    class Lines:
        def write(self, text: str) -> None:
            lines.append(text)

        def flush(self) -> None:
            pass

    meter = Meter(stream=Lines(), gpu=FakeCuda())  # type: ignore[arg-type]
    with meter.step("forward"):
        pass
    assert "GPU    +3.0G (peak +4.0G) = 3.0G" in "".join(lines)


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (["bash", "x.sh"], "'bash' is not a Python interpreter"),
        (["python3", "-m", "train"], "python -m cannot be stepped through"),
        (["python3", "-u"], "no script in the command"),
        (["python3", "missing.py"], "no such script: missing.py"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(command: list[str], error: str, tmp_path: Path) -> None:
    done = memstep("--", *command, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"dotdbg: error: {error}"), done.stderr
