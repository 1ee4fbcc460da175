"""The tiny pipeline families guidelint can build, and what each stands in for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    name: str
    builder: str  # function name in builders.py
    summary: str
    stands_in_for: str  # the hub checkpoint whose layout it copies


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family("ddpm", "build_ddpm", "UNet2DModel + DDPMScheduler", "google/ddpm-cat-256"),
        Family("ddim", "build_ddim", "UNet2DModel + DDIMScheduler", "fusing/ddim-lsun-bedroom"),
        Family(
            "sd",
            "build_sd",
            "Stable Diffusion: UNet2DConditionModel, AutoencoderKL, CLIP text encoder",
            "stable-diffusion-v1-5/stable-diffusion-v1-5",
        ),
        Family(
            "sd-inpaint",
            "build_sd_inpaint",
            "Stable Diffusion inpainting (UNet with 9 input channels)",
            "stable-diffusion-v1-5/stable-diffusion-inpainting",
        ),
        Family(
            "sd-controlnet",
            "build_sd_controlnet",
            "Stable Diffusion with a ControlNet (controlnet/ subfolder)",
            "lllyasviel/sd-controlnet-canny",
        ),
        Family(
            "sdxl",
            "build_sdxl",
            "Stable Diffusion XL: two text encoders, text_time conditioning",
            "stabilityai/stable-diffusion-xl-base-1.0",
        ),
        Family(
            "sdxl-controlnet",
            "build_sdxl_controlnet",
            "Stable Diffusion XL with a ControlNet (controlnet/ subfolder)",
            "diffusers/controlnet-canny-sdxl-1.0",
        ),
    )
}
