"""Real PyTorch, where it is installed (issue 23.7): a gloo DDP job of 6 ranks on the test SLURM
cluster, started with a bare ``srun``, in which rank 5 skips an all_reduce. ``stacks --native
--job`` must name the collective the other ranks wait in (Python and native frames, merged into
one class) and the odd rank's Python line.

The NCCL variant (marked ``gpu`` too) needs one NVIDIA GPU and a CUDA build of torch: ``torchrun
--standalone`` starts 2 ranks on this machine (no SLURM needed), rank 1 never calls the all_reduce,
so rank 0 waits in NCCL's bootstrap, inside the communicator's set-up that its first collective
starts, for a peer that never comes (torch's and NCCL's C++ frames under the Python
``all_reduce``); ``stacks --native --tree`` on torchrun's pid must show it. Both ranks may share
one GPU: NCCL refuses two ranks on one GPU ("Duplicate GPU detected") only once both join a
communicator, and rank 1 never does.

Skipped without torch: PyPI's Linux torch brings the CUDA libraries (gigabytes), so it is not
a test dependency (the CPU wheel from download.pytorch.org is enough here).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest

from tests.infra.procs import free_ports
from tests.infra.slurm import SlurmCluster
from tests.stacks.stacks_support import (
    BARE_PATH,
    BIN,
    dotdbg_without_py_spy,
    per_node_dotdbg,
    run_dotdbg,
    stacks_json,
)

ODD = 5
PROGRAM = textwrap.dedent(
    f"""
    import datetime, os, time
    import torch, torch.distributed as dist

    def skip_the_collective():
        time.sleep(3600)

    def step(rank):
        if rank == {ODD}:
            skip_the_collective()
        dist.all_reduce(torch.ones(4))

    rank = int(os.environ["SLURM_PROCID"])
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{{os.environ['PORT']}}", rank=rank, world_size=6,
        timeout=datetime.timedelta(hours=1),
    )
    print("ready", rank, flush=True)
    step(rank)
    """
)
# torch's import takes seconds per rank; six of them on two loaded cores, many more (the job
# was up within 15-35 s at load 4-23)
STARTED_WITHIN = 600
# found, not imported: only the job's ranks import it (seconds, in every xdist worker otherwise)
pytestmark = [
    pytest.mark.torch,
    pytest.mark.slow,
    pytest.mark.skipif(find_spec("torch") is None, reason="torch is not installed"),
    pytest.mark.timeout(STARTED_WITHIN + 120),  # the first test's setup waits for the job
]


@pytest.fixture(scope="module")
def torch_job(
    slurm_cluster: SlurmCluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[int, str]]:
    """(job id, a PATTERN for its ranks): ranks 0-4 in the all_reduce, rank 5 asleep."""
    folder = tmp_path_factory.mktemp("torch")
    token = f"dotdbgtorch{os.getpid()}"
    program = folder / f"{token}.py"
    program.write_text(PROGRAM)
    with slurm_cluster.bare_srun_job(program, STARTED_WITHIN, f"PORT={free_ports(1)}") as started:
        yield started[0], token


def functions(frames: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [frame["function"] for frame in frames]


def test_native_tree_names_the_collective_and_the_odd_ranks_line(
    slurm_cluster: SlurmCluster, torch_job: tuple[int, str]
) -> None:
    job, token = torch_job
    env = {**slurm_cluster.env, "NO_COLOR": "1"}
    # 30 s a dump: a node answered in 8 s at load 23 (py-spy reads libtorch's symbols)
    args = ["--native", "--samples", "2", "--interval", "0.5", "--timeout", "30"]
    args += ["--job", str(job), token]
    report = stacks_json(*args, env=env)
    assert report["processes"] == 6 and report["node_problems"] == []
    classes = {c["label"]: c for c in report["classes"]}
    assert list(classes) == ["rank 5", "ranks 0-4"]  # smallest first
    waiting = classes["ranks 0-4"]
    assert waiting["state"] == "stuck" and classes["rank 5"]["state"] == "stuck"
    main = waiting["threads"][0]  # innermost first
    collective = functions(main).index("all_reduce")
    assert not main[collective]["native"]
    assert main[collective]["file"].endswith("torch/distributed/distributed_c10d.py")
    below = [f for f in main[:collective] if f["native"]]  # the C++ the collective waits in
    assert len(below) == collective, main[:collective]
    assert {"function": "c10d::Work::wait", "file": "libtorch_cpu.so"}.items() <= next(
        f for f in below if f["function"].startswith("c10d::")
    ).items()
    assert "pthread_cond_wait" in functions(below)
    assert (main[collective + 2]["function"], main[collective + 2]["line"]) == ("step", 11)
    odd = classes["rank 5"]["threads"][0]
    assert "all_reduce" not in functions(odd)
    shown = [(f["function"], f["line"]) for f in odd if not f["native"]]
    assert shown[:2] == [("skip_the_collective", 6), ("step", 10)]
    assert functions(odd)[0] == "clock_nanosleep"  # time.sleep's C call, named


def test_a_node_without_py_spy_is_dumped_by_gdb_with_gloos_threads(
    slurm_cluster: SlurmCluster, torch_job: tuple[int, str], tmp_path: Path
) -> None:
    """node3 (ranks 4 and 5) has no py-spy: its ranks come from ``dotdbg gdb --json``, which
    sees the threads py-spy cannot (gloo's own, with no Python in them)."""
    job, token = torch_job
    bare = dotdbg_without_py_spy(tmp_path)
    remote = per_node_dotdbg(tmp_path, f'  node3:*) exec {bare} "$@" ;;\n')
    env = {**slurm_cluster.env, "NO_COLOR": "1", "PATH": BARE_PATH}
    args = ["--native", "--all-threads", "--timeout", "30", "--remote-dotdbg", str(remote)]
    args += ["--job", str(job), token]
    report = stacks_json(*args, env=env)
    assert report["processes"] == 6 and report["node_problems"] == [], report["node_problems"]
    assert report["not_dumped"] == []
    classes = {c["label"]: c for c in report["classes"]}
    assert set(classes) == {"ranks 0-3", "rank 4", "rank 5"}
    gdb_rank = classes["rank 4"]
    assert gdb_rank["representative"]["host"] == "node3"
    threads = [functions(thread) for thread in gdb_rank["threads"]]
    main = next(names for names in threads if "all_reduce" in names)
    assert any(name.startswith("c10d::Work::wait") for name in main)
    assert any(  # gloo's ring all-reduce, waiting for the rank that never came
        any(name.startswith("gloo::") and "allreduce" in name for name in names)
        for names in threads
    ), threads
    odd = [(f["function"], f["line"]) for f in classes["rank 5"]["threads"][0] if not f["native"]]
    assert odd[:2] == [("skip_the_collective", 6), ("step", 10)]


NCCL_ODD = 1
NCCL_PROGRAM = textwrap.dedent(
    f"""
    import datetime, os, time
    import torch, torch.distributed as dist

    def skip_the_collective():
        time.sleep(3600)

    def step(rank, tensor):
        if rank == {NCCL_ODD}:
            skip_the_collective()
        dist.all_reduce(tensor)

    rank, local_rank = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank % torch.cuda.device_count())
    dist.init_process_group("nccl", timeout=datetime.timedelta(hours=1))
    tensor = torch.ones(4, device=device)
    torch.cuda.synchronize(device)
    print("ready", rank, flush=True)
    step(rank, tensor)
    """
)
# the ranks print "ready" before the all_reduce; NCCL then sets up (seconds) before it waits
NCCL_WAITS_WITHIN = 120


def cuda_torch_problem() -> str:
    """Why this machine cannot run the NCCL job, or "" when it can. In a child process: torch's
    CUDA start costs seconds, and only this test should pay for it."""
    torchrun = BIN / "torchrun"
    if not torchrun.exists():
        return f"torchrun is not installed beside {sys.executable}"
    probe = (
        "import torch, torch.distributed as d;"
        "print(torch.__version__, torch.cuda.device_count(), d.is_nccl_available())"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    if done.returncode != 0:
        return f"torch does not start: {done.stderr.strip().splitlines()[-1:]}"
    version, gpus, nccl = done.stdout.split()
    if int(gpus) < 1:
        return f"torch {version} sees no CUDA GPU (needs 1)"
    return "" if nccl == "True" else f"torch {version} is built without NCCL"


@pytest.fixture(scope="module")
def nccl_job(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """torchrun's pid, its ranks started: rank 0 in the NCCL all_reduce, rank 1 asleep."""
    problem = cuda_torch_problem()
    if problem:
        pytest.skip(problem)
    import psutil

    program = tmp_path_factory.mktemp("nccl") / f"dotdbgnccl{os.getpid()}.py"
    program.write_text(NCCL_PROGRAM)
    launcher = subprocess.Popen(
        [str(BIN / "torchrun"), "--standalone", "--nproc-per-node", "2", str(program)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert launcher.stdout is not None
        ready = sorted(launcher.stdout.readline() for _ in range(2))
        assert ready == ["ready 0\n", "ready 1\n"], ready
        yield launcher.pid
    finally:
        for child in psutil.Process(launcher.pid).children(recursive=True):
            child.send_signal(signal.SIGKILL)
        launcher.kill()
        launcher.wait()


def nccl_stacks(launcher: int) -> dict:  # type: ignore[type-arg]
    """``stacks --native --tree`` of the torchrun job once rank 0 waits in NCCL's bootstrap
    (the same stack in both samples); the last report when that never came."""
    # 60 s a dump: py-spy reads the symbols of libtorch_cuda and libnccl first (2.1 s on the
    # H100 machine)
    args = ["--native", "--samples", "2", "--interval", "0.5", "--timeout", "60"]
    env = {**os.environ, "NO_COLOR": "1"}
    deadline = time.monotonic() + NCCL_WAITS_WITHIN
    while True:
        done = run_dotdbg("stacks", "--json", *args, "--tree", str(launcher), env=env, timeout=180)
        assert done.stdout, done.stderr
        report: dict = json.loads(done.stdout)  # type: ignore[type-arg]
        waiting = next((c for c in report["classes"] if c["label"] == "rank 0"), None)
        if waiting and waiting["state"] in SAME_STACK and _in_bootstrap(waiting["threads"][0]):
            return report
        if time.monotonic() > deadline:
            return report
        time.sleep(1)


# NCCL's bootstrap polls a non-blocking accept(2) (rank 0 took 82% of a CPU on the H100
# machine), so its samples are on a CPU: busy, as a spin is; stuck where a sample caught it off
SAME_STACK = ("busy", "stuck")


def _in_bootstrap(frames: list[dict]) -> bool:  # type: ignore[type-arg]
    return "bootstrapInit" in functions(frames)


@pytest.mark.gpu
def test_nccl_rank_waits_in_nccls_bootstrap_for_the_rank_that_skipped(nccl_job: int) -> None:
    report = nccl_stacks(nccl_job)
    assert report["processes"] == 3, report  # torchrun and its 2 ranks
    classes = {c["label"]: c for c in report["classes"]}
    launcher = next(c for c in report["classes"] if c["representative"]["pid"] == nccl_job)
    assert set(classes) == {"rank 0", "rank 1", launcher["label"]}
    assert launcher["state"] == "idle"  # torchrun's agent, watching its workers
    waiting = classes["rank 0"]
    assert waiting["state"] in SAME_STACK and classes["rank 1"]["state"] == "stuck"
    main = waiting["threads"][0]  # innermost first
    collective = functions(main).index("all_reduce")
    assert main[collective]["file"].endswith("torch/distributed/distributed_c10d.py")
    below = main[:collective]  # the C++ the collective waits in: torch's, then NCCL's
    assert all(f["native"] for f in below), below
    names = functions(below)
    assert {"function": "c10d::NCCLComm::create", "file": "libtorch_cuda.so"}.items() <= next(
        f for f in below if f["function"] == "c10d::NCCLComm::create"
    ).items()
    # NCCL's own frames, named with their sources (libnccl keeps its line tables)
    in_nccl = names[: names.index("c10d::NCCLComm::create")]
    assert {"ncclCommInitRankConfig", "bootstrapInit", "ncclSocketAccept"} <= set(in_nccl)
    assert next(f for f in below if f["function"] == "bootstrapInit")["file"] == "bootstrap.cc"
    assert (main[collective + 2]["function"], main[collective + 2]["line"]) == ("step", 11)
    odd = classes["rank 1"]["threads"][0]
    assert "all_reduce" not in functions(odd)
    shown = [(f["function"], f["line"]) for f in odd if not f["native"]]
    assert shown[:2] == [("skip_the_collective", 6), ("step", 10)]
    assert functions(odd)[0] == "clock_nanosleep"
