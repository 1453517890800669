"""`dotdbg pyspy`: the py-spy dump of every Python process, in parallel."""
