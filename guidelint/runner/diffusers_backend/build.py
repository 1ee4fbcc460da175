"""The builder's API: a tiny checkpoint folder for a pipeline or model class, or why not.

Resolution (resolve.py, loading.py) calls only these four names; how a class is built
(the hand-made families or the generic, table-driven builder) stays behind them.
"""

from __future__ import annotations

import os
from pathlib import Path

from guidelint.runner.diffusers_backend import cache

# Pipeline classes the hand-made families build, and the family each loads from.
FAMILY_BY_PIPELINE = {
    "DDPMPipeline": "ddpm",
    "DDIMPipeline": "ddim",
    "StableDiffusionPipeline": "sd",
    "StableDiffusionInpaintPipeline": "sd-inpaint",
    "StableDiffusionControlNetPipeline": "sd-controlnet",
    "StableDiffusionXLPipeline": "sdxl",
    "StableDiffusionXLControlNetPipeline": "sdxl-controlnet",
}


class CannotBuild(Exception):
    """No tiny stand-in of `missing` (a pipeline, model or tokenizer class) can be built."""

    def __init__(self, missing: str, reason: str) -> None:
        super().__init__(f"no tiny {missing} can be built: {reason}")
        self.missing = missing
        self.reason = reason


def buildable(pipeline_class: str) -> bool:
    """Whether `checkpoint_for(pipeline_class)` would succeed; builds nothing."""
    return pipeline_class in FAMILY_BY_PIPELINE


def checkpoint_for(pipeline_class: str, cache_override: str | os.PathLike | None = None) -> Path:
    """A folder with model_index.json whose pipeline is `pipeline_class`, built when missing."""
    family = FAMILY_BY_PIPELINE.get(pipeline_class)
    if family is None:
        raise CannotBuild(pipeline_class, "no tiny recipe for this pipeline class")
    return cache.ensure_built(family, cache_override)


def component_checkpoint(
    component_class: str, cache_override: str | os.PathLike | None = None
) -> Path:
    """A folder with config.json (and weights) of one tiny model, built when missing."""
    raise CannotBuild(component_class, "no tiny recipe for this model class")
