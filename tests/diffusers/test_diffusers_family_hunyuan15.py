"""HunyuanVideo 1.5 and HunyuanVideo image-to-video (recipes/hunyuan15.py): they plan
with the widths their components share; HunyuanVideo 1.5 text-to-video and HunyuanVideo
image-to-video build tiny and run for real (1.5 image-to-video sizes its video from the
image and the 480p target, 640x640: a minute, so it is only planned here)."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILT_15 = ["HunyuanVideo15Pipeline", "HunyuanVideo15ImageToVideoPipeline"]
BUILT = [*BUILT_15, "HunyuanVideoImageToVideoPipeline"]


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class)


@pytest.mark.parametrize("pipeline_class", BUILT_15)
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


def test_llava_sees_576_image_states_where_the_template_puts_them():
    from diffusers.pipelines.hunyuan_video import pipeline_hunyuan_video_image2video as module

    from guidelint.runner.diffusers_backend import family_tokenizers

    template = module.DEFAULT_PROMPT_TEMPLATE
    plan = generic.plan("HunyuanVideoImageToVideoPipeline")
    llava = slot(plan, "text_encoder").config
    vision = llava["vision_config"]
    assert (vision["image_size"] // vision["patch_size"]) ** 2 == template["image_emb_len"]
    assert slot(plan, "image_processor").config["crop_size"]["height"] == vision["image_size"]
    tiny = family_tokenizers.build_llama3_chat_tokenizer()
    ids = tiny(template["template"].format("a cat")).input_ids
    assert ids.index(llava["image_token_index"]) == template["image_emb_start"]
    assert ids.count(tiny.convert_tokens_to_ids("<|end_header_id|>")) == 3
    before_prompt = tiny(template["template"].split("{}")[0]).input_ids
    assert len(before_prompt) == template["crop_start"]  # as Llama 3's own tokenizer counts
    assert slot(plan, "transformer").config["text_embed_dim"] == llava["text_config"]["hidden_size"]


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-hunyuan15")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pipeline", "extra"),
    [
        ("HunyuanVideo15Pipeline", {}),
        # the example's call for HunyuanVideo-I2V: distilled guidance as an input
        ("HunyuanVideoImageToVideoPipeline", {"guidance_scale": 6.0}),
    ],
)
def test_builds_and_runs_tiny(tiny_cache, pipeline, extra):
    pipe, output = run_tiny(pipeline, build.checkpoint_for(pipeline, tiny_cache), **extra)
    assert type(pipe).__name__ == pipeline
    assert tuple(output.frames[0].shape) == (5, 3, 64, 64)  # 5 frames: 2 latent frames at 4x
