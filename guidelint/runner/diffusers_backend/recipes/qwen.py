"""Recipes of the Qwen-VL families: Qwen-Image (with its ControlNets, edit and layered),
Kandinsky 5, LongCat, HunyuanImage, EasyAnimate, GLM-Image.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import T5, VAE_KL, Dim, Recipe

# Qwen-Image's MMDiT: 2x2 latent patches packed into tokens, conditioned on the hidden
# states of Qwen2.5-VL; its ControlNets repeat these widths (their block outputs are
# added to the transformer's).
QWEN_IMAGE = {
    "patch_size": 2,
    "in_channels": Dim("latent", times=4),
    "out_channels": Dim("latent"),
    "num_layers": 1,
    # one head of the width three had: its 1024 px default is 4,096 tokens a step
    # (Qwen-Image's pipelines hard-code 128 x the factor), whose attention is paid per head
    "attention_head_dim": 48,
    "num_attention_heads": 1,
    "joint_attention_dim": Dim("llm"),
    "axes_dims_rope": (16, 16, 16),  # sums to the head width
}

# Kandinsky 5: a text tower over Qwen2.5-VL states, a visual tower over 1x2x2 latent
# patches, CLIP's pooled output as the time condition; head width = sum(axes_dims).
KANDINSKY5 = {
    "in_visual_dim": Dim("latent"),
    "out_visual_dim": Dim("latent"),
    "in_text_dim": Dim("llm"),
    "in_text_dim2": Dim("text"),
    "time_dim": 16,
    "patch_size": (1, 2, 2),
    "model_dim": 16,
    "ff_dim": 32,
    "num_text_blocks": 1,
    "num_visual_blocks": 1,
    # one head of 16, the model's width (recipes/video.py, ONE_HEAD): the video
    # examples attend over 47,616 tokens (121 frames at 512x768), where four heads of 4
    # paid the softmax four times
    "axes_dims": (4, 4, 8),
    "visual_cond": False,
    "attention_type": "regular",
}

RECIPES: dict[str, Recipe] = {
    # the Qwen2 tokenizer plus image and video processors, sized to the tiny vision
    # tower (tokenizer.QWEN_VL_IMAGE)
    "Qwen2VLProcessor": Recipe("tokenizer", builder="build_qwen2_vl_processor"),
    "Qwen2_5_VLProcessor": Recipe("tokenizer", builder="build_qwen2_5_vl_processor"),
    "QwenImageTransformer2DModel": Recipe("model", {**QWEN_IMAGE, "guidance_embeds": False}),
    "AutoencoderKLQwenImage": Recipe(  # Wan's video VAE; three downsamplings, scale 8
        "model",
        {
            # two channels: its causal 3D convolutions at the full 1024 px are most of a
            # Qwen-Image example's time (as the coarse one's, recipes/coarse.py)
            "base_dim": 2,
            "z_dim": 4,
            "dim_mult": [1, 1, 1, 1],
            "num_res_blocks": 1,
            "temperal_downsample": [False, True, True],
            "latents_mean": [0.0] * 4,
            "latents_std": [1.0] * 4,
        },
        provides={"latent": "z_dim"},
    ),
    "QwenImageControlNetModel": Recipe("model", QWEN_IMAGE),
    # HunyuanImage 2.1: Qwen2.5-VL for the prompt, ByT5 for the text to render in quotes
    "HunyuanImageTransformer2DModel": Recipe(
        "model",
        {
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent"),
            "num_attention_heads": 4,
            "attention_head_dim": 8,
            "num_layers": 1,
            "num_single_layers": 1,
            "num_refiner_layers": 1,
            "patch_size": (1, 1),
            "guidance_embeds": False,  # the 2.1 base model: guidance by its guiders
            "text_embed_dim": Dim("llm"),
            "text_embed_2_dim": Dim("t5"),
            "rope_axes_dim": (4, 4),
        },
    ),
    "AutoencoderKLHunyuanImage": Recipe(  # six levels keep the real scale factor of 32
        "model",
        {
            "in_channels": 3,
            "out_channels": 3,
            "latent_channels": 4,
            "block_out_channels": (32,) * 6,  # its group norms have 32 groups
            "layers_per_block": 1,
            "spatial_compression_ratio": 32,
            "sample_size": 64,
            "scaling_factor": 0.75289,
        },
        provides={"latent": "latent_channels"},
    ),
    "T5EncoderModel/byt5": Recipe(  # ByT5: bytes, 3 specials and 125 sentinels
        "model",
        {**T5, "vocab_size": 384, "feed_forward_proj": "gated-gelu"},
        builds="T5EncoderModel",
        provides={"t5": "d_model"},
    ),
    "ByT5Tokenizer": Recipe("tokenizer", builder="build_byt5_tokenizer"),
    "Kandinsky5Transformer3DModel": Recipe("model", KANDINSKY5),
    "AutoencoderKL/longcat": Recipe(  # FLUX.1's VAE: LongCat asks for its 16 latent channels
        "model",
        {**VAE_KL, "latent_channels": 16, "shift_factor": 0.1159, "scaling_factor": 0.3611},
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    "LongCatImageTransformer2DModel": Recipe(  # Flux's layout over Qwen2.5-VL states
        "model",
        {
            "patch_size": 1,
            "in_channels": Dim("latent", times=4),  # 2x2 latent patches packed into tokens
            "num_layers": 1,
            "num_single_layers": 1,
            "attention_head_dim": 16,
            "num_attention_heads": 2,
            "joint_attention_dim": Dim("llm"),
            "pooled_projection_dim": Dim("llm"),
            "axes_dims_rope": [4, 4, 8],  # sums to attention_head_dim
        },
    ),
    # image-to-image and -video: the source latents and their mask beside the noise
    "Kandinsky5Transformer3DModel/cond": Recipe(
        "model", {**KANDINSKY5, "visual_cond": True}, builds="Kandinsky5Transformer3DModel"
    ),
    # the inpainting ControlNet also sees the mask: one more latent channel, packed 2x2
    "QwenImageControlNetModel/inpaint": Recipe(
        "model", {**QWEN_IMAGE, "extra_condition_channels": 4}, builds="QwenImageControlNetModel"
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^QwenImageControlNetInpaint", "controlnet", "QwenImageControlNetModel/inpaint"),
    # VisualCloze is Flux Fill (its generation step runs a FluxFillPipeline): Flux's
    # shifted VAE, and a transformer that also sees the masked image and the mask
    (r"^HunyuanImage(?!Refiner)", "text_encoder_2", "T5EncoderModel/byt5"),
    (r"^Kandinsky5I2[IV]", "transformer", "Kandinsky5Transformer3DModel/cond"),
    (r"^VisualCloze", "vae", "AutoencoderKL/flow"),
    (r"^LongCatImage", "vae", "AutoencoderKL/longcat"),
    (r"^VisualCloze", "transformer", "FluxTransformer2DModel/fill"),
)


HOME_PIPELINES: dict[str, str] = {
    "QwenImageTransformer2DModel": "QwenImagePipeline",
    "QwenImageControlNetModel": "QwenImageControlNetPipeline",
}
