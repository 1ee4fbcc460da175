"""Running guide examples in isolated workers."""
