"""Recipes of the Cosmos world-model pipelines and the later SANA pipelines (Sprint,
ControlNet, WM).

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. Sana's Gemma 2
text encoder, DC-AE and base DiT are shared recipes (`GEMMA2`, `SANA` in parts.py).
"""

from __future__ import annotations

from typing import cast

from guidelint.runner.diffusers_backend.recipes.parts import QWEN_TEXT, SANA, Dim, Recipe

# Sana's 1024 px checkpoints (Sprint, ControlNet): 32 latent pixels a side, the size
# their resolution binning checks for.
SANA_1024 = {**SANA, "sample_size": 32}

QWEN_TEXT_LAYERS = cast(int, QWEN_TEXT["num_hidden_layers"])
# Cosmos' DiT: adaLN-LoRA blocks over (1, 2, 2) patches, with RoPE and a learnable
# position embedding over the real checkpoints' 128 x 240 x 240 latent extent.
COSMOS = {
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_attention_heads": 2,
    "attention_head_dim": 16,
    "num_layers": 1,
    "mlp_ratio": 2.0,
    "text_embed_dim": Dim("t5"),
    "adaln_lora_dim": 4,
    "max_size": (128, 240, 240),
    "patch_size": (1, 2, 2),
    "rope_scale": (2.0, 1.0, 1.0),
    "concat_padding_mask": True,
    "extra_pos_embed_type": "learnable",
}
# Video-to-world DiTs also see the conditioning-frame mask as a channel.
COSMOS_V2W = {**COSMOS, "in_channels": Dim("latent", plus=1)}
# Cosmos 2.5 reads prompts with Qwen2.5-VL: the normalised hidden states of every layer
# after the embeddings, concatenated.
COSMOS_2_5 = {**COSMOS_V2W, "text_embed_dim": Dim("llm", times=QWEN_TEXT_LAYERS)}
# Transfer 2.5: a control branch every block, and image-context tokens cross-attended
COSMOS_TRANSFER = {
    **COSMOS_2_5,
    "controlnet_block_every_n": 1,
    "img_context_dim_in": 32,
    "img_context_num_tokens": 4,
    "img_context_dim_out": 32,
}

RECIPES: dict[str, Recipe] = {
    # Cosmos 1.0: T5 prompts, the Cosmos tokenizer's 8x8x8 wavelet VAE, EDM sampling
    "CosmosTransformer3DModel": Recipe("model", COSMOS),
    "CosmosTransformer3DModel/v2w": Recipe("model", COSMOS_V2W, builds="CosmosTransformer3DModel"),
    "CosmosTransformer3DModel/2.5": Recipe("model", COSMOS_2_5, builds="CosmosTransformer3DModel"),
    "CosmosTransformer3DModel/transfer": Recipe(
        "model", COSMOS_TRANSFER, builds="CosmosTransformer3DModel"
    ),
    "CosmosControlNetModel": Recipe(
        "model",
        {
            "n_controlnet_blocks": COSMOS["num_layers"],
            # the control video's latents, the condition mask and the padding mask
            "in_channels": Dim("latent", plus=2),
            "latent_channels": Dim("latent", plus=2),
            "model_channels": 2 * 16,  # the DiT's heads x head width
            **{
                key: COSMOS_TRANSFER[key]
                for key in (
                    "num_attention_heads",
                    "attention_head_dim",
                    "mlp_ratio",
                    "text_embed_dim",
                    "adaln_lora_dim",
                    "patch_size",
                    "max_size",
                    "rope_scale",
                    "extra_pos_embed_type",
                    "img_context_dim_in",
                    "img_context_dim_out",
                )
            },
        },
    ),
    "AutoencoderKLCosmos": Recipe(
        "model",
        {
            "latent_channels": 16,  # the shipped latents_mean/std have 16 channels' worth
            "encoder_block_out_channels": (8, 8, 8, 8),
            "decode_block_out_channels": (8, 8, 8, 8),
            "attention_resolutions": (),
            "num_layers": 1,
            "patch_size": 4,
            "patch_type": "haar",
            "spatial_compression_ratio": 8,
            "temporal_compression_ratio": 8,
        },
        provides={"latent": "latent_channels"},
    ),
    "EDMEulerScheduler": Recipe(  # as Cosmos 1.0's checkpoints ship it
        "scheduler",
        {
            "sigma_min": 0.002,
            "sigma_max": 80.0,
            "sigma_data": 0.5,
            "sigma_schedule": "karras",
            "num_train_timesteps": 1000,
            "prediction_type": "epsilon",
            "rho": 7.0,
            "final_sigmas_type": "sigma_min",
        },
    ),
    "FlowMatchEulerDiscreteScheduler/cosmos2": Recipe(
        "scheduler", {"use_karras_sigmas": True}, builds="FlowMatchEulerDiscreteScheduler"
    ),
    "UniPCMultistepScheduler/cosmos2.5": Recipe(  # as diffusers' conversion script sets it
        "scheduler",
        {
            "use_karras_sigmas": True,
            "use_flow_sigmas": True,
            "prediction_type": "flow_prediction",
            "sigma_max": 200.0,
            "sigma_min": 0.01,
        },
        builds="UniPCMultistepScheduler",
    ),
    # SANA-Sprint: one- or two-step consistency (sCM) distillation; the guidance scale is
    # an input of the DiT (an embedding), its attention normalises queries and keys
    "SanaTransformer2DModel/sprint": Recipe(
        "model",
        {**SANA_1024, "guidance_embeds": True, "qk_norm": "rms_norm_across_heads"},
        builds="SanaTransformer2DModel",
    ),
    "SanaTransformer2DModel/1024": Recipe("model", SANA_1024, builds="SanaTransformer2DModel"),
    # what Sprint's checkpoints ship though the pipeline annotates DPMSolverMultistep: the
    # pipeline reads its sigma_data and passes it TrigFlow's max/intermediate timesteps
    "DPMSolverMultistepScheduler/sprint": Recipe("scheduler", builds="SCMScheduler"),
    # the ControlNet is a shallow copy of the DiT it steers, with the same widths
    "SanaControlNetModel": Recipe("model", {k: v for k, v in SANA_1024.items() if k != "qk_norm"}),
}

RECIPES["SanaWMTransformer3DModel"] = Recipe(  # SANA-WM: camera-controlled video DiT
    "model",
    {
        "in_channels": Dim("latent"),
        "caption_channels": Dim("llm"),
        # two blocks, so both kinds run: gated-delta-net linear attention, and the
        # softmax attention of every `softmax_every_n`-th block
        "num_layers": 2,
        "softmax_every_n": 2,
        "chunk_plucker_post_attn_blocks": 2,
        "hidden_size": 32,
        "num_attention_heads": 2,
        "linear_head_dim": 16,
        # Plucker rays: 6 numbers per pixel for each of the VAE's 8 frames per latent frame
        "chunk_plucker_channels": 6 * 8,
    },
)

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^Cosmos(VideoToWorld|2VideoToWorld)", "transformer", "CosmosTransformer3DModel/v2w"),
    (r"^Cosmos2_5_Predict", "transformer", "CosmosTransformer3DModel/2.5"),
    (r"^Cosmos2_5_Transfer", "transformer", "CosmosTransformer3DModel/transfer"),
    (r"^Cosmos2_5", "scheduler", "UniPCMultistepScheduler/cosmos2.5"),
    (r"^Cosmos2(TextToImage|VideoToWorld)", "scheduler", "FlowMatchEulerDiscreteScheduler/cosmos2"),
    (r"^SanaSprint", "transformer", "SanaTransformer2DModel/sprint"),
    (r"^SanaSprint", "scheduler", "DPMSolverMultistepScheduler/sprint"),
    (r"^SanaControlNet", "transformer", "SanaTransformer2DModel/1024"),
)


HOME_PIPELINES: dict[str, str] = {
    "SanaControlNetModel": "SanaControlNetPipeline",
    "CosmosControlNetModel": "Cosmos2_5_TransferPipeline",
}
