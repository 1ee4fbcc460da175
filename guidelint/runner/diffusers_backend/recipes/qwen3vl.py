"""Recipes of the pipelines that read prompts (and edit images) with Qwen3-VL: NucleusMoE-Image,
JoyImage Edit and Edit Plus, Bria FIBO 2, DreamLite, Qwen-Image 2.1; and Qwen-Image Layered
(Qwen2.5-VL), whose layered variants were missing from the qwen area.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. Their processor
(`Qwen3VLProcessor`, family_tokenizers.build_qwen3_vl_processor) is image_audio's;
the Qwen3 language half (llm.QWEN3) is the llm area's.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.llm import QWEN3
from guidelint.runner.diffusers_backend.recipes.parts import Dim, Recipe
from guidelint.runner.diffusers_backend.recipes.qwen import QWEN_IMAGE
from guidelint.runner.diffusers_backend.recipes.qwen import RECIPES as QWEN_RECIPES

# Qwen3-VL with its LM head, as these checkpoints ship it (`Qwen3VLForConditionalGeneration`).
# The language half keeps the real 36 layers (Qwen3-VL-4B and -8B): NucleusMoE reads
# hidden state -8, Bria FIBO 2 named layers up to 35, the rest the last one. Its mRoPE
# splits the head's 4 frequency pairs (t, h, w) = (2, 1, 1), interleaved, as the real
# (24, 20, 20) over 64. The vision tower (edits send the image through it) keeps the
# real three DeepStack mergers, one after each of its three blocks (the real ones tap
# blocks 8, 16 and 24 of 27), and the processor's vision markers are its ids.
QWEN3_VL_TEXT = {
    **QWEN3,
    "vocab_size": Dim("qwen3_vocab"),
    "num_hidden_layers": 36,
    "rope_parameters": {
        "rope_type": "default",
        "rope_theta": 5000000.0,
        "mrope_section": [2, 1, 1],
        "mrope_interleaved": True,
    },
}
QWEN3_VL_FULL = {
    "text_config": QWEN3_VL_TEXT,
    "vision_config": {
        "depth": 3,
        "hidden_size": 16,
        "intermediate_size": 16,
        "num_heads": 2,
        "out_hidden_size": 16,  # the language half's width: merged patches become tokens
        "deepstack_visual_indexes": [0, 1, 2],
        "num_position_embeddings": 2304,  # the real 48x48 position grid
    },
    "image_token_id": Dim("qwen_image_pad"),
    "video_token_id": Dim("qwen_video_pad"),
    "vision_start_token_id": Dim("qwen_vision_start"),
    "vision_end_token_id": Dim("qwen_vision_end"),
    "tie_word_embeddings": False,
}

# NucleusMoE-Image: a single-stream DiT with cross-attention to Qwen3-VL states and a
# mixture-of-experts feed-forward. "leave_first_block_dense" over two blocks keeps one
# dense and one routed block (the real 24 leave the first three and the last dense).
NUCLEUS_MOE = {
    "patch_size": 2,
    "in_channels": Dim("latent", times=4),
    "out_channels": Dim("latent"),
    "num_layers": 2,
    "attention_head_dim": 16,
    "num_attention_heads": 2,
    "joint_attention_dim": Dim("llm"),
    "axes_dims_rope": (8, 4, 4),  # sums to attention_head_dim
    "dense_moe_strategy": "leave_first_block_dense",
    # experts choose their tokens: each takes capacity_factor * tokens / num_experts of
    # them; 1/16 of the tokens as the real 128 experts at 8.0 take
    "num_experts": 16,
    "capacity_factors": 1.0,
    "moe_intermediate_dim": 16,
}

# JoyImage Edit (and Edit Plus): an MMDiT over 1x2x2 patches of Wan VAE latents, text from
# Qwen3-VL's last layer; one head of 32 (attention is paid per head: 0.39 s a call
# against 0.50 s with two at the edit example's 8,192 tokens), RoPE split over it.
JOYIMAGE = {
    "patch_size": [1, 2, 2],
    "in_channels": Dim("latent"),
    "hidden_size": 32,
    "num_attention_heads": 1,
    "text_dim": Dim("llm"),
    "num_layers": 1,
    "rope_dim_list": [8, 12, 12],  # sums to the head width
}

# Bria FIBO 2: a single-stream DiT over Flux 2 VAE latents (2x2 patches), read by a
# Perceiver over one bundle of three Qwen3-VL layers and by five injection blocks, each
# cross-attending its own bundle (pipeline_bria_fibo2.TEXT_ENCODER_OUT_LAYERS: six
# bundles, so five injections, always): `cap_feat_dim` is three text widths. The
# injection blocks sit where the real ones do (6, 14, 22, 30, 38: names a LoRA or an
# attention processor addresses), so 39 blocks of one 16-wide head (the real 44 of 28).
BRIA_FIBO2 = {
    "in_channels": Dim("latent"),
    "patch_size": 2,
    "dim": 16,
    "n_layers": 39,
    "n_refiner_layers": 1,
    "n_heads": 1,
    "cap_feat_dim": Dim("llm", times=3),
    "injection_layer_ids": (6, 14, 22, 30, 38),
    "perceiver_num_layers": 1,
    "axes_dims": (4, 6, 6),  # sums to dim / n_heads
}

# DreamLite (base and mobile): a UNet over Qwen3-VL's last states, the class's own three
# levels (cross-attention only at the first two, self- and cross-attention at the
# lowest, a plain last up block; separable convolutions, RMS q/k norm, one KV head).
DREAMLITE_UNET = {
    "sample_size": 128,  # 1024 px over the tiny autoencoder's 8x
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "block_out_channels": (16, 16, 32),
    "layers_per_block": 1,
    "norm_num_groups": 8,
    # the head count, as in UNet2DConditionModel (`num_attention_heads = ... or
    # attention_head_dim`): one head a level, since attention is paid per head
    "attention_head_dim": 1,
    "cross_attention_dim": Dim("llm"),
}
# TAESD's layout (AutoencoderTiny): four levels, so the scale factor is 8, as the real one
TINY_AUTOENCODER = {
    "encoder_block_out_channels": (8, 8, 8, 8),
    "decoder_block_out_channels": (8, 8, 8, 8),
    "num_encoder_blocks": (1, 1, 1, 1),
    "num_decoder_blocks": (1, 1, 1, 1),
    "latent_channels": 4,
}

# Qwen-Image 2.1: a DiT over unpatched latents of a 16x VAE (the pipeline fixes
# vae_scale_factor at 16: five levels, four spatial halvings, three temporal ones, as
# the real one), text from Qwen3-VL's last decoder layer.
QWEN_IMAGE21 = {
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_layers": 1,
    "attention_head_dim": 16,
    "num_attention_heads": 2,
    "context_in_dim": Dim("llm"),
    "axes_dims_rope": (8, 4, 4),  # sums to attention_head_dim
}
QWEN_IMAGE21_VAE = {
    "base_dim": 4,
    "decoder_base_dim": 4,
    "z_dim": 4,
    "dim_mult": [1, 1, 1, 1, 1],
    "num_res_blocks": 1,
    "temperal_downsample": [False, True, True, True],
    "latents_mean": [0.0] * 4,
    "latents_std": [1.0] * 4,
}

# Qwen-Image Layered decomposes an RGBA image into layers: its pipeline encodes the RGBA
# image (a VAE of 4 input channels), packs layers + 1 latent frames and passes the
# transformer `additional_t_cond` (whether a frame is the RGB one) and per-layer image
# shapes, which only a transformer with those embeddings and 3D layer RoPE reads.
# One head of 48 where Qwen-Image's stand-in has three of 16: the example's 8,000 tokens
# (five 640 px layers and the image) pay attention per head.
QWEN_IMAGE_LAYERED = {
    **QWEN_IMAGE,
    "num_attention_heads": 1,
    "attention_head_dim": 48,
    "axes_dims_rope": (16, 16, 16),  # sums to the head width
    "guidance_embeds": False,
    "use_additional_t_cond": True,
    "use_layer3d_rope": True,
}

RECIPES: dict[str, Recipe] = {
    "Qwen3VLForConditionalGeneration": Recipe(
        "model", QWEN3_VL_FULL, provides={"llm": "text_config.hidden_size"}
    ),
    "NucleusMoEImageTransformer2DModel": Recipe("model", NUCLEUS_MOE),
    "JoyImageEditTransformer3DModel": Recipe("model", JOYIMAGE),
    "JoyImageEditPlusTransformer3DModel": Recipe("model", JOYIMAGE),
    "BriaFibo2Transformer2DModel": Recipe("model", BRIA_FIBO2),
    "DreamLiteUNetModel": Recipe("model", DREAMLITE_UNET),
    "QwenImage21Transformer2DModel": Recipe("model", QWEN_IMAGE21),
    "QwenImageTransformer2DModel/layered": Recipe(
        "model", QWEN_IMAGE_LAYERED, builds="QwenImageTransformer2DModel"
    ),
    # the qwen area's VAE reading and writing RGBA, with the real 16 latent channels: the
    # pipeline takes an image with as many channels as the latents for latents, so a
    # 4-channel tiny VAE would read the RGBA image as its latents
    "AutoencoderKLQwenImage/rgba": Recipe(
        "model",
        {
            **QWEN_RECIPES["AutoencoderKLQwenImage"].config,
            "input_channels": 4,
            "z_dim": 16,
            "latents_mean": [0.0] * 16,
            "latents_std": [1.0] * 16,
        },
        builds="AutoencoderKLQwenImage",
        provides={"latent": "z_dim"},
    ),
    "AutoencoderKLQwenImage21": Recipe("model", QWEN_IMAGE21_VAE, provides={"latent": "z_dim"}),
    "AutoencoderTiny": Recipe("model", TINY_AUTOENCODER, provides={"latent": "latent_channels"}),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    # DreamLite's `tokenizer: AutoTokenizer` is Qwen3-VL's own
    (r"^DreamLite", "tokenizer", "Qwen2Tokenizer/qwen3_vl"),
    (r"^QwenImageLayered", "transformer", "QwenImageTransformer2DModel/layered"),
    (r"^QwenImageLayered", "vae", "AutoencoderKLQwenImage/rgba"),
)

TOKENIZER_OF_ENCODER: dict[str, str] = {
    "Qwen3VLForConditionalGeneration": "Qwen2Tokenizer/qwen3_vl",
}

# NucleusMoE's packed experts are `torch.empty` until a checkpoint loads
EMPTY_PARAMETERS: dict[str, tuple[str, ...]] = {
    "SwiGLUExperts": ("gate_up_proj", "down_proj"),
}

HOME_PIPELINES: dict[str, str] = {
    "NucleusMoEImageTransformer2DModel": "NucleusMoEImagePipeline",
    "JoyImageEditTransformer3DModel": "JoyImageEditPipeline",
    "JoyImageEditPlusTransformer3DModel": "JoyImageEditPlusPipeline",
    "BriaFibo2Transformer2DModel": "BriaFibo2Pipeline",
    "DreamLiteUNetModel": "DreamLitePipeline",
    "QwenImage21Transformer2DModel": "QwenImage21Pipeline",
}
