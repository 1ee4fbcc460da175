"""Recipes of the examples whose size, not their kind, is the problem: tiny stand-ins
cheap enough per call for the steps, frames and resolutions these examples ask for
(RePaint's 250 steps with 10 resamplings of each jump at 256x256).

The same tables as every area (see recipes/__init__.py).
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import DDPM_UNET, Recipe

# RePaint resamples: 250 steps with jump_length 10 and jump_n_sample 10 are 4,570
# scheduler steps at 256x256, 2,410 of them UNet calls. The shared DDPM UNet (8 channels)
# costs 90 ms of CPU a call there; one channel (one norm group) 10.6 ms (2 channels: 13.5
# ms; one thread, 2026-12-05), and no resnet in its down block 8.6-9.1 ms (10.2-12.1
# with one; its up block keeps one, the mid block its two, all at full resolution in a
# one-level UNet; the real one has two a level): the same one-level UNet2DModel
# otherwise. The real checkpoint's six levels (google/ddpm-ema-celebahq-256: attention
# at 16x16 and in the mid block) at one channel cost 13-18 ms: 483 torch calls a UNet
# call where one level makes 104, each paying the runner's device check
# (devices.cpu_mode), so 19 ms in the runner against 11.8; over 2,410 calls that is the
# example's margin (docs/DIFFUSERS.md, "### slow").
REPAINT_UNET = {
    **DDPM_UNET,
    "block_out_channels": (1,),
    "norm_num_groups": 1,
    "layers_per_block": 0,
}

RECIPES: dict[str, Recipe] = {
    "UNet2DModel/repaint": Recipe("model", REPAINT_UNET, builds="UNet2DModel"),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = ((r"^RePaint", "unet", "UNet2DModel/repaint"),)
