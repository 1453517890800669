"""The one rank parser: every launcher's variables, in the order they are believed."""

from __future__ import annotations

import pytest

from dotdbg.procs import procfs, ranks
from dotdbg.procs.ranks import Ranks


def environ(**values: str) -> bytes:
    return b"".join(f"{key}={value}".encode() + b"\0" for key, value in values.items())


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        # torchrun under srun: RANK is the rank, srun's variables count the torchrun agents
        (
            {
                "RANK": "5",
                "LOCAL_RANK": "1",
                "WORLD_SIZE": "6",
                "SLURM_PROCID": "2",
                "SLURM_LOCALID": "0",
                "SLURM_NTASKS": "3",
            },
            Ranks(5, 1, 6),
        ),
        ({"SLURM_PROCID": "4", "SLURM_LOCALID": "0", "SLURM_NTASKS": "6"}, Ranks(4, 0, 6)),
        (
            {
                "OMPI_COMM_WORLD_RANK": "3",
                "OMPI_COMM_WORLD_LOCAL_RANK": "1",
                "OMPI_COMM_WORLD_SIZE": "4",
                "PMIX_RANK": "3",
            },
            Ranks(3, 1, 4),
        ),
        ({"PMI_RANK": "7", "MPI_LOCALRANKID": "3", "PMI_SIZE": "8"}, Ranks(7, 3, 8)),
        ({"PMIX_RANK": "2"}, Ranks(2, None, None)),
        ({"MV2_COMM_WORLD_RANK": "1", "MV2_COMM_WORLD_SIZE": "2"}, Ranks(1, None, 2)),
        ({"RANK": " 3", "WORLD_SIZE": "4 "}, Ranks(3, None, 4)),  # as int() reads them
        ({"RANK": "", "SLURM_PROCID": "1"}, Ranks(1, None, None)),  # an empty RANK says nothing
        ({"RANK": "-1"}, Ranks(None, None, None)),
        ({"RANK": "³", "LOCAL_RANK": "x"}, Ranks(None, None, None)),  # isdigit() says yes to ³
        ({"LOCAL_RANK": "2"}, Ranks(None, 2, None)),
        ({}, Ranks(None, None, None)),
    ],
)
def test_ranks_from_every_launcher(variables: dict[str, str], expected: Ranks) -> None:
    assert procfs.parse_environ(environ(PATH="/bin", **variables)).ranks == expected


def test_a_distributed_launchers_own_process_is_not_a_rank() -> None:
    agent = Ranks(0, 0, 3)  # torchrun under srun: SLURM_PROCID of its node
    assert ranks.of_process(agent, "torchrun") == ranks.NO_RANKS
    assert ranks.of_process(agent, "pytest") == agent  # pytest under srun is a rank
    assert ranks.of_process(None, None) == ranks.NO_RANKS


@pytest.mark.parametrize(
    ("shown", "text"),
    [
        (Ranks(3, 1, 4), "3/1"),
        (Ranks(0, None, 4), "0/-"),
        (Ranks(None, 0, None), "-/0"),
        (ranks.NO_RANKS, "-"),
    ],
)
def test_rank_text(shown: Ranks, text: str) -> None:
    assert ranks.text(shown) == text
