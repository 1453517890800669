from __future__ import annotations

import subprocess
import sys


def test_commands_and_helpers_import_nothing_heavy() -> None:
    """rich, psutil and pynvml load only when a refresh or a GPU read needs them."""
    code = (
        "import sys, dotdbg.cli, dotdbg.watch.watcher, dotdbg.pyspy.dump\n"
        "print(sorted(m for m in ('rich', 'psutil', 'pynvml') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
