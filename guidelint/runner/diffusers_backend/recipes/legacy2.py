"""Recipes of Wuerstchen and BLIP-Diffusion, whose own classes live in
pipelines/deprecated/ (Stable Cascade's decoder borrows Wuerstchen's VQ-GAN).

The same tables as every area (see recipes/__init__.py). Their real checkpoints name
the library of those classes as the pipeline folder they had when saved ("wuerstchen",
"blip_diffusion"; diffusers' own conversion scripts import them from there), which
diffusers 0.42 no longer has: CHECKPOINT_LIBRARY writes the tiny ones the same way,
so an example loading one fails exactly as on the real repo.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import Dim, Recipe

WUERSTCHEN = "diffusers.pipelines.deprecated.wuerstchen"

# The prior denoises 16-channel image embeddings (42.67x smaller than the image), which
# the decoder reads as its EfficientNet condition: both sides of one width.
IMAGE_EMBED = 16

RECIPES: dict[str, Recipe] = {
    "WuerstchenPrior": Recipe(
        "model",
        {
            "c_in": IMAGE_EMBED,
            "c": 16,
            "c_cond": Dim("text"),  # the prior's CLIP text states
            "c_r": 8,
            "depth": 1,
            "nhead": 2,
        },
        builds=f"{WUERSTCHEN}.modeling_wuerstchen_prior.WuerstchenPrior",
    ),
    # Stage B: two levels, the second with attention and the EfficientNet condition
    # injected, as every level but the first of the real one
    "WuerstchenDiffNeXt": Recipe(
        "model",
        {
            "c_in": Dim("vq_latent"),
            "c_out": Dim("vq_latent"),
            "c_r": 8,
            "patch_size": 2,
            "c_cond": 16,
            "c_hidden": [16, 32],
            "nhead": [-1, 2],
            "blocks": [1, 1],
            "level_config": ["CT", "CTA"],
            "inject_effnet": [False, True],
            "effnet_embd": IMAGE_EMBED,
            "clip_embd": Dim("text"),
        },
        builds=f"{WUERSTCHEN}.modeling_wuerstchen_diffnext.WuerstchenDiffNeXt",
    ),
    # Stage A: two levels (4x up), one bottleneck block, a tiny codebook
    "PaellaVQModel": Recipe(
        "model",
        {
            "levels": 2,
            "bottleneck_blocks": 1,
            "embed_dim": 16,
            "latent_channels": 4,
            "num_vq_embeddings": 8,
        },
        builds=f"{WUERSTCHEN}.modeling_paella_vq_model.PaellaVQModel",
        provides={"vq_latent": "latent_channels"},
    ),
}

# The library each real checkpoint's model_index.json names for these classes (see above).
CHECKPOINT_LIBRARY: dict[str, str] = {
    "WuerstchenPrior": "wuerstchen",
    "WuerstchenDiffNeXt": "wuerstchen",
    "PaellaVQModel": "wuerstchen",
}
