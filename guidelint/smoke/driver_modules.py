"""The project's modules a driver imports constants from, read inside the project only."""

from __future__ import annotations

import posixpath

from guidelint.smoke.driver_facts import DriverFacts, Origin
from guidelint.smoke.unfollowed import Unfollowed

MAX_MODULE_DEPTH = 4  # imports followed through at most this many modules


def module_facts(facts: DriverFacts, module: str, line: int | None, depth: int) -> DriverFacts:
    """The facts of `module` as the driver imports it: a sibling file (`smoke_config.py`
    beside the driver), a relative import, or a path from the project root."""
    origin = facts.origin
    if origin is None:
        raise Unfollowed(f"`{module}` is imported (not followed without a project)", line)
    if depth >= MAX_MODULE_DEPTH:
        raise Unfollowed(f"`{module}` is imported through too many modules to follow", line)
    known = facts.modules.get(module)
    if isinstance(known, DriverFacts):
        return known
    if isinstance(known, Unfollowed):
        raise known
    try:
        found = _read_module(origin, module, line)
    except Unfollowed as why:
        facts.modules[module] = why
        raise
    facts.modules[module] = found
    return found


def _read_module(origin: Origin, module: str, line: int | None) -> DriverFacts:
    import libcst as cst

    from guidelint.smoke.driver_reader import read_driver

    for rel in _candidates(origin.rel, module):
        if rel.startswith("../") or rel == "..":
            continue
        if not origin.contains(rel) or not origin.exists(rel):
            continue
        text = origin.read(rel)
        if text is None:
            continue
        child = Origin(rel, origin.read, origin.contains, origin.exists)
        try:
            return read_driver(text, child)
        except cst.ParserSyntaxError:
            raise Unfollowed(f"`{rel}` (imported) is not valid Python", line) from None
        except RecursionError:
            raise Unfollowed(f"`{rel}` (imported) nests too deeply to read", line) from None
    raise Unfollowed(f"`{module}` is not a module of this project", line)


def _candidates(driver: str, module: str) -> list[str]:
    folder = posixpath.dirname(driver)
    dots = len(module) - len(module.lstrip("."))
    path = module.lstrip(".").replace(".", "/")
    if dots:
        base = folder
        for _ in range(dots - 1):
            base = posixpath.dirname(base) if base else ".."
        bases = [base]
    else:
        bases = [folder, ""]
    found = []
    for base in dict.fromkeys(bases):
        stem = posixpath.normpath(posixpath.join(base, path)) if path else base
        found += [f"{stem}.py", posixpath.join(stem, "__init__.py")]
    return found
