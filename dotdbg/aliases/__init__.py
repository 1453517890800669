"""Alias tooling: expanding aliases as bash would (``expand``, ``shellwords``), names that hide a
command (``shadows``), and proposals from the shell history (``history``, ``suggest``)."""
