"""Later video families (recipes/video_more.py): EasyAnimate, FramePack and Kandinsky 6
plan; EasyAnimate and FramePack build tiny and run for real (Kandinsky 6's processor
needs torchvision)."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILT = [
    "EasyAnimatePipeline",
    "EasyAnimateControlPipeline",
    "EasyAnimateInpaintPipeline",
    "HunyuanVideoFramepackPipeline",
    "Kandinsky6TI2VAPipeline",
]


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_family_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_easyanimate_reads_qwen2_vl_states_through_its_chat_template():
    plan = generic.plan("EasyAnimatePipeline")
    encoder, tokenizer = slot(plan, "text_encoder"), slot(plan, "tokenizer")
    assert encoder.class_name == "Qwen2VLForConditionalGeneration"  # not the BERT alternative
    assert tokenizer.recipe.builder == "build_qwen2_vl_tokenizer"
    transformer = slot(plan, "transformer").config
    assert transformer["text_embed_dim"] == encoder.config["text_config"]["hidden_size"]


def test_easyanimate_conditioned_models_see_their_extra_latents():
    latent = slot(generic.plan("EasyAnimatePipeline"), "vae").config["latent_channels"]
    inpaint = slot(generic.plan("EasyAnimateInpaintPipeline"), "transformer").config
    control = slot(generic.plan("EasyAnimateControlPipeline"), "transformer").config
    assert inpaint["in_channels"] == 2 * latent + 1  # the masked video's latents and the mask
    assert control["in_channels"] == 3 * latent  # the control video's and reference latents


def test_framepack_projects_the_siglip_states_of_its_image():
    plan = generic.plan("HunyuanVideoFramepackPipeline")
    transformer = slot(plan, "transformer").config
    assert transformer["image_proj_dim"] == slot(plan, "image_encoder").config["hidden_size"]
    assert transformer["has_clean_x_embedder"]


def test_kandinsky6_sounds_through_mmaudios_vae_and_vocoder():
    plan = generic.plan("Kandinsky6TI2VAPipeline")
    transformer, audio_vae = slot(plan, "transformer").config, slot(plan, "audio_vae").config
    vocoder = slot(plan, "vocoder").config
    assert transformer["in_audio_dim"] == audio_vae["latent_channels"]
    assert vocoder["num_mels"] == audio_vae["mel_bins"]
    assert slot(plan, "tokenizer").recipe.builder == "build_qwen2_5_vl_processor"


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-video-more")


@pytest.mark.slow
def test_easyanimate_builds_and_runs_tiny(tiny_cache):
    pipe, output = run_tiny(
        "EasyAnimatePipeline",
        build.checkpoint_for("EasyAnimatePipeline", tiny_cache),
        negative_prompt="blurry",  # diffusers iterates it: None fails in encode_prompt
    )
    assert type(pipe).__name__ == "EasyAnimatePipeline"
    assert output.frames[0].shape == (5, 3, 64, 64)  # the MagViT's 4x time compression


@pytest.mark.slow
def test_framepack_builds_and_runs_tiny(tiny_cache):
    pipe, output = run_tiny(
        "HunyuanVideoFramepackPipeline",
        build.checkpoint_for("HunyuanVideoFramepackPipeline", tiny_cache),
        num_frames=9,
    )
    assert type(pipe).__name__ == "HunyuanVideoFramepackPipeline"
    # one 9-latent-frame section after the image's own latent frame: (9 + 1 - 1) * 4 + 1
    assert output.frames[0].shape[0] == 37
