"""Gotchas files: entries, the row cap and the LESSONS index."""
