"""UNet-era stand-ins made faithful (recipes/fixes.py): upscalers, SDXL variants, IF's
stage II, ControlNet-Union, and the configs their examples read."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

MADE_BUILDABLE = [
    "StableDiffusionUpscalePipeline",
    "StableDiffusionLatentUpscalePipeline",
    "LDMSuperResolutionPipeline",
    "IFImg2ImgSuperResolutionPipeline",
    "StableDiffusionXLControlNetUnionPipeline",
    "StableDiffusionXLControlNetUnionInpaintPipeline",
    "StableDiffusionXLControlNetUnionImg2ImgPipeline",
]


def config(pipeline_class: str, name: str) -> dict:
    return slot(build._plan(pipeline_class), name).config


@pytest.mark.parametrize("pipeline_class", MADE_BUILDABLE)
def test_each_fixed_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_upscaler_unets_see_the_low_res_input_beside_the_latents():
    latent = config("StableDiffusionUpscalePipeline", "vae")["latent_channels"]
    assert config("StableDiffusionUpscalePipeline", "unet")["in_channels"] == latent + 3
    assert len(config("StableDiffusionUpscalePipeline", "vae")["block_out_channels"]) == 3  # 4x
    latent_upscaler = config("StableDiffusionLatentUpscalePipeline", "unet")
    assert latent_upscaler["in_channels"] == 2 * latent
    text = config("StableDiffusionLatentUpscalePipeline", "text_encoder")["hidden_size"]
    assert latent_upscaler["time_cond_proj_dim"] == 128 + text  # noise level + pooled text
    assert config("LDMSuperResolutionPipeline", "unet")["in_channels"] == 2 * 3


def test_sdxl_instruct_pix2pix_unet_sees_the_source_latents():
    unet = config("StableDiffusionXLInstructPix2PixPipeline", "unet")
    assert (
        unet["in_channels"]
        == 2 * config("StableDiffusionXLInstructPix2PixPipeline", "vae")["latent_channels"]
    )
    assert unet["addition_embed_type"] == "text_time"  # still SDXL's


def test_attend_and_excite_unet_has_16x16_maps_at_its_default_size():
    unet = config("StableDiffusionAttendAndExcitePipeline", "unet")
    lowest = unet["sample_size"] // 2 ** (len(unet["block_out_channels"]) - 1)
    assert lowest == 16  # its attn_res
    assert config("StableDiffusionPipeline", "unet")["sample_size"] == 8


def test_union_controlnet_fuses_at_the_first_block_width():
    controlnet = config("StableDiffusionXLControlNetUnionPipeline", "controlnet")
    unet = config("StableDiffusionXLControlNetUnionPipeline", "unet")
    assert controlnet["num_trans_channel"] == unet["block_out_channels"][0]
    assert controlnet["down_block_types"] == unet["down_block_types"]
    assert controlnet["num_control_type"] > 7  # promax's inpaint mode


@pytest.mark.slow
def test_chroma_keeps_the_config_key_its_inpaint_pipeline_reads(tmp_path):
    import diffusers

    from guidelint.runner.diffusers_backend import generic

    made = generic.make(slot(build._plan("ChromaInpaintPipeline"), "transformer"), {})
    made.save_pretrained(tmp_path)
    loaded = diffusers.ChromaTransformer2DModel.from_pretrained(tmp_path)
    assert loaded.config.guidance_embeds is False  # ChromaInpaintPipeline reads it


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-fixes")


@pytest.mark.slow
@pytest.mark.parametrize(
    "pipeline_class",
    [
        "StableDiffusionUpscalePipeline",
        "StableDiffusionLatentUpscalePipeline",
        "LDMSuperResolutionPipeline",
        "StableDiffusionXLInstructPix2PixPipeline",
        "StableDiffusionXLControlNetUnionPipeline",
    ],
)
def test_fixed_pipeline_builds_and_runs(pipeline_class, tiny_cache):
    extra = {"control_mode": [6]} if "Union" in pipeline_class else {}
    if "Union" in pipeline_class:
        from PIL import Image

        extra["control_image"] = [Image.new("RGB", (64, 64), (120, 30, 200))]
    _, output = run_tiny(pipeline_class, build.checkpoint_for(pipeline_class, tiny_cache), **extra)
    assert len(output.images) == 1
