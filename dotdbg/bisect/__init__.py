"""``dotdbg bisect GOOD BAD -- CMD``: git bisect with the chores done at every step (reinstall,
submodules, a timeout, pytest's exit codes), the culprit confirmed, and the repository always
left as it was."""
