"""`dotdbg cheat`: cheatsheets (cheat's, tldr's and navi's formats) found by sheet name or by
words, the picker behind Ctrl-G, and `--lint`, `--add`, `--edit`, `--copy`."""
