"""A real SLURM cluster on this machine: munged, slurmctld and three slurmd, all in a temp dir.

Debian's slurm-wlm runs several slurmd on one host when each node has its own port and is
started as ``slurmd -N nodeN``. munged gets its own key, socket, pid, log and seed files, and
``AuthInfo=socket=…`` points SLURM at that socket, so nothing touches /etc or /run. Processes
are tracked by their environment (``SLURM_CONF`` names this cluster's temp dir), so the
slurmstepd a job leaves behind are ended too.

    with SlurmCluster(tmp_dir) as cluster:
        job = cluster.sbatch(["python3", "job.py"], nodes=3, ntasks=6)
        cluster.wait_running(job)
        subprocess.run(["squeue"], env=cluster.env)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from tests.infra.procs import argv_of, free_ports, kill_all, pids_with_env, stop, wait_for

SBIN = Path("/usr/sbin")
NODES = ("node1", "node2", "node3")
CPUS_PER_NODE = 2
START_TIMEOUT = 30.0


class ClusterUnavailable(RuntimeError):
    """The cluster cannot start here; the message says why (a test skips with it)."""


def missing_programs() -> list[str]:
    needed = [SBIN / "munged", SBIN / "slurmctld", SBIN / "slurmd"]
    missing = [str(path) for path in needed if not os.access(path, os.X_OK)]
    missing += [name for name in ("srun", "sbatch", "squeue", "scontrol") if not shutil.which(name)]
    return missing


def slurm_conf(root: Path, ctld_port: int, node_port: int, munge_socket: Path) -> str:
    host = socket.gethostname()
    lines = [
        f"ClusterName=dotdbg{ctld_port}",
        f"SlurmctldHost={host}(127.0.0.1)",
        f"SlurmctldPort={ctld_port}",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        f"AuthInfo=socket={munge_socket}",
        "SlurmUser=root",
        "SlurmdUser=root",
        f"StateSaveLocation={root}/state",
        f"SlurmdSpoolDir={root}/spool/%n",
        f"SlurmctldPidFile={root}/slurmctld.pid",
        f"SlurmdPidFile={root}/slurmd.%n.pid",
        f"SlurmctldLogFile={root}/log/slurmctld.log",
        f"SlurmdLogFile={root}/log/slurmd.%n.log",
        "SlurmctldDebug=info",
        "SlurmdDebug=info",
        # no systemd or cgroups here: processes are tracked by their parentage
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core",
        "SchedulerType=sched/builtin",
        "MpiDefault=none",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "ReturnToService=2",
        "SlurmdTimeout=300",
        "InactiveLimit=0",
        "KillWait=2",
        "MessageTimeout=10",
        # slurmd must not forward a launch through a sibling: a stopped node would hold the rest
        "TreeWidth=65533",
        "SlurmdParameters=config_overrides",
    ]
    for number, node in enumerate(NODES):
        lines.append(
            f"NodeName={node} NodeHostname={host} NodeAddr=127.0.0.1 Port={node_port + number} "
            f"CPUs={CPUS_PER_NODE} RealMemory=1000 State=UNKNOWN"
        )
    lines.append(
        f"PartitionName=debug Nodes={','.join(NODES)} Default=YES MaxTime=INFINITE State=UP"
    )
    return "\n".join(lines) + "\n"


class SlurmCluster:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.conf = root / "slurm.conf"
        self.munge_socket = root / "munge" / "munge.socket"
        self.daemons: list[subprocess.Popen[bytes]] = []
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("SLURM")},
            "SLURM_CONF": str(self.conf),
        }

    # -- start and stop ----------------------------------------------------------------------
    def __enter__(self) -> SlurmCluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def start(self) -> None:
        if os.getuid() != 0:
            raise ClusterUnavailable("a SLURM test cluster needs root (slurmd runs jobs as users)")
        missing = missing_programs()
        if missing:
            raise ClusterUnavailable(f"SLURM or munge is not installed: {', '.join(missing)}")
        for sub in ("state", "spool", "log", "munge"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        self._start_munged()
        ctld_port = free_ports(1)
        node_port = free_ports(len(NODES))
        self.conf.write_text(slurm_conf(self.root, ctld_port, node_port, self.munge_socket))
        self._spawn([str(SBIN / "slurmctld"), "-D", "-i", "-f", str(self.conf)])
        for node in NODES:
            self._spawn([str(SBIN / "slurmd"), "-D", "-N", node, "-f", str(self.conf)])
        self.wait_idle()

    def _start_munged(self) -> None:
        munge = self.root / "munge"
        munge.chmod(0o700)
        key = munge / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        done = subprocess.run(
            [
                str(SBIN / "munged"),
                "--force",
                f"--socket={self.munge_socket}",
                f"--key-file={key}",
                f"--pid-file={munge / 'munged.pid'}",
                f"--log-file={munge / 'munged.log'}",
                f"--seed-file={munge / 'munged.seed'}",
            ],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=30,
        )
        if done.returncode != 0:
            raise ClusterUnavailable(f"munged did not start: {done.stderr.strip()[:300]}")
        wait_for(self.munge_socket.exists, 10, "munged's socket")

    def _spawn(self, argv: list[str]) -> None:
        log_path = self.root / "log" / f"{Path(argv[0]).name}.{len(self.daemons)}.out"
        with open(log_path, "wb") as log:
            self.daemons.append(
                subprocess.Popen(
                    argv, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
            )

    def wait_idle(self) -> None:
        def idle() -> bool:
            for proc in self.daemons:
                if proc.poll() is not None:
                    raise ClusterUnavailable(f"{argv_of(proc)[0]} exited: {self.log_tail()}")
            done = self.run(["sinfo", "-h", "-N", "-o", "%N %t"], check=False)
            states = dict(line.split() for line in done.stdout.splitlines() if line.strip())
            return all(states.get(node) == "idle" for node in NODES)

        try:
            wait_for(idle, START_TIMEOUT, "three idle SLURM nodes")
        except TimeoutError as error:
            raise ClusterUnavailable(f"{error}: {self.log_tail()}") from None

    def log_tail(self) -> str:
        logs = sorted((self.root / "log").glob("*"))
        return " | ".join(path.read_text(errors="replace")[-300:] for path in logs)

    def stop(self) -> None:
        if self.conf.exists():
            self.run(["scancel", "--full", "--user", "root"], check=False)
        for proc in reversed(self.daemons):
            stop(proc)
        self._kill_pidfile(self.root / "munge" / "munged.pid")
        # slurmstepd and the tasks of a job are not our children: find them by their SLURM_CONF
        kill_all(pids_with_env(str(self.conf)))

    @staticmethod
    def _kill_pidfile(path: Path) -> None:
        try:
            kill_all([int(path.read_text().split()[0])], signal.SIGTERM)
        except (OSError, ValueError, IndexError):
            pass

    # -- using it ----------------------------------------------------------------------------
    def run(
        self, argv: list[str], check: bool = True, timeout: float = 30
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv, env=self.env, capture_output=True, text=True, timeout=timeout, check=check
        )

    def sbatch(self, script: str, *options: str) -> int:
        """Submit a batch script (its text); the job id."""
        path = self.root / f"job{time.monotonic_ns()}.sh"
        path.write_text(script)
        done = self.run(["sbatch", "--parsable", f"--chdir={self.root}", *options, str(path)])
        return int(done.stdout.strip().split(";")[0])

    @contextlib.contextmanager
    def bare_srun_job(
        self, program: Path, within: float, env: str = ""
    ) -> Iterator[tuple[int, str]]:
        """A job as users launch one: a batch script holding a bare ``srun -N 3 -n 6 python
        PROGRAM`` (``env``: words before srun). Yields (job id, its output) once each of the six
        ranks printed "ready"; cancelled at the end."""
        out = program.with_name(f"{program.stem}.out")
        script = f"#!/bin/sh\n{env} srun -N 3 -n 6 {sys.executable} {program}\n"
        job = self.sbatch(script, "-N3", "-n6", f"--output={out}")
        try:
            ready = lambda: out.exists() and out.read_text().count("ready") == 6  # noqa: E731
            wait_for(ready, within, f"6 ranks of {program.name}")
            yield job, out.read_text()
        finally:
            self.run(["scancel", str(job)], check=False)

    def job_state(self, job: int) -> str:
        done = self.run(["squeue", "-h", "-j", str(job), "-o", "%T"], check=False)
        return done.stdout.strip()

    def wait_running(self, job: int, timeout: float = 30) -> None:
        wait_for(lambda: self.job_state(job) == "RUNNING", timeout, f"job {job} to run")
