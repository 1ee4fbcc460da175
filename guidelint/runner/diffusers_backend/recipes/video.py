"""Recipes of the other video pipelines: HunyuanVideo, LTX-2, Mochi, Latte, Allegro, CogVideoX,
ConsisID, ModelScope text-to-video, I2VGen-XL, PIA, SparseCtrl.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.

Video examples run at the sizes they state (HunyuanVideo: 320x512, 61 frames), so each
autoencoder keeps its real compression (8x in space, 4x or 6x in time) and each
transformer its real patch size: the token count, which decides the cost, is the real one.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import PIXART, SD_UNET, Dim, Recipe

LLAMA = {  # HunyuanVideo's text encoder: a decoder language model's hidden states
    "hidden_size": 16,
    "intermediate_size": 37,
    "num_attention_heads": 4,
    "num_key_value_heads": 4,
    "num_hidden_layers": 3,  # HunyuanVideo reads the states two layers below the top
    "vocab_size": Dim("llama_vocab"),
    "bos_token_id": 1,
    "eos_token_id": 2,
    "pad_token_id": 0,
}
# ONE_HEAD: the video denoisers here and in wan_video.py, video_more.py (FramePack,
# EasyAnimate), hunyuan15.py, ltx2.py, qwen.py (Kandinsky 5) and tiny_table.py
# (LTX-Video) have one attention head of the width two (or four) had (the same inner width, the
# same module names and processors): at the examples' sizes (8,640 tokens for Helios,
# 51,000 for SkyReels-V2, 75,600 for Wan at 720x1280) the softmax over every pair of
# tokens is paid once per head, and a head's width barely changes its cost. Measured on
# scaled_dot_product_attention, one thread: 8,640 tokens 0.53 s (2 heads of 12) against
# 0.34 s (1 of 24), 14,040 tokens 1.8 s against 1.35 s, 8,000 tokens 0.70 s against 0.38 s.
HUNYUAN_VIDEO = {
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_attention_heads": 1,  # one head of 20 (ONE_HEAD)
    "attention_head_dim": 20,
    "num_layers": 1,
    "num_single_layers": 1,
    "num_refiner_layers": 1,
    "patch_size": 2,  # the real patch: 2x2 latent pixels per token
    "patch_size_t": 1,
    "text_embed_dim": Dim("llm"),
    "pooled_projection_dim": Dim("text"),  # CLIP's pooled output
    "rope_axes_dim": (4, 8, 8),  # sums to attention_head_dim
}
HUNYUAN_VAE = {
    "latent_channels": 4,
    # four levels: 8x in space, 4x in time. Two channels (the least its group norms of
    # two groups take): with the convolutions on oneDNN in channels-last order
    # (hvkernels.py) a window of 17 frames at 512x768 decoded in 1.55 CPU-s at 2 channels,
    # 2.86 at 4 (4.1 at 4 on torch's own kernels, 5.0 at 2: the native kernel)
    "block_out_channels": (2, 2, 2, 2),
    # the fewest resnets: one a decoder level (layers_per_block + 1), none an encoder
    # level (the real one has 2 and 3). The decoder's last level runs over every pixel of
    # every frame, so one resnet fewer there cut a tiled decode of 17 frames at 320x512
    # from 41.8-48.5 s to 31.7 s (one thread, load 8-10)
    "layers_per_block": 0,
    "norm_num_groups": 2,
    "spatial_compression_ratio": 8,
    "temporal_compression_ratio": 4,
    # the mid block attends over every latent voxel of the video at once, with a causal
    # mask as big as their count squared: gigabytes at 61 frames
    "mid_block_add_attention": False,
}
UNET_3D = {  # ModelScope text-to-video, zeroscope: attention in space and over frames
    "block_out_channels": (4, 8),
    "norm_num_groups": 4,
    "layers_per_block": 1,
    "down_block_types": ("CrossAttnDownBlock3D", "DownBlock3D"),
    "up_block_types": ("UpBlock3D", "CrossAttnUpBlock3D"),
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "cross_attention_dim": Dim("text"),
    # UNet3DConditionModel reads this as the head count: one head of 4 (ONE_HEAD); the
    # zeroscope example's 320x576 is 2,880 positions a frame, 24 frames, each paid per head
    "attention_head_dim": 1,
    "sample_size": 8,  # the default size: 8 latent pixels, 64 px
}

# CogVideoX-5b's I2V and Fun-Control transformers see a second video beside the noise (the
# image's or the control video's latents) and place tokens with RoPE, not a learned table.
COGVIDEOX_CONDITIONED = {
    "num_attention_heads": 2,
    "attention_head_dim": 16,  # RoPE splits a head in three: a multiple of 16
    "in_channels": Dim("latent", times=2),
    "out_channels": Dim("latent"),
    "time_embed_dim": 2,
    "text_embed_dim": Dim("t5"),
    "num_layers": 1,
    "sample_width": 8,  # the default size: 8 latent pixels, 64 px
    "sample_height": 8,
    "sample_frames": 9,
    "patch_size": 2,
    "temporal_compression_ratio": 4,
    "use_rotary_positional_embeddings": True,
}

RECIPES: dict[str, Recipe] = {
    "CogVideoXTransformer3DModel/conditioned": Recipe(
        "model", COGVIDEOX_CONDITIONED, builds="CogVideoXTransformer3DModel"
    ),
    "LlamaModel": Recipe("model", LLAMA, provides={"llm": "hidden_size"}),
    "LlamaTokenizer": Recipe("tokenizer", builder="build_llama_tokenizer"),
    "LlamaTokenizerFast": Recipe("tokenizer", builder="build_llama_tokenizer"),
    "HunyuanVideoTransformer3DModel": Recipe("model", HUNYUAN_VIDEO),
    "HunyuanVideoTransformer3DModel/skyreels": Recipe(  # also sees the first frame's latents
        "model",
        {**HUNYUAN_VIDEO, "in_channels": Dim("latent", times=2)},
        builds="HunyuanVideoTransformer3DModel",
    ),
    "AutoencoderKLHunyuanVideo": Recipe(
        "model", HUNYUAN_VAE, provides={"latent": "latent_channels"}
    ),
    "MochiTransformer3DModel": Recipe(
        "model",
        {
            "patch_size": 2,
            "num_attention_heads": 1,  # one head of 16 (ONE_HEAD)
            "attention_head_dim": 16,
            "num_layers": 1,
            "pooled_projection_dim": 16,
            "in_channels": Dim("latent"),
            "text_embed_dim": Dim("t5"),
            "time_embed_dim": 4,
        },
    ),
    "AutoencoderKLMochi": Recipe(
        "model",
        {
            "latent_channels": 12,  # latents_mean/std in the config have 12 entries
            # Mochi's group norms have 32 groups: 32 channels is the least a block can have
            "encoder_block_out_channels": (32, 32, 32, 32),
            "decoder_block_out_channels": (32, 32, 32, 32),
            # no resnet at the two finest levels (the real one has 3 and 3): the decoder's
            # last block runs over every pixel of every frame at 32 channels, the last up
            # block over a quarter of them, and the example's tiled decode (19 frames at
            # 480x848) took 62.8 CPU-s with one resnet each, 13.0 with none (one thread)
            "layers_per_block": (0, 0, 1, 1, 1),
            "add_attention_block": (False, False, False, False, False),
        },
        provides={"latent": "latent_channels"},
    ),
    "LatteTransformer3DModel": Recipe(
        "model",
        # PixArt's blocks over frames; the real one is 512 px: its position table is 64
        {**PIXART, "sample_size": 64},
    ),
    "UNet3DConditionModel": Recipe("model", UNET_3D),
    # SparseCtrl: a ControlNet over a few keyframes, with the motion UNet's widths
    # (from_unet would give its temporal layers 8 heads: too many for 4 channels);
    # three stride-2 convolutions bring the scribble down 8x
    "SparseControlNetModel": Recipe(
        "model",
        {
            "in_channels": Dim("latent"),
            # the scribble model: the RGB keyframes (and their mask) through the
            # ControlNet embedding, not the VAE latents of the simplified one
            "conditioning_channels": 3,
            "use_simplified_condition_embedding": False,
            "block_out_channels": SD_UNET["block_out_channels"],
            "layers_per_block": SD_UNET["layers_per_block"],
            "down_block_types": ("DownBlockMotion", "DownBlockMotion", "CrossAttnDownBlockMotion"),
            "cross_attention_dim": Dim("text"),
            "attention_head_dim": SD_UNET["attention_head_dim"],
            "norm_num_groups": SD_UNET["norm_num_groups"],
            "motion_num_attention_heads": 2,
            "conditioning_embedding_out_channels": (2, 2, 2, 2),
        },
    ),
    "AllegroTransformer3DModel": Recipe(
        "model",
        {
            "num_attention_heads": 2,
            "attention_head_dim": 12,
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent"),
            "num_layers": 1,
            "cross_attention_dim": 24,
            "caption_channels": Dim("t5"),
            "sample_width": 8,  # the default size: 8 latent pixels, 64 px
            "sample_height": 8,
            "sample_frames": 8,
        },
    ),
    "AutoencoderKLAllegro": Recipe(  # 8x in space, 4x in time, as the real one
        "model",
        {
            "down_block_types": ("AllegroDownBlock3D",) * 4,
            "up_block_types": ("AllegroUpBlock3D",) * 4,
            "block_out_channels": (8, 8, 8, 8),
            "latent_channels": 4,
            "layers_per_block": 1,
            "norm_num_groups": 2,
            "temporal_compression_ratio": 4,
        },
        provides={"latent": "latent_channels"},
    ),
    # I2VGen-XL's UNet reads the text states and the CLIP image embedding through one
    # cross-attention width, and concatenates the first frame's latents internally
    "I2VGenXLUNet": Recipe(
        "model",
        {
            **{k: v for k, v in UNET_3D.items() if k != "norm_num_groups"},
            "norm_num_groups": 2,
            "attention_head_dim": 4,
            "cross_attention_dim": Dim("image"),
        },
    ),
    # PIA's adapter carries the motion UNet's first convolution: it sees the noise, the
    # first frame's latents and their mask
    "MotionAdapter/pia": Recipe(
        "model",
        {
            "block_out_channels": SD_UNET["block_out_channels"],
            "motion_layers_per_block": 1,
            "motion_norm_num_groups": 2,
            "motion_num_attention_heads": 2,
            "conv_in_channels": Dim("latent", times=2, plus=1),
        },
        builds="MotionAdapter",
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (
        r"^CogVideoX(ImageToVideo|FunControl)",
        "transformer",
        "CogVideoXTransformer3DModel/conditioned",
    ),
    (r"^HunyuanSkyreels", "transformer", "HunyuanVideoTransformer3DModel/skyreels"),
    (r"^HunyuanVideo|^HunyuanSkyreels", "scheduler", "FlowMatchEulerDiscreteScheduler/wan"),
    (r"^Latte", "scheduler", "DDIMScheduler"),
    (r"^PIA", "motion_adapter", "MotionAdapter/pia"),
)

TOKENIZER_OF_ENCODER: dict[str, str] = {"LlamaModel": "LlamaTokenizer"}

HOME_PIPELINES: dict[str, str] = {
    "HunyuanVideoTransformer3DModel": "HunyuanVideoPipeline",
    "AutoencoderKLHunyuanVideo": "HunyuanVideoPipeline",
    "UNet3DConditionModel": "TextToVideoSDPipeline",
}
