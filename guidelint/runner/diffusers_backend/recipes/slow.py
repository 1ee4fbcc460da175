"""Recipes of the examples whose size, not their kind, is the problem: tiny stand-ins
cheap enough per call for the steps, frames and resolutions these examples ask for
(RePaint's 250 steps with 10 resamplings of each jump at 256x256).

The same tables as every area (see recipes/__init__.py).
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import DDPM_UNET, Recipe

# RePaint resamples: 250 steps with jump_length 10 and jump_n_sample 10 are 2,410 UNet
# calls at 256x256. The shared DDPM UNet (8 channels) costs 90 ms of CPU a call there;
# 2 channels (one per norm group) cost 33 ms: the same one-level UNet2DModel otherwise.
REPAINT_UNET = {**DDPM_UNET, "block_out_channels": (2,)}

RECIPES: dict[str, Recipe] = {
    "UNet2DModel/repaint": Recipe("model", REPAINT_UNET, builds="UNet2DModel"),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = ((r"^RePaint", "unet", "UNet2DModel/repaint"),)
