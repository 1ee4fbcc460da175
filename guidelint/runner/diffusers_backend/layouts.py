"""What a name-addressing API sees of a model, tiny or real, and how the two differ.

PAG (`pag_applied_layers`, matched with `re.search` against self-attention module
names), IP-Adapter and `set_attn_processor` (the keys of `attn_processors`), LoRA
(target modules by name) and `fuse_qkv_projections` all address attention modules
by their dotted names. `attention_layout(model)` is that view: each attention
module's name and its processor's class. `real_model_on_meta(key)` instantiates the
real checkpoint's layout on the `meta` device (no weights): the class's own default
config (diffusers' defaults are its flagship checkpoint's) with the structural keys
of the checkpoint the recipe stands for, from REAL_LAYOUTS, laid over it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The structural keys of the real checkpoints' config.json (block types and counts,
# attention placement, widths where the class defaults differ), by recipe key. A
# recipe not listed is compared with its class's defaults.
# stable-diffusion-v1-5/stable-diffusion-v1-5, unet/config.json
SD15_UNET: Mapping[str, Any] = {
    "block_out_channels": [320, 640, 1280, 1280],
    "down_block_types": ["CrossAttnDownBlock2D"] * 3 + ["DownBlock2D"],
    "up_block_types": ["UpBlock2D"] + ["CrossAttnUpBlock2D"] * 3,
    "layers_per_block": 2,
    "attention_head_dim": 8,
    "cross_attention_dim": 768,
}
# stabilityai/stable-diffusion-xl-base-1.0, unet/config.json
SDXL_UNET: Mapping[str, Any] = {
    "block_out_channels": [320, 640, 1280],
    "down_block_types": ["DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"],
    "up_block_types": ["CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"],
    "layers_per_block": 2,
    "transformer_layers_per_block": [1, 2, 10],
    "attention_head_dim": [5, 10, 20],
    "cross_attention_dim": 2048,
    "use_linear_projection": True,
    "addition_embed_type": "text_time",
    "addition_time_embed_dim": 256,
    "projection_class_embeddings_input_dim": 2816,
}
HUNYUAN_DIT_V12: Mapping[str, Any] = {
    "num_layers": 40,
    "hidden_size": 1408,
    "num_attention_heads": 16,
    "attention_head_dim": 88,
    "in_channels": 4,
    "patch_size": 2,
    "sample_size": 128,
    "cross_attention_dim": 1024,
    "cross_attention_dim_t5": 2048,
    "pooled_projection_dim": 1024,
    "text_len": 77,
    "text_len_t5": 256,
    "use_style_cond_and_image_meta_size": False,
}
COSMOS_IMAGE_CONTEXT: Mapping[str, Any] = {
    "img_context_dim_in": 32,
    "img_context_num_tokens": 4,
    "img_context_dim_out": 32,
}

# Wan-AI/Wan2.1-T2V-1.3B-Diffusers, transformer/config.json
WAN_T2V: Mapping[str, Any] = {
    "num_layers": 30,
    "num_attention_heads": 12,
    "attention_head_dim": 128,
    "ffn_dim": 8960,
    "cross_attn_norm": True,
    "qk_norm": "rms_norm_across_heads",
}
REAL_LAYOUTS: dict[str, Mapping[str, Any]] = {
    "UNet2DConditionModel": SD15_UNET,
    "UNet2DConditionModel/sdxl": SDXL_UNET,
    "UNet2DConditionModel/sdxl-coarse": SDXL_UNET,  # recipes/coarse.py: sample_size only
    # Kwai-Kolors/Kolors-diffusers, unet/config.json: SDXL's layout over ChatGLM states
    "UNet2DConditionModel/kolors": {
        "block_out_channels": [320, 640, 1280],
        "down_block_types": ["DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"],
        "up_block_types": ["CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"],
        "layers_per_block": 2,
        "transformer_layers_per_block": [1, 2, 10],
        "attention_head_dim": [5, 10, 20],
        "cross_attention_dim": 2048,
        "encoder_hid_dim": 4096,
        "encoder_hid_dim_type": "text_proj",
        "use_linear_projection": True,
        "addition_embed_type": "text_time",
        "addition_time_embed_dim": 256,
        "projection_class_embeddings_input_dim": 5632,
    },
    # black-forest-labs/FLUX.1-dev, transformer/config.json
    "FluxTransformer2DModel": {"num_layers": 19, "num_single_layers": 38, "guidance_embeds": True},
    "FluxTransformer2DModel/dev": {  # recipes/hubvariants.py: FLUX.1-dev's text widths
        "num_layers": 19,
        "num_single_layers": 38,
        "guidance_embeds": True,
    },
    # stabilityai/stable-diffusion-3-medium-diffusers, transformer/config.json
    "SD3Transformer2DModel": {"num_layers": 24, "sample_size": 128, "pos_embed_max_size": 192},
    "SD3Transformer2DModel/pag": {"num_layers": 24, "sample_size": 128, "pos_embed_max_size": 192},
    # recipes/coarse.py: the same models with sample_size / 4
    "SD3Transformer2DModel/coarse": {
        "num_layers": 24,
        "sample_size": 128,
        "pos_embed_max_size": 192,
    },
    "SD3Transformer2DModel/pag-coarse": {
        "num_layers": 24,
        "sample_size": 128,
        "pos_embed_max_size": 192,
    },
    # PixArt-alpha/PixArt-Sigma-XL-2-1024-MS, transformer/config.json
    "PixArtTransformer2DModel": {"num_layers": 28, "sample_size": 128},
    # Shitao/OmniGen-v1-diffusers, transformer/config.json: the class defaults but for
    # Phi-3's long-context RoPE factors, one of each per rotary pair of its 96-wide heads
    # (their values shape no module: ones here)
    "OmniGenTransformer2DModel": {
        "rope_scaling": {"type": "su", "short_factor": [1.0] * 48, "long_factor": [1.0] * 48}
    },
    "PixArtTransformer2DModel/pag": {"num_layers": 28, "sample_size": 128},
    # Tencent-Hunyuan/HunyuanDiT-v1.2-Diffusers, transformer/config.json (the class has no
    # complete defaults: in_channels and patch_size are None)
    "HunyuanDiT2DModel": HUNYUAN_DIT_V12,
    "HunyuanDiT2DModel/pag": HUNYUAN_DIT_V12,
    "HunyuanDiT2DControlNetModel": {
        **{k: v for k, v in HUNYUAN_DIT_V12.items() if k != "num_layers"},
        "transformer_num_layers": 40,
    },
    # GLIGEN (masterful/gligen-1-4-*, anhnct/Gligen_*): SD 1.4's UNet with gated attention
    **{
        f"UNet2DConditionModel/{name}": {**SD15_UNET, "attention_type": kind}
        for name, kind in (
            ("gligen", "gated"),
            ("gligen-inpaint", "gated"),
            ("gligen-text-image", "gated-text-image"),
            ("gligen-text-image-inpaint", "gated-text-image"),
        )
    },
    # SDXL-based checkpoints (instruct-pix2pix XL, ControlNet-XS XL, the T2I-Adapter XL
    # examples' base): the SDXL layout
    "UNet2DConditionModel/sdxl-pix2pix": SDXL_UNET,
    "UNet2DConditionModel/sdxl-xs": SDXL_UNET,
    "UNet2DConditionModel/sdxl-adapter": SDXL_UNET,
    # Cosmos 2.5 Transfer: its DiT and ControlNet carry an image context (the keys' presence
    # switches the cross-attention processor to CosmosAttnProcessor2_5; their values do not
    # change any name, so the recipe's are laid over the class defaults)
    "CosmosTransformer3DModel/transfer": COSMOS_IMAGE_CONTEXT,
    "CosmosControlNetModel": COSMOS_IMAGE_CONTEXT,
    # hlky/Z-Image-Turbo-Fun-Controlnet-Union*, config.json (the configs diffusers reads for
    # alibaba-pai's single files; diffusers PR #12792): 1.0 adds hints at 6 DiT layers from
    # the latents alone, 2.x at 15 from latents, mask and masked image (the class has no
    # complete defaults: control_layers_places is None)
    "ZImageControlNetModel": {
        "control_layers_places": [0, 5, 10, 15, 20, 25],
        "control_in_dim": 16,
    },
    **{
        f"ZImageControlNetModel/union-{release}": {
            "control_layers_places": list(range(0, 30, 2)),
            "control_refiner_layers_places": [0, 1],
            "control_in_dim": 33,
            "add_control_noise_refiner": kind,
        }
        for release, kind in (("2.0", "control_layers"), ("2.1", "control_noise_refiner"))
    },
    "WanTransformer3DModel": WAN_T2V,
    "WanTransformer3DModel/coarse": WAN_T2V,  # recipes/coarse.py: other patches only
}


@dataclass(frozen=True)
class LayoutDifference:
    """How a tiny model's attention layout differs from the real one's."""

    missing: tuple[str, ...]  # attention modules the real model has and the tiny lacks
    extra: tuple[str, ...]  # attention modules only the tiny has
    processors: tuple[str, ...]  # "name: tiny class != real class"

    def __bool__(self) -> bool:
        return bool(self.missing or self.extra or self.processors)

    def summary(self, limit: int = 3) -> str:
        parts = []
        for label, names in (
            ("missing", self.missing),
            ("extra", self.extra),
            ("processor", self.processors),
        ):
            if names:
                shown = ", ".join(names[:limit]) + (" ..." if len(names) > limit else "")
                parts.append(f"{len(names)} {label} ({shown})")
        return "; ".join(parts) or "same"


def attention_layout(model) -> dict[str, str]:
    """Attention module name -> its processor's class name (what name-addressing APIs see).

    Models with `attn_processors` (every diffusers model with attention) answer by it,
    whose keys are `<module name>.processor`; the suffix is dropped."""
    processors = getattr(model, "attn_processors", None)
    if processors is not None:
        return {
            name.removesuffix(".processor"): type(processor).__name__
            for name, processor in processors.items()
        }
    return {
        name: type(getattr(module, "processor", module)).__name__
        for name, module in model.named_modules()
        if type(module).__name__ in ("Attention", "AttnProcessor") or hasattr(module, "processor")
    }


def compare(tiny: Mapping[str, str], real: Mapping[str, str]) -> LayoutDifference:
    shared = sorted(set(tiny) & set(real))
    return LayoutDifference(
        missing=tuple(sorted(set(real) - set(tiny))),
        extra=tuple(sorted(set(tiny) - set(real))),
        processors=tuple(f"{n}: {tiny[n]} != {real[n]}" for n in shared if tiny[n] != real[n]),
    )


def real_model_on_meta(recipe_key: str, class_name: str):
    """The real checkpoint's layout of `class_name` on the meta device (no weights)."""
    import torch

    from guidelint.runner.diffusers_backend.generic import library_class

    cls = library_class(class_name)
    config = dict(REAL_LAYOUTS.get(recipe_key, {}))
    with torch.device("meta"):
        return cls.from_config(config) if config else cls()


def tiny_model_on_meta(class_name: str, config: Mapping[str, Any]):
    """The tiny recipe's model on the meta device: its layout, without building weights."""
    import torch

    from guidelint.runner.diffusers_backend.generic import library_class

    cls = library_class(class_name)
    with torch.device("meta"):
        return cls.from_config(dict(config))


def shape(name: str) -> str:
    """A module name with its indices blanked: `down_blocks.#.attentions.#.attn1`. Two
    names of one shape differ only in which repeat of a block they are."""
    return ".".join("#" if part.isdigit() else part for part in name.split("."))


def kinds_missing(difference: LayoutDifference, tiny: Mapping[str, str]) -> tuple[str, ...]:
    """Shapes of the real model's attention modules of which the tiny has none: a kind
    of attention left out, not fewer repeats of one it has."""
    have = {shape(name) for name in tiny}
    return tuple(sorted({shape(name) for name in difference.missing} - have))


# Where a tiny model knowingly differs from the real layout in what a name-addressing API
# sees (an attention kind left out, attention where the real model has none), and why.
# Fewer repeats of a block the tiny has (1 of Flux's 19 double blocks) are not listed:
# tiny means few layers; the PAG stand-ins, whose examples name a block by its index,
# keep the real count (`*/pag` recipes). tests/diffusers/test_diffusers_layouts.py fails on any
# difference not listed here, and on a listed one that no longer differs.
VAE_ATTENTION = (
    "its mid-block attention is left out: attention over every latent pixel (64x64 at "
    "512 px, 128x128 at 1024 px) costs more than the rest of a tiny run"
)
NO_UNET_ATTENTION = (
    "no attention: its examples make 1000 (RePaint: 2,410) UNet calls, and the one-level "
    "UNet already costs 33-90 ms a call (recipes/slow.py)"
)
SD_PLACEMENT = (
    "three levels with attention at the lowest only, mirrored in up_blocks.0, where SD's "
    "four levels have none in up_blocks.0 and attention in the first three: SD's own "
    "placement measured 2.7 s a UNet call at 512 px against 0.045 s (60x), which a "
    "50-step example cannot pay in 60 s"
)
NOT_RECORDED = (
    "the class defaults are another checkpoint's layout and this one's is not recorded "
    "in REAL_LAYOUTS yet"
)
LAYOUT_GAPS: dict[str, str] = {
    **dict.fromkeys(
        (
            "AutoencoderKL",
            "AutoencoderKL/flow",
            "AutoencoderKL/coarse",  # six levels, not four (recipes/coarse.py): no attention
            "AutoencoderKL/coarse-tiles",
            "AutoencoderKL/sd3-coarse",
            "AutoencoderKL/flow-coarse",
            "AutoencoderKL/longcat-coarse",
            "AutoencoderKL/longcat",
            "AutoencoderKL/bria",
            "AutoencoderKL/ldm3d",
            "AutoencoderKL/sd3",
            "AutoencoderKL/x4-upscaler",
            "AutoencoderKLFlux2",
            "AutoencoderKLFlux2/coarse",  # six levels (recipes/coarse.py)
            "AutoencoderKLHunyuanVideo",
            "AutoencoderKLHunyuanVideo/coarse",  # more spatial levels (recipes/coarse.py)
            "AutoencoderKLHunyuanVideo/16x",
            "AutoencoderKLMochi",
            "VQModel",
            "VQModel/amused",
            "VQModel/ldm",
            "VQModel/ldm-sr",
        ),
        VAE_ATTENTION,
    ),
    **dict.fromkeys(
        ("UNet2DModel", "UNet2DModel/ldm-sr", "UNet2DModel/repaint", "UNet2DModel/audio-diffusion"),
        NO_UNET_ATTENTION,
    ),
    **dict.fromkeys(
        (
            "UNet2DConditionModel",
            "UNet2DConditionModel/inpaint",
            "UNet2DConditionModel/lcm",
            "UNet2DConditionModel/pix2pix",
            "UNet2DConditionModel/image-variation",
            "UNet2DConditionModel/unclip",
            "UNet2DConditionModel/xs",
            "UNet2DConditionModel/depth",
            "UNet2DConditionModel/paint-by-example",
            "UNet2DConditionModel/versatile",
            "UNet2DConditionModel/sd-64",
            "UNet2DConditionModel/x4-upscaler",
            "UNet2DConditionModel/marigold",
            "UNet2DConditionModel/marigold-appearance",
            "UNet2DConditionModel/audioldm",
            "UNet2DConditionModel/gligen",
            "UNet2DConditionModel/gligen-inpaint",
            "UNet2DConditionModel/gligen-text-image",
            "UNet2DConditionModel/gligen-text-image-inpaint",
            "UNetFlatConditionModel",
        ),
        SD_PLACEMENT,
    ),
    **dict.fromkeys(
        (
            "UNet2DConditionModel/kandinsky",
            "UNet2DConditionModel/kandinsky-inpaint",
            "UNet2DConditionModel/kandinsky21",
            "UNet2DConditionModel/kandinsky21-inpaint",
            "UNet2DConditionModel/kandinsky-hint",
            "UNet2DConditionModel/latent-upscaler",
            "UNet2DConditionModel/if",
            "UNet2DConditionModel/if-upscale",
            "AudioLDM2UNet2DConditionModel",
            "ZImageTransformer2DModel/omni",
        ),
        NOT_RECORDED,
    ),
}
# Classes whose defaults do not construct (required arguments, None widths): compared only
# where REAL_LAYOUTS records their checkpoint's layout.
NO_DEFAULTS = (
    "the class has no complete default config and REAL_LAYOUTS does not record this "
    "checkpoint's layout yet"
)
