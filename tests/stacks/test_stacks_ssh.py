"""``dotdbg stacks --nodes`` over a real sshd on 127.0.0.2-4 (hosts n1-n3 in the test's ssh
config). All three "hosts" are this machine, so the remote dotdbg is a wrapper that narrows the
PATTERN to the ranks placed on its host (``host=n2`` in their command line): each rank is
dumped once, by one host, as on a real cluster."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infra.procs import cmdline_of, wait_for
from tests.infra.sshd import SshServer
from tests.stacks.stacks_support import DOTDBG, dotdbg_without_py_spy, ranks_placed, run_dotdbg

pytestmark = pytest.mark.slow


HOST_OF_RANK = ("n1", "n1", "n2", "n2", "n3", "n3")
PER_HOST = (
    "#!/bin/sh\n"
    'case "$SSH_CONNECTION" in *" 127.0.0.2 "*) h=n1 ;; *" 127.0.0.3 "*) h=n2 ;; *) h=n3 ;; esac\n'
    "n=$#; i=0\n"
    'for a in "$@"; do i=$((i + 1)); [ $i -eq $n ] && a="$a host=$h"; set -- "$@" "$a"; done\n'
    "shift $n\n"
)


def per_host_dotdbg(folder, on_n3: str = DOTDBG) -> str:  # type: ignore[no-untyped-def]
    wrapper = folder / "dotdbg-per-host"
    wrapper.write_text(PER_HOST + f'[ $h = n3 ] && exec {on_n3} "$@"\nexec {DOTDBG} "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


@pytest.fixture(scope="module")
def local_ranks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Ranks 0-5 of the test program started here, two a host; a PATTERN for them alone."""
    folder = tmp_path_factory.mktemp("ranks")
    with ranks_placed(folder, f"dotdbgssh{os.getpid()}", HOST_OF_RANK, word="host") as pattern:
        yield pattern


def test_merges_the_hosts_of_a_node_set(
    ssh_server: SshServer, local_ranks: str, tmp_path: Path
) -> None:
    env = {**os.environ, "DOTDBG_SSH_OPTIONS": ssh_server.ssh_options}
    remote = per_host_dotdbg(tmp_path)
    args = ("--json", "--nodes", "n[1-3]", "--remote-dotdbg", remote, local_ranks)
    done = run_dotdbg("stacks", *args, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["hosts"] == ["n1", "n2", "n3"]
    assert [(c["label"], c["size"]) for c in report["classes"]] == [
        ("rank 4", 1),
        ("rank 5", 1),
        ("ranks 0-3", 4),
    ]
    hosts = {p["rank"]: p["host"] for c in report["classes"] for p in c["processes"]}
    assert hosts == dict(enumerate(HOST_OF_RANK))


def test_native_on_a_host_without_py_spy_comes_from_gdb(
    ssh_server: SshServer, local_ranks: str, tmp_path: Path
) -> None:
    """n3's dotdbg has no py-spy (an ssh command's PATH has none either): its ranks 4 and 5
    are dumped by ``dotdbg gdb --json`` there, Python and native frames, by rank."""
    env = {**os.environ, "DOTDBG_SSH_OPTIONS": ssh_server.ssh_options}
    remote = per_host_dotdbg(tmp_path, on_n3=str(dotdbg_without_py_spy(tmp_path)))
    nodes = ("--nodes", "n[1-3]", "--remote-dotdbg", remote)
    done = run_dotdbg(
        "stacks", "--json", "--native", "--timeout", "30", *nodes, local_ranks, env=env
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["node_problems"] == [] and report["not_dumped"] == []
    classes = {c["label"]: c for c in report["classes"]}
    assert classes["ranks 0-3"]["sources"] == ["py-spy"]
    loading = classes["rank 4"]
    assert loading["sources"] in (["pystack"], ["gdb"])
    assert {p["host"] for p in loading["processes"]} == {"n3"}
    frames = loading["threads"][0]
    assert [f["function"] for f in frames if not f["native"]][:2] == ["fetch", "load_batch"]
    assert frames[0]["native"] and "sleep" in frames[0]["function"], frames[:3]
    moving = classes["rank 5"]
    assert moving["sources"] in (["pystack"], ["gdb"])
    assert "keep_moving" in [f["function"] for f in moving["threads"][0]]


def test_an_unreachable_host_and_a_missing_dotdbg_are_named(
    ssh_server: SshServer, local_ranks: str
) -> None:
    env = {**os.environ, "DOTDBG_SSH_OPTIONS": ssh_server.ssh_options}
    # 5 s: the refused host fails at once; at load 20 n1 took more than 4 s to answer
    done = run_dotdbg("stacks", "--nodes", "n1,127.0.0.5", "--timeout", "5", local_ranks, env=env)
    assert done.returncode == 1
    problems = [line for line in done.stdout.splitlines() if line.startswith("no answer: ")]
    refused = "ssh: connect to host 127.0.0.5 port 22: Connection refused"
    assert problems == [f"no answer: 127.0.0.5: ssh failed: {refused}"]
    assert done.stdout.startswith("6 processes on 1 host")
    done = run_dotdbg(
        "stacks", "--nodes", "n2", "--remote-dotdbg", "/nonexistent/dotdbg", local_ranks, env=env
    )
    assert done.returncode == 1
    (problem,) = [line for line in done.stdout.splitlines() if line.startswith("no answer: ")]
    assert problem.startswith("no answer: n2: cannot run /nonexistent/dotdbg there")
    assert "hint: install dotdbg on n2 (on PATH or in ~/.local/bin), or name its path" in problem


def test_a_bad_node_set_is_one_line(ssh_server: SshServer) -> None:
    done = run_dotdbg("stacks", "--nodes", "n[1-", env=dict(os.environ))
    assert done.returncode == 2
    assert done.stderr.startswith("dotdbg: error: --nodes 'n[1-' is not a host list")


def test_ctrl_c_leaves_nothing_running_on_the_hosts(
    ssh_server: SshServer, local_ranks: str, tmp_path: Path
) -> None:
    sleepy = tmp_path / "py-spy"
    sleepy.write_text("#!/bin/sh\nexec sleep 601\n")
    sleepy.chmod(0o755)
    env = {
        **os.environ,
        "DOTDBG_SSH_OPTIONS": ssh_server.ssh_options,
        "PATH": f"{tmp_path}:/usr/bin:/bin",
    }
    remote = tmp_path / "dotdbg"
    remote.write_text(f'#!/bin/sh\nPATH={tmp_path}:$PATH exec {DOTDBG} "$@"\n')
    remote.chmod(0o755)
    proc = subprocess.Popen(
        [DOTDBG, "stacks", "--nodes", "n[1-3]", "--remote-dotdbg", str(remote), local_ranks],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for(lambda: len(sleepers()) >= 3, 30, "py-spy on every host")
        proc.send_signal(2)
        assert proc.wait(30) == 130
    finally:
        proc.kill()
        proc.wait()
    wait_for(lambda: sleepers() == [] and remote_dumpers(local_ranks) == [], 15, "nothing left")


def sleepers() -> list[int]:
    return [
        int(p) for p in os.listdir("/proc") if p.isdigit() and cmdline_of(int(p)) == "sleep 601 "
    ]


def remote_dumpers(pattern: str) -> list[int]:
    return [
        int(p)
        for p in os.listdir("/proc")
        if p.isdigit() and " pyspy --json" in cmdline_of(int(p)) and pattern in cmdline_of(int(p))
    ]


def test_the_caller_is_not_a_class_where_a_node_is_this_machine(
    ssh_server: SshServer, local_ranks: str
) -> None:
    """n1 is this machine, and the caller's own command line matches the PATTERN (the token
    without its brackets): it is a dotdbg command, not part of the job."""
    token = local_ranks.split("[", 1)[0]
    env = {**os.environ, "DOTDBG_SSH_OPTIONS": ssh_server.ssh_options}
    done = run_dotdbg("stacks", "--json", "--nodes", "n1", "--timeout", "5", token, env=env)
    report = json.loads(done.stdout)
    ranks = [p["rank"] for c in report["classes"] for p in c["processes"]]
    assert None not in ranks and sorted(ranks) == list(range(6)), report["classes"]
