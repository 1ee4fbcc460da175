"""Recipes of the deprecated UNet-era pipelines: Versatile Diffusion, AltDiffusion,
Paint-by-Example, Shap-E image-to-3D and Dance Diffusion.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. A class a
pipeline module defines (not exported by diffusers) is built by its dotted path.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import (
    CLIP_VISION,
    SD_SCHEDULER,
    SD_UNET,
    Dim,
    Recipe,
)

DEPRECATED = "diffusers.pipelines.deprecated"

# Versatile Diffusion's text UNet holds the text-conditioned attention blocks the image
# UNet swaps in (text-to-image) or pairs with its own (dual-guided), by module path: its
# blocks mirror SD_UNET's layout in their Flat form. Its own input, the text VAE's
# 768-wide latents, is never denoised by these pipelines.
FLAT_UNET = {
    **SD_UNET,
    "in_channels": (8, 1, 1),
    "out_channels": (8, 1, 1),
    "down_block_types": ("DownBlockFlat", "DownBlockFlat", "CrossAttnDownBlockFlat"),
    "up_block_types": ("CrossAttnUpBlockFlat", "UpBlockFlat", "UpBlockFlat"),
    "mid_block_type": "UNetMidBlockFlatCrossAttn",
    "cross_attention_dim": Dim("proj"),
}

# Shap-E's image-to-3D prior reads the CLIP image encoder's patch states, one token each.
SHAPE_IMG2IMG_PRIOR = {
    "num_attention_heads": 2,
    "attention_head_dim": 16,
    "embedding_dim": 16,  # as the shared Shap-E renderer's d_latent
    "num_embeddings": 32,  # four MLP weights of 8 renderer rows
    "embedding_proj_dim": Dim("image"),
    "embedding_proj_norm_type": "layer",
    "time_embed_dim": 64,
    "num_layers": 1,
    "clip_embed_dim": 32,
    "additional_embeddings": 0,
    "time_embed_act_fn": "gelu",
    "norm_in_type": "layer",
    "encoder_hid_proj_type": None,
    "added_emb_type": None,
}

RECIPES: dict[str, Recipe] = {
    # AltDiffusion: an XLM-RoBERTa whose last states are projected to the UNet's width
    "RobertaSeriesModelWithTransformation": Recipe(
        "model",
        {
            "hidden_size": 32,
            "project_dim": 32,
            "intermediate_size": 37,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "max_position_embeddings": 514,  # the XLM-R tokenizer's 512 and its two offsets
            "vocab_size": Dim("xlmr_vocab"),
            "bos_token_id": 0,
            "pad_token_id": 1,
            "eos_token_id": 2,
            "layer_norm_eps": 1e-5,
        },
        builds=f"{DEPRECATED}.alt_diffusion.modeling_roberta_series.RobertaSeriesModelWithTransformation",
        provides={"text": "project_dim"},
    ),
    # Paint-by-Example: a CLIP vision tower and a mapper (one block per five layers),
    # a CLIPPreTrainedModel built over a vision config, as its checkpoint has it
    "PaintByExampleImageEncoder": Recipe(
        "model",
        {**CLIP_VISION, "num_hidden_layers": 4},
        builds=f"{DEPRECATED}.paint_by_example.image_encoder.PaintByExampleImageEncoder",
        builder="CLIPVisionConfig",
        provides={"image": "projection_dim"},
    ),
    "UNet2DConditionModel/paint-by-example": Recipe(  # inpaints, attending to the example
        "model",
        {
            **SD_UNET,
            "in_channels": Dim("latent", times=2, plus=1),
            "cross_attention_dim": Dim("image"),
        },
        builds="UNet2DConditionModel",
    ),
    "UNetFlatConditionModel": Recipe(
        "model",
        FLAT_UNET,
        builds=f"{DEPRECATED}.versatile_diffusion.modeling_text_unet.UNetFlatConditionModel",
    ),
    "UNet2DConditionModel/versatile": Recipe(  # attends to CLIP's projected states
        "model", {**SD_UNET, "cross_attention_dim": Dim("proj")}, builds="UNet2DConditionModel"
    ),
    # the dual attention splits its condition as 77 text and 257 image tokens: a 16x16
    # patch grid, as ViT-L/14 at 224 px
    "CLIPVisionModelWithProjection/versatile": Recipe(
        "model",
        {**CLIP_VISION, "patch_size": 2},
        builds="CLIPVisionModelWithProjection",
        provides={"image": "projection_dim"},
    ),
    "PriorTransformer/shap-e-img2img": Recipe(
        "model", SHAPE_IMG2IMG_PRIOR, builds="PriorTransformer"
    ),
    # Dance Diffusion denoises stereo waveforms; five 2x steps down before the attention
    # levels keep the examples' 4 s at 16 kHz (64000 samples) to 2000-long attention
    "UNet1DModel/dance": Recipe(
        "model",
        {
            "sample_size": 512,
            "sample_rate": 16000,
            "in_channels": 2,
            "out_channels": 2,
            "extra_in_channels": 16,
            "flip_sin_to_cos": True,
            "use_timestep_embedding": False,
            "time_embedding_type": "fourier",
            "mid_block_type": "UNetMidBlock1D",
            "down_block_types": ("DownBlock1DNoSkip", *("DownBlock1D",) * 4, "AttnDownBlock1D"),
            "up_block_types": ("AttnUpBlock1D", *("UpBlock1D",) * 4, "UpBlock1DNoSkip"),
            # attention (down, mid and up) takes one head per 32 channels
            "block_out_channels": (8, 8, 8, 8, 32, 32),
        },
        builds="UNet1DModel",
    ),
    "PNDMScheduler/paint-by-example": Recipe("scheduler", SD_SCHEDULER, builds="PNDMScheduler"),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^PaintByExample", "unet", "UNet2DConditionModel/paint-by-example"),
    (r"^PaintByExample", "scheduler", "PNDMScheduler/paint-by-example"),
    (r"^VersatileDiffusion(Dual|Text)", "image_unet", "UNet2DConditionModel/versatile"),
    (r"^VersatileDiffusionDualGuided", "image_encoder", "CLIPVisionModelWithProjection/versatile"),
    (r"^DanceDiffusion", "unet", "UNet1DModel/dance"),
    (r"^DanceDiffusion", "scheduler", "IPNDMScheduler"),  # what harmonai's checkpoints ship
    (r"^ShapEImg2Img", "prior", "PriorTransformer/shap-e-img2img"),
)


# The library a real checkpoint's model_index.json names for a class a deprecated
# pipeline defines: its pipeline folder before diffusers 0.42 moved it under
# pipelines/deprecated/. diffusers 0.42 itself saves these as ["diffusers", class], which
# no checkpoint says; written as the real repos have them, a tiny one loads as they do.
CHECKPOINT_LIBRARY: dict[str, str] = {
    "RobertaSeriesModelWithTransformation": "alt_diffusion",
    "UNetFlatConditionModel": "versatile_diffusion",
    "PaintByExampleImageEncoder": "paint_by_example",
}
