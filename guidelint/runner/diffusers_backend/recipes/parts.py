"""What every recipe table shares: `Dim`, `Recipe`, and the configs several families reuse.

Facts, not code: each config is the smallest of its class that still runs (numbers
learned from diffusers' own `get_dummy_components()`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Dim:
    """A width decided elsewhere: `times * value + plus` of the dimension `name`."""

    name: str
    times: int = 1
    plus: int = 0


@dataclass(frozen=True)
class Recipe:
    """How to build one component tiny.

    kind: "model" (a diffusers or transformers model), "tokenizer" (`builder` names the
    function in family_tokenizers.py; for a transformers model, its config class where that is
    not the class's own), "scheduler", "guider" (a diffusers.guiders class; both
    made from their config), "processor" (an image processor).
    builds: the class to instantiate when the key names an alias or a variant.
    derive: (slot, classmethod): built from another slot's model (ControlNet.from_unet).
    provides: dimension name -> config key whose value other components must match.
    loads_tokenizer: (config key, family_tokenizers.py builder) for a model whose __init__ loads a
    tokenizer by the name that key holds (BLIP-Diffusion's Q-Former): built locally for
    the build, the key left out of the saved config, as the real checkpoint has it.
    """

    kind: str
    config: Mapping[str, Any] = field(default_factory=dict)
    builds: str | None = None
    builder: str | None = None
    derive: tuple[str, str] | None = None
    provides: Mapping[str, str] = field(default_factory=dict)
    loads_tokenizer: tuple[str, str] | None = None


# One level, no attention: DDPM's 1000 steps each pay per op (DDPM, DDIM, RePaint, ...).
DDPM_UNET = {
    "block_out_channels": (8,),
    "layers_per_block": 1,
    "sample_size": 16,
    "in_channels": 3,
    "out_channels": 3,
    "down_block_types": ("DownBlock2D",),
    "up_block_types": ("UpBlock2D",),
    "add_attention": False,
    "norm_num_groups": 2,
}
CLIP_TEXT = {
    "hidden_size": 32,
    "intermediate_size": 37,
    "num_attention_heads": 4,
    "num_hidden_layers": 2,
    "projection_dim": 32,
    "max_position_embeddings": 77,
    "hidden_act": "gelu",
    "bos_token_id": Dim("clip_bos"),
    "eos_token_id": Dim("clip_eos"),
    "pad_token_id": Dim("clip_eos"),
    "vocab_size": Dim("clip_vocab"),
}
CLIP_VISION = {
    "hidden_size": 32,
    "intermediate_size": 37,
    "num_attention_heads": 4,
    "num_hidden_layers": 2,
    "projection_dim": 32,
    "image_size": 32,
    "patch_size": 4,
}
CLIP_PROCESSOR = {"size": {"shortest_edge": 32}, "crop_size": {"height": 32, "width": 32}}
T5 = {
    "vocab_size": Dim("t5_vocab"),
    "d_model": 32,
    "d_ff": 37,
    "d_kv": 8,
    "num_layers": 2,
    "num_heads": 4,
    "relative_attention_num_buckets": 8,
    "pad_token_id": 0,
    "eos_token_id": 1,
    "decoder_start_token_id": 0,
}
QWEN_TEXT = {  # Qwen2.5-VL's language half: multimodal RoPE split over (t, h, w)
    "hidden_size": 16,
    "intermediate_size": 16,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 2,
    "rope_scaling": {"mrope_section": [1, 1, 2], "rope_type": "default", "type": "default"},
    "rope_theta": 1000000.0,
    "vocab_size": Dim("qwen_vocab"),
}
QWEN_VL = {
    "text_config": QWEN_TEXT,
    "vision_config": {
        "depth": 2,
        "hidden_size": 16,
        "intermediate_size": 16,
        "num_heads": 2,
        "out_hidden_size": 16,
    },
    "hidden_size": 16,
    "vocab_size": Dim("qwen_vocab"),
    # the processor's vision markers: the model finds each image's tokens by these ids
    "image_token_id": Dim("qwen_image_pad"),
    "video_token_id": Dim("qwen_video_pad"),
    "vision_start_token_id": Dim("qwen_vision_start"),
    "vision_end_token_id": Dim("qwen_vision_end"),
}
GEMMA2 = {
    "head_dim": 16,
    "hidden_size": 8,
    "intermediate_size": 64,
    "num_attention_heads": 2,
    "num_hidden_layers": 1,
    "num_key_value_heads": 2,
    "vocab_size": Dim("gemma_vocab"),
    "pad_token_id": 0,
    "eos_token_id": 1,
    "bos_token_id": 2,
}
GLM = {
    "hidden_size": 32,
    "intermediate_size": 8,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "head_dim": 8,
    "vocab_size": Dim("glm_vocab"),
    "pad_token_id": Dim("qwen_pad"),
    "eos_token_id": Dim("qwen_pad"),
}
SIGLIP_VISION = {
    "hidden_size": 32,
    "intermediate_size": 37,
    "num_attention_heads": 4,
    "num_hidden_layers": 2,
    "image_size": 32,
    "patch_size": 4,
}
CLIP_TEXT_PROVIDES = {"text": "hidden_size", "proj": "projection_dim"}
# Four blocks keep the scale factor of 8: height/width and image sizes behave as for real.
VAE_KL = {
    "block_out_channels": (4, 4, 4, 4),
    "down_block_types": ("DownEncoderBlock2D",) * 4,
    "up_block_types": ("UpDecoderBlock2D",) * 4,
    "latent_channels": 4,
    "norm_num_groups": 2,
    "sample_size": 64,
    # attention over a 64x64 latent costs more than the rest of a tiny run
    "mid_block_add_attention": False,
}
VAE_FLOW = {**VAE_KL, "shift_factor": 0.0609, "scaling_factor": 1.5035}  # Flux's, SD3's
# Three levels, attention only at the lowest resolution.
SD_UNET = {
    "block_out_channels": (4, 4, 8),
    "layers_per_block": 1,
    "sample_size": 8,
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "down_block_types": ("DownBlock2D", "DownBlock2D", "CrossAttnDownBlock2D"),
    "up_block_types": ("CrossAttnUpBlock2D", "UpBlock2D", "UpBlock2D"),
    "cross_attention_dim": Dim("text"),
    "attention_head_dim": 2,
    "norm_num_groups": 2,
}
SDXL_TIME = 8
# Wan's DiT, which SkyReels-V2, ChronoEdit, AnyFlow and Helios extend. RoPE covers 1024
# patches a side as in the real checkpoints: a 720x1280 video is 45x80 patches a frame.
# one head of 24 (the width of two of 12): at the examples' 8,640-75,600 tokens the
# softmax over every pair of tokens is paid per head (recipes/video.py, ONE_HEAD)
WAN_HEADS, WAN_HEAD_WIDTH = 1, 24
WAN = {
    "patch_size": (1, 2, 2),
    "num_attention_heads": WAN_HEADS,
    "attention_head_dim": WAN_HEAD_WIDTH,
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "text_dim": Dim("t5"),
    "freq_dim": 256,
    "ffn_dim": 32,
    "num_layers": 1,
    "cross_attn_norm": True,
    "qk_norm": "rms_norm_across_heads",
    "rope_max_seq_len": 1024,
}
# Kandinsky 2.2's decoder is conditioned on the prior's CLIP image embedding.
KANDINSKY_UNET = {
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent", times=2),  # mean and variance
    "addition_embed_type": "image",
    "down_block_types": ("ResnetDownsampleBlock2D", "SimpleCrossAttnDownBlock2D"),
    "up_block_types": ("SimpleCrossAttnUpBlock2D", "ResnetUpsampleBlock2D"),
    "mid_block_type": "UNetMidBlock2DSimpleCrossAttn",
    "block_out_channels": (8, 16),
    "layers_per_block": 1,
    "norm_num_groups": 4,
    "encoder_hid_dim": CLIP_VISION["projection_dim"],
    "encoder_hid_dim_type": "image_proj",
    "cross_attention_dim": 32,
    # one head (16 channels): the softmax over every pair of positions is paid per head,
    # 2,304 of them at the examples' 768 px
    "attention_head_dim": 16,
    "resnet_time_scale_shift": "scale_shift",
    "class_embed_type": None,
}
# DeepFloyd IF denoises pixels, conditioned on T5 states.
IF_UNET = {
    "sample_size": 16,
    "layers_per_block": 1,
    "block_out_channels": (8, 16),
    "norm_num_groups": 4,
    "down_block_types": ("ResnetDownsampleBlock2D", "SimpleCrossAttnDownBlock2D"),
    "mid_block_type": "UNetMidBlock2DSimpleCrossAttn",
    "up_block_types": ("SimpleCrossAttnUpBlock2D", "ResnetUpsampleBlock2D"),
    "in_channels": 3,
    "out_channels": 6,  # noise and variance
    "cross_attention_dim": Dim("t5"),
    "encoder_hid_dim": Dim("t5"),
    "attention_head_dim": 4,
    "addition_embed_type": "text",
    "addition_embed_type_num_heads": 2,
    "cross_attention_norm": "group_norm",
    "resnet_time_scale_shift": "scale_shift",
    "act_fn": "gelu",
}
IF_SCHEDULER = {
    "beta_schedule": "squaredcos_cap_v2",
    "thresholding": True,
    "dynamic_thresholding_ratio": 0.95,
    "sample_max_value": 1.0,
    "variance_type": "learned_range",
}
FLUX = {
    "patch_size": 1,
    "in_channels": Dim("latent", times=4),  # 2x2 latent patches packed into tokens
    "num_layers": 1,
    "num_single_layers": 1,
    "attention_head_dim": 16,
    "num_attention_heads": 2,
    "joint_attention_dim": Dim("t5"),
    "pooled_projection_dim": Dim("text"),  # CLIP's pooled output
    "axes_dims_rope": [4, 4, 8],  # sums to attention_head_dim
}
# FLUX.1's text widths: T5-XXL's d_model and CLIP-L's pooled output (FLUX.1-dev's
# joint_attention_dim and pooled_projection_dim). FluxPriorReduxPipeline hard-codes both
# for the prompt embeddings it returns without text encoders (FLUX.1-Redux-dev ships none).
FLUX1_T5_WIDTH, FLUX1_CLIP_WIDTH = 4096, 768
SD3 = {
    "sample_size": 32,
    # 2x2 patches and 192 positions a side, as SD3's own: examples ask for 1024 px and more
    "patch_size": 2,
    "pos_embed_max_size": 192,
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_layers": 1,
    # one head as wide as four: the softmax over every pair of tokens is paid per head
    # (SD3 ControlNet's 1024x768 is 3,072 image tokens beside 333 of text)
    "attention_head_dim": 32,
    "num_attention_heads": 1,
    "caption_projection_dim": 32,
    "joint_attention_dim": Dim("t5"),
    "pooled_projection_dim": Dim("proj", times=2),  # two CLIP projections, concatenated
}
PIXART = {
    "sample_size": 32,  # the smallest size PixArt's resolution binning knows (256 px)
    "num_layers": 1,
    "patch_size": 2,
    "attention_head_dim": 8,
    "num_attention_heads": 3,
    "caption_channels": Dim("t5"),
    "in_channels": Dim("latent"),
    "cross_attention_dim": 24,
    "out_channels": Dim("latent", times=2),  # noise and variance
    "attention_bias": True,
    "activation_fn": "gelu-approximate",
    "num_embeds_ada_norm": 1000,
    "norm_type": "ada_norm_single",
    "norm_elementwise_affine": False,
    "norm_eps": 1e-6,
}
SANA = {
    "patch_size": 1,
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_layers": 1,
    "num_attention_heads": 2,
    "attention_head_dim": 4,
    "num_cross_attention_heads": 2,
    "cross_attention_head_dim": 4,
    "cross_attention_dim": 8,
    "caption_channels": Dim("llm"),
    "sample_size": 16,  # the smallest size Sana's resolution binning knows (512 px)
}
AURA_FLOW = {  # AuraFlow's MMDiT; recipes/coarse.py's 32x variant changes sample_size
    "sample_size": 32,
    "patch_size": 2,
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_mmdit_layers": 1,
    "num_single_dit_layers": 1,
    "attention_head_dim": 8,
    "num_attention_heads": 4,
    "caption_projection_dim": 32,
    "joint_attention_dim": Dim("t5"),
    "pos_embed_max_size": 4096,  # as AuraFlow's own: a 1024 px image is 64x64 patches
}
COGVIEW4 = {  # CogView4's DiT over GLM states; CogView4 Control extends it
    "patch_size": 2,
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_layers": 1,
    "attention_head_dim": 4,
    "num_attention_heads": 4,
    "text_embed_dim": Dim("llm"),
    "time_embed_dim": 8,
    "condition_dim": 4,
}
SD_SCHEDULER = {  # what stable-diffusion-v1-5 ships
    "beta_start": 0.00085,
    "beta_end": 0.012,
    "beta_schedule": "scaled_linear",
    "skip_prk_steps": True,
    "steps_offset": 1,
}
