"""Recipes of the LTX-2 video-and-audio pipelines: text-, image- and condition-to-video,
in-context (IC) LoRA, HDR LoRA, DFR, and the latent upsampler.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.

LTX-2 makes a video and its sound together: a Gemma 3 text encoder's hidden states (all
layers, stacked) go through text connectors into a transformer with a video and an
audio stream; the video VAE decodes frames, the audio VAE a mel spectrogram, the vocoder
turns that into a waveform. The examples run at 768x512 and 121 frames, so the video VAE
keeps its real compression (4x4 patches and three 2x scalings: 32x in space, 8x in time;
16x24x16 = 6144 latent tokens) and the audio side its real rates (16 kHz mel frames with
a hop of 160, 4x latent compression, a vocoder that upsamples 240x to 24 kHz).
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes.parts import SIGLIP_VISION, Dim, Recipe

MEL_BINS = 64  # the real audio VAE's mel bins; its latents have a quarter of them
GEMMA3 = {  # multimodal Gemma 3: the pipelines read the text half's hidden states
    "text_config": {
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 8,
        "sliding_window": 64,
        "vocab_size": Dim("gemma_vocab"),
        "pad_token_id": 0,
        "eos_token_id": 1,
        "bos_token_id": 2,
    },
    # 8x8 patches pooled to 2x2 image tokens
    "vision_config": SIGLIP_VISION,
    "mm_tokens_per_image": 4,
}
TEXT_CONNECTORS = {
    "caption_channels": Dim("llm"),
    "text_proj_in_factor": Dim("gemma_layers", plus=1),  # every layer and the embeddings
    "video_connector_num_attention_heads": 2,
    "video_connector_attention_head_dim": 8,
    "video_connector_num_layers": 1,
    "video_connector_num_learnable_registers": 8,
    "audio_connector_num_attention_heads": 2,
    "audio_connector_attention_head_dim": 8,
    "audio_connector_num_layers": 1,
    "audio_connector_num_learnable_registers": 8,
}
TRANSFORMER = {
    "in_channels": Dim("latent"),
    "out_channels": Dim("latent"),
    "num_attention_heads": 1,  # one head of 16 (recipes/video.py, ONE_HEAD)
    "attention_head_dim": 16,
    "cross_attention_dim": 16,
    # audio latents are packed per frame: channels x the latent mel bins
    "audio_in_channels": Dim("audio_latent", times=MEL_BINS // 4),
    "audio_out_channels": Dim("audio_latent", times=MEL_BINS // 4),
    "audio_num_attention_heads": 1,  # one head of 8
    "audio_attention_head_dim": 8,
    "audio_cross_attention_dim": 8,
    "num_layers": 1,
    "caption_channels": Dim("llm"),
}
VIDEO_VAE = {
    "latent_channels": 8,
    # the encoder's downsamplers fold space and time into channels: each block's width
    # is divisible by its stride's volume (4 spatial, 2 temporal, 8 spatiotemporal)
    "block_out_channels": (8, 16, 32, 64),
    "layers_per_block": (1, 1, 1, 1, 1),
    "decoder_block_out_channels": (8, 16, 32),
    # no resnet at the decoder's last level, which runs over every frame at a quarter of
    # the output's rows and columns (the real one has 4): 121 frames at 512x768 decoded
    # in 9.5 s against 12.9 s on one thread
    "decoder_layers_per_block": (0, 1, 1, 1),
    "patch_size": 4,
    "patch_size_t": 1,
    # the real checkpoint states its compression: the class's formula counts the
    # encoder's purely temporal block as spatial too
    "spatial_compression_ratio": 32,
    "temporal_compression_ratio": 8,
}
AUDIO_LATENT_CHANNELS = 2
AUDIO_VAE = {
    # its latent statistics have `base_channels` entries, one per packed audio feature
    # (latent channels x latent mel bins), as in the real one (128 = 8 x 16)
    "base_channels": AUDIO_LATENT_CHANNELS * MEL_BINS // 4,
    "ch_mult": (1, 2, 4),  # two 2x downsamplings: the 4x the pipelines assume
    "num_res_blocks": 1,
    "latent_channels": AUDIO_LATENT_CHANNELS,
    "mel_bins": MEL_BINS,
}
VOCODER = {
    "in_channels": 2 * MEL_BINS,  # the audio VAE's two channels of mel bins
    "hidden_channels": 32,  # halved at each of the five upsamplings
    "resnet_kernel_sizes": [3],
    "resnet_dilations": [[1, 3, 5]],
}
COARSE_PATCH = 8  # the coarse stand-ins' VAE patches (below): 64x in space
COARSE_FACTOR = 64
# LTX-Video's VAE (the shared table's "AutoencoderKLLTXVideo"): 32x in space, 8x in time
LTX_VIDEO_VAE = {
    "latent_channels": 8,
    "block_out_channels": (8, 8, 8, 8),
    # the decoder's last level runs at a quarter of the output's rows and
    # columns over every frame (161 x 120 x 176 at 480x704): no resnet there
    # (the real one has 4; fewer repeats keep the names of those it has) and 4
    # channels, which decoded the examples' 161 frames in 10.2 s against 22.6 s
    "decoder_block_out_channels": (4, 8, 8),
    "layers_per_block": (1, 1, 1, 1, 1),
    "decoder_layers_per_block": (0, 1, 1, 1),
    # three 2x scalings and 4x4 patches: a 4x-only VAE makes 64 times the tokens
    # at the examples' 480x704, 161 frames (and tens of GB of attention)
    "spatio_temporal_scaling": (True, True, True, False),
    "decoder_spatio_temporal_scaling": (True, True, True),
    "decoder_inject_noise": (False, False, False, False),
    "upsample_residual": (False, False, False),
    "upsample_factor": (1, 1, 1),
    "timestep_conditioning": False,
    "patch_size": 4,
    "patch_size_t": 1,
    "encoder_causal": True,
    "decoder_causal": False,
}
# ... and its coarse stand-in for LTXConditionPipeline (recipes/coarse.py, LTX_64X), 8x8
# patches as LTX-2's below: the condition example's 768x512 divides by 64
LTX_VIDEO_VAE_64X = {**LTX_VIDEO_VAE, "patch_size": COARSE_PATCH}
LTX_COARSE_PIPELINES = ("LTXConditionPipeline",)

# The coarse stand-in (recipes/coarse.py, LTX2_64X): 8x8 patches instead of 4x4, so 64x in
# space with the same levels and module names (only the first and last convolutions'
# widths follow the patch), 8x in time as before. The pipelines read the factor from the
# VAE (`vae.spatial_compression_ratio`), size their latents as height // factor and check
# nothing else against it: the examples' 768x512 (and DFR's 1216x704) divide by 64, and
# 121 frames at 768x512 are 16x8x12 = 1,536 tokens a call, not 6,144.
TOKEN_RATIO = (COARSE_FACTOR // 32) ** 2  # 4
VIDEO_VAE_64X = {
    **VIDEO_VAE,
    "patch_size": COARSE_PATCH,
    "spatial_compression_ratio": COARSE_FACTOR,
}
# LTX-2's schedule is shifted by mu = calculate_shift(video tokens, base_image_seq_len,
# max_image_seq_len, ...), linear in the tokens: both bases divided by the same 4 give
# the real mu at a quarter of the tokens, so the timesteps are the 32x stand-in's.
SCHEDULER = {
    "use_dynamic_shifting": True,
    "base_shift": 0.95,
    "max_shift": 2.05,
    "base_image_seq_len": 1024,
    "max_image_seq_len": 4096,
    "shift_terminal": 0.1,
}
SCHEDULER_64X = {
    **SCHEDULER,
    "base_image_seq_len": SCHEDULER["base_image_seq_len"] // TOKEN_RATIO,
    "max_image_seq_len": SCHEDULER["max_image_seq_len"] // TOKEN_RATIO,
}
# the pipelines with the coarse stand-in (recipes/coarse.py names their sizes' rule)
COARSE_PIPELINES = ("LTX2Pipeline", "LTX2ImageToVideoPipeline", "LTX2DFRPipeline")
LATENT_UPSAMPLER = {
    "in_channels": Dim("latent"),
    "mid_channels": 32,  # its group norms have 32 groups
    "num_blocks_per_stage": 1,
}

RECIPES: dict[str, Recipe] = {
    "Gemma3ForConditionalGeneration": Recipe(
        "model",
        GEMMA3,
        provides={
            "llm": "text_config.hidden_size",
            "gemma_layers": "text_config.num_hidden_layers",
        },
    ),
    "LTX2TextConnectors": Recipe("model", TEXT_CONNECTORS),
    "LTX2VideoTransformer3DModel": Recipe("model", TRANSFORMER),
    # LTX-2.5 (DFR) marks its generated keyframe slots with a learned position embedding
    "LTX2VideoTransformer3DModel/keyframes": Recipe(
        "model",
        {**TRANSFORMER, "use_keyframes_abs_pos_embedding": True},
        builds="LTX2VideoTransformer3DModel",
    ),
    "AutoencoderKLLTX2Video": Recipe("model", VIDEO_VAE, provides={"latent": "latent_channels"}),
    "AutoencoderKLLTX2Audio": Recipe(
        "model", AUDIO_VAE, provides={"audio_latent": "latent_channels"}
    ),
    "LTX2Vocoder": Recipe("model", VOCODER),
    "LTX2LatentUpsamplerModel": Recipe("model", LATENT_UPSAMPLER),
    # DFR's temporal refine doubles the latent frames, not their size
    "LTX2LatentUpsamplerModel/temporal": Recipe(
        "model",
        {**LATENT_UPSAMPLER, "spatial_upsample": False, "temporal_upsample": True},
        builds="LTX2LatentUpsamplerModel",
    ),
    # what the LTX-2 checkpoints ship: the shift follows the token count
    "FlowMatchEulerDiscreteScheduler/ltx2": Recipe(
        "scheduler",
        SCHEDULER,
        builds="FlowMatchEulerDiscreteScheduler",
    ),
    "AutoencoderKLLTX2Video/coarse": Recipe(
        "model",
        VIDEO_VAE_64X,
        builds="AutoencoderKLLTX2Video",
        provides={"latent": "latent_channels"},
    ),
    "AutoencoderKLLTXVideo/coarse": Recipe(
        "model",
        LTX_VIDEO_VAE_64X,
        builds="AutoencoderKLLTXVideo",
        provides={"latent": "latent_channels"},
    ),
    "FlowMatchEulerDiscreteScheduler/ltx2-coarse": Recipe(
        "scheduler", SCHEDULER_64X, builds="FlowMatchEulerDiscreteScheduler"
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    # the coarse stand-ins ("Class@coarse", chosen per example by coarsen.py)
    *((rf"^{name}@coarse$", "vae", "AutoencoderKLLTX2Video/coarse") for name in COARSE_PIPELINES),
    *(
        (rf"^{name}@coarse$", "vae", "AutoencoderKLLTXVideo/coarse")
        for name in LTX_COARSE_PIPELINES
    ),
    (
        r"^LTX2(Pipeline|ImageToVideoPipeline)@coarse$",
        "scheduler",
        "FlowMatchEulerDiscreteScheduler/ltx2-coarse",
    ),
    (r"^LTX2DFRPipeline@coarse$", "scheduler", "FlowMatchEulerDiscreteScheduler"),
    (r"^LTX2DFRPipeline@coarse$", "transformer", "LTX2VideoTransformer3DModel/keyframes"),
    # LTX-2.5 (DFR) is distilled: it sets its own sigmas, unshifted, and passes no `mu`
    (r"^LTX2DFR", "scheduler", "FlowMatchEulerDiscreteScheduler"),
    (r"^LTX2", "scheduler", "FlowMatchEulerDiscreteScheduler/ltx2"),
    (r"^LTX2DFRTemporalRefine", "temporal_latent_upsampler", "LTX2LatentUpsamplerModel/temporal"),
    (r"^LTX2DFR", "transformer", "LTX2VideoTransformer3DModel/keyframes"),
)

TOKENIZER_OF_ENCODER: dict[str, str] = {"Gemma3ForConditionalGeneration": "GemmaTokenizer"}

HOME_PIPELINES: dict[str, str] = {
    "LTX2LatentUpsamplerModel": "LTX2LatentUpsamplePipeline",
}
