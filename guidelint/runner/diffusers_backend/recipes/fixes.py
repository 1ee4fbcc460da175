"""Recipes of UNet-era pipelines whose tiny stand-ins needed a second look: upscalers,
SDXL variants, DeepFloyd IF stages, and the PAG and attention-map pipelines that name
a block or a resolution of the real model.

The same tables as every area (see recipes/__init__.py); tiny_table.py merges them
with the shared ones, and a key defined twice is an error at import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from guidelint.runner.diffusers_backend.recipes import classic
from guidelint.runner.diffusers_backend.recipes.image import HUNYUAN_DIT
from guidelint.runner.diffusers_backend.recipes.parts import (
    DDPM_UNET,
    SD_UNET,
    SDXL_TIME,
    VAE_KL,
    Dim,
    Recipe,
)

SDXL_UNET = {  # the shared table's SDXL UNet ("UNet2DConditionModel/sdxl")
    **SD_UNET,
    "cross_attention_dim": Dim("text", times=2),
    "use_linear_projection": True,
    "addition_embed_type": "text_time",
    "addition_time_embed_dim": SDXL_TIME,
    "projection_class_embeddings_input_dim": Dim("proj", plus=6 * SDXL_TIME),
    "attention_head_dim": 1,
}
FIRST_BLOCK_WIDTH = cast(tuple[int, ...], SD_UNET["block_out_channels"])[0]
UNET_ONLY = ("up_block_types", "out_channels", "sample_size")  # what a ControlNet lacks
HUNYUAN_DIT_BLOCKS = 40  # HunyuanDiT v1.2's depth

# The x4 upscaler's VAE has three levels (4x, not 8x) and its own latent scale; its UNet
# sees the noised low-res image beside the latents and embeds the noise level as a class.
X4_VAE = {
    **VAE_KL,
    "block_out_channels": (4, 4, 4),
    "down_block_types": ("DownEncoderBlock2D",) * 3,
    "up_block_types": ("UpDecoderBlock2D",) * 3,
    "scaling_factor": 0.08333,
}
X4_MAX_NOISE_LEVEL = 350  # model_index.json's max_noise_level
X4_UNET = {
    **SD_UNET,
    "in_channels": Dim("latent", plus=3),
    "num_class_embeds": 1000,  # a noise level per training timestep
    "use_linear_projection": True,
}
# sd-x2-latent-upscaler: a k-diffusion UNet (K blocks, Fourier time embedding, no mid
# block) over the latents and the 2x-interpolated low-res latents; it is conditioned on a
# 128-wide noise-level embedding and CLIP's pooled output, and predicts one channel more.
LATENT_UPSCALER_UNET = {
    "act_fn": "gelu",
    "attention_head_dim": 8,
    "norm_num_groups": None,
    "block_out_channels": (32, 32, 64, 64),
    "time_cond_proj_dim": Dim("text", plus=128),
    "conv_in_kernel": 1,
    "conv_out_kernel": 1,
    "cross_attention_dim": Dim("text"),
    "down_block_types": ("KDownBlock2D",) + ("KCrossAttnDownBlock2D",) * 3,
    "up_block_types": ("KCrossAttnUpBlock2D",) * 3 + ("KUpBlock2D",),
    "in_channels": Dim("latent", times=2),
    "out_channels": Dim("latent", plus=1),
    "mid_block_type": None,
    "only_cross_attention": False,
    "resnet_time_scale_shift": "scale_shift",
    "time_embedding_type": "fourier",
    "timestep_post_act": "gelu",
}
# ldm-super-resolution-4x-openimages: a 4x VQ-VAE of 3 latent channels; the UNet sees the
# low-res image (3 channels) beside them
# ldm-celebahq-256's VQ-VAE (classic's), one level shorter: 4x, not 8x
LDM_SR_VQ = {
    **classic.RECIPES["VQModel/ldm"].config,
    "block_out_channels": (4, 4, 4),
    "down_block_types": ("DownEncoderBlock2D",) * 3,
    "up_block_types": ("UpDecoderBlock2D",) * 3,
}
LDM_SR_UNET = {**DDPM_UNET, "sample_size": 32, "in_channels": 6}  # low-res image beside noise

RECIPES: dict[str, Recipe] = {
    # sdxl-instructpix2pix-768: the source image's latents beside the noise (8 channels)
    "UNet2DConditionModel/sdxl-pix2pix": Recipe(
        "model", {**SDXL_UNET, "in_channels": Dim("latent", times=2)}, builds="UNet2DConditionModel"
    ),
    # Attend-and-Excite reads the cross-attention maps at 16x16 (its attn_res), the lowest
    # level of SD's UNet at its own sample size (64 latent pixels, 512 px)
    "UNet2DConditionModel/sd-64": Recipe(
        "model", {**SD_UNET, "sample_size": 64}, builds="UNet2DConditionModel"
    ),
    # PAG examples name the block they perturb (`pag_applied_layers=[14]`): the stand-in
    # keeps the real model's block count, so that block exists
    "HunyuanDiT2DModel/pag": Recipe(
        "model", {**HUNYUAN_DIT, "num_layers": HUNYUAN_DIT_BLOCKS}, builds="HunyuanDiT2DModel"
    ),
    # ControlNet-Union (xinsir's promax): SDXL's down path and one condition embedding for
    # all control types, fused by a small transformer as wide as the first block (its
    # from_unet keeps that width at 320, SDXL's): built from the widths, not from_unet
    "ControlNetUnionModel": Recipe(
        "model",
        {
            **{k: v for k, v in SDXL_UNET.items() if k not in UNET_ONLY},
            "conditioning_embedding_out_channels": (2, 2, 2, 2),  # 8x down
            "num_control_type": 8,  # promax's: openpose ... tile (6), inpaint (7)
            "num_trans_channel": FIRST_BLOCK_WIDTH,
            "num_proj_channel": FIRST_BLOCK_WIDTH,
            "num_trans_head": 2,
            "num_trans_layer": 1,
        },
    ),
    "AutoencoderKL/x4-upscaler": Recipe(
        "model", X4_VAE, builds="AutoencoderKL", provides={"latent": "latent_channels"}
    ),
    "UNet2DConditionModel/x4-upscaler": Recipe("model", X4_UNET, builds="UNet2DConditionModel"),
    "DDIMScheduler/x4-upscaler": Recipe(  # it predicts v, as SD 2
        "scheduler", {"prediction_type": "v_prediction"}, builds="DDIMScheduler"
    ),
    "UNet2DConditionModel/latent-upscaler": Recipe(
        "model", LATENT_UPSCALER_UNET, builds="UNet2DConditionModel"
    ),
    "EulerDiscreteScheduler/latent-upscaler": Recipe(  # the UNet predicts the sample
        "scheduler", {"prediction_type": "sample"}, builds="EulerDiscreteScheduler"
    ),
    "VQModel/ldm-sr": Recipe("model", LDM_SR_VQ, builds="VQModel"),
    "UNet2DModel/ldm-sr": Recipe("model", LDM_SR_UNET, builds="UNet2DModel"),
    # DeepFloyd IF's stage II checkpoints ship it (a 62x62 RGBA mark, no config)
    "IFWatermarker": Recipe(
        "model", builds="diffusers.pipelines.deepfloyd_if.watermark.IFWatermarker"
    ),
}

# (pipeline class pattern, slot, recipe): tried before the shared variants.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    (r"^StableDiffusionXLInstructPix2Pix", "unet", "UNet2DConditionModel/sdxl-pix2pix"),
    (r"^StableDiffusionAttendAndExcite", "unet", "UNet2DConditionModel/sd-64"),
    (r"^HunyuanDiTPAG", "transformer", "HunyuanDiT2DModel/pag"),
    (r"^StableDiffusionUpscale", "vae", "AutoencoderKL/x4-upscaler"),
    (r"^StableDiffusionUpscale", "unet", "UNet2DConditionModel/x4-upscaler"),
    (r"^StableDiffusionUpscale", "scheduler", "DDIMScheduler/x4-upscaler"),
    (r"^StableDiffusionLatentUpscale", "unet", "UNet2DConditionModel/latent-upscaler"),
    (r"^StableDiffusionLatentUpscale", "scheduler", "EulerDiscreteScheduler/latent-upscaler"),
    (r"^LDMSuperResolution", "vqvae", "VQModel/ldm-sr"),
    (r"^LDMSuperResolution", "unet", "UNet2DModel/ldm-sr"),
)


PIPELINE_ARGUMENTS: tuple[tuple[str, Mapping[str, Any]], ...] = (
    (r"^StableDiffusionUpscale", {"max_noise_level": X4_MAX_NOISE_LEVEL}),
)
