"""The configuration: dotdbg's defaults merged with the user's config.toml, validated once.

- ``load``: reads both files and builds a ``Config`` (the boundary: after it nothing parses
  TOML); ``load_config`` is the one entry.
- ``model``: the frozen records (``common.record``) a ``Config`` is made of, switched-off
  entries included.
- ``sections``: each section's merge and checks; ``names``: the name rule of each kind;
  ``checker``: checks that fail at ``file:line:col``; ``bindable``: readline's functions.
- ``source`` and ``position``: a TOML file with its text, and where a key is in it.
- ``tomledit``: round-trip edits of the user's file (alias add/rm, pack on/off);
  ``tomllines``: the same edit as one line of text, for the layout dotdbg writes (no tomlkit).
- ``defaults.toml``: dotdbg's built-in configuration.
"""

from __future__ import annotations

from dotdbg.config.load import DEFAULTS_FILE, build_config, load_config
from dotdbg.config.model import Config

__all__ = ["DEFAULTS_FILE", "Config", "build_config", "load_config"]
