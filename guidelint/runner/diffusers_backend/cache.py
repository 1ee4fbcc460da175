"""Where tiny checkpoints live: one folder per torch+diffusers+transformers version set.

Checkpoints are built once, into a temporary folder renamed into place, so parallel
workers never see half a checkpoint and the first finished build wins.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from guidelint.runner.diffusers_backend.families import FAMILIES

ENV_VAR = "GUIDELINT_TINY_CACHE"
BUILD_FORMAT = 4  # bump when a builder changes, so old checkpoints are not reused
KEYED_PACKAGES = ("torch", "diffusers", "transformers")


@functools.cache  # reading package metadata costs ms a call, and a run asks hundreds of times
def version_key() -> str:
    parts = []
    for package in KEYED_PACKAGES:
        try:
            parts.append(f"{package}-{version(package)}")
        except PackageNotFoundError:
            parts.append(f"{package}-none")
    return f"v{BUILD_FORMAT}_" + "_".join(parts).replace("+", "-")


def user_home() -> Path:
    """The account's home, even where HOME points into a sandbox (the runner's workers)."""
    try:
        import pwd

        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError):
        return Path.home()


def default_base() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else user_home() / ".cache") / "guidelint" / "tiny"


def cache_dir(override: str | os.PathLike | None = None) -> Path:
    """The versioned folder under an override, else $GUIDELINT_TINY_CACHE, else the user cache."""
    base = override or os.environ.get(ENV_VAR) or default_base()
    return Path(base).expanduser() / version_key()


def family_dir(name: str, override=None) -> Path:
    return cache_dir(override) / name


def is_built(name: str, override=None) -> bool:
    return (family_dir(name, override) / "model_index.json").is_file()


def built_families(override=None) -> list[str]:
    return [name for name in FAMILIES if is_built(name, override)]


def ensure_built(name: str, override=None) -> Path:
    """The family's folder, building it first when it is missing."""
    target = family_dir(name, override)
    if not is_built(name, override):
        build_into(name, target)
    return target


def build_into(name: str, target: Path) -> None:
    from transformers.utils import logging as transformers_logging

    from guidelint.runner.diffusers_backend import builders

    transformers_logging.disable_progress_bar()  # "Writing model shards" bars, once per model
    pipeline = getattr(builders, FAMILIES[name].builder)()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=target.parent))
    try:
        pipeline.save_pretrained(staging, safe_serialization=True)
        try:
            staging.rename(target)
        except OSError:
            if not (target / "model_index.json").is_file():
                raise  # not a lost race: a real error
    finally:
        shutil.rmtree(staging, ignore_errors=True)
