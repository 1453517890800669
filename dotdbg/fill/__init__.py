"""mem-fill, disk-fill and gpu-fill: take RAM, disk space or GPU memory away, and give it back."""
