"""The command line: every command of ``dotdbg`` and every helper script, in one registry.

``registry.py`` lists them; ``parser.py`` parses their words and writes their help;
``entry.py`` is what the scripts run; ``commands/`` holds each command's definition and body;
``runner.py`` turns every way a command ends into an exit code; ``report.py`` prints what the
home commands did; ``manpage.py`` and ``completion.py`` are derived from the registry.
"""
