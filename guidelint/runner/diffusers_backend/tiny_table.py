"""The generic builder's data: a tiny config per component class, and what ties them.

Facts, not code: each `Recipe` is the smallest config of one class that still runs
(numbers learned from diffusers' own `get_dummy_components()`); a `Dim` in a config is
a width another component of the same pipeline decides (`provides`), so the text
encoder's width becomes the denoiser's cross-attention width and the VAE's latent
channels its input channels. `VARIANTS` pick another recipe for a slot of the
pipelines whose class name matches (SDXL's UNet sees two text encoders).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from guidelint.runner.diffusers_backend.recipes import (
    audio,
    classic,
    coarse,
    cosmos_sana,
    fixes,
    flux2,
    hubvariants,
    hunyuan15,
    image,
    image_audio,
    image_more,
    legacy,
    legacy2,
    llm,
    ltx2,
    newimage,
    qwen,
    qwen3vl,
    slow,
    video,
    video_more,
    wan_video,
)
from guidelint.runner.diffusers_backend.recipes.parts import (
    AURA_FLOW,
    CLIP_PROCESSOR,
    CLIP_TEXT,
    CLIP_TEXT_PROVIDES,
    CLIP_VISION,
    COGVIEW4,
    DDPM_UNET,
    FLUX,
    GEMMA2,
    GLM,
    IF_SCHEDULER,
    IF_UNET,
    KANDINSKY_UNET,
    PIXART,
    QWEN_VL,
    SANA,
    SD3,
    SD_SCHEDULER,
    SD_UNET,
    SDXL_TIME,
    SIGLIP_VISION,
    T5,
    VAE_FLOW,
    VAE_KL,
    WAN,
    Dim,
    Recipe,
)

RECIPES: dict[str, Recipe] = {
    # text encoders and their tokenizers
    "CLIPTextModel": Recipe("model", CLIP_TEXT, provides=CLIP_TEXT_PROVIDES),
    "CLIPTextModelWithProjection": Recipe("model", CLIP_TEXT, provides=CLIP_TEXT_PROVIDES),
    "T5EncoderModel": Recipe("model", T5, provides={"t5": "d_model"}),
    "UMT5EncoderModel": Recipe("model", T5, provides={"t5": "d_model"}),
    "CLIPTokenizer": Recipe("tokenizer", builder="build_clip_tokenizer"),
    "CLIPTokenizerFast": Recipe("tokenizer", builder="build_clip_tokenizer"),
    "T5Tokenizer": Recipe("tokenizer", builder="build_t5_tokenizer"),
    "T5TokenizerFast": Recipe("tokenizer", builder="build_t5_tokenizer"),
    "Qwen2_5_VLForConditionalGeneration": Recipe("model", QWEN_VL, provides={"llm": "hidden_size"}),
    "Gemma2Model": Recipe("model", GEMMA2, provides={"llm": "hidden_size"}),
    "Gemma2PreTrainedModel": Recipe(
        "model", GEMMA2, builds="Gemma2Model", provides={"llm": "hidden_size"}
    ),
    "GlmModel": Recipe("model", GLM, provides={"llm": "hidden_size"}),
    "Qwen2Tokenizer": Recipe("tokenizer", builder="build_qwen2_tokenizer"),
    "Qwen2TokenizerFast": Recipe("tokenizer", builder="build_qwen2_tokenizer"),
    "GemmaTokenizer": Recipe("tokenizer", builder="build_gemma_tokenizer"),
    "GemmaTokenizerFast": Recipe("tokenizer", builder="build_gemma_tokenizer"),
    "PreTrainedTokenizerFast/glm": Recipe(
        "tokenizer", builder="build_glm_tokenizer", builds="PreTrainedTokenizerFast"
    ),
    # image encoders and processors
    "SiglipVisionModel": Recipe("model", SIGLIP_VISION, provides={"image": "hidden_size"}),
    "SiglipImageProcessor": Recipe("processor", {"size": {"height": 32, "width": 32}}),
    "SiglipImageProcessorPil": Recipe("processor", {"size": {"height": 32, "width": 32}}),
    "CLIPVisionModelWithProjection": Recipe(
        "model", CLIP_VISION, provides={"image": "projection_dim"}
    ),
    "CLIPVisionModel": Recipe("model", CLIP_VISION, provides={"image": "hidden_size"}),
    "CLIPImageProcessor": Recipe("processor", CLIP_PROCESSOR),
    # what transformers names CLIPImageProcessor where torchvision is not installed
    "CLIPImageProcessorPil": Recipe("processor", CLIP_PROCESSOR),
    # autoencoders
    "AutoencoderKL": Recipe("model", VAE_KL, provides={"latent": "latent_channels"}),
    "AutoencoderKL/flow": Recipe(  # Flux and SD3 shift and scale latents
        "model",
        VAE_FLOW,
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    "AutoencoderKLWan": Recipe(
        "model",
        {
            "base_dim": 3,
            "z_dim": 16,  # latents_mean/std in the config have 16 entries
            "dim_mult": [1, 1, 1, 1],
            "num_res_blocks": 1,
            "temperal_downsample": [False, True, True],
        },
        provides={"latent": "z_dim"},
    ),
    # denoisers
    "UNet2DConditionModel": Recipe("model", SD_UNET),
    "UNet2DConditionModel/inpaint": Recipe(  # also sees the masked image latents and the mask
        "model",
        {**SD_UNET, "in_channels": Dim("latent", times=2, plus=1)},
        builds="UNet2DConditionModel",
    ),
    "UNet2DConditionModel/sdxl": Recipe(
        "model",
        {
            **SD_UNET,
            "cross_attention_dim": Dim("text", times=2),  # both encoders' states, concatenated
            "use_linear_projection": True,
            "addition_embed_type": "text_time",
            "addition_time_embed_dim": SDXL_TIME,
            # six micro-conditioning numbers, plus the second encoder's pooled projection
            "projection_class_embeddings_input_dim": Dim("proj", plus=6 * SDXL_TIME),
            # one head (this key counts heads here): examples ask for 1024 px, 1,024
            # positions at the attention level, paid per head at every step
            "attention_head_dim": 1,
        },
        builds="UNet2DConditionModel",
    ),
    "FluxTransformer2DModel": Recipe("model", FLUX),
    "FluxTransformer2DModel/fill": Recipe(  # also sees the masked image and the 8x8-packed mask
        "model",
        {
            **FLUX,
            "in_channels": Dim("latent", times=8, plus=4 * 64),
            "out_channels": Dim("latent", times=4),
        },
        builds="FluxTransformer2DModel",
    ),
    "FluxTransformer2DModel/control": Recipe(  # also sees the control image's latents
        "model",
        {**FLUX, "in_channels": Dim("latent", times=8), "out_channels": Dim("latent", times=4)},
        builds="FluxTransformer2DModel",
    ),
    "FluxControlNetModel": Recipe("model", FLUX),
    "SD3Transformer2DModel": Recipe("model", SD3),
    "SD3ControlNetModel": Recipe("model", {k: v for k, v in SD3.items() if k != "out_channels"}),
    "PixArtTransformer2DModel": Recipe("model", PIXART),
    "DiTTransformer2DModel": Recipe(
        "model",
        {
            "sample_size": 16,
            "num_layers": 1,
            "patch_size": 4,
            "attention_head_dim": 8,
            "num_attention_heads": 2,
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent", times=2),
            "attention_bias": True,
            "activation_fn": "gelu-approximate",
            "num_embeds_ada_norm": 1000,  # ImageNet's classes
            "norm_type": "ada_norm_zero",
            "norm_elementwise_affine": False,
        },
    ),
    "WanTransformer3DModel": Recipe("model", WAN),
    "UNet2DModel": Recipe("model", DDPM_UNET),
    "UNet2DConditionModel/adapter": Recipe(  # T2I-Adapter: attention in every block but the
        # last, as in SD: a plain DownBlock2D adds the adapter's features after downsampling
        "model",
        {
            **SD_UNET,
            "down_block_types": ("CrossAttnDownBlock2D", "CrossAttnDownBlock2D", "DownBlock2D"),
            "up_block_types": ("UpBlock2D", "CrossAttnUpBlock2D", "CrossAttnUpBlock2D"),
            # one head (this key counts heads in UNet2DConditionModel): self-attention over
            # 64x64 latent positions at 512 px is most of the run, paid per head
            "attention_head_dim": 1,
        },
        builds="UNet2DConditionModel",
    ),
    "UNet2DConditionModel/lcm": Recipe(  # guidance is an input: a w-embedding
        "model", {**SD_UNET, "time_cond_proj_dim": 32}, builds="UNet2DConditionModel"
    ),
    "UNet2DConditionModel/pix2pix": Recipe(  # also sees the source image's latents
        "model", {**SD_UNET, "in_channels": Dim("latent", times=2)}, builds="UNet2DConditionModel"
    ),
    "UNet2DConditionModel/kandinsky": Recipe(
        "model", KANDINSKY_UNET, builds="UNet2DConditionModel"
    ),
    "UNet2DConditionModel/kandinsky-inpaint": Recipe(  # masked image latents and the mask
        "model",
        {**KANDINSKY_UNET, "in_channels": Dim("latent", times=2, plus=1)},
        builds="UNet2DConditionModel",
    ),
    "UNet2DConditionModel/if": Recipe("model", IF_UNET, builds="UNet2DConditionModel"),
    "UNet2DConditionModel/if-upscale": Recipe(  # the low-res image beside the noise
        "model",
        {**IF_UNET, "sample_size": 32, "in_channels": 6, "class_embed_type": "timestep"},
        builds="UNet2DConditionModel",
    ),
    "VQModel": Recipe(  # Kandinsky's MoVQ: four blocks keep the scale factor of 8
        "model",
        {
            "block_out_channels": (4, 4, 4, 4),
            "down_block_types": ("DownEncoderBlock2D",) * 4,
            "up_block_types": ("UpDecoderBlock2D",) * 4,
            "latent_channels": 4,
            "layers_per_block": 1,
            "norm_num_groups": 2,
            "num_vq_embeddings": 12,
            "vq_embed_dim": 4,
            "mid_block_add_attention": False,
        },
        provides={"latent": "latent_channels"},
    ),
    "PriorTransformer": Recipe(  # maps CLIP text embeddings to CLIP image embeddings
        "model",
        {
            "num_attention_heads": 2,
            "attention_head_dim": 12,
            "embedding_dim": Dim("proj"),
            "num_layers": 1,
        },
    ),
    "MotionAdapter": Recipe(  # AnimateDiff: one temporal layer per UNet block
        "model",
        {
            "block_out_channels": SD_UNET["block_out_channels"],
            "motion_layers_per_block": 1,
            "motion_norm_num_groups": 2,
            "motion_num_attention_heads": 2,
        },
    ),
    "T2IAdapter": Recipe(  # one feature map per UNet down block, from the 8x unshuffled image
        "model",
        {
            "in_channels": 3,
            "channels": SD_UNET["block_out_channels"],
            "num_res_blocks": 1,
            "downscale_factor": 8,
            "adapter_type": "full_adapter",
        },
    ),
    "ChromaTransformer2DModel": Recipe(  # Flux without CLIP: a modulation approximator
        "model",
        {
            **{k: v for k, v in FLUX.items() if k != "pooled_projection_dim"},
            "approximator_hidden_dim": 32,
            "approximator_layers": 1,
            "approximator_num_channels": 16,
            # Flux's key, in Chroma1-HD's config.json though Chroma's __init__ ignores it
            "guidance_embeds": False,
        },
    ),
    "AuraFlowTransformer2DModel": Recipe("model", AURA_FLOW),
    "CogVideoXTransformer3DModel": Recipe(
        "model",
        {
            "num_attention_heads": 4,
            "attention_head_dim": 8,
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent"),
            "time_embed_dim": 2,
            "text_embed_dim": Dim("t5"),
            "num_layers": 1,
            "sample_width": 8,  # the default size: 8 latent pixels, 64 px
            "sample_height": 8,
            "sample_frames": 9,  # (9 - 1) / 4 + 1 = 3 latent frames
            "patch_size": 2,
            "temporal_compression_ratio": 4,
        },
    ),
    "AutoencoderKLCogVideoX": Recipe(
        "model",
        {
            "down_block_types": ("CogVideoXDownBlock3D",) * 4,
            "up_block_types": ("CogVideoXUpBlock3D",) * 4,
            "block_out_channels": (8, 8, 8, 8),
            "latent_channels": 4,
            "layers_per_block": 1,
            "norm_num_groups": 2,
            "temporal_compression_ratio": 4,
        },
        provides={"latent": "latent_channels"},
    ),
    "LTXVideoTransformer3DModel": Recipe(
        "model",
        {
            "in_channels": Dim("latent"),
            "out_channels": Dim("latent"),
            "patch_size": 1,
            "patch_size_t": 1,
            "num_attention_heads": 1,  # one head of 32 (recipes/video.py, ONE_HEAD)
            "attention_head_dim": 32,
            "cross_attention_dim": 32,
            "num_layers": 1,
            "caption_channels": Dim("t5"),
        },
    ),
    # LTX-Video's layout: 32x in space, 8x in time (recipes/ltx2.py)
    "AutoencoderKLLTXVideo": Recipe(
        "model", ltx2.LTX_VIDEO_VAE, provides={"latent": "latent_channels"}
    ),
    "SanaTransformer2DModel": Recipe("model", SANA),
    "AutoencoderDC": Recipe(  # six blocks keep DC-AE's scale factor of 32
        "model",
        {
            "latent_channels": 4,
            "attention_head_dim": 2,
            "encoder_block_types": ("ResBlock",) * 6,
            "decoder_block_types": ("ResBlock",) * 6,
            "encoder_block_out_channels": (8,) * 6,
            "decoder_block_out_channels": (8,) * 6,
            "encoder_qkv_multiscales": ((),) * 6,
            "decoder_qkv_multiscales": ((),) * 6,
            "encoder_layers_per_block": (1,) * 6,
            "decoder_layers_per_block": (1,) * 6,
            "downsample_block_type": "conv",
            "upsample_block_type": "interpolate",
            "decoder_norm_types": "rms_norm",
            "decoder_act_fns": "silu",
            "scaling_factor": 0.41407,
        },
        provides={"latent": "latent_channels"},
    ),
    "CogView4Transformer2DModel": Recipe("model", COGVIEW4),
    # conditioning models built from the denoiser they steer
    "ControlNetModel": Recipe(
        "model",
        # three stride-2 convolutions bring the condition image down 8x
        {"conditioning_embedding_out_channels": (2, 2, 2, 2)},
        derive=("unet", "from_unet"),
    ),
    # schedulers: each class's defaults, unless the pipeline's checkpoint ships others
    "KarrasDiffusionSchedulers": Recipe("scheduler", SD_SCHEDULER, builds="PNDMScheduler"),
    "FlowMatchEulerDiscreteScheduler": Recipe("scheduler"),
    "FlowMatchEulerDiscreteScheduler/wan": Recipe(
        "scheduler", {"shift": 7.0}, builds="FlowMatchEulerDiscreteScheduler"
    ),
    "EulerDiscreteScheduler/sdxl": Recipe(  # what stable-diffusion-xl-base-1.0 ships
        "scheduler",
        {
            "beta_start": 0.00085,
            "beta_end": 0.012,
            "beta_schedule": "scaled_linear",
            "timestep_spacing": "leading",
            "steps_offset": 1,
        },
        builds="EulerDiscreteScheduler",
    ),
    "DDIMScheduler": Recipe("scheduler"),
    "FlowMatchEulerDiscreteScheduler/cogview4": Recipe(
        "scheduler",
        {
            "base_shift": 0.25,
            "max_shift": 0.75,
            "base_image_seq_len": 256,
            "use_dynamic_shifting": True,
            "time_shift_type": "linear",
        },
        builds="FlowMatchEulerDiscreteScheduler",
    ),
    "DPMSolverMultistepScheduler/sana": Recipe(  # Sana predicts flow
        "scheduler",
        {"prediction_type": "flow_prediction", "use_flow_sigmas": True, "flow_shift": 3.0},
        builds="DPMSolverMultistepScheduler",
    ),
    "DDPMScheduler/if": Recipe("scheduler", IF_SCHEDULER, builds="DDPMScheduler"),
    "DDPMScheduler/if-noising": Recipe(
        "scheduler", {"beta_schedule": "squaredcos_cap_v2"}, builds="DDPMScheduler"
    ),
    "UnCLIPScheduler/prior": Recipe(
        "scheduler",
        {
            "variance_type": "fixed_small_log",
            "prediction_type": "sample",
            "clip_sample": True,
            "clip_sample_range": 10.0,
        },
        builds="UnCLIPScheduler",
    ),
    "DDPMScheduler": Recipe("scheduler"),
    "PNDMScheduler": Recipe("scheduler", SD_SCHEDULER),
}

# (pipeline class pattern, slot, recipe): the first match per slot wins.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^(Flux|StableDiffusion3|Chroma)", "vae", "AutoencoderKL/flow"),
    (r"^StableDiffusionXL|SDXL", "unet", "UNet2DConditionModel/sdxl"),
    (r"^StableDiffusionXL|SDXL", "scheduler", "EulerDiscreteScheduler/sdxl"),
    (r"^LatentConsistencyModel", "unet", "UNet2DConditionModel/lcm"),
    (r"^StableDiffusion(ControlNet)?Inpaint", "unet", "UNet2DConditionModel/inpaint"),
    (r"^StableDiffusionAdapter", "unet", "UNet2DConditionModel/adapter"),
    (r"^StableDiffusion(XL)?InstructPix2Pix", "unet", "UNet2DConditionModel/pix2pix"),
    (r"^KandinskyV22Inpaint", "unet", "UNet2DConditionModel/kandinsky-inpaint"),
    (r"^KandinskyV22(?!Prior|Controlnet)", "unet", "UNet2DConditionModel/kandinsky"),
    (r"^KandinskyV22.*Combined", "prior_scheduler", "UnCLIPScheduler/prior"),
    (r"^IF(Img2Img|Inpainting)?Pipeline", "unet", "UNet2DConditionModel/if"),
    (r"^IF.*SuperResolution", "unet", "UNet2DConditionModel/if-upscale"),
    (r"^IF", "scheduler", "DDPMScheduler/if"),
    (r"^IF", "image_noising_scheduler", "DDPMScheduler/if-noising"),
    (r"Prior", "scheduler", "UnCLIPScheduler/prior"),
    (r"^FluxFill", "transformer", "FluxTransformer2DModel/fill"),
    (r"^FluxControl(Img2Img|Inpaint)?Pipeline", "transformer", "FluxTransformer2DModel/control"),
    (r"^(PixArt|DiT)", "scheduler", "DDIMScheduler"),
    (r"^CogView4", "scheduler", "FlowMatchEulerDiscreteScheduler/cogview4"),
    (r"^Sana", "scheduler", "DPMSolverMultistepScheduler/sana"),
    (r"^Wan", "scheduler", "FlowMatchEulerDiscreteScheduler/wan"),
)

# Pipelines whose components plan but whose tiny stand-in would not be faithful yet:
# refused with the reason, rather than built to fail inside the example.
NOT_YET: dict[str, str] = {
    "KarrasVePipeline": "diffusers no longer exports its KarrasVeScheduler",
}

# Optional slots (a pipeline's `_optional_components`) left None: what checkpoints omit
# (safety checkers, IP-Adapter image encoders, Wan 2.2's second expert). Other optional
# slots (PixArt's text encoder, Wan's transformer) are built.
LEFT_OUT_WHEN_OPTIONAL = (
    "safety_checker",
    "feature_extractor",
    "image_encoder",
    "watermarker",
    "transformer_2",
    # LTX-2's prompt enhancer (a Gemma 4), its processor and its duration head: extras
    # the pipelines use only when asked (enhance_prompt=True, an unset duration)
    "processor",
    "prompt_enhancer",
    # Ideogram 4's LM head for prompt upsampling ships in its own repo
    # (diffusers/qwen3-vl-8b-instruct-lm-head), passed in only when asked for
    "prompt_enhancer_head",
    "audio_scheduler",  # without one, LTX-2 denoises the audio with a copy of `scheduler`
    "duration_head",
    # only AudioDiffusionPipeline has one: audio-diffusion-256 ships none (its latent
    # sibling, latent-audio-diffusion-256, does)
    "vqvae",
)

# A tokenizer slot annotated with a generic class (AutoTokenizer) gets the tokenizer of
# its text encoder (`tokenizer_2` pairs with `text_encoder_2`).
TOKENIZER_OF_ENCODER = {
    "T5EncoderModel": "T5TokenizerFast",
    "UMT5EncoderModel": "T5TokenizerFast",
    "CLIPTextModel": "CLIPTokenizer",
    "CLIPTextModelWithProjection": "CLIPTokenizer",
    "Qwen2_5_VLForConditionalGeneration": "Qwen2Tokenizer",
    "GlmModel": "PreTrainedTokenizerFast/glm",
    "Gemma2Model": "GemmaTokenizer",
    "Gemma2PreTrainedModel": "GemmaTokenizer",
}
GENERIC_TOKENIZERS = (
    "AutoTokenizer",
    "PreTrainedTokenizer",
    "PreTrainedTokenizerFast",
    "PreTrainedTokenizerBase",
)

# Pipeline arguments that are not components, as the real checkpoints set them.
IMAGENET_LABELS = {  # a few of DiT's ImageNet classes, at their real ids
    0: "tench, Tinca tinca",
    1: "goldfish, Carassius auratus",
    2: "great white shark, white shark, man-eater, man-eating shark, Carcharodon carcharias",
    207: "golden retriever",
    281: "tabby, tabby cat",
    817: "sports car, sport car",
    879: "umbrella",
    975: "lakeside, lakeshore",
}
PIPELINE_ARGUMENTS: tuple[tuple[str, Mapping[str, Any]], ...] = (
    (r"^DiT", {"id2label": IMAGENET_LABELS}),
    (r".", {"requires_safety_checker": False}),
)


def recipe_name(
    pipeline_class: str, slot: str, component_class: str, hub_variant: str | None = None
) -> str:
    """The recipe for `slot` of `pipeline_class`: a variant, else the component class's own.

    hub_variant: the variant a known hub id names (resolve.KnownVariant); rows whose
    pattern has an "@" match "Class@variant" and are tried first, the others the class."""
    names = ([f"{pipeline_class}@{hub_variant}"] if hub_variant else []) + [pipeline_class]
    for name in names:
        for pattern, variant_slot, variant in VARIANTS:
            tagged = "@" in pattern
            if variant_slot == slot and tagged == ("@" in name) and re.search(pattern, name):
                return variant
    return component_class


# A single model loaded on its own takes the widths of the pipeline it usually serves.
HOME_PIPELINES = {
    "UNet2DConditionModel": "StableDiffusionPipeline",
    "FluxTransformer2DModel": "FluxPipeline",
    "SD3Transformer2DModel": "StableDiffusion3Pipeline",
    "PixArtTransformer2DModel": "PixArtSigmaPipeline",
    "DiTTransformer2DModel": "DiTPipeline",
    "WanTransformer3DModel": "WanPipeline",
    "AutoencoderKLWan": "WanPipeline",
    "ControlNetModel": "StableDiffusionControlNetPipeline",
}


AREAS = (
    qwen,
    llm,
    wan_video,
    video,
    classic,
    image,
    audio,
    ltx2,
    cosmos_sana,
    video_more,
    legacy,
    legacy2,
    fixes,
    image_more,
    image_audio,
    flux2,
    hubvariants,
    hunyuan15,
    newimage,
    qwen3vl,
    slow,
    coarse,
)


def _merged(shared: dict[str, Any], table: str) -> dict[str, Any]:
    """`shared` plus each area's `table`; a key two of them define is a bug, caught here."""
    merged = dict(shared)
    for area in AREAS:
        for key, value in getattr(area, table, {}).items():  # an area may leave one out
            if key in merged:
                raise RuntimeError(f"{area.__name__}.{table}: {key!r} is defined twice")
            merged[key] = value
    return merged


RECIPES = _merged(RECIPES, "RECIPES")
TOKENIZER_OF_ENCODER = _merged(TOKENIZER_OF_ENCODER, "TOKENIZER_OF_ENCODER")
HOME_PIPELINES = _merged(HOME_PIPELINES, "HOME_PIPELINES")
NOT_YET = _merged(NOT_YET, "NOT_YET")
# an area's variants and arguments are more specific than the shared ones: tried first
VARIANTS = tuple(v for area in AREAS for v in getattr(area, "VARIANTS", ())) + VARIANTS
PIPELINE_ARGUMENTS = (
    tuple(a for area in AREAS for a in getattr(area, "PIPELINE_ARGUMENTS", ())) + PIPELINE_ARGUMENTS
)
# (pipeline class pattern, slot): optional slots an area builds though they are usually
# left out (Wan 2.1 image-to-video checkpoints ship their CLIP image encoder).
KEPT_OPTIONAL = tuple(k for area in AREAS for k in getattr(area, "KEPT_OPTIONAL", ()))
# (pipeline class pattern, slot): optional slots an area leaves out though they are usually
# built (FLUX.1-Redux-dev ships no text encoders).
LEFT_OUT = tuple(k for area in AREAS for k in getattr(area, "LEFT_OUT", ()))
# component class -> the library its real checkpoints' model_index.json names
CHECKPOINT_LIBRARY = _merged({}, "CHECKPOINT_LIBRARY")
# "Pipeline.slot" -> the class real checkpoints ship in a slot whose annotation names
# another (AudioDiffusionPipeline's `unet: UNet2DConditionModel` holds a UNet2DModel)
SHIPPED: dict[str, str] = _merged({}, "SHIPPED")
# module class -> parameters its __init__ leaves uninitialised (`torch.empty`), which
# the builder fills seeded (generic.fill_empty)
EMPTY_PARAMETERS = _merged({}, "EMPTY_PARAMETERS")


def left_out(pipeline_class: str, slot: str) -> bool:
    """Whether the optional `slot` of `pipeline_class` is left None in its tiny checkpoint."""
    if any(s == slot and re.search(p, pipeline_class) for p, s in LEFT_OUT):
        return True
    kept = any(s == slot and re.search(p, pipeline_class) for p, s in KEPT_OPTIONAL)
    return slot in LEFT_OUT_WHEN_OPTIONAL and not kept
