"""Coarser stand-ins of image DiTs, SD3 and SDXL's UNets: a 32x VAE where the real one is 8x.

An image DiT's cost at 1024 px is attention over its latent patches: 8x and 2x2 patches
make 4,096 tokens, paid per head, layer, step and guidance half. The pipelines here
(AuraFlow, CogView 3 Plus and 4, Latte, Ideogram 4) read their VAE's factor from its
config (`2 ** (len(vae.config.block_out_channels) - 1)`), take their default size from
their `__call__` or from the transformer's `sample_size` times that factor, and size
their latents as height // factor: with six VAE levels (32x) and the transformer's
`sample_size` a quarter of the 8x one's, every size the example computes stays the real
one (the default, and any height and width that divide by 32 x the 2x2 patch = 64),
with 256 tokens instead of 4,096. Where a pipeline's schedule depends on the token
count (CogView 4's shift, `(tokens / base_image_seq_len) ** 0.5`), the base is divided
by the same 16, so the timesteps are the real ones too.

SD3 (text-to-image, img2img, PAG, ControlNet) reads its factor and default size the same
way, an img2img image and a control image resized to that size; its ControlNet stays the
8x one. SDXL and AnimateDiff SDXL (a UNet: `UNET_32X`) get a 32x VAE and the UNet's
`sample_size` / 4 only where every call of the pipeline states sizes dividing by 128
(32x and the tiny UNet's own 4x); their VAE's tile is the real one's, so VAE tiling
may stay on. Flux Kontext (and its inpaint pipeline) and Qwen-Image Edit (Plus, Inpaint),
which size their output as an area at an aspect ratio, get a 32x VAE only where no size
is passed and each image is the runner's square picture (1024 x 1024 at either factor);
LongCat-Image where every call states sizes dividing by 64; Krea 2 as the DiTs.
SANA-Video gets a 16x Wan VAE; Kandinsky 5's video pipelines a 32x HunyuanVideo VAE and
Kandinsky 6 TI2VA, HunyuanVideo text-to-video and FramePack a 16x one; zeroscope's
text-to-video a 32x VAE and its UNet3D's sample_size / 4.
EasyAnimate (text-to-video and inpaint) keeps its 8x VAE and gets 4x4 latent patches where
its sizes divide by 32 (EASYANIMATE_PATCHES).

The variant is a hub variant ("Class@coarse" rows, generic.Plan.key names its folder),
chosen per example by `coarsen.py` from the example's own text: only where every height
and width it passes is an integer literal that divides by 64 and it never sees the latent
grid (passes latents, asks for latent output, reads the VAE's factor, tiles the VAE);
otherwise the class's real factor. The denoiser's module tree is the class's own (only `sample_size`
differs, which names no module); the VAE has two more down and up levels, which no
name-addressing API reaches (tests/diffusers/test_diffusers_layouts.py compares the
attention layouts: the coarse VAEs', like every tiny one's, leave out the mid-block
attention, LAYOUT_GAPS).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from guidelint.runner.diffusers_backend.recipes import (
    fixes,
    image,
    image_more,
    llm,
    ltx2,
    newimage,
    qwen,
    qwen3vl,
    video,
    video_more,
    wan_video,
)
from guidelint.runner.diffusers_backend.recipes.parts import (
    AURA_FLOW,
    COGVIEW4,
    SD3,
    VAE_FLOW,
    VAE_KL,
    WAN,
    Recipe,
)

VARIANT = "coarse"
REAL_FACTOR = 8  # what each family's VAE has: 2 ** (4 levels - 1)
COARSE_LEVELS = 6
FACTOR = 2 ** (COARSE_LEVELS - 1)  # 32
SHRINK = FACTOR // REAL_FACTOR  # latent side 4x smaller: 16x fewer tokens
PATCH = 2  # each family's 2x2 patches

# The 8x stand-ins' transformer sample_size, which the coarse ones divide by SHRINK so
# that a call with height=None gets the same default size from either: AuraFlow's recipe
# (its __call__ defaults to 1024 px anyway), CogView 3 Plus's and CogView 4's (the class
# default, as CogView3-Plus-3B and CogView4-6B ship: 128, 1024 px).
EIGHT_X_SAMPLE_SIZE = {
    "AuraFlowTransformer2DModel": AURA_FLOW["sample_size"],
    "CogView3PlusTransformer2DModel": image_more.COGVIEW3PLUS["sample_size"],
    "CogView4Transformer2DModel": 128,
    "LatteTransformer3DModel": video.RECIPES["LatteTransformer3DModel"].config["sample_size"],
    "SD3Transformer2DModel": SD3["sample_size"],
}
SDXL_UNET = fixes.SDXL_UNET  # the shared table's "UNet2DConditionModel/sdxl"
SDXL_VAE_TILE = 1024  # stabilityai/stable-diffusion-xl-base-1.0's vae sample_size
COGVIEW4_BASE_SEQ_LEN = 256  # FlowMatchEulerDiscreteScheduler/cogview4's, the real one's
BRIA_FIBO2_PATCH = SHRINK * PATCH  # its coarse DiT's 8x8 patches: 16x fewer tokens
EASYANIMATE_PATCH = 2 * PATCH  # its coarse DiT's 4x4 patches: 4x fewer tokens

VAE_COARSE = {
    **VAE_KL,
    "block_out_channels": (4,) * COARSE_LEVELS,
    "down_block_types": ("DownEncoderBlock2D",) * COARSE_LEVELS,
    "up_block_types": ("UpDecoderBlock2D",) * COARSE_LEVELS,
}


QWEN_VAE = qwen.RECIPES["AutoencoderKLQwenImage"].config


def _six_levels(config) -> dict:
    return {
        **config,
        "block_out_channels": (config["block_out_channels"][0],) * COARSE_LEVELS,
        "down_block_types": (config["down_block_types"][0],) * COARSE_LEVELS,
        "up_block_types": (config["up_block_types"][0],) * COARSE_LEVELS,
    }


def _coarse_transformer(transformer_class: str, config: Mapping[str, Any]) -> Recipe:
    """The 8x transformer's config with its sample_size divided: its default size,
    sample_size x the VAE's factor, stays the same at 32x."""
    sample_size = EIGHT_X_SAMPLE_SIZE[transformer_class] // SHRINK
    return Recipe("model", {**config, "sample_size": sample_size}, builds=transformer_class)


# Wan 2.1's VAE as the 8x stand-in has it (tiny_table.py's "AutoencoderKLWan"), with a
# fifth level: one more spatial-only halving (16x, 4x in time as before), and narrower.
# The pipelines on it read the factors from `scale_factor_spatial` /
# `scale_factor_temporal`, config fields the architecture does not set, so the coarse
# one states its own.
WAN_VAE_FACTOR = 16
WAN_VAE_8X_TIME = [False, True, True]  # the levels that also halve time
WAN_VAE_8X = {
    "base_dim": 3,
    "z_dim": 16,
    "dim_mult": [1, 1, 1, 1],
    "num_res_blocks": 1,
    "temperal_downsample": WAN_VAE_8X_TIME,
}
WAN_VAE_COARSE = {
    **WAN_VAE_8X,
    # two channels, not three, as the coarse Qwen-Image VAE: what is left of SANA-Video's
    # 81 frames at 480x832 is this VAE's full-resolution causal 3D convolutions (three
    # latent frames decoded, one thread, load 10-11: 10.6-10.8 s -> 7.3-9.1 s); no size
    # and no module name depends on it
    "base_dim": 2,
    # one residual block a decoder level and none in the encoder's (the real VAE has
    # three and two; AutoencoderKLWan has one count for both): the decoder's last level
    # runs at the video's full size, where 720x1280 Wan T2V spent its time (5 frames
    # decoded, one thread: 1.66 CPU-s with two blocks a level, 0.91-1.15 s with one); the
    # HunyuanVideo stand-ins' VAE went the same way (layers_per_block 0)
    "num_res_blocks": 0,
    "dim_mult": [1] * 5,
    "temperal_downsample": [*WAN_VAE_8X_TIME, False],
    "scale_factor_spatial": WAN_VAE_FACTOR,
}
# Helios' 384x640 divides by 64 x its 2x2 patch: the same VAE with a sixth, spatial-only
# level (32x in space, 4x in time: its chunks of 9 latent frames and its history, counted
# in latent frames, stay the real ones)
WAN_VAE_32X_FACTOR = 32
WAN_VAE_32X = {
    **WAN_VAE_COARSE,
    "dim_mult": [1] * COARSE_LEVELS,
    "temperal_downsample": [*WAN_VAE_8X_TIME, False, False],
    "scale_factor_spatial": WAN_VAE_32X_FACTOR,
}
# Wan text-to-video checks only height % 16, sizes its latents as height // factor, and
# reads no patch size: its DiT's patches may be any that tile the latents. 720x1280
# (45x80 latent positions at 16x) tiles into 5x5 patches: 9x16 tokens a latent frame
# where the real 8x VAE and 2x2 patches make 45x80, so factor x patch = 80 must divide
# every height and width the example passes
WAN_COARSE_PATCH = (1, 5, 5)
WAN_COARSE_MULTIPLE = WAN_VAE_FACTOR * WAN_COARSE_PATCH[1]  # 80
# Wan image-to-video sizes its frames from the VAE factor times the patch's height and
# width (its example rounds to `vae_scale_factor_spatial * patch_size[1]`, the pipeline to
# both), and its VAE encodes four frames a chunk, so neither that product (16) nor the
# VAE's time may change: the 16x VAE (two channels, cheaper at full resolution, where its
# 81-frame encode and decode run) with 1x1 patches keeps it. Its DiT's temporal patch may
# group latent frames: 81 frames are 21 latent frames, 3 patches of 7, so 1,521 tokens a
# patch frame, 4,563 a call, not 31,941; every num_frames a call passes must make latent
# frames dividing by 7 (the default, 81, does)
WAN_I2V_PATCH = (7, 1, 1)
SKYREELS_PATCH = (5, 2, 2)  # SkyReels-V2 T2V: 97 frames, 25 latent frames (SKYREELS_T2V)
WAN_TEMPORAL_FACTOR = 4
HELIOS_TOKEN_RATIO = (WAN_VAE_32X_FACTOR // REAL_FACTOR) ** 2  # 16
# HeliosPipeline shifts its schedule by mu = calculate_shift(tokens, base_image_seq_len,
# max_image_seq_len) read from the scheduler's config (256 and 4096 where absent, as in
# the 8x stand-in's): linear in the tokens, so both bases divided by the same 16 give
# the real mu, and the timesteps are the 8x stand-in's
HELIOS_SCHEDULER_COARSE = {
    "stages": 1,
    "stage_range": [0, 1],
    "use_dynamic_shifting": True,
    "base_image_seq_len": 256 // HELIOS_TOKEN_RATIO,
    "max_image_seq_len": 4096 // HELIOS_TOKEN_RATIO,
}


HUNYUAN_VAE_16X = 16  # Kandinsky 6's 480 px allows 16x with its 2x2 patches, not 32x


def _hunyuan_vae(factor: int) -> dict:
    """The HunyuanVideo VAE of the tiny table (recipes/video.py) with log2(factor) + 1
    levels: `factor` in space, 4x in time."""
    levels = factor.bit_length()
    return {
        **video.HUNYUAN_VAE,
        "block_out_channels": cast(tuple[int, ...], video.HUNYUAN_VAE["block_out_channels"])[:1]
        * levels,
        "down_block_types": ("HunyuanVideoDownBlock3D",) * levels,
        "up_block_types": ("HunyuanVideoUpBlock3D",) * levels,
        "spatial_compression_ratio": factor,
    }


RECIPES: dict[str, Recipe] = {
    "AutoencoderKL/coarse": Recipe(
        "model", VAE_COARSE, builds="AutoencoderKL", provides={"latent": "latent_channels"}
    ),
    # Ideogram 4's FLUX.2 VAE (batch-normed 2x2-packed latents), six levels
    "AutoencoderKLFlux2/coarse": Recipe(
        "model",
        _six_levels(llm.RECIPES["AutoencoderKLFlux2"].config),
        builds="AutoencoderKLFlux2",
        provides={"latent": "latent_channels"},
    ),
    "LatteTransformer3DModel/coarse": _coarse_transformer(
        "LatteTransformer3DModel", video.RECIPES["LatteTransformer3DModel"].config
    ),
    "AuraFlowTransformer2DModel/coarse": _coarse_transformer(
        "AuraFlowTransformer2DModel", AURA_FLOW
    ),
    "CogView3PlusTransformer2DModel/coarse": _coarse_transformer(
        "CogView3PlusTransformer2DModel", image_more.COGVIEW3PLUS
    ),
    "CogView4Transformer2DModel/coarse": _coarse_transformer(
        "CogView4Transformer2DModel", COGVIEW4
    ),
    # SD3 (and its PAG, ControlNet and img2img pipelines): each takes its default size,
    # an img2img image's and a ControlNet control image's size too, from the
    # transformer's sample_size times the factor, and checks height against the factor
    # times the 2x2 patch; its scheduler has no dynamic shift (the token count does not
    # reach the timesteps). The SD3 ControlNet stays the 8x one: it embeds the control
    # image's VAE latents with its own patch embedding, cropped from 192 positions a
    # side, so any latent size up to that fits it.
    "AutoencoderKL/sd3-coarse": Recipe(
        "model",
        _six_levels(image.RECIPES["AutoencoderKL/sd3"].config),
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    "SD3Transformer2DModel/coarse": _coarse_transformer("SD3Transformer2DModel", SD3),
    "SD3Transformer2DModel/pag-coarse": _coarse_transformer(
        "SD3Transformer2DModel", image.RECIPES["SD3Transformer2DModel/pag"].config
    ),
    "AutoencoderKL/coarse-tiles": Recipe(
        "model",
        {**VAE_COARSE, "sample_size": SDXL_VAE_TILE},
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    "UNet2DConditionModel/sdxl-coarse": Recipe(
        "model",
        {**SDXL_UNET, "sample_size": SDXL_UNET["sample_size"] // SHRINK},
        builds="UNet2DConditionModel",
    ),
    # FLUX.1's VAE (shifted and scaled latents) for Flux Kontext, and LongCat's (FLUX.1's
    # with its 16 latent channels), six levels each
    "AutoencoderKL/flow-coarse": Recipe(
        "model",
        _six_levels(VAE_FLOW),
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    "AutoencoderKL/longcat-coarse": Recipe(
        "model",
        _six_levels(qwen.RECIPES["AutoencoderKL/longcat"].config),
        builds="AutoencoderKL",
        provides={"latent": "latent_channels"},
    ),
    "AutoencoderKLQwenImage/coarse": Recipe(
        "model",
        {
            **QWEN_VAE,
            # two channels, not four: what is left of a 1024 px example is this VAE's
            # full-resolution causal 3D convolutions (Qwen-Image Edit Inpaint, one thread:
            # encode 11.2 s -> 3.6 s, decode 9.2 s -> 5.4 s); no size depends on it
            "base_dim": 2,
            "dim_mult": [1] * COARSE_LEVELS,  # a downsampling between each two
            "temperal_downsample": [*QWEN_VAE["temperal_downsample"], False, False],
        },
        builds="AutoencoderKLQwenImage",
        provides={"latent": "z_dim"},
    ),
    "AutoencoderKLWan/coarse": Recipe(
        "model", WAN_VAE_COARSE, builds="AutoencoderKLWan", provides={"latent": "z_dim"}
    ),
    "AutoencoderKLWan/32x": Recipe(
        "model", WAN_VAE_32X, builds="AutoencoderKLWan", provides={"latent": "z_dim"}
    ),
    "WanTransformer3DModel/coarse": Recipe(
        "model", {**WAN, "patch_size": WAN_COARSE_PATCH}, builds="WanTransformer3DModel"
    ),
    "WanTransformer3DModel/i2v-coarse": Recipe(
        "model",
        {**wan_video.WAN_I2V, "patch_size": WAN_I2V_PATCH},
        builds="WanTransformer3DModel",
    ),
    "SkyReelsV2Transformer3DModel/coarse": Recipe(
        "model",
        {**WAN, "patch_size": SKYREELS_PATCH},
        builds="SkyReelsV2Transformer3DModel",
    ),
    "HeliosScheduler/coarse": Recipe(
        "scheduler", HELIOS_SCHEDULER_COARSE, builds="HeliosScheduler"
    ),
    # Bria FIBO 2: the same DiT with 8x8 latent patches (its pipeline hands it unpacked
    # latents and reads the patch from its config only for a schedule shift its scheduler,
    # without dynamic shifting, ignores): 256 tokens at 1024 px, not 4,096
    # zeroscope's UNet3D with sample_size / 4: its default size (sample_size x the
    # factor, 64 px) is the 8x stand-in's
    "UNet3DConditionModel/coarse": Recipe(
        "model",
        {**video.UNET_3D, "sample_size": video.UNET_3D["sample_size"] // SHRINK},
        builds="UNet3DConditionModel",
    ),
    # Kandinsky 5 and 6's HunyuanVideo VAE with more spatial levels (4x in time as
    # before: its decoder supports no other temporal ratio); the pipelines read both
    # factors from `spatial_compression_ratio` / `temporal_compression_ratio`
    "AutoencoderKLHunyuanVideo/coarse": Recipe(
        "model",
        _hunyuan_vae(FACTOR),
        builds="AutoencoderKLHunyuanVideo",
        provides={"latent": "latent_channels"},
    ),
    "AutoencoderKLHunyuanVideo/16x": Recipe(
        "model",
        _hunyuan_vae(HUNYUAN_VAE_16X),
        builds="AutoencoderKLHunyuanVideo",
        provides={"latent": "latent_channels"},
    ),
    # HunyuanImage 2.1: its DiT with 2x2 latent patches (the real one's are 1x1; its
    # pipeline sizes the latents by the VAE alone and patchifies nothing itself), and its
    # 32x VAE with one resnet a decoder level (the least the class builds): the decoder's
    # last level runs at the full 2048 px with 32 channels (its group norms' 32 groups).
    # One head of 32, not four of 8 (the same width; RoPE's axes fill the head): its
    # attention carries the text's padding mask, so torch computes every score, per head
    "HunyuanImageTransformer2DModel/coarse": Recipe(
        "model",
        {
            **qwen.RECIPES["HunyuanImageTransformer2DModel"].config,
            "patch_size": (PATCH, PATCH),
            "num_attention_heads": 1,
            "attention_head_dim": 32,
            "rope_axes_dim": (16, 16),
        },
        builds="HunyuanImageTransformer2DModel",
    ),
    "AutoencoderKLHunyuanImage/coarse": Recipe(
        "model",
        {**qwen.RECIPES["AutoencoderKLHunyuanImage"].config, "layers_per_block": 0},
        builds="AutoencoderKLHunyuanImage",
        provides={"latent": "latent_channels"},
    ),
    "BriaFibo2Transformer2DModel/coarse": Recipe(
        "model",
        {**qwen3vl.BRIA_FIBO2, "patch_size": BRIA_FIBO2_PATCH},
        builds="BriaFibo2Transformer2DModel",
    ),
    # EasyAnimate text-to-video and inpaint: the same DiT with 4x4 latent patches (their
    # pipelines never read the patch; the transformer patchifies, places RoPE and
    # unpatchifies by its config)
    "EasyAnimateTransformer3DModel/coarse": Recipe(
        "model",
        {
            **video_more.RECIPES["EasyAnimateTransformer3DModel"].config,
            "patch_size": EASYANIMATE_PATCH,
        },
        builds="EasyAnimateTransformer3DModel",
    ),
    "EasyAnimateTransformer3DModel/inpaint-coarse": Recipe(
        "model",
        {
            **video_more.RECIPES["EasyAnimateTransformer3DModel/inpaint"].config,
            "patch_size": EASYANIMATE_PATCH,
        },
        builds="EasyAnimateTransformer3DModel",
    ),
    "FlowMatchEulerDiscreteScheduler/cogview4-coarse": Recipe(
        "scheduler",
        {
            "base_shift": 0.25,
            "max_shift": 0.75,
            "base_image_seq_len": COGVIEW4_BASE_SEQ_LEN // SHRINK**2,
            "use_dynamic_shifting": True,
            "time_shift_type": "linear",
        },
        builds="FlowMatchEulerDiscreteScheduler",
    ),
}


@dataclass(frozen=True)
class Coarser:
    """What a pipeline's coarse variant changes and the multiple its sizes must be."""

    multiple: int  # every height and width must divide by it
    change: str  # for the report
    token_ratio: int  # how many times fewer tokens
    # every call of the pipeline must pass both sizes (coarsen.py): a UNet's
    sizes_required: bool = False
    # a tiled decode is latents x factor pixels whatever the tile: VAE tiling may stay on
    tiling_allowed: bool = False
    # the output's size is an area at an aspect ratio (Flux Kontext): no size may be
    # passed, and each image must be the runner's square picture (coarsen.py)
    area_sized: bool = False
    # an area-sized pipeline's leading parameters, which a call may pass positionally
    positional: tuple[str, ...] = ()
    factor: int = FACTOR  # the coarse VAE's (the pipeline reads it from its config)
    real_factor: int = REAL_FACTOR  # the real VAE's
    # sizes may be names bound once to integer literals or tuples of them (`sample_size =
    # (448, 576)`, `height=sample_size[0]`), and these helpers may take positional
    # arguments, the one at the index given being such a size (coarsen.py)
    named_sizes: bool = False
    size_helpers: tuple[tuple[str, int], ...] = ()
    # the DiT's temporal patch, in latent frames, which every num_frames must fill
    frames_patch: int = 0
    # the latent grid's height and width are the real ones: any size stays
    spatial_kept: bool = False
    # the coarse VAE's frames a latent frame, for frames_patch: (n - 1) // it + 1
    frames_factor: int = WAN_TEMPORAL_FACTOR
    # components the variant leaves as the real factor's stand-in: the example may pass
    # its own (loaded alone), the same model at either factor
    kept_components: frozenset[str] = frozenset()


VAE_32X = Coarser(
    FACTOR * PATCH,
    f"a tiny VAE of {FACTOR}x (the real one is {REAL_FACTOR}x) and a transformer of "
    f"sample_size / {SHRINK}",
    SHRINK**2,
)
# Ideogram 4 packs 2x2 latent patches itself (its pipeline's patch_size = 2) and takes
# its default size from its __call__ (2048 px), its schedule's shift from the pixel
# count: only the VAE changes (18,432 tokens at 8x, 1,024 at 32x for 2048 px).
VAE_32X_ONLY = Coarser(
    FACTOR * PATCH, f"a tiny VAE of {FACTOR}x (the real one is {REAL_FACTOR}x)", SHRINK**2
)
# SDXL's UNet family. The pipelines read the factor from the VAE's config and take their
# default size from the UNet's sample_size times it; nothing else in them or the UNet
# knows the factor (`height % 8` is their only check). The latents must also divide by
# the tiny UNet's own downsampling (3 blocks: 4x): at 32x that is 128 px, 1024 px being
# 32x32 latents (8x8 at its lowest level). The tiny default (sample_size 8 x 8 = 64 px)
# is already cheap and would be a 2x2 grid at 32x, so every call must state its sizes.
# VAE tiling (AnimateDiff SDXL's example turns it on) splits the decode, not its size:
# a tiled decode is latents x factor pixels. The coarse VAE's tile is the real SDXL VAE's
# (sample_size 1024 px, 32 latents at 32x), so a 1024 px frame is decoded whole, as the
# real one does, where the 8x stand-in's 64 px tile cuts it into 484 tiles.
UNET_DOWNSAMPLING = 2 ** (len(cast(tuple[int, ...], SDXL_UNET["block_out_channels"])) - 1)
UNET_32X = Coarser(
    FACTOR * UNET_DOWNSAMPLING,
    f"a tiny VAE of {FACTOR}x (the real one is {REAL_FACTOR}x) and a UNet of "
    f"sample_size / {SHRINK}",
    SHRINK**2,
    sizes_required=True,
    tiling_allowed=True,
)


# Flux Kontext and Kontext inpaint size their output as max_area (1024 x 1024 unless
# passed) at the aspect ratio of height and width (a square by default: its default,
# Flux's hard-coded 128 x the factor, sets only the aspect), and their image at the
# preferred Kontext resolution nearest the image's aspect ratio, each rounded down to
# factor x 2 (the inpaint one's output is its image's size). The same at 32x as at 8x
# where both are 1024 x 1024: no height, width, max_area or _auto_resize passed, and each
# image the runner's own square picture (coarsen.py). The transformer (patch 1, 2x2
# latent patches packed) has no sample_size; only the VAE changes.
def _area_sized(*positional: str) -> Coarser:
    return Coarser(
        FACTOR * PATCH,
        f"a tiny VAE of {FACTOR}x (the real one is {REAL_FACTOR}x)",
        SHRINK**2,
        area_sized=True,
        positional=positional,
    )


KONTEXT_32X = _area_sized("image", "prompt")
KONTEXT_INPAINT_32X = _area_sized("image", "image_reference")
# Qwen-Image Edit sizes its image and output as calculate_dimensions(1024 * 1024, the
# image's aspect ratio), rounded to 32 and then down to factor x 2: a square image makes
# 1024 x 1024 at 8x and 32x alike. Its VAE (Wan's, AutoencoderKLQwenImage) reads its
# factor as 2 ** len(temperal_downsample): five levels, the two more not temporal.
# Edit Plus sizes its VAE images and output the same way (its Qwen2.5-VL condition
# images at 384 x 384 area, which no VAE factor reaches); Edit Inpaint its image, mask and
# output, whatever height and width it is given.
QWEN_EDIT_32X = _area_sized("image", "prompt")
# LongCat-Image: Flux's layout over Qwen2.5-VL states; its default size is Flux's
# hard-coded 128 x the factor (4096 px at 32x), so every call must state both sizes,
# which it uses as they are (latents of height // factor, packed 2x2).
VAE_32X_SIZED = Coarser(
    FACTOR * PATCH,
    f"a tiny VAE of {FACTOR}x (the real one is {REAL_FACTOR}x)",
    SHRINK**2,
    sizes_required=True,
)

# Krea 2 defaults to 1024 x 1024 in its __call__, reads its factor as 2 **
# len(temperal_downsample) of its Qwen-Image VAE and packs 2x2 latent patches itself (its
# pipeline's patch_size): the DiTs' rule as it is, with the Qwen VAE of five levels.
KREA2_32X = VAE_32X_ONLY

# SANA-Video (text- and image-to-video, on Wan 2.1's VAE) reads the VAE's
# `scale_factor_spatial` and `scale_factor_temporal`, sizes its latents as height //
# factor, and refuses a height or width that does not divide by 32 (check_inputs), which
# is 16x and its DiT's 2x2 patch: at 16x every size it accepts stays exact, with a
# quarter of the tokens (8,190 for 480x832x81, not 32,760). Its resolution binning reads
# the transformer's sample_size, which does not change. 32x would not divide 480.
SANA_VIDEO_16X = Coarser(
    WAN_VAE_FACTOR * PATCH,
    f"a tiny Wan VAE of {WAN_VAE_FACTOR}x (the real one is {REAL_FACTOR}x)",
    (WAN_VAE_FACTOR // REAL_FACTOR) ** 2,
    factor=WAN_VAE_FACTOR,
)

# Helios reads the same two factors from its Wan VAE, sizes latents and its history as
# height // factor (counted in latent frames: 9 a chunk), checks only height % 16, and
# pads its mid and long history to its (2, 4, 4) and (4, 8, 8) patches (what a 384x640
# frame's 48x80 latents never needed, its 12x20 ones do: replicate padding, as for any
# size not dividing). Its example passes the VAE it loads from the same repo (`vae=`,
# coarsen.py), which gets the coarse checkpoint's. 540 tokens a chunk, not 8,640.
WAN_T2V_80 = Coarser(
    WAN_COARSE_MULTIPLE,
    f"a tiny Wan VAE of {WAN_VAE_FACTOR}x (the real one is {REAL_FACTOR}x) and a DiT of "
    f"{WAN_COARSE_PATCH[1]}x{WAN_COARSE_PATCH[2]} patches (the real one's are {PATCH}x{PATCH})",
    (WAN_COARSE_MULTIPLE // (REAL_FACTOR * PATCH)) ** 2,  # 25
    # its default 480x832 does not divide by 80 (832 px would become 800): every call
    # must state both sizes
    sizes_required=True,
    factor=WAN_VAE_FACTOR,
)
WAN_I2V_FRAMES = Coarser(
    REAL_FACTOR * PATCH,  # = WAN_VAE_FACTOR x the 1x1 patch: what its sizes round to
    f"a tiny Wan VAE of {WAN_VAE_FACTOR}x (the real one is {REAL_FACTOR}x) and a DiT of "
    f"{'x'.join(map(str, WAN_I2V_PATCH))} patches (the real one's are 1x2x2)",
    WAN_I2V_PATCH[0],
    factor=WAN_VAE_FACTOR,
    frames_patch=WAN_I2V_PATCH[0],
    spatial_kept=True,
)
# SkyReels-V2 text-to-video reads its factors from the VAE's structure (2 **
# len(temperal_downsample), 2 ** sum(...)), checks only height % 16, reads no patch, and
# defaults to 544x960 and 97 frames: 16x and the 2x2 patch divide 544 and 960 (17x30
# tokens a latent frame, not 34x60), and 97 frames are 25 latent frames, 5 temporal
# patches of 5: 2,550 tokens a call, not 51,000
SKYREELS_T2V = Coarser(
    WAN_VAE_FACTOR * PATCH,
    f"a tiny Wan VAE of {WAN_VAE_FACTOR}x (the real one is {REAL_FACTOR}x) and a DiT of "
    f"{'x'.join(map(str, SKYREELS_PATCH))} patches (the real one's are 1x2x2)",
    (WAN_VAE_FACTOR // REAL_FACTOR) ** 2 * SKYREELS_PATCH[0],  # 20
    factor=WAN_VAE_FACTOR,
    frames_patch=SKYREELS_PATCH[0],
)
# SkyReels-V2 diffusion forcing reads its factors as SkyReels-V2 does; its DiT builds a
# dense block-causal mask over every token (51,000 at 544x960x97: 9.7 GiB as float),
# and gives each latent frame its own timestep, so its frames keep 1-frame patches: only
# the 16x VAE (12,750 tokens, a 0.6 GiB mask)
SKYREELS_DF_16X = Coarser(
    WAN_VAE_FACTOR * PATCH,
    f"a tiny Wan VAE of {WAN_VAE_FACTOR}x (the real one is {REAL_FACTOR}x)",
    (WAN_VAE_FACTOR // REAL_FACTOR) ** 2,
    factor=WAN_VAE_FACTOR,
)
HELIOS_32X = Coarser(
    WAN_VAE_32X_FACTOR * PATCH,
    f"a tiny Wan VAE of {WAN_VAE_32X_FACTOR}x (the real one is {REAL_FACTOR}x) and its "
    f"scheduler's token bases / {HELIOS_TOKEN_RATIO} (the same schedule shift)",
    HELIOS_TOKEN_RATIO,
    factor=WAN_VAE_32X_FACTOR,
)

# Bria FIBO 2 sizes its output as Kontext does (its hard-coded default 128 x the factor,
# or an area of that at an image's aspect ratio, rounded to factor x 2 = 16) and keeps
# its latents at 8x, unpacked: its transformer patchifies them by its own patch_size.
# With 8x8 patches the latents must divide by 8 (64 px), which 1024 x 1024 does: no size
# passed, and each image the runner's square picture (coarsen.py's area rule). The VAE,
# text encoder, scheduler and every module name stay the 8x stand-in's. (4x4 patches were
# not enough: its edit call's 30 steps of 2,048 image and context tokens through 41
# one-head blocks took about 3 s each at load 10, mostly in attention.)
BRIA_FIBO2_PATCHES = Coarser(
    REAL_FACTOR * BRIA_FIBO2_PATCH,
    f"a transformer of {BRIA_FIBO2_PATCH}x{BRIA_FIBO2_PATCH} latent patches (the real "
    f"one's are {PATCH}x{PATCH})",
    (BRIA_FIBO2_PATCH // PATCH) ** 2,
    area_sized=True,
    positional=("prompt", "image"),
    factor=REAL_FACTOR,  # its VAE stays 8x: the patches make the tokens fewer
)

# ModelScope / zeroscope text-to-video (TextToVideoSDPipeline) reads its factor as
# 2 ** (len(block_out_channels) - 1), takes its default size from the UNet's sample_size
# times it and checks only height % 8: the DiTs' rule, with the tiny UNet3D's own 2x
# downsampling for the patch. The zeroscope example's 320x576 is 10x18 latents at 32x
# (5x9 at the UNet's lowest level): 180 positions a frame for the spatial
# self-attention at its top level, not 2,880 (82 % of a UNet call at 8x, cProfile).
UNET3D_DOWNSAMPLING = 2 ** (len(cast(tuple[int, ...], video.UNET_3D["block_out_channels"])) - 1)
UNET3D_32X = Coarser(
    FACTOR * UNET3D_DOWNSAMPLING,
    f"a tiny VAE of {FACTOR}x (the real one is {REAL_FACTOR}x) and a UNet of "
    f"sample_size / {SHRINK}",
    SHRINK**2,
)

# Kandinsky 5 (text- and image-to-video) and Kandinsky 6 (text/image to video with
# audio) read `spatial_compression_ratio` and `temporal_compression_ratio` from their
# HunyuanVideo VAE's config, size their channels-last latents as height // factor, and
# place RoPE over height // factor // 2 (their DiTs' 1x2x2 patches); Kandinsky 5's
# resolution scale reads the pixel sizes, Kandinsky 6's check_inputs asks for multiples
# of factor x patch, and both default to sizes in their __call__. Kandinsky 5's 512x768
# divides by 64: 32x, 2,976 tokens a call for its 121 frames, not 47,616. Kandinsky 6's
# 480x864 divides by 32, not 64: 16x, 12,555 tokens, not 50,220. Time stays 4x (the
# HunyuanVideo decoder refuses any other ratio).
KANDINSKY_32X = Coarser(
    FACTOR * PATCH,
    f"a tiny HunyuanVideo VAE of {FACTOR}x (the real one is {REAL_FACTOR}x)",
    SHRINK**2,
)
KANDINSKY6_16X = Coarser(
    HUNYUAN_VAE_16X * PATCH,
    f"a tiny HunyuanVideo VAE of {HUNYUAN_VAE_16X}x (the real one is {REAL_FACTOR}x)",
    (HUNYUAN_VAE_16X // REAL_FACTOR) ** 2,
    factor=HUNYUAN_VAE_16X,
)

# HunyuanVideo text-to-video and FramePack read both factors from their HunyuanVideo
# VAE's config (pipeline_hunyuan_video.py:195-196, pipeline_hunyuan_video_framepack.py:
# 298-299), size their latents (FramePack: each section's and its history) as height //
# factor, check only height % 16, and their DiTs patchify the latents 2x2 (FramePack's
# 2x and 4x history embedders pad to their kernels): the examples' 320x512, 832x480 and
# 512x512 divide by 16x times the patch, so a 16x VAE makes 2,560 tokens a step at
# 320x512x61, not 10,240, and 3,510 a FramePack section step, not 14,040. The examples
# tile the VAE: the tiles are sized in pixels (256, stride 192) and a tiled decode returns
# latents x factor pixels whatever the tile. Their default, 720x1280, does not divide by
# 32: every call must state its sizes. Both load their DiT alone (the same stand-in).
HUNYUAN_VIDEO_16X = Coarser(
    HUNYUAN_VAE_16X * PATCH,
    f"a tiny HunyuanVideo VAE of {HUNYUAN_VAE_16X}x (the real one is {REAL_FACTOR}x)",
    (HUNYUAN_VAE_16X // REAL_FACTOR) ** 2,
    factor=HUNYUAN_VAE_16X,
    sizes_required=True,  # its default 720x1280 does not divide by 32
    tiling_allowed=True,
    kept_components=frozenset({"transformer"}),
)

# HunyuanImage 2.1 defaults to its hard-coded 64 x the VAE's factor (2048 px), so its
# factor stays 32; its DiT takes 2x2 patches instead of 1x1 (1,024 tokens at 2048 px, not
# 4,096), so sizes must divide by 64, as its pipeline's own check asks (factor x 2), and
# its VAE decodes with one resnet a level. Measured on one thread (CPU seconds, load 13):
# the 2048 px decode 13.0 s with one resnet a level (wall 44-93 s at load 10-13, which
# decided against it before).
HUNYUAN_IMAGE_PATCHES = Coarser(
    FACTOR * PATCH,
    f"a transformer of {PATCH}x{PATCH} latent patches (the real one's are 1x1) and a VAE of "
    "one resnet a decoder level",
    PATCH**2,
    real_factor=FACTOR,
)

# EasyAnimate (text-to-video and inpaint) checks height % 16 (its 8x VAE times the 2x2
# patch) and sizes its latents by the VAE's factor; its transformer patchifies them by its
# own patch_size, which the pipeline never reads. With 4x4 patches its sizes must divide by 32: its
# docstring's 448x576 (a tuple it binds once, passed as `height=sample_size[0]` and to
# diffusers' `get_image_to_video_latent` helper, which resizes its images to it) and its
# 512x512 default do. 13,104 tokens a call at 448x576x49 become 3,276 (the text-to-video
# docstring's 512x512x49, bound the same way: 13,312 become 3,328); the VAE, the text
# encoder and every module name stay the 8x stand-in's.
EASYANIMATE_PATCHES = Coarser(
    REAL_FACTOR * EASYANIMATE_PATCH,
    f"a transformer of {EASYANIMATE_PATCH}x{EASYANIMATE_PATCH} latent patches (the real "
    f"one's are {PATCH}x{PATCH})",
    (EASYANIMATE_PATCH // PATCH) ** 2,
    factor=REAL_FACTOR,  # its VAE stays 8x: the patches make the tokens fewer
    named_sizes=True,
    size_helpers=(("get_image_to_video_latent", 3),),
)

# LTX-2 (text- and image-to-video, DFR) reads its factors from the VAE
# (`vae.spatial_compression_ratio`), sizes its latents as height // factor and checks
# height % factor; its DiT's patches are 1x1. The LTX-2 VAE with 8x8 patches is 64x
# (recipes/ltx2.py): 768x512 and DFR's 1216x704 divide by it. Its tiled decode (the latent
# upsample example turns it on) has pixel tiles, so it returns latents x factor pixels.
LTX2_64X = Coarser(
    ltx2.COARSE_FACTOR,
    f"a tiny LTX-2 video VAE of {ltx2.COARSE_PATCH}x{ltx2.COARSE_PATCH} patches, "
    f"{ltx2.COARSE_FACTOR}x (the real one is 32x), and its scheduler's token bases / "
    f"{ltx2.TOKEN_RATIO} (the same schedule shift)",
    ltx2.TOKEN_RATIO,
    tiling_allowed=True,
    factor=ltx2.COARSE_FACTOR,
    real_factor=32,
)
# LTX-Video's condition pipeline reads the same attribute (its VAE's is patch_size x 2 **
# the scalings: 64 with 8x8 patches), and its schedule is a fixed linear-quadratic one:
# its example's 768x512 divides by 64 (96 tokens a latent frame, not 384). The
# text- and image-to-video examples' 480 px does not.
LTX_64X = Coarser(
    ltx2.COARSE_FACTOR,
    f"a tiny LTX-Video VAE of {ltx2.COARSE_PATCH}x{ltx2.COARSE_PATCH} patches, "
    f"{ltx2.COARSE_FACTOR}x (the real one is 32x)",
    ltx2.TOKEN_RATIO,
    factor=ltx2.COARSE_FACTOR,
    real_factor=32,
)
# Motif-Video (recipes/newimage.py, MOTIF_COARSE): a Wan VAE of 16x in space and 8x in
# time, and 2x2x2 DiT patches (the real: 8x, 4x, 1x2x2)
MOTIF_16X = Coarser(
    newimage.MOTIF_COARSE_FACTOR * PATCH,
    f"a tiny Wan VAE of {newimage.MOTIF_COARSE_FACTOR}x in space and "
    f"{newimage.MOTIF_COARSE_TIME}x in time (the real one is {REAL_FACTOR}x and 4x) and a "
    f"DiT of {newimage.MOTIF_COARSE_PATCH_T}x{PATCH}x{PATCH} patches (the real one's are "
    f"1x{PATCH}x{PATCH})",
    newimage.MOTIF_TOKEN_RATIO,
    factor=newimage.MOTIF_COARSE_FACTOR,
    frames_patch=newimage.MOTIF_COARSE_PATCH_T,
    frames_factor=newimage.MOTIF_COARSE_TIME,
)

# The pipelines with a coarse variant.
PIPELINES: dict[str, Coarser] = {
    **dict.fromkeys(ltx2.COARSE_PIPELINES, LTX2_64X),
    **dict.fromkeys(ltx2.LTX_COARSE_PIPELINES, LTX_64X),
    **dict.fromkeys(newimage.MOTIF_COARSE_PIPELINES, MOTIF_16X),
    "FluxKontextPipeline": KONTEXT_32X,
    "FluxKontextInpaintPipeline": KONTEXT_INPAINT_32X,
    "QwenImageEditPipeline": QWEN_EDIT_32X,
    "QwenImageEditPlusPipeline": QWEN_EDIT_32X,
    "QwenImageEditInpaintPipeline": QWEN_EDIT_32X,
    "Krea2Pipeline": KREA2_32X,
    "LongCatImagePipeline": VAE_32X_SIZED,
    "BriaFibo2Pipeline": BRIA_FIBO2_PATCHES,
    "AuraFlowPipeline": VAE_32X,
    "CogView3PlusPipeline": VAE_32X,
    "CogView4Pipeline": VAE_32X,
    "LattePipeline": VAE_32X,
    "Ideogram4Pipeline": VAE_32X_ONLY,
    "StableDiffusion3Pipeline": VAE_32X,
    "StableDiffusion3PAGPipeline": VAE_32X,
    "StableDiffusion3Img2ImgPipeline": VAE_32X,
    "StableDiffusion3PAGImg2ImgPipeline": VAE_32X,
    "StableDiffusion3ControlNetPipeline": VAE_32X,
    "StableDiffusionXLPipeline": UNET_32X,
    "AnimateDiffSDXLPipeline": UNET_32X,
    "SanaVideoPipeline": SANA_VIDEO_16X,
    "SanaImageToVideoPipeline": SANA_VIDEO_16X,
    "TextToVideoSDPipeline": UNET3D_32X,
    "Kandinsky5T2VPipeline": KANDINSKY_32X,
    "Kandinsky5I2VPipeline": KANDINSKY_32X,
    "Kandinsky6TI2VAPipeline": KANDINSKY6_16X,
    "HunyuanVideoPipeline": HUNYUAN_VIDEO_16X,
    "HunyuanVideoFramepackPipeline": HUNYUAN_VIDEO_16X,
    "HunyuanImagePipeline": HUNYUAN_IMAGE_PATCHES,
    "EasyAnimatePipeline": EASYANIMATE_PATCHES,
    "EasyAnimateInpaintPipeline": EASYANIMATE_PATCHES,
    "HeliosPipeline": HELIOS_32X,
    "WanPipeline": WAN_T2V_80,
    "WanImageToVideoPipeline": WAN_I2V_FRAMES,
    "SkyReelsV2Pipeline": SKYREELS_T2V,
    "SkyReelsV2DiffusionForcingPipeline": SKYREELS_DF_16X,
}
UNET_PIPELINES = tuple(name for name, coarser in PIPELINES.items() if coarser is UNET_32X)
SD3_PIPELINES = tuple(name for name in PIPELINES if name.startswith("StableDiffusion3"))

VARIANTS: tuple[tuple[str, str, str], ...] = (
    *(
        (rf"^{pipeline}@{VARIANT}$", "vae", "AutoencoderKL/coarse")
        for pipeline, coarser in PIPELINES.items()
        if coarser is VAE_32X and pipeline not in SD3_PIPELINES
    ),
    *(
        (rf"^{pipeline}@{VARIANT}$", "vae", "AutoencoderKL/sd3-coarse")
        for pipeline in SD3_PIPELINES
    ),
    # the PAG ones keep SD3 medium's 24 blocks (`pag_applied_layers=["blocks.13"]`)
    (
        rf"^StableDiffusion3PAG\w*Pipeline@{VARIANT}$",
        "transformer",
        "SD3Transformer2DModel/pag-coarse",
    ),
    (
        rf"^StableDiffusion3(Img2Img|ControlNet)?Pipeline@{VARIANT}$",
        "transformer",
        "SD3Transformer2DModel/coarse",
    ),
    *(
        (rf"^{pipeline}@{VARIANT}$", "vae", "AutoencoderKL/coarse-tiles")
        for pipeline in UNET_PIPELINES
    ),
    *(
        (rf"^{pipeline}@{VARIANT}$", "unet", "UNet2DConditionModel/sdxl-coarse")
        for pipeline in UNET_PIPELINES
    ),
    (rf"^FluxKontext(Inpaint)?Pipeline@{VARIANT}$", "vae", "AutoencoderKL/flow-coarse"),
    (rf"^LongCatImagePipeline@{VARIANT}$", "vae", "AutoencoderKL/longcat-coarse"),
    (
        rf"^(QwenImageEdit(Plus|Inpaint)?|Krea2)Pipeline@{VARIANT}$",
        "vae",
        "AutoencoderKLQwenImage/coarse",
    ),
    (rf"^Ideogram4Pipeline@{VARIANT}$", "vae", "AutoencoderKLFlux2/coarse"),
    (rf"^Sana(Video|ImageToVideo)Pipeline@{VARIANT}$", "vae", "AutoencoderKLWan/coarse"),
    (rf"^HeliosPipeline@{VARIANT}$", "vae", "AutoencoderKLWan/32x"),
    (rf"^WanPipeline@{VARIANT}$", "vae", "AutoencoderKLWan/coarse"),
    (rf"^WanPipeline@{VARIANT}$", "transformer", "WanTransformer3DModel/coarse"),
    (rf"^SkyReelsV2(DiffusionForcing)?Pipeline@{VARIANT}$", "vae", "AutoencoderKLWan/coarse"),
    (
        rf"^SkyReelsV2Pipeline@{VARIANT}$",
        "transformer",
        "SkyReelsV2Transformer3DModel/coarse",
    ),
    (rf"^WanImageToVideoPipeline@{VARIANT}$", "vae", "AutoencoderKLWan/coarse"),
    (
        rf"^WanImageToVideoPipeline@{VARIANT}$",
        "transformer",
        "WanTransformer3DModel/i2v-coarse",
    ),
    (rf"^HeliosPipeline@{VARIANT}$", "scheduler", "HeliosScheduler/coarse"),
    (rf"^LattePipeline@{VARIANT}$", "transformer", "LatteTransformer3DModel/coarse"),
    (rf"^TextToVideoSDPipeline@{VARIANT}$", "vae", "AutoencoderKL/coarse"),
    (rf"^TextToVideoSDPipeline@{VARIANT}$", "unet", "UNet3DConditionModel/coarse"),
    (rf"^Kandinsky5(T2V|I2V)Pipeline@{VARIANT}$", "vae", "AutoencoderKLHunyuanVideo/coarse"),
    (rf"^Kandinsky6TI2VAPipeline@{VARIANT}$", "vae", "AutoencoderKLHunyuanVideo/16x"),
    (
        rf"^HunyuanVideo(Framepack)?Pipeline@{VARIANT}$",
        "vae",
        "AutoencoderKLHunyuanVideo/16x",
    ),
    (
        rf"^HunyuanImagePipeline@{VARIANT}$",
        "transformer",
        "HunyuanImageTransformer2DModel/coarse",
    ),
    (rf"^HunyuanImagePipeline@{VARIANT}$", "vae", "AutoencoderKLHunyuanImage/coarse"),
    (rf"^BriaFibo2Pipeline@{VARIANT}$", "transformer", "BriaFibo2Transformer2DModel/coarse"),
    (
        rf"^EasyAnimateInpaintPipeline@{VARIANT}$",
        "transformer",
        "EasyAnimateTransformer3DModel/inpaint-coarse",
    ),
    (rf"^EasyAnimatePipeline@{VARIANT}$", "transformer", "EasyAnimateTransformer3DModel/coarse"),
    (rf"^AuraFlowPipeline@{VARIANT}$", "transformer", "AuraFlowTransformer2DModel/coarse"),
    (
        rf"^CogView3PlusPipeline@{VARIANT}$",
        "transformer",
        "CogView3PlusTransformer2DModel/coarse",
    ),
    (rf"^CogView4Pipeline@{VARIANT}$", "transformer", "CogView4Transformer2DModel/coarse"),
    (
        rf"^CogView4Pipeline@{VARIANT}$",
        "scheduler",
        "FlowMatchEulerDiscreteScheduler/cogview4-coarse",
    ),
)
