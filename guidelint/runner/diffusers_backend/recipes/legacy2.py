"""Recipes of Wuerstchen and BLIP-Diffusion, whose own classes live in
pipelines/deprecated/ (Stable Cascade's decoder borrows Wuerstchen's VQ-GAN).

The same tables as every area (see recipes/__init__.py). Their real checkpoints name
the library of those classes as the pipeline folder they had when saved ("wuerstchen",
"blip_diffusion"; diffusers' own conversion scripts import them from there), which
diffusers 0.42 no longer has: CHECKPOINT_LIBRARY writes the tiny ones the same way,
so an example loading one fails exactly as on the real repo.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import CLIP_TEXT, Dim, Recipe

WUERSTCHEN = "diffusers.pipelines.deprecated.wuerstchen"
BLIP_DIFFUSION = "diffusers.pipelines.deprecated.blip_diffusion"

# The prior denoises 16-channel image embeddings (42.67x smaller than the image), which
# the decoder reads as its EfficientNet condition: both sides of one width.
IMAGE_EMBED = 16
# Stable Cascade's prior denoises 16-channel image embeddings too (classic's CASCADE_EMBED)
CASCADE_EMBED = 16
# BLIP-Diffusion's reference image, as its processor resizes it and its vision tower reads it
BLIP_IMAGE = 32

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
    # Stable Cascade's stage B: Wuerstchen's decoder rebuilt as a StableCascadeUNet, over
    # the same VQ-GAN latents (4x4 patches), conditioned on the prior's image embeddings
    # (effnet) and the pooled CLIP text embedding
    "StableCascadeUNet/decoder": Recipe(
        "model",
        {
            "in_channels": Dim("vq_latent"),
            "out_channels": Dim("vq_latent"),
            "patch_size": 4,
            "conditioning_dim": 32,
            "block_out_channels": (16, 32),
            "num_attention_heads": (-1, 2),
            "down_num_layers_per_block": (1, 1),
            "up_num_layers_per_block": (1, 1),
            "down_blocks_repeat_mappers": (1, 1),
            "up_blocks_repeat_mappers": (1, 1),
            "block_types_per_layer": (
                ("SDCascadeResBlock", "SDCascadeTimestepBlock"),
                ("SDCascadeResBlock", "SDCascadeTimestepBlock", "SDCascadeAttnBlock"),
            ),
            "clip_text_pooled_in_channels": Dim("proj"),
            "effnet_in_channels": CASCADE_EMBED,
            "pixel_mapper_in_channels": 3,
            "switch_level": None,
            "dropout": (0.1, 0.1),
        },
        builds="StableCascadeUNet",
    ),
    # BLIP-Diffusion: a Q-Former reads the reference image with its own BLIP vision
    # tower; its query tokens, projected to the CLIP text width, are spliced into the
    # prompt's embeddings by the context CLIP (an SD 1.5 text encoder)
    "Blip2QFormerModel": Recipe(
        "model",
        {
            "vision_config": {
                "hidden_size": 32,
                "intermediate_size": 37,
                "num_hidden_layers": 1,
                "num_attention_heads": 2,
                "image_size": BLIP_IMAGE,
                "patch_size": 4,
                "hidden_act": "quick_gelu",
            },
            "qformer_config": {
                "vocab_size": Dim("bert_vocab", plus=1),  # and the [DEC] token it adds
                "hidden_size": Dim("text"),
                "num_hidden_layers": 1,
                "num_attention_heads": 2,
                "intermediate_size": 37,
                "max_position_embeddings": 512,
                "cross_attention_frequency": 1,
                "encoder_hidden_size": 32,  # the vision tower's width
            },
            "num_query_tokens": 16,  # as the real one
        },
        builds=f"{BLIP_DIFFUSION}.modeling_blip2.Blip2QFormerModel",
        builder="Blip2Config",
        # its __init__ loads BertTokenizer "bert-base-uncased", as the real config names none
        loads_tokenizer=("tokenizer", "build_bert_tokenizer"),
    ),
    "ContextCLIPTextModel": Recipe(
        "model",
        CLIP_TEXT,
        builds=f"{BLIP_DIFFUSION}.modeling_ctx_clip.ContextCLIPTextModel",
        provides={"text": "hidden_size"},
    ),
    "BlipImageProcessor": Recipe(
        "processor",
        {"size": {"height": BLIP_IMAGE, "width": BLIP_IMAGE}},
        builds=f"{BLIP_DIFFUSION}.blip_image_processing.BlipImageProcessor",
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^StableCascade(Decoder|Combined)", "decoder", "StableCascadeUNet/decoder"),
)

# The library each real checkpoint's model_index.json names for these classes (see above).
CHECKPOINT_LIBRARY: dict[str, str] = {
    "WuerstchenPrior": "wuerstchen",
    "WuerstchenDiffNeXt": "wuerstchen",
    "PaellaVQModel": "wuerstchen",
    "Blip2QFormerModel": "blip_diffusion",
    "ContextCLIPTextModel": "blip_diffusion",
    "BlipImageProcessor": "blip_diffusion",
}
