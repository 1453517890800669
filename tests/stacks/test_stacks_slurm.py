"""``dotdbg stacks --job`` on a real SLURM cluster (munge, slurmctld, three slurmd) and a real
6-rank job, with faults injected on single nodes through the remote dotdbg path."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.infra.procs import argv_of, cmdline_of, environ_of, wait_for
from tests.infra.slurm import SlurmCluster
from tests.stacks.stacks_support import (
    BARE_PATH,
    DOTDBG,
    RankJob,
    dotdbg_without_py_spy,
    per_node_dotdbg,
    run_dotdbg,
    stacks_json,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def env(slurm_cluster: SlurmCluster) -> dict[str, str]:
    return {**slurm_cluster.env, "NO_COLOR": "1"}


def classes_of(report: dict) -> list[tuple[str, int, bool | None, str]]:  # type: ignore[type-arg]
    return [
        (c["label"], c["representative"]["pid"], c["stuck"], c["threads"][0][0]["function"])
        for c in report["classes"]
    ]


def test_names_each_class_with_its_ranks_and_a_representative(
    rank_job: RankJob, env: dict[str, str]
) -> None:
    report = stacks_json("--job", str(rank_job.job), rank_job.token, env=env)
    assert report["hosts"] == ["node1", "node2", "node3"]
    assert report["processes"] == 6 and report["node_problems"] == []
    labels = [c["label"] for c in report["classes"]]
    assert labels == ["rank 4", "rank 5", "ranks 0-3"]  # smallest first, outliers on top
    waiting = report["classes"][2]
    assert waiting["representative"] == {"host": "node1", "pid": rank_job.pids[0], "rank": 0}
    assert [f["function"] for f in waiting["threads"][0][:3]] == [
        "socket.accept",  # py-spy names methods by their class on Python 3.11+
        "wait_for_peers",
        "all_reduce",
    ]
    loading = report["classes"][0]
    assert loading["representative"]["pid"] == rank_job.pids[4]
    assert [f["function"] for f in loading["threads"][0][:2]] == ["fetch", "load_batch"]
    hosts = {p["rank"]: p["host"] for c in report["classes"] for p in c["processes"]}
    assert hosts == rank_job.nodes


def test_text_report_shows_the_tree_and_the_classes(rank_job: RankJob, env: dict[str, str]) -> None:
    done = run_dotdbg("stacks", "--job", str(rank_job.job), rank_job.token, env=env)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("6 processes on 3 hosts, 3 classes\n")
    assert "└─ <module> (" in out and "6 processes · ranks 0-5" in out
    assert "train_step (" in out and "4 processes · ranks 0-3" in out
    assert f"representative: pid {rank_job.pids[0]} on node1 (rank 0)" in out
    assert "[1] 1 process · rank 4" in out and "[3] 4 processes · ranks 0-3" in out


def test_samples_tell_stuck_from_moving(rank_job: RankJob, env: dict[str, str]) -> None:
    report = stacks_json(
        "--job", str(rank_job.job), "--samples", "3", "--interval", "0.3", rank_job.token, env=env
    )
    assert report["samples"] == 3
    states = {c["label"]: c["stuck"] for c in report["classes"]}
    assert states == {"ranks 0-3": True, "rank 4": True, "rank 5": False}


def fault_dotdbg(tmp_path: Path) -> Path:
    """A dotdbg for the nodes that misbehaves on one node, as $FAULT says."""
    bare = dotdbg_without_py_spy(tmp_path)
    sleeping_py_spy = tmp_path / "sleepy"
    sleeping_py_spy.mkdir()
    (sleeping_py_spy / "py-spy").write_text("#!/bin/sh\nexec sleep 600\n")
    (sleeping_py_spy / "py-spy").chmod(0o755)
    return per_node_dotdbg(
        tmp_path,
        "  node3:hang) exec sleep 600 ;;\n"
        "  node3:kill*) kill -KILL $$ ;;\n"
        f"  node3:slow-py-spy) PATH={sleeping_py_spy}:$PATH ;;\n"
        f'  node2:*no-py-spy) exec {bare} "$@" ;;\n',
    )


def with_fault(env: dict[str, str], fault: str) -> dict[str, str]:
    # no venv on PATH: py-spy is found beside each dotdbg's interpreter, or not at all
    return {**env, "FAULT": fault, "PATH": BARE_PATH}


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        ("hang", ["node3: no answer within 6s (0 lines sent)"]),
        (
            "kill+no-py-spy",
            [
                "node2: exit 2; dotdbg: error: py-spy is not installed",
                "node3: ended by signal 9",
            ],
        ),
    ],
)
def test_a_failing_node_is_named_and_the_rest_still_merged(
    rank_job: RankJob, env: dict[str, str], tmp_path: Path, fault: str, expected: list[str]
) -> None:
    remote = fault_dotdbg(tmp_path)
    # 3 s: at load 20 the nodes that answer took more than 2 s to start dotdbg and dump
    args = ("--job", str(rank_job.job), "--remote-dotdbg", str(remote), "--timeout", "3")
    done = run_dotdbg("stacks", *args, rank_job.token, env=with_fault(env, fault))
    assert done.returncode == 1
    problems = [line for line in done.stdout.splitlines() if line.startswith("no answer: ")]
    assert len(problems) == len(expected), done.stdout
    for problem, start in zip(problems, expected, strict=True):
        assert problem.startswith(f"no answer: {start}")
    if "no-py-spy" in fault:
        assert "; hint: " in problems[0] and "-m pip install py-spy" in problems[0]
    answered = {
        node
        for node in ("node1", "node2", "node3")
        if node not in done.stdout.split("no answer:", 1)[1]
    }
    kept = [rank for rank, node in rank_job.nodes.items() if node in answered]
    assert done.stdout.startswith(f"{len(kept)} processes on {len(answered)} host")


def test_native_on_a_node_without_py_spy_comes_from_gdb_into_the_same_tree(
    rank_job: RankJob, env: dict[str, str], tmp_path: Path
) -> None:
    """node2 has dotdbg but no py-spy (not on PATH, not beside dotdbg): with --native its
    ranks are dumped by ``dotdbg gdb --json`` there, and merge with the others' by rank."""
    bare = dotdbg_without_py_spy(tmp_path)
    remote = per_node_dotdbg(tmp_path, f'  node2:*) exec {bare} "$@" ;;\n')
    args = (
        "--native",
        "--timeout",
        "30",
        "--job",
        str(rank_job.job),
        "--remote-dotdbg",
        str(remote),
    )
    report = stacks_json(*args, rank_job.token, env={**env, "PATH": BARE_PATH})
    assert report["processes"] == 6 and report["node_problems"] == [], report["node_problems"]
    assert report["not_dumped"] == [] and report["ranks_not_seen"] == []
    on_node2 = sorted(rank for rank, node in rank_job.nodes.items() if node == "node2")
    (by_gdb,) = [c for c in report["classes"] if c["sources"] != ["py-spy"]]
    assert by_gdb["ranks"] == on_node2 and by_gdb["sources"] in (["pystack"], ["gdb"])
    assert {p["host"] for p in by_gdb["processes"]} == {"node2"}
    frames = by_gdb["threads"][0]  # innermost first: the C call, then the Python lines
    python = [f["function"] for f in frames if not f["native"]]
    assert python[:4] == ["accept", "wait_for_peers", "all_reduce", "train_step"]
    first_python = next(at for at, f in enumerate(frames) if not f["native"])
    assert first_python > 0 and all(f["native"] for f in frames[:first_python])
    below = {f["function"] for f in frames[:first_python]}
    assert below & {"accept", "__libc_accept", "accept4", "__libc_accept4"}, below
    others = [c for c in report["classes"] if c is not by_gdb]
    assert all(c["sources"] == ["py-spy"] for c in others)
    ranks = sorted(r for c in report["classes"] for r in c["ranks"])
    assert ranks == list(range(6))
    assert report["tree"]["label"] == "ranks 0-5"


@pytest.mark.parametrize(
    ("job", "message"),
    [
        ("999999", "dotdbg: error: job 999999: Invalid job id specified"),
        ("12x", "dotdbg: error: --job '12x' is not a job id"),
    ],
)
def test_a_wrong_job_id_is_one_line_and_exit_2(env: dict[str, str], job: str, message: str) -> None:
    done = run_dotdbg("stacks", "--job", job, env=env)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0] == message and lines[1].startswith("hint: ") and len(lines) == 2


def test_a_job_not_running_is_one_line_and_exit_2(
    slurm_cluster: SlurmCluster, rank_job: RankJob, env: dict[str, str]
) -> None:
    job = slurm_cluster.sbatch("#!/bin/sh\ntrue\n", "-N1")  # the 6 ranks hold every CPU
    wait_for(lambda: slurm_cluster.job_state(job) == "PENDING", 30, "job to wait")
    done = run_dotdbg("stacks", "--job", str(job), env=env)
    assert (done.returncode, done.stderr.splitlines()[0]) == (
        2,
        f"dotdbg: error: job {job} is pending, not running",
    )
    slurm_cluster.run(["scancel", str(job)])
    wait_for(lambda: slurm_cluster.job_state(job) != "PENDING", 30, "job to end")
    done = run_dotdbg("stacks", "--job", str(job), env=env)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] in (
        f"dotdbg: error: job {job} is not running (it has ended)",
        f"dotdbg: error: job {job} is cancelled, not running",
    )


def step_processes(job: int) -> list[int]:
    """Processes of ``job``'s steps other than the ranks' own (batch, step 0)."""
    needle = f"SLURM_JOB_ID={job}\0".encode()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and needle in environ_of(int(entry)):
            command = cmdline_of(int(entry))
            if "sleep 600" in command or " pyspy " in command:
                found.append(int(entry))
    return found


def start_slow_stacks(
    rank_job: RankJob, env: dict[str, str], tmp_path: Path, output: int
) -> subprocess.Popen[str]:
    """``stacks --job`` whose py-spy on node3 sleeps, once its dumpers run on the nodes. An
    earlier test's dumpers may still be on their way out (slurmstepd ends them): counted, they
    once let a test send its Ctrl-C while this dotdbg was still starting (it died of it, -2)."""
    remote = fault_dotdbg(tmp_path)
    argv = [DOTDBG, "stacks", "--job", str(rank_job.job), "--remote-dotdbg", str(remote)]
    earlier = set(step_processes(rank_job.job))
    proc = subprocess.Popen(
        [*argv, "--timeout", "60", rank_job.token],
        env=with_fault(env, "slow-py-spy"),
        stdout=output,
        stderr=output,
        text=True,
    )

    def started() -> bool:
        return len(set(step_processes(rank_job.job)) - earlier) >= 2

    try:
        wait_for(started, 30, "the dumpers to start")
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc


def test_ctrl_c_ends_the_step_and_every_remote_dumper(
    rank_job: RankJob, env: dict[str, str], tmp_path: Path
) -> None:
    proc = start_slow_stacks(rank_job, env, tmp_path, subprocess.PIPE)
    try:
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
        assert time.monotonic() - started < 10
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130
    # slurmstepd ends them (KillWait=2): under 1 s quiet, but once past 15 s beside two suites
    wait_for(lambda: step_processes(rank_job.job) == [], 60, "no dumper left on any node")


def test_watch_python_over_the_job_has_a_host_column_and_node_totals(
    rank_job: RankJob, env: dict[str, str]
) -> None:
    args = ("watch-python", "--job", str(rank_job.job), "--once", "-p", rank_job.token)
    done = run_dotdbg(*args, env=env)
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.split()[:2] == ["HOST", "PID"] and "RANK" in header
    ranks = [(row.split()[0], row.split()[1]) for row in rows if not row.endswith("total")]
    assert ranks == [(rank_job.nodes[r], str(rank_job.pids[r])) for r in range(6)]
    totals = [row.split()[:3] for row in rows if row.endswith("total")]
    assert [t[:2] for t in totals] == [[n, "2"] for n in ("node1", "node2", "node3")]
    done = run_dotdbg(*args[:-3], "--json", "-p", rank_job.token, env=env)
    snapshot = json.loads(done.stdout)
    assert sorted(snapshot["nodes"]) == ["node1", "node2", "node3"]
    assert sorted(p["pid"] for n in snapshot["nodes"].values() for p in n["processes"]) == sorted(
        rank_job.pids.values()
    )


def test_gdb_and_py_spy_records_of_one_node_name_it_alike(
    slurm_cluster: SlurmCluster, rank_job: RankJob, env: dict[str, str], tmp_path: Path
) -> None:
    """Run on the node as a user would (a step of the job): each dumper names the node the same,
    so their records merge into one host, each process with its rank."""
    node = rank_job.nodes[0]
    on_node = ["srun", f"--jobid={rank_job.job}", "--overlap", "-w", node, "-N1", "-n1"]
    gdb = slurm_cluster.run([*on_node, DOTDBG, "gdb", "--json", str(rank_job.pids[0])], check=False)
    assert gdb.returncode == 0, gdb.stderr
    pyspy = slurm_cluster.run(
        [*on_node, DOTDBG, "pyspy", "--json", "--in-job", str(rank_job.job), rank_job.token],
        check=False,
    )
    other = [line for line in pyspy.stdout.splitlines() if f'"pid":{rank_job.pids[0]},' not in line]
    records = tmp_path / "both.jsonl"
    records.write_text(gdb.stdout + "".join(line + "\n" for line in other))
    report = stacks_json("--from", str(records), env=env)
    assert report["hosts"] == [node]
    ranks = sorted(p["rank"] for c in report["classes"] for p in c["processes"])
    assert ranks == sorted(r for r, n in rank_job.nodes.items() if n == node)


def test_a_stopped_node_is_named_with_its_missing_ranks_within_the_timeout(
    slurm_cluster: SlurmCluster, rank_job: RankJob, env: dict[str, str]
) -> None:
    """node3's slurmd stopped (SIGSTOP), as a hung node is: the step cannot start there. The
    ranks srun placed on it are named from the job's world size, and the wait ends with the
    budget (2 x --timeout) plus srun's second of grace, not 10 s later (it took 16 s)."""
    slurmd = next(proc for proc in slurm_cluster.daemons if "node3" in argv_of(proc))
    os.kill(slurmd.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        done = run_dotdbg(
            "stacks", "--job", str(rank_job.job), "--timeout", "3", rank_job.token, env=env
        )
        took = time.monotonic() - started
    finally:
        os.kill(slurmd.pid, signal.SIGCONT)
    lines = done.stdout.splitlines()
    assert done.returncode == 1
    assert "no answer: node3: no answer within 6s (0 lines sent)" in lines
    on_node3 = sorted(rank for rank, node in rank_job.nodes.items() if node == "node3")
    assert on_node3 == [4, 5]
    assert lines[-1] == "ranks 4-5 not seen: node3 did not answer"
    assert took < 14, took  # 6 s of budget, 1 s of grace, dotdbg's start (a loaded machine)


def test_a_concurrent_stacks_helper_is_not_a_row_of_watch_python(
    rank_job: RankJob, env: dict[str, str], tmp_path: Path
) -> None:
    """A ``stacks --job`` running at the same time has its dotdbg on every node, in the job and
    matching the PATTERN (its command line holds it): watch-python --job lists the ranks only."""
    helper = start_slow_stacks(rank_job, env, tmp_path, subprocess.DEVNULL)
    try:
        args = ("watch-python", "--job", str(rank_job.job), "--json", "-p", rank_job.token)
        done = run_dotdbg(*args, env=env)
    finally:
        helper.send_signal(signal.SIGINT)
        helper.wait(30)
        wait_for(lambda: step_processes(rank_job.job) == [], 60, "no helper left on any node")
    snapshot = json.loads(done.stdout)
    pids = sorted(p["pid"] for node in snapshot["nodes"].values() for p in node["processes"])
    assert pids == sorted(rank_job.pids.values())


SPUN_THEN_IDLE = (
    "import subprocess, sys, time\n"
    "end = time.monotonic() + 1.5\n"
    "while time.monotonic() < end:\n"
    "    pass\n"
    "sleep = [sys.executable, '-c', 'import time; time.sleep(600)', sys.argv[1]]\n"
    "child = subprocess.Popen(sleep)\n"
    "print('ready', flush=True)\n"
    "time.sleep(600)\n"
)


def test_watch_python_over_the_job_keeps_tree_pss_sort_and_cpu_over_the_interval(
    slurm_cluster: SlurmCluster, rank_job: RankJob, env: dict[str, str]
) -> None:
    """A step of the job: a process that spun 1.5 s and went idle, with a child. Its %CPU is
    over the interval watched (about 0), not over its life; --tree puts the child under it,
    --pss adds the columns, --sort pid orders them."""
    token = f"{rank_job.token}spun"
    step = subprocess.Popen(
        ["srun", f"--jobid={rank_job.job}", "--overlap", "-w", "node2", "-N1", "-n1",
         sys.executable, "-c", SPUN_THEN_IDLE, token],
        env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert step.stdout is not None and step.stdout.readline() == "ready\n"
        args = ("--job", str(rank_job.job), "--once", "--tree", "--pss", "--sort", "pid")
        done = run_dotdbg("watch-python", *args, "--interval", "1", "-p", token, env=env)
    finally:
        step.terminate()
        step.wait(30)
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    parent, child, total = [row for row in rows if row.startswith("node2 ")]
    assert header.split() == [
        "HOST", "PID", "RSS_GB", "%CPU", "THR", "ELAPSED", "GPU_GB", "RANK", "PSS_GB", "USS_GB",
        "COMMAND",
    ]  # fmt: skip
    assert parent.split()[0] == "node2" and "-c import subprocess, sys, time" in parent
    assert "└─ -c import time; time.sleep(600)" in child
    assert int(parent.split()[1]) < int(child.split()[1])
    assert float(parent.split()[3]) < 5.0  # its life's average is over 20%: 1.5 s of a few
    assert total.split()[:2] == ["node2", "2"]
