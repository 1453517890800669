"""dotdbg on other hosts: `dotdbg ssh` (a session) and the ssh side of `dotdbg push`."""
