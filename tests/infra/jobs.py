"""A multi-rank Python job (stdlib only) whose ranks hang in different places.

Run under a bare ``srun``, ``mpirun`` or torchrun-like launcher: it reads its rank from the
launcher's variable as such programs do. Ranks below ``WAITERS`` wait for peers that
never come in a socket barrier (``accept``), rank ``WAITERS`` hangs loading a batch
(``time.sleep``), and any higher rank keeps moving: it recurses to a depth that changes every
50 ms, so no two samples of its stack look alike.
"""

from __future__ import annotations

import textwrap

WAITERS = 4  # ranks 0-3 wait in the barrier

RANKS_PROGRAM = textwrap.dedent(
    f"""
    import os, socket, sys, time

    def my_rank():
        for key in ("RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK"):
            if key in os.environ:
                return int(os.environ[key])

    def ready():
        node = os.environ.get("SLURMD_NODENAME") or socket.gethostname()
        sys.stdout.write(f"ready {{my_rank()}} {{os.getpid()}} {{node}}\\n")  # one write
        sys.stdout.flush()

    def wait_for_peers(listener):
        listener.accept()

    def all_reduce():
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        ready()
        wait_for_peers(listener)

    def fetch():
        time.sleep(3600)

    def load_batch():
        ready()
        fetch()

    def descend(depth):
        if depth:
            return descend(depth - 1)
        until = time.monotonic() + 0.01
        while time.monotonic() < until:
            pass

    def keep_moving():
        ready()
        while True:
            descend(int(time.time() * 20) % 40 + 1)

    def train_step(rank):
        if rank < {WAITERS}:
            all_reduce()
        elif rank == {WAITERS}:
            load_batch()
        else:
            keep_moving()

    def main():
        train_step(my_rank())

    main()
    """
)
