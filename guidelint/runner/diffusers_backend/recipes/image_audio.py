"""Recipes of later image, language and audio pipelines: Bria FIBO, DreamLite, GLM-Image,
Ideogram 4, JoyImage, NucleusMoE, PRX, LLaDA 2, DiffusionGemma, ACE-Step, AudioLDM 2,
Stable Audio 3.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from guidelint.runner.diffusers_backend.recipes.parts import Dim, Recipe

RECIPES: dict[str, Recipe] = {
    # Qwen3-VL's processor (DreamLite, JoyImage, NucleusMoE-Image, Bria FIBO 2 read prompts
    # and images with it); its video processor needs torchvision, as the real one does
    "Qwen3VLProcessor": Recipe("tokenizer", builder="build_qwen3_vl_processor"),
    # AudioLDM 2: CLAP's text projection and T5's states, projected and continued by GPT-2
    # (its generated states are what the UNet's first cross-attention reads, T5's the
    # second); the mel VAE, HiFi-GAN vocoder and CLAP scorer are AudioLDM's (recipes/audio.py).
    "GPT2LMHeadModel": Recipe(
        "model",
        {
            "n_embd": 16,
            "n_head": 1,
            "n_layer": 1,
            "vocab_size": 64,  # never read: GPT-2 continues embeddings, not tokens
            "bos_token_id": 63,  # GPT-2's end of text: its last token, as in the real vocabulary
            "eos_token_id": 63,
            "n_positions": 1024,  # room for the TTS example's 512 new tokens
            "max_new_tokens": 8,  # what cvssp/audioldm2's language model config holds
        },
        provides={"lm": "n_embd"},
    ),
    "AudioLDM2ProjectionModel": Recipe(
        "model",
        {
            "text_encoder_dim": Dim("proj"),
            "text_encoder_1_dim": Dim("t5"),
            "langauge_model_dim": Dim("lm"),  # sic: the class spells it so
        },
    ),
    "AudioLDM2UNet2DConditionModel": Recipe(
        "model",
        {
            "block_out_channels": (8, 16),
            "layers_per_block": 1,
            "norm_num_groups": 8,
            "sample_size": 32,
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent"),
            "down_block_types": ("DownBlock2D", "CrossAttnDownBlock2D"),
            "up_block_types": ("CrossAttnUpBlock2D", "UpBlock2D"),
            # per block, as cvssp/audioldm2's: self-attention, GPT-2's states, T5's states
            "cross_attention_dim": ((None, Dim("lm"), Dim("t5")),) * 2,
            "attention_head_dim": 2,
        },
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (("^AudioLDM2Pipeline$", "vae", "AutoencoderKL/mel"),)

TOKENIZER_OF_ENCODER: dict[str, str] = {}

HOME_PIPELINES: dict[str, str] = {
    "AudioLDM2UNet2DConditionModel": "AudioLDM2Pipeline",
}

NOT_YET: dict[str, str] = {}

PIPELINE_ARGUMENTS: tuple[tuple[str, Mapping[str, Any]], ...] = ()
