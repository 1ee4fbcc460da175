"""Recipes of checkpoints that one pipeline class holds in several layouts, told apart by
hub id (or subfolder): GLIGEN's inpainting and generation checkpoints, the SDXL
T2I-Adapters' conditioning inputs, FLUX.1-dev's real text widths, the Z-Image ControlNets'
three releases.

The same tables as every area (see recipes/__init__.py). A known hub id names its
variant in known_models.toml ([variants]); VARIANTS rows whose pattern holds an "@"
match "PipelineClass@variant" and win over the class's own rows (tiny_table.recipe_name),
and the variant enters the checkpoint's folder name (generic.Plan.key). An id the
table does not name is planned by its class alone, as before.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.recipes import llm
from guidelint.runner.diffusers_backend.recipes.parts import (
    CLIP_TEXT,
    CLIP_TEXT_PROVIDES,
    CLIP_VISION,
    FLUX,
    FLUX1_CLIP_WIDTH,
    FLUX1_T5_WIDTH,
    SD_UNET,
    T5,
    Dim,
    Recipe,
)

# GLIGEN: gated self-attention over grounding tokens, made by a position net from each
# phrase's CLIP pooled text feature (and, for text-image, a projected CLIP image feature)
# and its box; the position net's input width is the cross-attention width.
GLIGEN_UNET = {**SD_UNET, "attention_type": "gated"}
# the inpainting checkpoints also see the masked image's latents and the mask (4 + 4 + 1)
INPAINT_CHANNELS = Dim("latent", times=2, plus=1)

# SDXL's UNet as its real layout has it: a plain first level, attention in the other two.
# A T2I-Adapter-XL's features are added after the plain block's downsampling and inside
# the attention blocks (before theirs), so its two middle maps share a resolution.
SDXL_ADAPTER_UNET_BLOCKS = {
    "down_block_types": ("DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"),
    "up_block_types": ("CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"),
}
# full_adapter_xl: one map per UNet level and one for the mid block (320, 640, 1280, 1280
# in the real ones), a 16x pixel unshuffle and one downsampling block: 1/16 and 1/32.
UNET_WIDTHS: tuple[int, ...] = (4, 4, 8)  # SD_UNET's block_out_channels
SDXL_ADAPTER = {
    "in_channels": 3,
    "channels": (*UNET_WIDTHS, UNET_WIDTHS[-1]),
    "num_res_blocks": 1,
    "downscale_factor": 16,
    "adapter_type": "full_adapter_xl",
}

# FLUX.1-dev as FluxPipeline loads it: T5-XXL's and CLIP-L's widths (what the transformer's
# context and pooled-text embedders read), the guidance embedding of a guidance-distilled
# model; depth, heads and the latent side stay tiny. FluxPriorReduxPipeline's output (4096-
# and 768-wide embeddings) is read by this one; the shared tiny FLUX.1 reads 32 and 32.
# CLIP-L: 12 heads of 64, its projection as wide as its states; T5's other sizes stay tiny.
CLIP_L_TEXT = {
    **CLIP_TEXT,
    "hidden_size": FLUX1_CLIP_WIDTH,
    "projection_dim": FLUX1_CLIP_WIDTH,
    "num_attention_heads": 12,
}
T5_XXL = {**T5, "d_model": FLUX1_T5_WIDTH}
FLUX1_DEV = {**FLUX, "guidance_embeds": True}

# Z-Image-Turbo-Fun-Controlnet-Union: control blocks beside Z-Image's DiT, which lends them
# its embedders and refiners (ZImageControlNetModel.from_transformer), so width, heads and
# refiner depth are the DiT's. The control blocks keep the real places (hints for the DiT
# layers 0..29 of Z-Image-Turbo; the tiny DiT has fewer layers and adds the hints it has a
# layer for), so the real module names and the keys diffusers' single-file detection reads
# (control_layers.14 for 2.x) are there. hlky/Z-Image-Turbo-Fun-Controlnet-Union* hold the
# configs from_single_file reads; 1.0: 6 places, the latents alone (control_in_dim 16 in
# the real one); 2.0 and 2.1: 15 places, latents + mask + masked image's latents (33), two
# refiner blocks, run as extra control layers (2.0) or as the control noise refiner (2.1).
# The ControlNet pipelines' DiT is Z-Image's with one head of 16 (its RoPE axes unchanged):
# the control blocks attend over every image and caption token as the DiT does, 17 of them
# in 2.x beside its one layer, and a call's cost is that attention (the inpainting example:
# 1728x992 px, 6,696 image tokens, 25 steps).
Z_IMAGE_DIT = {
    **llm.RECIPES["ZImageTransformer2DModel"].config,
    "dim": 16,
    "n_heads": 1,
    "n_kv_heads": 1,
}
Z_IMAGE_CONTROL_SHARED = {
    key: Z_IMAGE_DIT[key]
    for key in ("all_patch_size", "all_f_patch_size", "dim", "n_heads", "n_kv_heads")
}
Z_IMAGE_CONTROL_1 = {
    **Z_IMAGE_CONTROL_SHARED,
    "control_layers_places": (0, 5, 10, 15, 20, 25),
    "control_in_dim": Dim("latent"),
    "n_refiner_layers": Z_IMAGE_DIT["n_refiner_layers"],
}
Z_IMAGE_CONTROL_2 = {
    **Z_IMAGE_CONTROL_SHARED,
    "control_layers_places": tuple(range(0, 30, 2)),
    "control_refiner_layers_places": (0, 1),
    "control_in_dim": INPAINT_CHANNELS,
    "n_refiner_layers": 2,
}

RECIPES: dict[str, Recipe] = {
    "CLIPTextModel/clip-l": Recipe(
        "model", CLIP_L_TEXT, builds="CLIPTextModel", provides=CLIP_TEXT_PROVIDES
    ),
    "T5EncoderModel/xxl": Recipe(
        "model", T5_XXL, builds="T5EncoderModel", provides={"t5": "d_model"}
    ),
    "FluxTransformer2DModel/dev": Recipe("model", FLUX1_DEV, builds="FluxTransformer2DModel"),
    "ZImageTransformer2DModel/control": Recipe(
        "model", Z_IMAGE_DIT, builds="ZImageTransformer2DModel"
    ),
    "ZImageControlNetModel": Recipe("model", Z_IMAGE_CONTROL_1),
    "ZImageControlNetModel/union-2.0": Recipe(
        "model",
        {**Z_IMAGE_CONTROL_2, "add_control_noise_refiner": "control_layers"},
        builds="ZImageControlNetModel",
    ),
    "ZImageControlNetModel/union-2.1": Recipe(
        "model",
        {**Z_IMAGE_CONTROL_2, "add_control_noise_refiner": "control_noise_refiner"},
        builds="ZImageControlNetModel",
    ),
    "UNet2DConditionModel/gligen": Recipe("model", GLIGEN_UNET, builds="UNet2DConditionModel"),
    "UNet2DConditionModel/gligen-inpaint": Recipe(
        "model", {**GLIGEN_UNET, "in_channels": INPAINT_CHANNELS}, builds="UNet2DConditionModel"
    ),
    "UNet2DConditionModel/gligen-text-image": Recipe(
        "model",
        {**GLIGEN_UNET, "attention_type": "gated-text-image"},
        builds="UNet2DConditionModel",
    ),
    "UNet2DConditionModel/gligen-text-image-inpaint": Recipe(
        "model",
        {**GLIGEN_UNET, "attention_type": "gated-text-image", "in_channels": INPAINT_CHANNELS},
        builds="UNet2DConditionModel",
    ),
    # the image feature is projected (square) into the text feature's space: CLIP ViT-L/14's
    # 768-wide image embeds beside its 768-wide text encoder in the real checkpoints
    "CLIPVisionModelWithProjection/gligen": Recipe(
        "model",
        {**CLIP_VISION, "projection_dim": Dim("text")},
        builds="CLIPVisionModelWithProjection",
        provides={"image": "projection_dim"},
    ),
    "CLIPImageProjection": Recipe("model", {"hidden_size": Dim("image")}),
    "UNet2DConditionModel/sdxl-adapter": Recipe(
        "model",
        {
            **SD_UNET,
            "block_out_channels": UNET_WIDTHS,
            **SDXL_ADAPTER_UNET_BLOCKS,
            "cross_attention_dim": Dim("text", times=2),  # as UNet2DConditionModel/sdxl
            "use_linear_projection": True,
            "addition_embed_type": "text_time",
            "addition_time_embed_dim": 8,
            "projection_class_embeddings_input_dim": Dim("proj", plus=6 * 8),
        },
        builds="UNet2DConditionModel",
    ),
    "T2IAdapter/sdxl": Recipe("model", SDXL_ADAPTER, builds="T2IAdapter"),
    # the sketch adapter reads a one-channel image (its example's .convert("L"))
    "T2IAdapter/sdxl-gray": Recipe(
        "model", {**SDXL_ADAPTER, "in_channels": 1}, builds="T2IAdapter"
    ),
}

ZIMAGE_CONTROL_PIPELINES = r"^ZImageControlNet(Inpaint)?Pipeline"

# (pipeline class pattern, slot, recipe); "Class@variant" rows are a known hub id's.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^StableDiffusionGLIGENPipeline@inpaint$", "unet", "UNet2DConditionModel/gligen-inpaint"),
    (
        r"^StableDiffusionGLIGENTextImagePipeline@inpaint$",
        "unet",
        "UNet2DConditionModel/gligen-text-image-inpaint",
    ),
    (r"^StableDiffusionGLIGENPipeline$", "unet", "UNet2DConditionModel/gligen"),
    (r"^StableDiffusionGLIGENTextImagePipeline$", "unet", "UNet2DConditionModel/gligen-text-image"),
    (
        r"^StableDiffusionGLIGENTextImagePipeline$",
        "image_encoder",
        "CLIPVisionModelWithProjection/gligen",
    ),
    (r"^StableDiffusionXLAdapterPipeline@gray$", "adapter", "T2IAdapter/sdxl-gray"),
    (r"^StableDiffusionXLAdapterPipeline$", "adapter", "T2IAdapter/sdxl"),
    (r"^StableDiffusionXLAdapterPipeline$", "unet", "UNet2DConditionModel/sdxl-adapter"),
    (r"^FluxPipeline@dev$", "text_encoder", "CLIPTextModel/clip-l"),
    (r"^FluxPipeline@dev$", "text_encoder_2", "T5EncoderModel/xxl"),
    (r"^FluxPipeline@dev$", "transformer", "FluxTransformer2DModel/dev"),
    # Z-Image ControlNet: 1.0 by default, the 2.x releases by hlky's config repos; the
    # inpainting pipeline refuses 1.0 (its control input is the latents alone)
    (ZIMAGE_CONTROL_PIPELINES + r"@union-2.0$", "controlnet", "ZImageControlNetModel/union-2.0"),
    (ZIMAGE_CONTROL_PIPELINES + r"@union-2.1$", "controlnet", "ZImageControlNetModel/union-2.1"),
    (r"^ZImageControlNetInpaintPipeline$", "controlnet", "ZImageControlNetModel/union-2.1"),
    (r"^ZImageControlNet", "transformer", "ZImageTransformer2DModel/control"),
)

# Z-Image's control blocks start their projections at zero (zero_module), which trained
# weights are not: 2.1's control_noise_refiner.0.before_proj is what diffusers' single-file
# detection reads to tell 2.1 (non-zero) from 2.0, and all-zero projections would make
# every hint zero. Seeded, as a trained checkpoint's are filled.
EMPTY_PARAMETERS: dict[str, tuple[str, ...]] = {
    "ZImageControlTransformerBlock": (
        "before_proj.weight",
        "before_proj.bias",
        "after_proj.weight",
        "after_proj.bias",
    ),
}
