"""`watch-python`: a live table of every Python process, here or across a job."""
