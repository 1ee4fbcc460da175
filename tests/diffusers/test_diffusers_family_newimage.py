"""Newer image and video families (recipes/newimage.py): they plan, build tiny and run."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILT = ["WanAnimatePipeline", "PRXPixelPipeline", "Ideogram4Pipeline"]


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_family_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_wan_animate_sees_noise_reference_latents_mask_and_pose():
    plan = generic.plan("WanAnimatePipeline")
    transformer, vae = slot(plan, "transformer").config, slot(plan, "vae").config
    assert transformer["in_channels"] == 2 * vae["z_dim"] + 4
    assert transformer["latent_channels"] == vae["z_dim"]  # the pose video's latents
    assert transformer["image_dim"] == slot(plan, "image_encoder").config["hidden_size"]
    assert slot(plan, "scheduler").config["prediction_type"] == "flow_prediction"


def test_prx_pixel_reads_prompts_with_qwen3_vl_text_model():
    plan = generic.plan("PRXPixelPipeline")
    encoder = slot(plan, "text_encoder")
    assert encoder.class_name == "Qwen3VLTextModel"  # the slot is annotated PreTrainedModel
    assert slot(plan, "transformer").config["context_in_dim"] == encoder.config["hidden_size"]


def test_ideogram4_reads_13_qwen3_vl_layers_and_leaves_the_enhancer_head_out():
    plan = generic.plan("Ideogram4Pipeline")
    encoder = slot(plan, "text_encoder")
    assert encoder.class_name == "Qwen3VLModel"
    width, depth = (encoder.config["text_config"][k] for k in ("hidden_size", "num_hidden_layers"))
    assert depth >= 36  # the pipeline taps layer 35
    for name in ("transformer", "unconditional_transformer"):
        assert slot(plan, name).config["llm_features_dim"] == 13 * width
    assert "prompt_enhancer_head" in plan.nones  # shipped in a repo of its own


def test_ideogram4_tokenizer_formats_typed_content_parts():
    from guidelint.runner.diffusers_backend import family_tokenizers

    messages = [{"role": "user", "content": [{"type": "text", "text": "a cat"}]}]
    text = family_tokenizers.build_qwen3_vl_tokenizer().apply_chat_template(
        messages, add_generation_prompt=True, tokenize=False
    )
    assert text == "<|im_start|>user\na cat<|im_end|>\n<|im_start|>assistant\n"


def test_prx_stays_unbuildable_with_its_reason():
    with pytest.raises(build.CannotBuild, match="T5Gemma"):
        build._plan("PRXPipeline")


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-newimage")


@pytest.mark.slow
def test_prx_pixel_builds_and_runs_tiny(tiny_cache):
    folder = build.checkpoint_for("PRXPixelPipeline", tiny_cache)
    # 64 px is in none of the 1024 px aspect-ratio bins: binning off keeps the size asked
    pipe, output = run_tiny("PRXPixelPipeline", folder, use_resolution_binning=False)
    assert type(pipe).__name__ == "PRXPixelPipeline"
    assert tuple(output.images.shape[-3:]) == (3, 64, 64)  # RGB pixels: no VAE
