"""Which transformers versions the arithmetic models, read without importing transformers."""

from __future__ import annotations

from functools import lru_cache
from importlib import metadata

VERIFIED = "5.24.0"


class UnmodelledVersion(Exception):
    """The installed transformers has semantics this library does not model."""


@lru_cache(maxsize=1)
def installed_transformers() -> str | None:
    try:
        return metadata.version("transformers")
    except metadata.PackageNotFoundError:
        return None


def _major_minor(version: str) -> tuple[int, int]:
    parts = (version.split(".") + ["0", "0"])[:2]
    return tuple(int("".join(c for c in p if c.isdigit()) or 0) for p in parts)  # type: ignore[return-value]


def check_version(version: str | None) -> list[str]:
    """Warnings for a version we have not verified; UnmodelledVersion for 4.x.

    4.x (up to at least 4.44) dropped the trailing partial accumulation group of an
    epoch and carried it into the next one, so its step counts differ from 5.x.
    """
    if version is None:
        return [f"transformers is not installed: assuming {VERIFIED} semantics"]
    major, minor = _major_minor(version)
    if major < 5:
        raise UnmodelledVersion(
            f"transformers {version}: 4.x partial-accumulation and save semantics are not "
            f"modelled (verified on {VERIFIED}); upgrade to 5.x or check by hand"
        )
    if major > 5:
        return [f"transformers {version} is newer than the modelled 5.x (verified on {VERIFIED})"]
    if minor < 24:
        return [f"transformers {version}: rotation by mtime verified on {VERIFIED} only"]
    return []


def installed_warnings() -> list[str]:
    """check_version for the transformers installed here."""
    return check_version(installed_transformers())
