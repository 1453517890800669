# ruff: noqa: E501  (written by tests/cli/test_summaries.py: one summary per line)
"""Each command's one-line summary, for ``dotdbg --help``: it lists every command, and importing
every command's module for its summary cost 3.3x Python's start-up (issue 22.1). Derived from
the commands' definitions, not written by hand: tests/cli/test_summaries.py fails when it
drifts, and ``pytest tests/cli --update-golden`` writes it again."""

from __future__ import annotations

SUMMARIES = {
    "cheat": "Look up your cheatsheets.",
    "aliases": "List every alias and function (name, pack, expansion, description), or explain one.",
    "expand": "Print COMMAND with dotdbg's aliases expanded as bash would, for docs and bug reports.",
    "suggest": "Propose aliases for the commands you type most, from your bash history.",
    "which": "Which copy of a module Python imports, what it shadows, and whether a line ran.",
    "errtrace": "Run a command under strace and show the failing system calls that explain its failure.",
    "bisect": "Find the commit that broke a command: git bisect with reinstalls, timeouts and a confirmed answer.",
    "memstep": "Memory growth per step of a Python script: RSS and GPU, each cell or statement.",
    "salloc": "The salloc line for a job script's #SBATCH lines, and stale SLURM_* variables.",
    "pyspy": "Where is every Python process right now: py-spy dump of each, in parallel.",
    "stacks": "Where is every process stuck: all stacks merged into one tree, processes grouped by stack.",
    "gdb": "Python and C/C++ frames of every thread, interleaved: a live process or a core file.",
    "watch-python": "Watch every Python process: RSS, CPU, threads, env, rank, GPU memory; refreshed in place.",
    "memlimit": "Run a command, or your shell, under a memory limit that is really in force.",
    "mem-fill": "Commit RAM step by step, check RSS grew, hold it; with -- CMD, run CMD as the OOM victim.",
    "disk-fill": "Fill a filesystem until --leave is available, with a nameless file; or give CMD a small /tmp.",
    "gpu-fill": "Take GPU memory through the CUDA driver until --leave is free on each device.",
    "ssh": "A shell on HOST with your set-up for one session; nothing is left there (SSH ARGS to ssh).",
    "shell": "Your set-up in the shell any command gives (-- kubectl exec -it POD -- sh), one session.",
    "push": "Install for good on remote hosts over ssh (--status, --uninstall, --dry-run, --diff).",
    "alias": "Add or remove an alias in your config.",
    "fn": "Add or remove a shell function in your config.",
    "pack": "Switch a pack of aliases and functions on or off.",
    "install": "Render the config and install it for bash (~/.bashrc), zsh (~/.zshrc) and fish (conf.d/dotdbg.fish), and into ~/.inputrc and ~/.pdbrc.",
    "status": "Is dotdbg installed, current with the config, and untouched? Exit 1 if not.",
    "diff": "Show what `dotdbg install` would change, as a unified diff. Exit 1 if anything would.",
    "doctor": "Check the set-up: login shells, PATH, installed state and the helpers' requirements.",
    "uninstall": "Remove exactly what install added; files dotdbg created are deleted.",
    "restore": "Put back the files of a backup (the current ones are backed up first).",
    "render": "Print the generated files (or write them into a directory); installs nothing.",
    "init": "Write a commented starter config; never overwrites an existing one.",
}
