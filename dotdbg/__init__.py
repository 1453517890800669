"""dotdbg: shell integration for debugging Python and ML code."""

__version__ = "0.2.0"
