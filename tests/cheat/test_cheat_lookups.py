"""The lookup table (issue 28): what users type, and the entry that must come first.

The rows hold every lookup docs/cheatsheets.md promises, the words users type for a problem
("stuck", "memory leak"), searches across sheets and a sheet name with words only another sheet
has. Each names the sheet and the start of the comment of the first hit on the built-in sheets.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from dotdbg.cheat import fast
from dotdbg.cheat.fast import Catalog
from tests.cheat.cheat_helpers import RunCheat

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cheatsheets.md"

# (what the user types after `dotdbg cheat`, the first hit's sheet, its comment's start)
TABLE = [
    ("python tiny debug dataset", "python", "tiny debug dataset: the first 100 records of a"),
    ("pytorch tiny readable", "pytorch", "tiny readable test data beats rand: numbers you"),
    ("pytorch manual_seed", "pytorch", "random tensors, reproducible with a seed (seeds"),
    ("pytorch arange", "pytorch", "ranges: arange is [start, end) with a step"),
    ("cuda CUDA_VISIBLE_DEVICES", "cuda", "CUDA_VISIBLE_DEVICES: expose only GPU 1; inside"),
    ("nvidia-smi MIG", "nvidia-smi", "MIG (A100, H100): is Multi-Instance GPU mode"),
    ("strace attach", "strace", "attach to a running (maybe hung) process;"),
    ("py-spy dump", "py-spy", "dump: where is this running (or hanging)"),
    ("gdb attach", "gdb", "attach to a running (hung) process by PID; it"),
    ("cuda CUDA_LAUNCH_BLOCKING", "cuda", "CUDA_LAUNCH_BLOCKING: run kernels synchronously"),
    ("bash atomic", "bash", "an atomic debug cycle: the reset and the run on"),
    ('bash "&&"', "bash", "`&&` runs the next command only if the previous"),
    ("bash type", "bash", "what a name really is: alias, function (with"),
    ('bash "skip only an alias"', "bash", "skip only an alias (a function or the program"),
    ("bash /bin/df", "bash", "bypass everything by calling the program by its"),
    ("pdb pdbrc", "pdb", "~/.pdbrc: aliases that step and list in one go"),
    ("pdb alias", "pdb", "~/.pdbrc: shape and dtype of every tensor in a"),
    ("resources memray", "resources", "memray: record every allocation of a run with"),
    ("pytorch memory", "pytorch", "CUDA memory queries in GiB: live tensors,"),
    ("watch", "watch", "rerun any command every 0.5 s full-screen:"),
    ("nvidia-smi loop", "nvidia-smi", "watch loop built into nvidia-smi: repeat the"),
    ("watch htop", "watch", "htop: filter by name, sort by resident memory,"),
    ("resources allocate", "resources", "allocate CPU RAM 1 GiB per step with perl and"),
    ("python one-liner", "python", "one-liner taking its input from the command"),
    ('python ":"', "python", 'statements that need ":" (for/if/with/def): let'),
    ("git replace a string", "git", "replace a string in every tracked file that"),
    ("resources fill", "resources", "dotdbg: fill the filesystem of /tmp until only"),
    ("resources tmpfs", "resources", "without root: a private tmpfs over /tmp in a"),
    ("resources systemd-run", "resources", "systemd: a shell with a soft (MemoryHigh,"),
    ("resources cgroup", "resources", "which cgroup this shell is in"),
    ("pytorch hold", "pytorch", "hold N GiB of GPU memory to emulate a smaller"),
    ("git bisect", "git", "bisect: start, mark the known-good tag and the"),
    ("git bisect run", "git", "bisect run with custom terms: exit 0 marks the"),
    ("git bisect skip", "git", "bisect skip: this commit cannot be tested"),
    ("git terms", "git", "bisect: show which terms are in use (good/bad"),
    ("git shallow", "git", "turn a shallow clone (git clone --depth 1) into"),
    ("git submodules", "git", "bisect with submodules: check them out to match"),
    ("git reinstalls", "git", "bisect run that reinstalls at each step and"),
    ("git confirm the culprit", "git", "confirm the culprit: on main, undo just that"),
    ('git "culprit\'s parent"', "git", "the culprit's parent must pass the repro, or"),
    ('git "pull request"', "git", "from the culprit to its pull request: the merge"),
    ("git fetch a GitHub pull request", "git", "fetch a GitHub pull request into a local branch"),
    ('bash "config sets"', "bash", "switch config sets on the same line as the run:"),
    ('bash "one command only"', "bash", "set a variable for this one command only:"),
    ("slurm salloc", "slurm", "inside the salloc shell: run on the allocated"),
    ("strace ENOSPC", "strace", "fault injection: make every write from the"),
    ("bash Ctrl", "bash", "Ctrl-a / Ctrl-e: jump to the start / end of the"),
    ("readline", "readline", "Up/Down search history by what you already"),
    ("readline history", "readline", "Up/Down search history by what you already"),
    ("readline search", "readline", "Up/Down search history by what you already"),
    ('python "break it on purpose"', "python", "break it on purpose: does this file run at all?"),
    ('python "which file"', "python", "which file a module is loaded from, and its"),
    ('python "stay in the REPL"', "python", "run a script, then stay in the REPL with its"),
    ("python f-string", "python", "f-string = prints the expression and its value"),
    ("python PYTHONPATH", "python", "prepend to an existing PYTHONPATH without"),
    ("pip editable", "pip", "editable install of the checkout you are in:"),
    ("pytest pythonpath", "pytest", "without a conftest (pytest 7+): the pythonpath"),
    ("py-spy ptrace_scope", "py-spy", "ptrace_scope: 1 = only a parent may trace its"),
    ("gdb py-bt", "gdb", "dotdbg: a gdb prompt on a live process with its"),
    ("gdb SIGTRAP", "gdb", "SIGTRAP without a debugger kills the process"),
    ("gdb tui", "gdb", "the same with the source window (--tui): code"),
    ('gdb "bt full"', "gdb", "native backtrace with every frame's locals (bt"),
    ('gdb "info args"', "gdb", "the selected frame's arguments [gdb]"),
    ('gdb "C array"', "gdb", "a C array behind a pointer: the first 16"),
    ("pdb breakpoint", "pdb", "breakpoint(): stop here and open pdb (Python"),
    ("pdb post-mortem", "pdb", "post-mortem: run under pdb and stop at the"),
    ("python log", "python", "log to stderr and to a file at once, with time,"),
    ("pytest pytest.ini", "pytest", "pytest.ini with testpaths (a bare `pytest`"),
    ("watch top", "watch", "top: only processes that are running now (at"),
    ("stuck", "dotdbg", "stuck or moving: 5 dumps a second apart p"),
    ("race condition", "cuda", "compute-sanitizer: shared-memory races between"),
    ("deadlock", "strace", "attach to a running (maybe hung) process;"),
    ("memory leak", "chores", "RSS (and CUDA) growth of each # %% cell, or"),
    ("single GPU", "cuda", "CUDA_VISIBLE_DEVICES: expose only GPU 1; inside"),
    ("no GPU", "cuda", "hide every GPU: exercise the CPU code path"),
    ("right file", "chores", "which file `import transformers` really loads"),
    ("chores which", "chores", "which file `import transformers` really loads"),
    ("chores errtrace", "chores", "which failing system call explains a crash:"),
    ("chores bisect", "chores", "find the commit that broke a test: reinstall"),
    ("chores memstep", "chores", "RSS (and CUDA) growth of each # %% cell, or"),
    ("chores salloc", "chores", "the salloc line for a job script's #SBATCH"),
    ("console script", "pdb", "post-mortem for a module entry point (python -m"),
    ("python backtrace", "gdb", "Python backtrace of the current thread [gdb]"),
    ("git stash", "git", "stash only some paths with a message"),
    ("git reflog", "git", 'find a "lost" commit after a reset or rebase:'),
    ("git worktree", "git", "a second checkout of the same repo on another"),
    ("git log -S", "git", "pickaxe: commits that added or removed an exact"),
    ("pdb until", "pdb", "run until the current function returns [pdb]"),
    ("gdb core", "gdb", "dotdbg: the same from a core file (gcore, or a"),
    ("gdb threads", "gdb", "the threads, the current one marked with * [gdb]"),
    ("py-spy record", "py-spy", "record: flamegraph SVG of a running process for"),
    ("py-spy top", "py-spy", "top: live top-like view of the functions using"),
    ("nvidia-smi ECC", "nvidia-smi", "ECC error counts per GPU (a GPU going bad)"),
    ("strace children", "strace", "follow forked children and threads too (needed"),
    ("strace -y", "strace", "what is a hung process waiting on: -y turns fd"),
    ("make dry run", "make", "dry run: print the commands make would run,"),
    ("make parallel", "make", "parallel build on all cores, each target's"),
    ("pip version", "pip", "installed version of a distribution without"),
    ("conda env", "conda", "create a named env with a pinned python; name"),
    ("venv uv", "venv", "uv: create a venv in a fraction of a second,"),
    ("huggingface offline", "huggingface", "run with network calls off: everything must"),
    ("huggingface cache", "huggingface", "download and cache a model's weights: the name"),
    ("slurm torchrun", "slurm", "one torchrun per node, all meeting at the first"),
    ("tar extract", "tar", "extract a .tar.gz / .tgz into the current"),
    ("tar strip", "tar", "extract without the archive's top directory"),
    ("watch -d", "watch", "highlight what changed since the previous"),
    ("cuda NCCL_DEBUG", "cuda", "NCCL_DEBUG: NCCL prints its version, topology,"),
    ("cuda compute-sanitizer", "cuda", "compute-sanitizer: find out-of-bounds /"),
    ("pytorch anomaly", "pytorch", "anomaly detection: backward errors (NaN from a"),
    ("pytorch profiler", "pytorch", "profile a step of the model on the CPU and the"),
    ("pytorch checkpoint", "pytorch", "peek inside a checkpoint: each key with its"),
    ("resources OOM killer", "resources", "was it the OOM killer? exit code 137 = 128 +"),
    ("resources ulimit", "resources", "every limit of this shell: open files, core"),
    ("bash trap", "bash", "remove the ERR trap"),
    ("bash PIPESTATUS", "bash", "exit codes of every command in the last"),
    ("readline inputrc", "readline", "re-read ~/.inputrc in a running shell after"),
    ("python tracemalloc", "python", "top 5 lines by allocated memory, with"),
    ("python faulthandler", "python", "faulthandler: print the Python traceback of all"),
    ("python importtime", "python", "import time of every module (stderr), sorted by"),
    ("pytest -k", "pytest", "-k: run the tests whose names match a keyword"),
    ("pytest durations", "pytest", "the 10 slowest setups, calls and teardowns,"),
    ("pytest xdist", "pytest", "--pdb and -s need xdist off: -n0 [extra]"),
    ("pytest flaky", "pytest", "shake out a flaky test: repeat it until it fails"),
    ("bisect skip", "git", "bisect skip: this commit cannot be tested"),
    ("importtime", "python", "import time of every module (stderr), sorted by"),
    ("tracemalloc", "python", "top 5 lines by allocated memory, with"),
    ("ptrace_scope", "py-spy", "ptrace_scope 0 permanently"),
    ("ENOSPC", "chores", "which failing system call explains a crash:"),
    ("CUDA_LAUNCH_BLOCKING", "cuda", "CUDA_LAUNCH_BLOCKING: run kernels synchronously"),
    ("hung process", "gdb", "attach to a running (hung) process by PID; it"),
    ("segfault", "python", "faulthandler: print the Python traceback of all"),
    ("OOM", "resources", "was it the OOM killer? exit code 137 = 128 +"),
    ("pytest conftest", "pytest", "without a conftest (pytest 7+): the pythonpath"),
]


@pytest.fixture(scope="module")
def builtin() -> dict[str, fast.Sheet]:
    directory = fast.builtin_dir()
    assert directory is not None
    paths = [fast.Cheatpath(fast.BUILTIN, directory, readonly=True)]
    return fast.merge(Catalog(paths, "", lambda path, problem: None).load())


def first_hit(sheets: dict[str, fast.Sheet], typed: str) -> tuple[str, str]:
    result = fast.lookup(sheets, shlex.split(typed), regex=False)
    assert result.groups, f"{typed!r} finds nothing"
    comment = result.groups[0].hits[0][0]
    return result.groups[0].file.name, comment.split("\n")[0]


def test_the_table_is_large_and_holds_every_lookup_the_docs_promise() -> None:
    promised = {
        lookup
        for row in DOCS.read_text().splitlines()
        if row.startswith("| ") and row.count("|") == 4
        for lookup in re.findall(r"`([^`]+)`", row.split("|")[2])
        if not lookup.startswith("dotdbg")
    }
    assert len(TABLE) >= 100
    assert promised, "docs/cheatsheets.md lists no lookups any more"
    assert promised <= {typed for typed, _, _ in TABLE}


@pytest.mark.parametrize(("typed", "sheet", "comment"), TABLE, ids=[row[0] for row in TABLE])
def test_the_entry_meant_comes_first(
    builtin: dict[str, fast.Sheet], typed: str, sheet: str, comment: str
) -> None:
    found_sheet, found_comment = first_hit(builtin, typed)
    assert (found_sheet, found_comment[: len(comment)]) == (sheet, comment)


def test_a_sheet_without_the_words_falls_back_to_every_sheet_and_says_so(
    run_cheat: RunCheat,
) -> None:
    done = run_cheat("python", "backtrace")
    assert done.returncode == 0
    assert "no entry of sheet 'python' matches 'backtrace'; these are from every sheet" in (
        done.stderr
    )
    assert done.stdout.startswith("==> gdb (builtin) <==\n# Python backtrace")


def test_a_fallback_that_finds_nothing_says_both(run_cheat: RunCheat) -> None:
    done = run_cheat("python", "zzqqxx")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        "dotdbg: no entry of sheet 'python' matches 'zzqqxx'; nor does any other sheet\n"
    )


def test_each_sheet_has_one_header(run_cheat: RunCheat) -> None:
    """Issue 26: `cheat ls` repeated a sheet's header for its hits inside longer words."""
    headers = [line for line in run_cheat("ls").stdout.splitlines() if line.startswith("==> ")]
    assert len(headers) > 10
    assert len(headers) == len(set(headers))
