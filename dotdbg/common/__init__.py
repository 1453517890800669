"""Plumbing the helpers share: sizes, running a child to its end, holding until a stop signal."""
