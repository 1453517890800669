"""The process scanner: /proc facts, Python command lines, the Python processes of this machine.

Used by watch-python, pyspy, stacks, gdb and memlimit.
"""
