"""The bundled minimal diffusers runner: tiny local checkpoints and CPU/offline shims.

The example runner calls `preload()` once in its warm worker and `activate()` in each
forked child right before an example runs. This module stays light: torch and
diffusers are imported inside the functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def preload(names: Iterable[str] | None = None, settings: dict | None = None) -> None:
    """Import torch, diffusers and the classes of `names` the examples use (without
    `names`: the common pipelines) once, and build their tiny checkpoints into the
    cache `settings` name; ImportError when missing."""
    from guidelint.runner.diffusers_backend.activation import preload as _preload

    _preload(names, settings)


def activate(settings: dict, record: Callable[[str], None]) -> None:
    """Go offline, resolve hub ids to tiny checkpoints, fall back to the CPU; `record` each
    substitution as it fires. `settings` is the runner config plus report_dir and gpu."""
    from guidelint.runner.diffusers_backend.activation import activate as _activate

    _activate(settings, record)
