"""Recipes of newer image and video pipelines: Wan Animate, Ideogram 4, GLM-Image, Motif
Video, PRX.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import. Wan's VAE, UMT5
and CLIP vision tower are shared recipes; Wan Animate reuses them through their Dims.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from guidelint.runner.diffusers_backend.recipes.image_audio import T5GEMMA_MODULE
from guidelint.runner.diffusers_backend.recipes.llm import QWEN3
from guidelint.runner.diffusers_backend.recipes.parts import SIGLIP_VISION, WAN, Dim, Recipe

# Wan 2.2 Animate: Wan 2.1 image-to-video's DiT (noise, reference latents and a 4-channel
# mask in; CLIP's states cross-attended) plus the pose video's latents, a motion encoder
# of the face crops (an appearance conv stack down to 4x4, then linear motion codes) and
# face adapters every `inject_face_latents_blocks` blocks. Channel sizes are per
# resolution of the conv stack: 16 -> 8 -> 4.
WAN_ANIMATE = {
    **WAN,
    "in_channels": Dim("latent", times=2, plus=4),
    "latent_channels": Dim("latent"),
    "image_dim": Dim("image"),
    "motion_encoder_channel_sizes": {"4": 16, "8": 16, "16": 16},
    "motion_encoder_size": 16,
    "motion_style_dim": 8,
    "motion_dim": 4,
    "motion_encoder_dim": 16,
    "face_encoder_hidden_dim": 16,
    "face_encoder_num_heads": 2,
    "inject_face_latents_blocks": 1,  # one face adapter after the one block
}

# PRX Pixel denoises RGB pixels in 16x16 patches (a bottleneck before the width), the
# resolution fed to the time modulation; head width = sum(axes_dim), as PRX's RoPE needs.
PRX_PIXEL = {
    "in_channels": 3,
    "patch_size": 16,
    "context_in_dim": Dim("llm"),
    "hidden_size": 16,
    "mlp_ratio": 2.0,
    "num_heads": 2,
    "depth": 1,
    "axes_dim": [4, 4],
    "bottleneck_size": 8,
    "resolution_embeds": True,
}

# PRX (Photoroom/prx-512-t2i-sft): the same DiT over the Flux VAE's latents in 2x2 patches
# (diffusers' convert_prx_to_diffusers.py, `PRXFlux`), reading T5Gemma's encoder states.
PRX_LATENT = {**PRX_PIXEL, "in_channels": Dim("latent"), "patch_size": 2}
PRX_LATENT.pop("bottleneck_size")
PRX_LATENT.pop("resolution_embeds")
PRX_LATENT["context_in_dim"] = Dim("t5gemma")

# Motif-Video 2B: T5Gemma 2's encoder (Gemma 3 text layers and a SigLIP vision tower, whose
# last states the image-to-video pipeline reads as the first frame's embedding) ...
T5GEMMA2_TEXT = {
    "vocab_size": Dim("gemma_vocab"),
    "hidden_size": 16,
    "intermediate_size": 32,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "head_dim": 8,
    "query_pre_attn_scalar": 8,
    "max_position_embeddings": 512,
    "sliding_window": 512,
    "layer_types": ["full_attention"],
    # what T5Gemma2Config writes into its encoder's text config, which the encoder reads
    # (the real text_encoder/config.json is that encoder config, saved from the model)
    "dropout_rate": 0.0,
}
T5GEMMA2_ENCODER = {
    "text_config": T5GEMMA2_TEXT,
    "vision_config": {**SIGLIP_VISION, "model_type": "siglip_vision_model"},
    # the projector pools the tower's 8x8 patches to 4x4 image tokens (the real: 64x64 to
    # 16x16, 256 tokens); the image-marker ids lie past the tiny vocabulary, as the real
    # ones past Gemma's text pieces
    "mm_tokens_per_image": 16,
}
# ... and its DiT over the Wan VAE's latents: the noise, the first frame's latents and a
# one-channel mask in (`in_channels` 33 in the real one: 2 x 16 + 1), dual- then
# single-stream blocks, a 3D RoPE split over a head of 8 (the real 16/56/56 over 128).
MOTIF_VIDEO = {
    "in_channels": Dim("latent", times=2, plus=1),
    "out_channels": Dim("latent"),
    "num_attention_heads": 2,
    "attention_head_dim": 8,
    "num_layers": 1,
    "num_single_layers": 1,
    "text_embed_dim": Dim("t5gemma2"),
    "image_embed_dim": Dim("image"),
    "rope_axes_dim": (2, 2, 4),
}

# Motif-Video's coarse stand-in (recipes/coarse.py, MOTIF_16X). Both pipelines read
# `scale_factor_spatial` and `scale_factor_temporal` from the Wan VAE's config and the DiT's
# `patch_size` / `patch_size_t`, size their latents as height // factor and (frames - 1) //
# factor + 1, and check only height % factor; the schedule is FlowMatchEuler's at shift 1.0
# (no dynamic shifting: the token count moves nothing). The examples' 1280x736 divide by
# 16 x the 2x2 patch; their 121 frames are 16 latent frames at 8x in time (decoded as
# 1 + 15 x 8 = 121, the real VAE's 31 latent frames' count), 8 of 2-frame patches: 8 x 23 x
# 40 = 7,360 tokens a call, not 31 x 46 x 80 = 114,080. The image-to-video pipeline encodes
# its image alone (one frame: one latent frame at any time factor).
MOTIF_COARSE_FACTOR = 16
MOTIF_COARSE_TIME = 8
MOTIF_COARSE_PATCH_T = 2
MOTIF_TOKEN_RATIO = 15  # 114,080 / 7,360 at the examples' sizes
MOTIF_COARSE_PIPELINES = ("MotifVideoPipeline", "MotifVideoImage2VideoPipeline")
MOTIF_VAE_COARSE = {
    "base_dim": 2,  # the coarse Wan VAE's two channels (recipes/coarse.py, WAN_VAE_COARSE)
    "z_dim": 16,
    "dim_mult": [1] * 5,  # four halvings in space...
    # one resnet a decoder level (the real one has three): the decode of 121 frames at
    # 736x1280 runs its last level's resnets over every pixel of every frame (9 frames:
    # 5.6 CPU-s with two, 3.3 with one, on the runner's Wan kernels, wankernels.py);
    # fewer repeats keep the names of those there are, and none is attention
    "num_res_blocks": 0,
    "temperal_downsample": [False, True, True, True],  # ... three in time
    "scale_factor_spatial": MOTIF_COARSE_FACTOR,
    "scale_factor_temporal": MOTIF_COARSE_TIME,
}

# Ideogram 4: a single-stream DiT over 2x2-packed Flux 2 latents and the concatenated
# hidden states of 13 Qwen3-VL layers (0, 3, ..., 33, 35: the real 36-layer depth, as
# llm.py's QWEN3_VL keeps); 3D mRoPE split over a head width of 8 (2 + 1 + 1 pairs).
IDEOGRAM4 = {
    "in_channels": Dim("latent", times=4),
    "num_layers": 1,
    "attention_head_dim": 8,
    "num_attention_heads": 2,
    "intermediate_size": 32,
    "adaln_dim": 16,
    "llm_features_dim": Dim("llm", times=13),
    "mrope_section": (2, 1, 1),
}

RECIPES: dict[str, Recipe] = {
    "WanAnimateTransformer3DModel": Recipe("model", WAN_ANIMATE),
    # as diffusers' conversion script (convert_wan_to_diffusers.py) makes Wan Animate's
    "UniPCMultistepScheduler/wan_animate": Recipe(
        "scheduler",
        {"prediction_type": "flow_prediction", "use_flow_sigmas": True, "flow_shift": 5.0},
        builds="UniPCMultistepScheduler",
    ),
    "Ideogram4Transformer2DModel": Recipe("model", IDEOGRAM4),
    # Qwen3-VL's tokenizer: Ideogram 4 chat-formats each prompt as a list of typed parts
    "Qwen2Tokenizer/qwen3_vl": Recipe(
        "tokenizer", builder="build_qwen3_vl_tokenizer", builds="Qwen2Tokenizer"
    ),
    "PRXTransformer2DModel/pixel": Recipe("model", PRX_PIXEL, builds="PRXTransformer2DModel"),
    # PRX Pixel's text encoder: Qwen3-VL-Embedding-2B's language model alone, saved by
    # diffusers' convert_prx_to_diffusers.py (`full_model.model.language_model`)
    "Qwen3VLTextModel": Recipe("model", QWEN3, provides={"llm": "hidden_size"}),
    "PRXTransformer2DModel": Recipe("model", PRX_LATENT),
    "MotifVideoTransformer3DModel": Recipe("model", MOTIF_VIDEO),
    "MotifVideoTransformer3DModel/coarse": Recipe(
        "model",
        {**MOTIF_VIDEO, "patch_size_t": MOTIF_COARSE_PATCH_T},
        builds="MotifVideoTransformer3DModel",
    ),
    "AutoencoderKLWan/motif-coarse": Recipe(
        "model", MOTIF_VAE_COARSE, builds="AutoencoderKLWan", provides={"latent": "z_dim"}
    ),
    "T5Gemma2Encoder": Recipe(
        "model",
        T5GEMMA2_ENCODER,
        provides={"t5gemma2": "text_config.hidden_size", "image": "vision_config.hidden_size"},
    ),
    # PRX's text encoder: T5Gemma 2B's encoder half (`T5GemmaModel(...).encoder`), loaded
    # by diffusers' wrapper class (model_index library "prx"), which reads the folder as a
    # composite T5GemmaConfig and takes its `.encoder`: saved in that composite form
    # (generic.COMPOSITE_HALVES), the one from which the wrapper takes the tiny sizes.
    "T5GemmaEncoder/prx": Recipe(
        "model",
        {"encoder": T5GEMMA_MODULE, "decoder": T5GEMMA_MODULE, "is_encoder_decoder": True},
        builds="diffusers.pipelines.prx.T5GemmaEncoder",
        builder="T5GemmaConfig",
        provides={"t5gemma": "encoder.hidden_size"},
    ),
    # google/t5gemma-2b-2b-ul2's GemmaTokenizerFast (GemmaTokenizer in transformers 5),
    # saved with model_max_length 256 by the script
    "GemmaTokenizer/prx": Recipe(
        "tokenizer", builder="build_prx_tokenizer", builds="GemmaTokenizer"
    ),
    # the script's scheduler config: FlowMatchEulerDiscreteScheduler, shift 3.0
    "FlowMatchEulerDiscreteScheduler/prx": Recipe(
        "scheduler",
        {"num_train_timesteps": 1000, "shift": 3.0},
        builds="FlowMatchEulerDiscreteScheduler",
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^WanAnimate", "scheduler", "UniPCMultistepScheduler/wan_animate"),
    # Ideogram 4's head-less Qwen3-VL body (`Qwen3VLForConditionalGeneration.model`)
    (r"^Ideogram4", "text_encoder", "Qwen3VLModel"),
    (r"^Ideogram4", "tokenizer", "Qwen2Tokenizer/qwen3_vl"),
    (r"^PRXPixel", "transformer", "PRXTransformer2DModel/pixel"),
    (r"^PRXPixel", "text_encoder", "Qwen3VLTextModel"),
    (r"^PRXPixel", "tokenizer", "Qwen2Tokenizer/qwen3"),
    (r"^PRXPipeline$", "text_encoder", "T5GemmaEncoder/prx"),
    (r"^PRXPipeline$", "tokenizer", "GemmaTokenizer/prx"),
    (r"^PRXPipeline$", "scheduler", "FlowMatchEulerDiscreteScheduler/prx"),
    (r"^PRXPipeline$", "vae", "AutoencoderKL/flow"),  # prx-512-t2i-sft ships FLUX.1's VAE
    # Motif-Video-2B's scheduler slot is annotated SchedulerMixin; what its repo ships is
    # FlowMatchEulerDiscreteScheduler at its defaults (shift 1.0; the config's `flow_shift`
    # 15.0 is a key that class does not read), by Replicate's lucataco/motif-video-2b
    # predictor, which overrides it for that reason. The only public statement found.
    (r"^MotifVideo", "scheduler", "FlowMatchEulerDiscreteScheduler"),
    # the coarse stand-ins ("Class@coarse", chosen per example by coarsen.py)
    (r"^MotifVideo\w*Pipeline@coarse$", "vae", "AutoencoderKLWan/motif-coarse"),
    (r"^MotifVideo\w*Pipeline@coarse$", "transformer", "MotifVideoTransformer3DModel/coarse"),
)

# prx-512-t2i-sft's model_index.json: its resolution (the script's --resolution 512)
PIPELINE_ARGUMENTS: tuple[tuple[str, Mapping[str, Any]], ...] = (
    (r"^PRXPipeline$", {"default_sample_size": 512}),
)

TOKENIZER_OF_ENCODER: dict[str, str] = {
    "Qwen3VLTextModel": "Qwen2Tokenizer/qwen3",
    "T5Gemma2Encoder": "GemmaTokenizer",  # Gemma 3's tokenizer, as T5Gemma 2 ships
}

# (pipeline class pattern, slot): optional slots built though usually left out.
KEPT_OPTIONAL: tuple[tuple[str, str], ...] = (
    # Motif-Video-2B ships feature_extractor/ (its image-to-video pipeline requires it)
    (r"^MotifVideo", "feature_extractor"),
)

HOME_PIPELINES: dict[str, str] = {
    "WanAnimateTransformer3DModel": "WanAnimatePipeline",
    "Ideogram4Transformer2DModel": "Ideogram4Pipeline",
}

NOT_YET: dict[str, str] = {}

# model_index.json names PRX's text encoder `["prx", "T5GemmaEncoder"]` (the script's
# create_model_index): diffusers' wrapper in pipelines/prx, not transformers' class.
CHECKPOINT_LIBRARY: dict[str, str] = {"T5GemmaEncoder": "prx"}
