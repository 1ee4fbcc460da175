"""guidelint: keep the documents that steer coding agents true, and prove it in CI."""

__version__ = "0.1.0"
