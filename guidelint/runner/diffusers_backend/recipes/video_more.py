"""Recipes of the later video pipelines: EasyAnimate, Motif, HunyuanVideo 1.5 and image-to-
video, FramePack, Kandinsky 6.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import QWEN_TEXT, Dim, Recipe
from guidelint.runner.diffusers_backend.recipes.video import HUNYUAN_VIDEO

# EasyAnimate V5.1 reads the second-to-last hidden states of Qwen2-VL (its language half
# over a chat-formatted prompt; the vision tower is built but never called).
QWEN2_VL = {
    "text_config": QWEN_TEXT,
    "vision_config": {
        "depth": 1,
        "embed_dim": 16,
        "hidden_size": 16,
        "num_heads": 2,
        "mlp_ratio": 1,
    },
    "vocab_size": Dim("qwen_vocab"),
    "image_token_id": Dim("qwen_image_pad"),
    "video_token_id": Dim("qwen_video_pad"),
    "vision_start_token_id": Dim("qwen_vision_start"),
    "vision_end_token_id": Dim("qwen_vision_end"),
}
# EasyAnimate's DiT: 2x2 latent patches (the real patch), 3D RoPE, one MMDiT block.
EASYANIMATE = {
    "num_attention_heads": 1,  # one head of 32 (recipes/video.py, ONE_HEAD)
    "attention_head_dim": 32,
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "patch_size": 2,
    "time_embed_dim": 8,
    "text_embed_dim": Dim("llm"),
    "num_layers": 1,
    "mmdit_layers": 1,
    "sample_width": 16,
    "sample_height": 16,
}
# MagViT: three spatial downsamplings (8x), two of them temporal too (4x), as the real one.
# Its causal 3D convolutions run over every pixel of every frame (49 at 512x512), through
# torch's slow conv3d path on CPU: two channels a level decode 1.6 times faster than four.
MAGVIT = {
    "block_out_channels": (2, 2, 2, 2),
    "latent_channels": 4,
    # no resnet an encoder level, one a decoder level (layers_per_block + 1): the inpaint
    # example encodes and decodes 49 frames at 448x576 (one thread: encode 8.7 -> 4.3
    # CPU-s, decode 14.9 -> 9.7); the real one has 2 and 3
    "layers_per_block": 0,
    "norm_num_groups": 2,
    "spatial_group_norm": False,
    # not an __init__ argument: EasyAnimate's own VAE setting, kept in the converted
    # checkpoints' config (from_config keeps it), which the inpaint pipeline reads when
    # it resizes the mask (process the first frame alone, as the cached encoder does)
    "cache_mag_vae": True,
}

# FramePack: HunyuanVideo's DiT with SigLIP image tokens and an embedder of the clean
# history latents (1x, 2x and 4x downsampled), distilled guidance as an input.
FRAMEPACK = {
    **HUNYUAN_VIDEO,
    "guidance_embeds": True,
    "image_condition_type": None,
    "has_image_proj": True,
    "image_proj_dim": Dim("image"),
    "has_clean_x_embedder": True,
}

# Kandinsky 6 (text and image to video with audio): Kandinsky 5's two towers over
# Qwen2.5-VL states and CLIP's pooled output, with an audio branch fused into each block;
# head width = sum(axes_dims). MMAudio's mel VAE and its BigVGAN-style vocoder make the sound:
# the vocoder's upsampling (8*4*2*2*2*2) is the VAE's hop of 512 samples per mel frame.
KANDINSKY6 = {
    "in_visual_dim": Dim("latent"),
    "out_visual_dim": Dim("latent"),
    "in_text_dim": Dim("llm"),
    "in_text_dim2": Dim("text"),
    "in_audio_dim": Dim("audio"),
    "out_audio_dim": Dim("audio"),
    "time_dim": 16,
    "patch_size": (1, 2, 2),
    "model_dim": 16,
    "ff_dim": 32,
    "num_text_blocks": 1,
    "num_visual_blocks": 1,
    # one head of model_dim (head width = sum(axes_dims)), not four of 4: its examples'
    # 480x864 video is 14,580 tokens and more, whose attention is paid per head
    "axes_dims": (4, 6, 6),
}
MMAUDIO_VAE = {
    "mel_bins": 16,
    "latent_channels": 4,
    "hidden_channels": 4,
    "layers_per_block": 1,
}
MMAUDIO_VOCODER = {
    "num_mels": Dim("mel"),
    "upsample_initial_channel": 64,  # halved at each of the six upsamplings
    "resblock_kernel_sizes": (3,),
    "resblock_dilation_sizes": ((1,),),
}

RECIPES: dict[str, Recipe] = {
    "Kandinsky6Transformer3DModel": Recipe("model", KANDINSKY6),
    "MMAudioVAE": Recipe(
        "model", MMAUDIO_VAE, provides={"audio": "latent_channels", "mel": "mel_bins"}
    ),
    "MMAudioVocoder": Recipe("model", MMAUDIO_VOCODER),
    "HunyuanVideoFramepackTransformer3DModel": Recipe("model", FRAMEPACK),
    "Qwen2VLForConditionalGeneration": Recipe(
        "model", QWEN2_VL, provides={"llm": "text_config.hidden_size"}
    ),
    # Qwen2-VL's tokenizer ships its chat template: EasyAnimate formats each prompt with it
    "Qwen2Tokenizer/chat": Recipe(
        "tokenizer", builder="build_qwen2_vl_tokenizer", builds="Qwen2Tokenizer"
    ),
    "EasyAnimateTransformer3DModel": Recipe("model", EASYANIMATE),
    # the inpainting model also sees the masked video's latents and the mask
    "EasyAnimateTransformer3DModel/inpaint": Recipe(
        "model",
        {**EASYANIMATE, "in_channels": Dim("latent", times=2, plus=1)},
        builds="EasyAnimateTransformer3DModel",
    ),
    # the control model also sees the control video's and the reference image's latents
    "EasyAnimateTransformer3DModel/control": Recipe(
        "model",
        {**EASYANIMATE, "in_channels": Dim("latent", times=3)},
        builds="EasyAnimateTransformer3DModel",
    ),
    "AutoencoderKLMagvit": Recipe("model", MAGVIT, provides={"latent": "latent_channels"}),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^EasyAnimate", "tokenizer", "Qwen2Tokenizer/chat"),
    (r"^EasyAnimateInpaint", "transformer", "EasyAnimateTransformer3DModel/inpaint"),
    (r"^EasyAnimateControl", "transformer", "EasyAnimateTransformer3DModel/control"),
)


HOME_PIPELINES: dict[str, str] = {
    "EasyAnimateTransformer3DModel": "EasyAnimatePipeline",
    "AutoencoderKLMagvit": "EasyAnimatePipeline",
    "HunyuanVideoFramepackTransformer3DModel": "HunyuanVideoFramepackPipeline",
}
