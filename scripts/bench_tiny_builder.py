"""Build figures for the generic tiny builder (docs/PERFORMANCE.md).

For each pipeline class: the first build into an empty cache, a build that finds
every component already built (a sibling pipeline built first), and the cached
lookup; then the size on disk. Also the bare `import diffusers` time in a fresh
interpreter, for scale.

    python scripts/bench_tiny_builder.py FluxPipeline WanPipeline ...
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = [
    "FluxPipeline",
    "StableDiffusion3Pipeline",
    "KandinskyV22Pipeline",
    "AnimateDiffPipeline",
    "StableDiffusionAdapterPipeline",
    "StableDiffusionXLControlNetImg2ImgPipeline",
    "PixArtSigmaPipeline",
    "IFPipeline",
    "DiTPipeline",
    "WanPipeline",
]


def seconds(action, *args) -> tuple[float, object]:
    clock = time.perf_counter()
    result = action(*args)
    return time.perf_counter() - clock, result


def import_seconds(statement: str) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    return float(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
    )


def size_kb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1024


def main(names: list[str]) -> None:
    for statement in ("import diffusers", "from diffusers import DiffusionPipeline"):
        print(f"`{statement}`: {import_seconds(statement):.1f} s")
    import diffusers  # noqa: F401 - imported once, before any clock below
    import torch  # noqa: F401

    from guidelint.runner.diffusers_backend import build, generic

    print("| Pipeline | Plan | First build | Components already built | Cached | Size |")
    print("|----------|------|-------------|--------------------------|--------|------|")
    for name in names:
        plan_s, _ = seconds(generic.plan, name)
        first_cache, second_cache = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
        try:
            first_s, folder = seconds(build.checkpoint_for, name, first_cache)
            # the same components, a fresh pipeline folder: what a sibling pipeline costs
            shutil.copytree(
                build.cache.cache_dir(first_cache) / "components",
                build.cache.cache_dir(second_cache) / "components",
            )
            shared_s, _ = seconds(build.checkpoint_for, name, second_cache)
            cached_s, _ = seconds(build.checkpoint_for, name, first_cache)
            print(
                f"| {name} | {plan_s:.2f} s | {first_s:.2f} s | {shared_s:.2f} s | "
                f"{cached_s * 1000:.0f} ms | {size_kb(folder):.0f} KB |"
            )
        finally:
            shutil.rmtree(first_cache, ignore_errors=True)
            shutil.rmtree(second_cache, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:] or DEFAULT)
