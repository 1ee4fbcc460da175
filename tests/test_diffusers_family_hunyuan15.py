"""HunyuanVideo 1.5 (recipes/hunyuan15.py): text- and image-to-video plan with the
widths their components share; the text-to-video pipeline builds tiny and runs for real
(image-to-video sizes its video from the image and the 480p target: 640x640, a minute)."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILT = ["HunyuanVideo15Pipeline", "HunyuanVideo15ImageToVideoPipeline"]


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class)


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_the_dit_reads_qwen_and_byt5_states_and_sees_noise_image_and_mask(pipeline_class):
    plan = generic.plan(pipeline_class)
    transformer = slot(plan, "transformer").config
    assert slot(plan, "text_encoder").class_name == "Qwen2_5_VLTextModel"
    assert transformer["text_embed_dim"] == slot(plan, "text_encoder").config["hidden_size"]
    assert slot(plan, "text_encoder_2").recipe_key == "T5EncoderModel/byt5"
    assert transformer["text_embed_2_dim"] == slot(plan, "text_encoder_2").config["d_model"]
    # the prompt is chat-formatted: the tokenizer carries Qwen's chat template
    assert slot(plan, "tokenizer").recipe.builder == "build_qwen2_vl_tokenizer"
    latent = slot(plan, "vae").config["latent_channels"]
    assert transformer["in_channels"] == 2 * latent + 1
    assert transformer["target_size"] == 640  # the 480p checkpoints' default size


def test_the_vae_keeps_the_real_compression():
    vae = slot(generic.plan("HunyuanVideo15Pipeline"), "vae").config
    assert (vae["spatial_compression_ratio"], vae["temporal_compression_ratio"]) == (16, 4)
    assert len(vae["block_out_channels"]) == 5  # four spatial halvings and a last level


def test_image_to_video_projects_the_siglip_states_of_its_image():
    plan = generic.plan("HunyuanVideo15ImageToVideoPipeline")
    transformer = slot(plan, "transformer").config
    assert transformer["image_embed_dim"] == slot(plan, "image_encoder").config["hidden_size"]
    assert transformer["task_type"] == "i2v"


@pytest.mark.slow
def test_text_to_video_builds_and_runs_tiny(tmp_path):
    pipeline = "HunyuanVideo15Pipeline"
    pipe, output = run_tiny(pipeline, build.checkpoint_for(pipeline, tmp_path))
    assert type(pipe).__name__ == pipeline
    assert tuple(output.frames[0].shape) == (5, 3, 64, 64)  # 5 frames: 2 latent frames at 4x
