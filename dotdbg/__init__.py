"""dotdbg: shell integration for debugging Python and ML code."""

__version__ = "0.1.0"
