"""Recipes of Wan-derived and related video pipelines: Wan image-to-video, SkyReels-V2,
Helios, ChronoEdit, AnyFlow, Sana Video, Cosmos.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. Wan's own
text-to-video DiT and VAE are shared recipes (`WAN` in parts.py).
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import (
    WAN,
    WAN_HEAD_WIDTH,
    WAN_HEADS,
    Dim,
    Recipe,
)

# Wan 2.1 image-to-video: the noise latents, the first frame's latents and a 4-channel
# frame mask go in; CLIP's penultimate hidden states are cross-attended through their
# own key/value projections (width of the DiT, 1 x 24).
WAN_I2V = {
    **WAN,
    "in_channels": Dim("latent", times=2, plus=4),
    "image_dim": Dim("image"),
    "added_kv_proj_dim": WAN_HEADS * WAN_HEAD_WIDTH,  # the DiT's inner width
}
SANA_VIDEO = {
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_attention_heads": 2,
    "attention_head_dim": 12,
    "num_layers": 1,
    "num_cross_attention_heads": 2,
    "cross_attention_head_dim": 12,
    "cross_attention_dim": 24,
    "caption_channels": Dim("llm"),
    "patch_size": (1, 2, 2),
    "qk_norm": "rms_norm_across_heads",
    "rope_max_seq_len": 1024,
}
# AnyFlow's flow-map DiT is Wan's without the q/k norm, conditioned on the step size too.
ANYFLOW = {
    **{k: v for k, v in WAN.items() if k != "qk_norm"},
    "gate_value": 0.25,
    "deltatime_type": "r",
}

RECIPES: dict[str, Recipe] = {
    "WanTransformer3DModel/i2v": Recipe("model", WAN_I2V, builds="WanTransformer3DModel"),
    "ChronoEditTransformer3DModel": Recipe("model", WAN_I2V),
    "SkyReelsV2Transformer3DModel": Recipe("model", WAN),
    "SkyReelsV2Transformer3DModel/i2v": Recipe(
        "model", WAN_I2V, builds="SkyReelsV2Transformer3DModel"
    ),
    # SkyReels-V2 I2V annotates CLIPProcessor but only calls its image half, which is what
    # diffusers' own tests give it (a CLIPImageProcessor)
    "CLIPProcessor": Recipe(
        "processor",
        {"size": {"shortest_edge": 32}, "crop_size": {"height": 32, "width": 32}},
        builds="CLIPImageProcessor",
    ),
    "AnyFlowTransformer3DModel": Recipe("model", ANYFLOW),
    # FAR: the frames far back attend through coarser (4x4) patches, in chunks of latent
    # frames (the real partition, 21 latent frames: 81 frames)
    "AnyFlowFARTransformer3DModel": Recipe(
        "model", {**ANYFLOW, "compressed_patch_size": (1, 4, 4), "full_chunk_limit": 3}
    ),
    # Helios: Wan's DiT with a long-video memory; RoPE split over (t, h, w) of a 24-wide head
    "HeliosTransformer3DModel": Recipe(
        "model",
        {
            **{k: v for k, v in WAN.items() if k != "rope_max_seq_len"},
            "rope_dim": (8, 8, 8),
            "has_multi_term_memory_patch": True,
            "guidance_cross_attn": True,
            "zero_history_timestep": True,
            "is_amplify_history": False,
        },
    ),
    "HeliosScheduler/single-stage": Recipe(  # the plain pipeline denoises in one stage
        "scheduler",
        {"stages": 1, "stage_range": [0, 1], "use_dynamic_shifting": True},
        builds="HeliosScheduler",
    ),
    "SanaVideoTransformer3DModel": Recipe("model", SANA_VIDEO),
    "FlowMapEulerDiscreteScheduler/anyflow": Recipe(
        "scheduler", {"shift": 5.0}, builds="FlowMapEulerDiscreteScheduler"
    ),
    "UniPCMultistepScheduler/skyreels": Recipe(  # flow sigmas, as SkyReels-V2 ships
        "scheduler",
        {"prediction_type": "flow_prediction", "use_flow_sigmas": True, "flow_shift": 8.0},
        builds="UniPCMultistepScheduler",
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^WanImageToVideo", "transformer", "WanTransformer3DModel/i2v"),
    (r"^SkyReelsV2ImageToVideo", "transformer", "SkyReelsV2Transformer3DModel/i2v"),
    (r"^SkyReelsV2", "scheduler", "UniPCMultistepScheduler/skyreels"),
    (r"^HeliosPipeline$", "scheduler", "HeliosScheduler/single-stage"),
    (r"^AnyFlow", "scheduler", "FlowMapEulerDiscreteScheduler/anyflow"),
    # SANA-Video's checkpoints pair their DiT with Wan 2.1's VAE
    (r"^Sana(Video|ImageToVideo)", "vae", "AutoencoderKLWan"),
    (r"^ChronoEdit", "scheduler", "FlowMatchEulerDiscreteScheduler/wan"),
)

# (pipeline class pattern, slot): optional slots built though usually left out.
KEPT_OPTIONAL: tuple[tuple[str, str], ...] = (
    (r"^WanImageToVideo", "image_encoder"),  # Wan 2.1 image-to-video ships it
)


HOME_PIPELINES: dict[str, str] = {
    "ChronoEditTransformer3DModel": "ChronoEditPipeline",
    "SkyReelsV2Transformer3DModel": "SkyReelsV2Pipeline",
    "AnyFlowTransformer3DModel": "AnyFlowPipeline",
    "AnyFlowFARTransformer3DModel": "AnyFlowFARPipeline",
    "HeliosTransformer3DModel": "HeliosPipeline",
    "SanaVideoTransformer3DModel": "SanaVideoPipeline",
}
