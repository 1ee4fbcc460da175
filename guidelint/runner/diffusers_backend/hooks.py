"""Patch a module when it is imported, not before: the backend stays as light as the example.

diffusers' AutoPipeline module and transformers' pipeline() cost seconds to import;
an example that never uses them should not pay for their patches.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable
from typing import Any

Patch = Callable[[Any], None]
_waiting: dict[str, list[Patch]] = {}


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the real loader of a waited-for module."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _waiting:
            return None
        for finder in sys.meta_path:
            if finder is self:
                continue
            spec = (
                finder.find_spec(fullname, path, target) if hasattr(finder, "find_spec") else None
            )
            if spec is not None and spec.loader is not None:
                spec.loader = _Loader(spec.loader, fullname)
                return spec
        return None


class _Loader(importlib.abc.Loader):
    def __init__(self, inner, name: str) -> None:
        self.inner, self.name = inner, name

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module) -> None:
        self.inner.exec_module(module)
        for patch in _waiting.pop(self.name, []):
            patch(module)


_FINDER = _AfterImport()


def when_imported(name: str, patch: Patch) -> None:
    """Call `patch(module)` now if `name` is imported, else right after its import."""
    module = sys.modules.get(name)
    if module is not None:
        patch(module)
        return
    _waiting.setdefault(name, []).append(patch)
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
