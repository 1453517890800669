"""Which rank a process is, read from what its launcher put in its environment: the one parser.

torchrun, accelerate and deepspeed set ``RANK``; a bare ``srun`` sets only ``SLURM_PROCID``;
MPI launchers their own (Open MPI, MPICH/Intel MPI's PMI, PMIx, MVAPICH2). The first launcher
in ``LAUNCHERS`` whose rank variable holds a number names the rank, and the world size comes from
that same launcher: torchrun under srun has ``SLURM_NTASKS`` counting the nodes, not the ranks.
The local rank is the first local variable that holds a number, in the same order.

A distributed launcher's own process (torchrun's agent) inherits the scheduler's variables but
is not a rank: ``of_process`` drops its ranks, and it is shown as the launcher it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from dotdbg.common.record import Record

# (rank, world size) variables, in the order they are believed
LAUNCHERS = (
    (b"RANK", b"WORLD_SIZE"),  # torchrun, accelerate, deepspeed
    (b"SLURM_PROCID", b"SLURM_NTASKS"),  # srun
    (b"OMPI_COMM_WORLD_RANK", b"OMPI_COMM_WORLD_SIZE"),  # Open MPI
    (b"PMI_RANK", b"PMI_SIZE"),  # MPICH, Intel MPI
    (b"PMIX_RANK", b"PMIX_SIZE"),  # PMIx launchers (prrte, srun --mpi=pmix)
    (b"MV2_COMM_WORLD_RANK", b"MV2_COMM_WORLD_SIZE"),  # MVAPICH2
)
LOCAL_RANK_KEYS = (
    b"LOCAL_RANK",
    b"SLURM_LOCALID",
    b"OMPI_COMM_WORLD_LOCAL_RANK",
    b"MPI_LOCALRANKID",
    b"PMIX_LOCAL_RANK",
    b"MV2_COMM_WORLD_LOCAL_RANK",
)
KEYS = frozenset(key for pair in LAUNCHERS for key in pair) | frozenset(LOCAL_RANK_KEYS)

# Launchers whose own process starts the ranks rather than being one.
DISTRIBUTED_LAUNCHERS = frozenset({"torchrun", "accelerate", "deepspeed"})


class Ranks(Record):
    rank: int | None
    local_rank: int | None
    world_size: int | None


NO_RANKS = Ranks(None, None, None)


def number(text: str | None) -> int | None:
    """A rank as ``int()`` reads it (``" 3"`` is 3), else None (``"3a"``, ``"-1"``, ``"³"``)."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def parse(values: Mapping[bytes, str]) -> Ranks:
    """The rank, local rank and world size from a process's launcher variables."""
    rank = world_size = None
    for rank_key, size_key in LAUNCHERS:
        rank = number(values.get(rank_key))
        if rank is not None:
            world_size = number(values.get(size_key))
            break
    local_rank = next(
        (n for n in (number(values.get(key)) for key in LOCAL_RANK_KEYS) if n is not None), None
    )
    return Ranks(rank, local_rank, world_size)


def of_process(ranks: Ranks | None, launcher: str | None) -> Ranks:
    """The process's ranks; none for a distributed launcher's own process."""
    if ranks is None or launcher in DISTRIBUTED_LAUNCHERS:
        return NO_RANKS
    return ranks


def text(ranks: Ranks) -> str:
    """``3/1`` (rank/local rank), ``-`` for a missing part, ``-`` alone for neither."""
    if ranks.rank is None and ranks.local_rank is None:
        return "-"
    shown = ["-" if n is None else str(n) for n in (ranks.rank, ranks.local_rank)]
    return "/".join(shown)
