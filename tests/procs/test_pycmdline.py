from __future__ import annotations

import pytest

from dotdbg.procs import pycmdline


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("python", True),
        ("python3", True),
        ("python3.11", True),
        ("python3.13t", True),
        ("python3.13td", True),  # free-threaded debug build
        ("python2.7mu", True),
        ("python3-dbg", True),
        ("pythonw", True),
        ("ipython", False),
        ("python-config", False),
        ("bpython3x", False),
        ("torchrun", False),
    ],
)
def test_python_names(name: str, expected: bool) -> None:
    assert pycmdline.is_python_name(name) is expected


@pytest.mark.parametrize(
    ("exe", "argv", "name", "expected"),
    [
        ("/usr/bin/python3.11", (), "torchrun", True),  # shebang script: the exe tells
        (None, ("/usr/bin/python3", "/usr/local/bin/torchrun"), "torchrun", True),  # another user's
        (None, (), "pt_data_worker", True),  # renamed, exe and argv unreadable
        (None, (), "python3", True),  # zombie
        ("/usr/bin/bash", ("bash",), "bash", False),
        ("/usr/bin/perl", ("perl", "train.py"), "perl", False),
        (None, (), None, False),
    ],
)
def test_detection_rule(
    exe: str | None, argv: tuple[str, ...], name: str | None, expected: bool
) -> None:
    assert pycmdline.is_python(exe, argv, name) is expected


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("python", "train.py", "--lr", "1"), ("script", ("train.py", "--lr", "1"))),
        (("python3", "-u", "-X", "dev", "-W", "error", "t.py"), ("script", ("t.py",))),
        (("python", "-m", "pytest", "-x"), ("-m", ("pytest", "-x"))),
        (("python", "-mtorch.distributed.run", "a"), ("-m", ("torch.distributed.run", "a"))),
        (("python", "-c", "print(1)", "tok"), ("-c", ("print(1)", "tok"))),
        (("python", "-Bu"), ("", ())),
        (("python",), ("", ())),
        (("python", "-"), ("script", ("-",))),
        (("sleep", "10"), ("argv", ("sleep", "10"))),
    ],
)
def test_split_invocation(argv: tuple[str, ...], expected: tuple[str, tuple[str, ...]]) -> None:
    assert pycmdline.split_invocation(argv) == expected


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("/usr/bin/python3", "/opt/venv/bin/torchrun", "--nproc", "2", "t.py"), "torchrun"),
        (("python", "-m", "torch.distributed.run", "t.py"), "torchrun"),
        (("python", "-m", "torch.distributed.launch", "t.py"), "torchrun"),
        (("python", "/usr/bin/accelerate", "launch", "t.py"), "accelerate"),
        (("python", "-m", "deepspeed.launcher.runner"), "deepspeed"),
        (("python", "/x/bin/deepspeed", "t.py"), "deepspeed"),
        (("python", "-m", "pytest"), "pytest"),
        (("python", "/x/bin/pytest", "-x"), "pytest"),
        (("python", "-m", "ipykernel_launcher", "-f", "k.json"), "ipykernel"),
        (("python", "/x/bin/jupyter-lab"), "jupyter"),
        (("python", "train.py"), None),
        (("python", "-c", "import pytest"), None),
        ((), None),
    ],
)
def test_launchers(argv: tuple[str, ...], expected: str | None) -> None:
    assert pycmdline.launcher_of(argv) == expected


@pytest.mark.parametrize(
    ("argv", "name", "expected"),
    [
        (("/v/bin/python", "/home/me/proj/train.py", "--lr", "1"), "python", "train.py --lr 1"),
        (("python", "-m", "pytest", "-x"), "python", "-m pytest -x"),
        (
            ("python", "-c", "\nimport time\n  time.sleep(9)\n"),
            "python",
            "-c import time; time.sleep(9)",
        ),
        (("python", "-c", "x" * 60), "python", "-c " + "x" * 39 + "…"),
        (("python", "train.py"), "pt_data_worker", "[pt_data_worker] train.py"),
        (("/usr/bin/python3", "/x/bin/torchrun", "t.py"), "torchrun", "torchrun t.py"),
        (("python3",), "python3", "python3"),
        ((), "python3", "[python3] <defunct>"),
        (("my-title", "worker"), "pt_elastic", "[pt_elastic] my-title worker"),
    ],
)
def test_short_command(argv: tuple[str, ...], name: str, expected: str) -> None:
    assert pycmdline.short_command(argv, name) == expected


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        ("/home/me/proj/.venv", "proj/.venv"),
        ("/home/me/proj/venv/", "proj/venv"),
        ("/opt/conda/envs/torch", "torch"),
    ],
)
def test_env_label(prefix: str, expected: str) -> None:
    assert pycmdline.env_label(prefix) == expected


def test_env_from_environ_prefers_virtualenv() -> None:
    assert pycmdline.env_from_environ("/p/.venv", "base") == "p/.venv"
    assert pycmdline.env_from_environ(None, "base") == "base"
    assert pycmdline.env_from_environ("", "") is None


def test_env_prefix_of() -> None:
    assert pycmdline.env_prefix_of("/opt/conda/envs/x/bin/python") == "/opt/conda/envs/x"
    assert pycmdline.env_prefix_of("python") is None


@pytest.mark.parametrize(
    ("argv", "inspector"),
    [
        (("/v/bin/python3", "/v/bin/dotdbg", "pyspy", "--json", "--in-job", "7"), True),
        (("/v/bin/python3", "/v/bin/dotdbg", "--home", "/h", "stacks", "-w", "n1"), True),
        (("python3", "-m", "dotdbg", "gdb", "42"), True),
        (("/v/bin/python3", "/v/bin/watch-python", "--json"), True),
        (("/v/bin/python3", "/v/bin/dotdbg", "mem-fill", "1G"), False),  # the load itself
        (("python3", "train.py", "stacks"), False),
        (("python3", "-m", "dotdbgx", "stacks"), False),
        (("python3",), False),
    ],
)
def test_dotdbgs_own_inspecting_commands(argv: tuple[str, ...], inspector: bool) -> None:
    assert pycmdline.is_dotdbg_inspector(argv) is inspector
