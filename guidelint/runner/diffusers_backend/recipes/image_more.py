"""Recipes of later image pipelines: CogView 3 Plus and 4 Control, Flux Redux, HunyuanImage
refiner, OmniGen, HiDream, Ovis, Z-Image Omni, Qwen-Image 2.1, Marigold.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from guidelint.runner.diffusers_backend.recipes import llm, video
from guidelint.runner.diffusers_backend.recipes.parts import (
    CLIP_TEXT,
    CLIP_TEXT_PROVIDES,
    COGVIEW4,
    FLUX1_T5_WIDTH,
    SD_UNET,
    Dim,
    Recipe,
)

# Z-Image's DiT, as recipes/llm.py builds it for ZImagePipeline
Z_IMAGE = llm.RECIPES["ZImageTransformer2DModel"].config

# Marigold: SD's UNet denoising the target's latents beside the image's latents (the
# two concatenated: twice the latent channels in), one latent per predicted target out.
MARIGOLD_UNET = {**SD_UNET, "in_channels": Dim("latent", times=2)}
# What the v1-1 checkpoints ship: v-prediction over a trailing DDIM schedule, 4 steps at
# 768 px (model_index.json and scheduler_config.json of prs-eth/marigold-*-v1-1).
MARIGOLD_SCHEDULER = {
    "beta_start": 0.00085,
    "beta_end": 0.012,
    "beta_schedule": "scaled_linear",
    "clip_sample": False,
    "set_alpha_to_one": False,
    "steps_offset": 1,
    "prediction_type": "v_prediction",
    "timestep_spacing": "trailing",
}
MARIGOLD_DEFAULTS = {"default_denoising_steps": 4, "default_processing_resolution": 768}
# marigold-iid-appearance-v1-1: albedo, and a stack of roughness and metallicity
APPEARANCE_TARGETS = {
    "target_names": ["albedo", "material"],
    "albedo": {"prediction_space": "srgb", "up_to_scale": False},
    "material": {
        "prediction_space": "stack",
        "sub_target_names": ["roughness", "metallicity", None],
    },
    "roughness": {"prediction_space": "linear", "up_to_scale": False},
    "metallicity": {"prediction_space": "linear", "up_to_scale": False},
}
APPEARANCE_COUNT = len(APPEARANCE_TARGETS["target_names"])

# CogView 3 Plus: 2x2 patches over T5 states; original size, crop and target size are
# embedded condition_dim wide each. Positions for 128 patches a side, as the real model:
# its default size is 1024 px.
COGVIEW3PLUS = {
    "patch_size": 2,
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_layers": 1,
    "attention_head_dim": 8,
    "num_attention_heads": 4,
    "text_embed_dim": Dim("t5"),
    "time_embed_dim": 8,
    "condition_dim": 4,
    "pos_embed_max_size": 128,
    "sample_size": 128,
}

# HunyuanImage 2.1's refiner: the base transformer over 1x1x1 patches of a video VAE's
# latents, two frames folded into channels (2x the VAE's latent channels), the noise beside
# the image to refine (4x in), with a distilled guidance input and no ByT5 branch; RoPE
# over (t, h, w) sums to the head width.
HUNYUAN_REFINER = {
    "in_channels": Dim("latent", times=4),
    "out_channels": Dim("latent", times=2),
    "num_attention_heads": 4,
    "attention_head_dim": 8,
    "num_layers": 1,
    "num_single_layers": 1,
    "num_refiner_layers": 1,
    "patch_size": (1, 1, 1),
    "guidance_embeds": True,
    "text_embed_dim": Dim("llm"),
    "rope_axes_dim": (2, 2, 4),  # each even: cos and sin halves
}

# OmniGen: a Phi-3 decoder over text tokens (it embeds them itself) and 2x2 latent
# patches; Phi-3's long-context RoPE needs a short and a long factor per rotary pair.
# One head of the width four had: its docstring's 1024 px image is 4,096 tokens, whose
# attention is paid per head (its processor counts the image's tokens as px / 16 / 16,
# so neither the patch nor the VAE's factor may change); the module names stay.
OMNIGEN_HEAD = 32
OMNIGEN = {
    "in_channels": Dim("latent"),
    "patch_size": 2,
    "hidden_size": OMNIGEN_HEAD,
    "num_attention_heads": 1,
    "num_key_value_heads": 1,
    "intermediate_size": 37,
    "num_layers": 1,
    "vocab_size": Dim("llama_vocab"),
    "pad_token_id": 0,  # Phi-3's pad id (32000) lies past the tiny vocabulary: the tokenizer's
    "rope_scaling": {
        "short_factor": [1.0] * (OMNIGEN_HEAD // 2),
        "long_factor": [1.0] * (OMNIGEN_HEAD // 2),
    },
    "time_step_dim": 16,
}
# Ovis-Image: Flux's double and single stream blocks over Qwen3 states, no pooled text.
OVIS_IMAGE = {
    "patch_size": 1,
    "in_channels": Dim("latent", times=4),  # 2x2 latent patches packed into tokens
    "out_channels": Dim("latent", times=4),
    "num_layers": 1,
    "num_single_layers": 1,
    "attention_head_dim": 16,
    "num_attention_heads": 2,
    "joint_attention_dim": Dim("llm"),
    "axes_dims_rope": (4, 4, 8),  # sums to attention_head_dim
}
# SigLIP 2 (NaFlex): patches of any aspect, up to num_patches, positions resized to fit;
# the processor cuts the same patches the model embeds.
SIGLIP2_PATCH, SIGLIP2_PATCHES = 4, 64
SIGLIP2_VISION = {
    "hidden_size": 32,
    "intermediate_size": 37,
    "num_attention_heads": 4,
    "num_hidden_layers": 2,
    "patch_size": SIGLIP2_PATCH,
    "num_patches": SIGLIP2_PATCHES,
}

# HiDream-I1: a mixture-of-experts DiT; each block reads one Llama 3.1 layer's states
# (llama_layers, one per block), the last one T5's; the two CLIP projections, concatenated,
# are its pooled input. Positions for 128 latent pixels a side (1024 px) as the real one.
HIDREAM_LLAMA_LAYERS = 2  # the transformer's two blocks each read their own layer
HIDREAM = {
    "patch_size": 2,
    "in_channels": Dim("latent"),
    "num_layers": 1,
    "num_single_layers": 1,
    "attention_head_dim": 16,
    "num_attention_heads": 2,
    "caption_channels": [Dim("t5"), Dim("llm")],
    "text_emb_dim": Dim("proj", times=2),
    "num_routed_experts": 4,
    "num_activated_experts": 2,
    "axes_dims_rope": (8, 4, 4),  # sums to attention_head_dim
    "max_resolution": (128, 128),
    "llama_layers": list(range(HIDREAM_LLAMA_LAYERS)),
}

RECIPES: dict[str, Recipe] = {
    "UNet2DConditionModel/marigold": Recipe("model", MARIGOLD_UNET, builds="UNet2DConditionModel"),
    "UNet2DConditionModel/marigold-appearance": Recipe(  # the image and each target's latents
        "model",
        {
            **MARIGOLD_UNET,
            "in_channels": Dim("latent", times=1 + APPEARANCE_COUNT),
            "out_channels": Dim("latent", times=APPEARANCE_COUNT),
        },
        builds="UNet2DConditionModel",
    ),
    "DDIMScheduler/marigold": Recipe("scheduler", MARIGOLD_SCHEDULER, builds="DDIMScheduler"),
    "CogView3PlusTransformer2DModel": Recipe("model", COGVIEW3PLUS),
    # CogView3-Plus-3B's scheduler: v-prediction, zero terminal SNR, trailing steps
    "CogVideoXDDIMScheduler/cogview3": Recipe(
        "scheduler",
        {
            "beta_schedule": "scaled_linear",
            "clip_sample": False,
            "prediction_type": "v_prediction",
            "rescale_betas_zero_snr": True,
            "set_alpha_to_one": True,
            "snr_shift_scale": 1.0,
            "timestep_spacing": "trailing",
        },
        builds="CogVideoXDDIMScheduler",
    ),
    "CogView4Transformer2DModel/control": Recipe(  # also sees the control image's latents
        "model",
        {**COGVIEW4, "in_channels": Dim("latent", times=2)},
        builds="CogView4Transformer2DModel",
    ),
    "HunyuanImageTransformer2DModel/refiner": Recipe(
        "model", HUNYUAN_REFINER, builds="HunyuanImageTransformer2DModel"
    ),
    "AutoencoderKLHunyuanImageRefiner": Recipe(  # five levels keep its 16x in space, 4x in time
        "model",
        {
            "latent_channels": 4,
            "block_out_channels": (8,) * 5,
            "layers_per_block": 1,
            "spatial_compression_ratio": 16,
            "temporal_compression_ratio": 4,
        },
        provides={"latent": "latent_channels"},
    ),
    "OmniGenTransformer2DModel": Recipe("model", OMNIGEN),
    # Flux Redux: SigLIP's states up to three times T5-XXL's width and down to it, so they
    # sit beside the T5 states a FLUX.1 reads: the output width is FLUX.1's, whatever the
    # SigLIP (the real one's two layers: 1152 -> 12288 -> 4096; here 32 -> 12288 -> 4096,
    # 50 M parameters that no smaller width keeps faithful)
    "ReduxImageEncoder": Recipe(
        "model", {"redux_dim": Dim("image"), "txt_in_features": FLUX1_T5_WIDTH}
    ),
    "OvisImageTransformer2DModel": Recipe("model", OVIS_IMAGE),
    "Siglip2VisionModel": Recipe("model", SIGLIP2_VISION, provides={"image": "hidden_size"}),
    "Siglip2ImageProcessorPil": Recipe(
        "processor", {"patch_size": SIGLIP2_PATCH, "max_num_patches": SIGLIP2_PATCHES}
    ),
    "Siglip2ImageProcessor": Recipe(
        "processor", {"patch_size": SIGLIP2_PATCH, "max_num_patches": SIGLIP2_PATCHES}
    ),
    "ZImageTransformer2DModel/omni": Recipe(  # also attends to SigLIP 2 features of images
        "model",
        {**Z_IMAGE, "siglip_feat_dim": Dim("image")},
        builds="ZImageTransformer2DModel",
    ),
    "HiDreamImageTransformer2DModel": Recipe("model", HIDREAM),
    # HiDream's CLIPs are Long-CLIP: 248 positions (its pipeline pads their prompts to 128)
    "CLIPTextModelWithProjection/long": Recipe(
        "model",
        {**CLIP_TEXT, "max_position_embeddings": 248},
        builds="CLIPTextModelWithProjection",
        provides=CLIP_TEXT_PROVIDES,
    ),
    "LlamaForCausalLM": Recipe(
        "model",
        {**video.LLAMA, "num_hidden_layers": HIDREAM_LLAMA_LAYERS},
        provides={"llm": "hidden_size"},
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^Marigold(Depth|Normals)", "unet", "UNet2DConditionModel/marigold"),
    (r"^MarigoldIntrinsics", "unet", "UNet2DConditionModel/marigold-appearance"),
    (r"^Marigold", "scheduler", "DDIMScheduler/marigold"),
    (r"^CogView4Control", "transformer", "CogView4Transformer2DModel/control"),
    (r"^HunyuanImageRefiner", "transformer", "HunyuanImageTransformer2DModel/refiner"),
    (r"^ZImageOmni", "transformer", "ZImageTransformer2DModel/omni"),
    # Ovis-Image ships Qwen3 (its chat template closes the think block) and FLUX.1's VAE
    (r"^OvisImage", "tokenizer", "Qwen2Tokenizer/qwen3"),
    (r"^OvisImage", "vae", "AutoencoderKL/flow"),
    # HiDream's tokenizer_4 is annotated with transformers' base class: Llama 3.1's
    (r"^HiDream", "tokenizer_4", "LlamaTokenizer"),
    (r"^HiDream", "text_encoder", "CLIPTextModelWithProjection/long"),
    (r"^HiDream", "text_encoder_2", "CLIPTextModelWithProjection/long"),
    (r"^HiDream", "vae", "AutoencoderKL/flow"),  # FLUX.1's VAE
    (r"^CogView3Plus", "scheduler", "CogVideoXDDIMScheduler/cogview3"),
)

TOKENIZER_OF_ENCODER: dict[str, str] = {"LlamaForCausalLM": "LlamaTokenizer"}

HOME_PIPELINES: dict[str, str] = {"LlamaForCausalLM": "HiDreamImagePipeline"}

# (pipeline class pattern, slot): optional slots their real checkpoints ship empty.
# FLUX.1-Redux-dev ships no text encoders: the prior then returns zeros of FLUX.1's real
# text widths beside its image embeddings (the 'dev' FluxPipeline of hubvariants.py reads them).
LEFT_OUT: tuple[tuple[str, str], ...] = tuple(
    (r"^FluxPriorRedux", slot)
    for slot in ("text_encoder", "tokenizer", "text_encoder_2", "tokenizer_2")
)

PIPELINE_ARGUMENTS: tuple[tuple[str, Mapping[str, Any]], ...] = (
    (r"^MarigoldDepth", {"prediction_type": "depth", **MARIGOLD_DEFAULTS}),
    (r"^MarigoldNormals", {"prediction_type": "normals", **MARIGOLD_DEFAULTS}),
    (
        r"^MarigoldIntrinsics",
        {
            "prediction_type": "intrinsics",
            "target_properties": APPEARANCE_TARGETS,
            **MARIGOLD_DEFAULTS,
        },
    ),
)
