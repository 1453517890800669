"""Memory per step: RSS and GPU memory growth of each labelled section of a program.

From code or pdb (dotdbg installed in that environment)::

    from dotdbg.memstep import step, mark

    with step("load the model"):
        model = load()

    @step                      # each call of train_one_epoch is a step
    def train_one_epoch(): ...

    (Pdb) p __import__("dotdbg.memstep").memstep.mark("before forward")

Without editing the program: ``dotdbg memstep -- python train.py`` makes each top-level
statement (or each ``# %%`` cell) of the script a step.
"""

from __future__ import annotations

from dotdbg.memstep.meter import Meter, mark, step

__all__ = ["Meter", "mark", "step"]
