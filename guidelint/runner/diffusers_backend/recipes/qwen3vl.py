"""Recipes of the pipelines that read prompts (and edit images) with Qwen3-VL: NucleusMoE-Image,
JoyImage Edit and Edit Plus, Bria FIBO 2, DreamLite, Qwen-Image 2.1.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. Their processor
(`Qwen3VLProcessor`, family_tokenizers.build_qwen3_vl_processor) is image_audio's;
the Qwen3 language half (llm.QWEN3) is the llm area's.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.llm import QWEN3
from guidelint.runner.diffusers_backend.recipes.parts import Dim, Recipe

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
# Qwen3-VL's last layer; RoPE split over a head of 16 (hidden_size / heads).
JOYIMAGE = {
    "patch_size": [1, 2, 2],
    "in_channels": Dim("latent"),
    "hidden_size": 32,
    "num_attention_heads": 2,
    "text_dim": Dim("llm"),
    "num_layers": 1,
    "rope_dim_list": [4, 6, 6],  # sums to the head width
}

RECIPES: dict[str, Recipe] = {
    "Qwen3VLForConditionalGeneration": Recipe(
        "model", QWEN3_VL_FULL, provides={"llm": "text_config.hidden_size"}
    ),
    "NucleusMoEImageTransformer2DModel": Recipe("model", NUCLEUS_MOE),
    "JoyImageEditTransformer3DModel": Recipe("model", JOYIMAGE),
    "JoyImageEditPlusTransformer3DModel": Recipe("model", JOYIMAGE),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = ()

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
}
