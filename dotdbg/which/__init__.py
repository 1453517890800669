"""``dotdbg which``: which copy of a module the user's Python really imports, what it shadows,
and (``--ran``) whether a given line of a file executed during a command."""
