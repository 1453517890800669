"""Real PyTorch, where it is installed (issue 23.7): a gloo DDP job of 6 ranks on the test SLURM
cluster, started with a bare ``srun``, in which rank 5 skips an all_reduce. ``stacks --native
--job`` must name the collective the other ranks wait in (Python and native frames, merged into
one class) and the odd rank's Python line.

Skipped without torch: PyPI's Linux torch brings the CUDA libraries (gigabytes), so it is not
a test dependency (the CPU wheel from download.pytorch.org is enough here). The NCCL variant
needs an NVIDIA GPU.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest

from tests.infra.procs import free_ports
from tests.infra.slurm import SlurmCluster
from tests.stacks.stacks_support import (
    BARE_PATH,
    dotdbg_without_py_spy,
    per_node_dotdbg,
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
