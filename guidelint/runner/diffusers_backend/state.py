"""What the shims consult while an example runs: the settings of the current activation.

Patches are installed once per process and read this state, so activating again
(the next example in a no-isolation run) swaps settings without stacking patches.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from contextvars import ContextVar

T = TypeVar("T")


@dataclass
class State:
    record_fn: Callable[[str], None]
    gpu: bool
    cache_override: str | None
    root: Path
    models: dict[str, str] = field(default_factory=dict)
    fixtures: dict[str, str] = field(default_factory=dict)
    pipeline_fn: Callable[[str], None] | None = None  # told each pipeline class built
    budget_s: float | None = None  # the examples' timeout, for costwatch (None: no watch)
    # the unit's examples as (text, has `>>>` prompts): coarsen.py reads their sizes;
    # None where no example is known (building ahead): the real factors
    sources: tuple[tuple[str, bool], ...] | None = None
    building: int = 0  # > 0 while a tiny checkpoint is built: its pipelines are not the example's
    started: float = field(default_factory=time.perf_counter)  # when the example began
    _once: set = field(default_factory=set)

    def built_pipeline(self, class_name: str) -> None:
        if self.pipeline_fn is not None and not self.building:
            self.pipeline_fn(class_name)

    @contextmanager
    def quietly_building(self) -> Iterator[None]:
        self.building += 1
        try:
            yield
        finally:
            self.building -= 1

    def record(self, message: str) -> None:
        self.record_fn(message)

    def record_once(self, message: str) -> None:
        """For substitutions inside hot paths (a tensor op in a loop): once per process."""
        if message not in self._once:
            self._once.add(message)
            self.record_fn(message)

    def local_path(self, text: str) -> Path:
        path = Path(os.path.expanduser(text))
        return path if path.is_absolute() else self.root / path


CURRENT: State | None = None


def current() -> State | None:
    return CURRENT


def set_current(state: State | None) -> None:
    global CURRENT
    CURRENT = state


def remember_original(patch: Callable[..., Any], original: object) -> None:
    """Point a patch at what it replaced, as functools.wraps would (`inspect.unwrap`)."""
    # A function takes any attribute; mypy's Callable type does not model that.
    patch.__wrapped__ = original  # type: ignore[attr-defined]


@contextmanager
def bound(var: ContextVar[T], value: T) -> Iterator[None]:
    """`var` holds `value` for the block, and what it held before after it: how a patched
    loader tells the hooks it calls into that they run inside it."""
    token = var.set(value)
    try:
        yield
    finally:
        var.reset(token)
