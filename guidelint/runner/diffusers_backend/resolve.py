"""Which tiny checkpoint stands in for a hub id: pure functions, no torch.

Order: a pattern in `[tool.guidelint.runner.models]`; else the class the example
loads with, when it names an architecture (StableDiffusionXLPipeline); else the
words of the id (`...-xl-...`, `ddpm`, `controlnet`). An id nothing matches is not
guessed: loading it fails offline with a line that says how to map it.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path

from guidelint.runner.diffusers_backend.families import FAMILIES

# Single models and processors live in these folders of a pipeline checkpoint.
SUBFOLDER_BY_CLASS = {
    "UNet2DConditionModel": "unet",
    "UNet2DModel": "unet",
    "AutoencoderKL": "vae",
    "ControlNetModel": "controlnet",
    "CLIPTextModel": "text_encoder",
    "CLIPTextModelWithProjection": "text_encoder_2",
    "CLIPTokenizer": "tokenizer",
    "CLIPTokenizerFast": "tokenizer",
}
# Pipelines that need parts no tiny family has (a T5 encoder, an upscaler's low-res scheduler).
UNSUPPORTED_PREFIXES = (
    "StableDiffusion3",
    "StableDiffusionUpscale",
    "StableDiffusionLatentUpscale",
    "StableDiffusionDepth2Img",
    "StableUnCLIP",
    "StableDiffusionXLInstructPix2Pix",
    "StableDiffusionInstructPix2Pix",
)
GENERIC_CLASSES = {
    "DiffusionPipeline",
    "AutoPipelineForText2Image",
    "AutoPipelineForImage2Image",
    "AutoPipelineForInpainting",
}
SD_TOKENS = {"sd", "sd15", "sd21", "sd2", "controlnet", "lllyasviel"}
# "stable diffusion" ids of other architectures (video, audio, cascade, SD3)
NOT_SD_TOKENS = {"video", "audio", "cascade", "3", "3.5", "img2vid", "upscaler", "x4"}


@dataclass(frozen=True)
class Resolution:
    """Load `folder` (with `subfolder`) instead of the hub id; `reason` is for the report."""

    folder: str
    subfolder: str | None
    family: str | None  # None when a pattern points at a local folder
    reason: str

    def describe(self, hub_id: str) -> str:
        where = f"tiny '{self.family}'" if self.family else f"'{self.folder}'"
        if self.subfolder:
            where += f" ({self.subfolder}/)"
        return f"hub id '{hub_id}' -> {where}, {self.reason}"


def is_hub_id(name) -> bool:
    """A string that is not an existing local path (what from_pretrained would download)."""
    if not isinstance(name, (str, os.PathLike)):
        return False
    return not Path(os.fspath(name)).expanduser().exists()


def words(hub_id: str) -> set[str]:
    return set(re.split(r"[^a-z0-9]+", hub_id.lower())) - {""}


def family_by_pattern(hub_id: str, models: dict[str, str]) -> tuple[str, str] | None:
    """(pattern, target) of the first `models` entry whose glob matches the id."""
    for pattern, target in models.items():
        if fnmatch.fnmatchcase(hub_id.lower(), pattern.lower()):
            return pattern, target
    return None


def line_of(hub_id: str, class_name: str) -> tuple[str, str] | None:
    """(architecture line: sd, sdxl, ddpm, ddim; what decided it) or None."""
    if class_name not in GENERIC_CLASSES and class_name.endswith("Pipeline"):
        if class_name.startswith(UNSUPPORTED_PREFIXES):
            return None
        if "XL" in class_name:
            return "sdxl", f"by the class {class_name}"
        if class_name.startswith("StableDiffusion"):
            return "sd", f"by the class {class_name}"
        if class_name in ("DDPMPipeline", "DDIMPipeline"):
            return class_name[:4].lower(), f"by the class {class_name}"
        return None  # a pipeline of another architecture (PixArt, Flux, ...): no stand-in
    found = words(hub_id)
    if any(w in ("xl", "sdxl") or w.startswith("sdxl") for w in found):
        return "sdxl", "by the id's words"
    for line in ("ddpm", "ddim"):
        if line in found:
            return line, "by the id's words"
    if found & NOT_SD_TOKENS or any(w.startswith("sd3") for w in found):
        return None
    clip_part = class_name.startswith("CLIP") and "clip" in found  # SD 1.x's text encoder
    if {"stable", "diffusion"} <= found or found & SD_TOKENS or clip_part:
        return "sd", "by the id's words"
    return None


def family_for(line: str, hub_id: str, class_name: str) -> str:
    """The tiny family of an architecture line that fits what is being loaded."""
    if class_name == "ControlNetModel" and line in ("sd", "sdxl"):
        return f"{line}-controlnet"
    wants_inpaint = "inpaint" in hub_id.lower() or "Inpaint" in class_name
    if line == "sd" and wants_inpaint and "ControlNet" not in class_name + hub_id:
        return "sd-inpaint"
    return line


def subfolder_for(class_name: str, given: str | None, is_scheduler: bool) -> str | None:
    if given:
        return given
    if is_scheduler:
        return "scheduler"
    return SUBFOLDER_BY_CLASS.get(class_name)


def resolve(
    hub_id: str,
    class_name: str,
    *,
    models: dict[str, str],
    cache: Path,
    single_model: bool,
    subfolder: str | None = None,
    is_scheduler: bool = False,
    root: Path | None = None,
) -> Resolution | None:
    """Where to load `hub_id` from, or None when nothing stands in for it."""
    inner = subfolder_for(class_name, subfolder, is_scheduler) if single_model else subfolder
    matched = family_by_pattern(hub_id, models)
    if matched:
        pattern, target = matched
        reason = f"by pattern '{pattern}' in [tool.guidelint.runner.models]"
        if target in FAMILIES:
            return Resolution(str(cache / target), inner, target, reason)
        folder = Path(target).expanduser()
        if not folder.is_absolute():
            folder = (root or Path.cwd()) / folder
        if single_model and not subfolder and (folder / "config.json").is_file():
            inner = None  # the folder is the model itself
        return Resolution(str(folder), inner, None, reason)
    if single_model and not is_scheduler and class_name not in SUBFOLDER_BY_CLASS:
        return None  # a model class no tiny family has (a depth estimator, say)
    decided = line_of(hub_id, class_name)
    if decided is None:
        return None
    line, reason = decided
    family = family_for(line, hub_id, class_name)
    return Resolution(str(cache / family), inner, family, reason)
