"""The pure parts of memlimit: sizes and limits, write order, messages, parsing /proc."""

from __future__ import annotations

import signal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dotdbg.common.programs import exit_code_of_status as exit_code
from dotdbg.common.sizes import short_size
from dotdbg.errors import DotdbgError
from dotdbg.memlimit.backends.cgroupdir import owner_pid
from dotdbg.memlimit.backends.rlimit import pick_victim
from dotdbg.memlimit.backends.systemd import parse_systemd_version, systemd_run_argv
from dotdbg.memlimit.cgroupfs import (
    Mount,
    parse_mountinfo,
    parse_proc_cgroup,
    under_mount,
)
from dotdbg.memlimit.limits import (
    Limits,
    build_limits,
    limit_in_force,
    v1_write_order,
)
from dotdbg.memlimit.report import kill_message
from dotdbg.memlimit.supervise import SI_KERNEL, should_forward

M, G = 2**20, 2**30


def test_build_limits_defaults_to_no_swap_and_no_high() -> None:
    assert build_limits("5G") == Limits(ram=5 * G, swap=0, high=None)


def test_build_limits_reads_swap_and_high() -> None:
    assert build_limits("5GB", swap="3GiB", high="4G") == Limits(ram=5 * G, swap=3 * G, high=4 * G)


@pytest.mark.parametrize(
    ("limit", "swap", "high", "said"),
    [
        ("5X", "0", None, "limit '5X' is not a size"),
        ("0", "0", None, "below 1M"),
        ("512K", "0", None, "below 1M"),
        ("5G", "lots", None, "--swap 'lots' is not a size"),
        ("5G", "0", "6G", "--high '6G' must lie between 1M and the limit (5G)"),
        ("5G", "0", "-1G", "--high '-1G' is not a size"),
    ],
)
def test_build_limits_rejects_with_a_hint(
    limit: str, swap: str, high: str | None, said: str
) -> None:
    with pytest.raises(DotdbgError) as caught:
        build_limits(limit, swap=swap, high=high)
    assert said in caught.value.message
    assert caught.value.hint


@pytest.mark.parametrize(
    ("num", "text"),
    [
        (5 * G, "5G"),
        (3 * G // 2, "1.5G"),
        (100 * M, "100M"),
        (1023 * M, "1023M"),
        (2**40, "1T"),
        (2**60, "1024P"),
    ],
)
def test_short_size_is_what_memlimit_exports(num: int, text: str) -> None:
    assert short_size(num) == text


def test_describe_names_ram_swap_and_soft_limit() -> None:
    assert Limits(ram=5 * G).describe() == "5G RAM, no swap"
    assert Limits(ram=5 * G, swap=3 * G, high=4 * G).describe() == "5G RAM, 3G swap, soft limit 4G"


@pytest.mark.parametrize(
    ("requested", "read_back", "ok"),
    [
        (100 * M, 100 * M, True),
        (100_000_001, 99_999_744, True),  # the kernel rounds down to a page
        (100 * M, 2**63 - 4096, False),  # still unlimited: silently ignored
        (100 * M, 50 * M, False),
        (100 * M, 100 * M + 4096, False),
    ],
)
def test_limit_in_force_allows_only_page_rounding(requested: int, read_back: int, ok: bool) -> None:
    assert limit_in_force(requested, read_back, 4096) is ok


def test_v1_fresh_cgroup_writes_limit_before_memsw() -> None:
    unlimited = 2**63 - 4096
    order = v1_write_order((unlimited, unlimited), (5 * G, 8 * G))
    assert [name for name, _ in order] == ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]


def test_v1_growing_past_memsw_writes_memsw_first() -> None:
    order = v1_write_order((1 * G, 1 * G), (5 * G, 5 * G))
    assert [name for name, _ in order] == ["memory.memsw.limit_in_bytes", "memory.limit_in_bytes"]


sizes = st.integers(min_value=1, max_value=2**40)


@given(cur_limit=sizes, cur_extra=sizes, new_limit=sizes, new_extra=sizes)
def test_v1_write_order_never_passes_through_memsw_below_limit(
    cur_limit: int, cur_extra: int, new_limit: int, new_extra: int
) -> None:
    state = {
        "memory.limit_in_bytes": cur_limit,
        "memory.memsw.limit_in_bytes": cur_limit + cur_extra,
    }
    target = (new_limit, new_limit + new_extra)
    for name, value in v1_write_order(tuple(state.values()), target):  # type: ignore[arg-type]
        state[name] = value
        assert state["memory.limit_in_bytes"] <= state["memory.memsw.limit_in_bytes"]
    assert tuple(state.values()) == target


@pytest.mark.parametrize(
    ("kills", "peak", "text"),
    [
        (1, 5 * G, "a process was OOM-killed at the 5G limit (cgroup-v1, peak 5.00G)"),
        (3, None, "3 processes were OOM-killed at the 5G limit (cgroup-v1)"),
    ],
)
def test_kill_message(kills: int, peak: int | None, text: str) -> None:
    assert kill_message(kills, "5G", "cgroup-v1", peak, "OOM-killed") == text


def test_kill_message_names_an_enclosing_limit() -> None:
    text = kill_message(1, "100M", "cgroup-v1", 80 * M, "OOM-killed", enclosing=True)
    assert text == (
        "a process was OOM-killed at the 100M limit of an enclosing cgroup (cgroup-v1, peak 80.00M)"
    )


def test_exit_code_follows_the_shell_convention() -> None:
    assert exit_code(3 << 8) == 3
    assert exit_code(signal.SIGKILL) == 137
    assert exit_code(signal.SIGINT) == 130


def test_a_terminal_ctrl_c_is_not_relayed_but_a_kill_is() -> None:
    assert not should_forward(signal.SIGINT, SI_KERNEL)
    assert not should_forward(signal.SIGQUIT, SI_KERNEL)
    assert should_forward(signal.SIGINT, 0)  # SI_USER: kill(1) or kill(2)
    assert should_forward(signal.SIGTERM, 0)
    assert should_forward(signal.SIGHUP, SI_KERNEL)


def test_pick_victim_takes_the_largest_only_when_over() -> None:
    assert pick_victim({1: 60 * M, 2: 30 * M}, 100 * M) is None
    assert pick_victim({1: 60 * M, 2: 70 * M}, 100 * M) == 2
    assert pick_victim({}, 100 * M) is None


MOUNTINFO = """\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
52 40 0:40 /docker/abc /sys/fs/cgroup/cpu rw shared:9 - cgroup cgroup rw,cpu,cpuacct
"""


def test_parse_mountinfo_keeps_cgroup_mounts_with_their_root() -> None:
    mounts = parse_mountinfo(MOUNTINFO)
    assert [(str(m.point), m.fstype) for m in mounts] == [
        ("/sys/fs/cgroup/memory", "cgroup"),
        ("/sys/fs/cgroup/unified", "cgroup2"),
        ("/sys/fs/cgroup/cpu", "cgroup"),
    ]
    assert "memory" in mounts[0].options
    assert mounts[2].root == "/docker/abc"
    assert mounts[2].options >= {"cpu", "cpuacct"}


def test_parse_proc_cgroup_splits_joined_controllers() -> None:
    memberships = parse_proc_cgroup("4:memory:/a/b\n2:cpu,cpuacct:/\n0::/user.slice\n")
    assert memberships["memory"] == "/a/b"
    assert memberships["cpuacct"] == "/"
    assert memberships[""] == "/user.slice"


def test_under_mount_strips_the_mount_root() -> None:
    mount = Mount("/sys/fs/cgroup/memory", "/docker/abc", "cgroup", frozenset())
    assert under_mount(mount, "/docker/abc/x") == "/sys/fs/cgroup/memory/x"
    assert under_mount(mount, "/docker/abc") == "/sys/fs/cgroup/memory"
    assert under_mount(mount, "/docker/abcd") == "/sys/fs/cgroup/memory/docker/abcd"
    root = Mount("/sys/fs/cgroup/memory", "/", "cgroup", frozenset())
    assert under_mount(root, "/") == "/sys/fs/cgroup/memory"
    assert under_mount(root, "/a/b/") == "/sys/fs/cgroup/memory/a/b"


def test_systemd_run_argv_sets_every_limit_and_oom_policy_when_supported() -> None:
    argv = systemd_run_argv("/usr/bin/systemd-run", Limits(ram=5 * G, swap=3 * G), version=255)
    assert argv[:3] == ["/usr/bin/systemd-run", "--user", "--scope"]
    props = [argv[i + 1] for i, word in enumerate(argv) if word == "-p"]
    assert props == [
        f"MemoryMax={5 * G}",
        f"MemorySwapMax={3 * G}",
        "MemoryHigh=infinity",
        "OOMPolicy=continue",
    ]
    assert argv[-1] == "--"


def test_systemd_run_argv_leaves_out_oom_policy_on_old_systemd() -> None:
    argv = systemd_run_argv("systemd-run", Limits(ram=G, high=G // 2), version=252)
    assert "OOMPolicy=continue" not in argv
    assert f"MemoryHigh={G // 2}" in argv


def test_parse_systemd_version() -> None:
    assert parse_systemd_version("systemd 252 (252.36-1~deb12u1)\n+PAM +AUDIT") == 252
    assert parse_systemd_version("") is None


@pytest.mark.parametrize(
    ("name", "pid"),
    [
        ("dotdbg-memlimit-4242", 4242),
        ("dotdbg-memlimit-4242-3", 4242),  # a second cgroup of the same run
        ("dotdbg-memlimit-4242-", None),
        ("dotdbg-memlimit-4242-x", None),
        ("dotdbg-memlimit-", None),
        ("dotdbg-memlimit-\u0664\u0662", None),  # Arabic-Indic digits: isdigit() takes them
        ("dotdbg-tests-4242", None),
        ("user.slice", None),
    ],
)
def test_owner_pid_reads_only_memlimits_own_names(name: str, pid: int | None) -> None:
    assert owner_pid(name) == pid
