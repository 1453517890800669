"""``dotdbg stacks``: the stacks of many processes merged into one prefix tree of frames."""
