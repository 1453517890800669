"""The home pipeline: render, check, plan and apply dotdbg's files in a home, and the one writer.

paths → config → render (``render``) → check (``checks``) → plan from the disk state (``state``,
``plan``, ``blocks``) → apply (``writer``: ``backup``, ``journal``, ``recover``, ``statedir``)
through the filesystem seam (``homefs`` over ``fileops``). ``install`` and ``edit``
string it together; ``doctor`` inspects a home.
"""
