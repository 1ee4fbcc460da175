"""Tiny, seeded models and pipelines; each family's `build_*` returns a pipeline to save.

Shapes follow docs/DIFFUSERS.md: the VAE keeps a scale factor of 8 (four blocks) so
height/width, image sizes and ControlNet conditioning behave as with the real models.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.family_tokenizers import build_clip_tokenizer, special_ids

SEED = 0
TEXT_WIDTH = 32  # hidden size of each tiny CLIP text encoder
# Three levels, attention only at the lowest resolution: a 512x512 image (64x64 latent)
# then costs a tenth of what attention over 32x32 tokens would.
SD_BLOCKS = (4, 4, 8)
DOWN_BLOCKS = ("DownBlock2D", "DownBlock2D", "CrossAttnDownBlock2D")
UP_BLOCKS = ("CrossAttnUpBlock2D", "UpBlock2D", "UpBlock2D")


def _seeded():
    import torch

    torch.manual_seed(SEED)


def text_encoder(with_projection: bool = False):
    from transformers import CLIPTextConfig, CLIPTextModel, CLIPTextModelWithProjection

    config = CLIPTextConfig(
        hidden_size=TEXT_WIDTH,
        intermediate_size=37,
        num_attention_heads=4,
        num_hidden_layers=2,
        projection_dim=32,
        max_position_embeddings=77,
        hidden_act="gelu",
        **special_ids(),
    )
    _seeded()
    model_class = CLIPTextModelWithProjection if with_projection else CLIPTextModel
    return model_class(config)


def vae():
    from diffusers import AutoencoderKL

    _seeded()
    return AutoencoderKL(
        block_out_channels=(4, 4, 4, 4),
        down_block_types=("DownEncoderBlock2D",) * 4,
        up_block_types=("UpDecoderBlock2D",) * 4,
        latent_channels=4,
        norm_num_groups=2,
        sample_size=64,
        # attention over a 64x64 latent costs more than the rest of a tiny run; the
        # interface (encode, decode, scale factor) is what examples depend on
        mid_block_add_attention=False,
    )


def sd_unet(in_channels: int = 4):
    from diffusers import UNet2DConditionModel

    _seeded()
    return UNet2DConditionModel(
        block_out_channels=SD_BLOCKS,
        layers_per_block=1,
        sample_size=8,
        in_channels=in_channels,
        out_channels=4,
        down_block_types=DOWN_BLOCKS,
        up_block_types=UP_BLOCKS,
        cross_attention_dim=TEXT_WIDTH,
        attention_head_dim=2,
        norm_num_groups=2,
    )


def sdxl_unet():
    from diffusers import UNet2DConditionModel

    time_dim = 8
    _seeded()
    return UNet2DConditionModel(
        block_out_channels=SD_BLOCKS,
        layers_per_block=1,
        sample_size=8,
        in_channels=4,
        out_channels=4,
        down_block_types=DOWN_BLOCKS,
        up_block_types=UP_BLOCKS,
        cross_attention_dim=2 * TEXT_WIDTH,  # both text encoders' hidden states, concatenated
        attention_head_dim=2,
        norm_num_groups=2,
        use_linear_projection=True,
        addition_embed_type="text_time",
        addition_time_embed_dim=time_dim,
        # six micro-conditioning numbers, plus the second encoder's pooled projection
        projection_class_embeddings_input_dim=6 * time_dim + 32,
    )


def controlnet_from(unet):
    from diffusers import ControlNetModel

    _seeded()
    # four stages: three stride-2 convolutions bring the condition image down 8x; two
    # channels each, as the embedding runs on the full-size image at every step
    return ControlNetModel.from_unet(unet, conditioning_embedding_out_channels=(2, 2, 2, 2))


def build_ddpm():
    from diffusers import DDPMPipeline, DDPMScheduler

    return DDPMPipeline(unet=_pixel_unet(), scheduler=DDPMScheduler(num_train_timesteps=1000))


def build_ddim():
    from diffusers import DDIMPipeline, DDIMScheduler

    return DDIMPipeline(unet=_pixel_unet(), scheduler=DDIMScheduler(num_train_timesteps=1000))


def _pixel_unet():
    from diffusers import UNet2DModel

    _seeded()
    # one level, no attention: DDPM's default is 1000 steps and each step pays per op
    return UNet2DModel(
        block_out_channels=(8,),
        layers_per_block=1,
        sample_size=16,
        in_channels=3,
        out_channels=3,
        down_block_types=("DownBlock2D",),
        up_block_types=("UpBlock2D",),
        add_attention=False,
        norm_num_groups=2,
    )


def _sd_scheduler():
    from diffusers import PNDMScheduler

    # what stable-diffusion-v1-5 ships
    return PNDMScheduler(
        beta_start=0.00085,
        beta_end=0.012,
        beta_schedule="scaled_linear",
        skip_prk_steps=True,
        steps_offset=1,
    )


def _sd_parts(unet) -> dict:
    return {
        "unet": unet,
        "vae": vae(),
        "text_encoder": text_encoder(),
        "tokenizer": build_clip_tokenizer(),
        "scheduler": _sd_scheduler(),
        "safety_checker": None,
        "feature_extractor": None,
        "requires_safety_checker": False,
    }


def build_sd():
    from diffusers import StableDiffusionPipeline

    return StableDiffusionPipeline(**_sd_parts(sd_unet()))


def build_sd_inpaint():
    from diffusers import StableDiffusionInpaintPipeline

    # the inpainting UNet also sees the masked image latents and the mask: 4 + 4 + 1
    return StableDiffusionInpaintPipeline(**_sd_parts(sd_unet(in_channels=9)))


def build_sd_controlnet():
    from diffusers import StableDiffusionControlNetPipeline

    parts = _sd_parts(sd_unet())
    return StableDiffusionControlNetPipeline(controlnet=controlnet_from(parts["unet"]), **parts)


def _sdxl_parts() -> dict:
    from diffusers import EulerDiscreteScheduler

    return {
        "unet": sdxl_unet(),
        "vae": vae(),
        "text_encoder": text_encoder(),
        "text_encoder_2": text_encoder(with_projection=True),
        "tokenizer": build_clip_tokenizer(),
        "tokenizer_2": build_clip_tokenizer(),
        # what stable-diffusion-xl-base-1.0 ships
        "scheduler": EulerDiscreteScheduler(
            beta_start=0.00085,
            beta_end=0.012,
            beta_schedule="scaled_linear",
            timestep_spacing="leading",
            steps_offset=1,
        ),
    }


def build_sdxl():
    from diffusers import StableDiffusionXLPipeline

    return StableDiffusionXLPipeline(**_sdxl_parts())


def build_sdxl_controlnet():
    from diffusers import StableDiffusionXLControlNetPipeline

    parts = _sdxl_parts()
    return StableDiffusionXLControlNetPipeline(controlnet=controlnet_from(parts["unet"]), **parts)
