"""The video families of recipes/video.py (HunyuanVideo, Mochi, Latte, ModelScope, CogVideoX
conditioned, LTX-Video, PIA, Allegro, I2VGen-XL, SparseCtrl): planned, built, loaded with
their real classes and run."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny  # noqa: E402

BUILDABLE = [
    "HunyuanVideoPipeline",
    "HunyuanSkyreelsImageToVideoPipeline",
    "MochiPipeline",
    "LattePipeline",
    "TextToVideoSDPipeline",
    "VideoToVideoSDPipeline",
    "CogVideoXImageToVideoPipeline",
    "CogVideoXFunControlPipeline",
    "LTXPipeline",
    "LTXConditionPipeline",
    "PIAPipeline",
    "AllegroPipeline",
    "I2VGenXLPipeline",
    "AnimateDiffSparseControlNetPipeline",
]


@pytest.mark.parametrize("pipeline_class", BUILDABLE)
def test_each_video_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class), pipeline_class


def slot(pipeline_class, name):
    return next(s for s in generic.plan(pipeline_class).slots if s.name == name)


def test_hunyuan_video_reads_its_llama_encoder_and_clip_pooled_widths():
    transformer = slot("HunyuanVideoPipeline", "transformer").config
    assert (
        transformer["text_embed_dim"]
        == slot("HunyuanVideoPipeline", "text_encoder").config["hidden_size"]
    )
    assert (
        transformer["pooled_projection_dim"]
        == slot("HunyuanVideoPipeline", "text_encoder_2").config["hidden_size"]
    )
    assert slot("HunyuanVideoPipeline", "tokenizer").recipe_key == "LlamaTokenizer"


def test_condition_latents_double_the_transformer_input():
    """SkyReels, CogVideoX I2V and Fun-Control read half their input channels as the latents."""
    for pipeline_class, latent_slot in [
        ("HunyuanSkyreelsImageToVideoPipeline", "vae"),
        ("CogVideoXImageToVideoPipeline", "vae"),
        ("CogVideoXFunControlPipeline", "vae"),
    ]:
        latent = slot(pipeline_class, latent_slot).config["latent_channels"]
        assert slot(pipeline_class, "transformer").config["in_channels"] == 2 * latent
    assert slot("CogVideoXPipeline", "transformer").config["in_channels"] == latent


def test_pia_adapter_sees_noise_first_frame_and_mask():
    latent = slot("PIAPipeline", "vae").config["latent_channels"]
    assert slot("PIAPipeline", "motion_adapter").config["conv_in_channels"] == 2 * latent + 1


def test_the_offline_llama_tokenizer_round_trips_with_byte_fallback(tmp_path):
    from transformers import AutoTokenizer

    from guidelint.runner.diffusers_backend.family_tokenizers import build_llama_tokenizer

    build_llama_tokenizer().save_pretrained(tmp_path)
    loaded = AutoTokenizer.from_pretrained(tmp_path)
    assert type(loaded).__name__ == "LlamaTokenizer"
    text = "A cat walks on the grass, ☃"  # the snowman is no piece: three byte tokens
    ids = loaded(text).input_ids
    assert loaded.unk_token_id not in ids
    decoded = loaded.decode(ids, skip_special_tokens=True)
    assert isinstance(decoded, str) and decoded.strip() == text
    padded = loaded(text, padding="max_length", max_length=64).input_ids
    assert len(padded) == 64


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-video")


def test_the_ltx_vae_compresses_as_the_real_one(tiny_cache):
    """32x in space and 8x in time: a 4x tiny VAE made the examples' 480x704, 161-frame runs
    64 times the tokens (tens of GB for LTXConditionPipeline)."""
    from diffusers import AutoencoderKLLTXVideo

    folder = build.checkpoint_for("LTXPipeline", tiny_cache)
    vae = AutoencoderKLLTXVideo.from_pretrained(folder, subfolder="vae")
    assert (vae.spatial_compression_ratio, vae.temporal_compression_ratio) == (32, 8)


@pytest.mark.slow
@pytest.mark.parametrize(
    "pipeline_class",
    ["HunyuanVideoPipeline", "MochiPipeline", "LattePipeline", "TextToVideoSDPipeline"],
)
def test_each_new_video_family_builds_loads_and_runs(tiny_cache, pipeline_class):
    folder = build.checkpoint_for(pipeline_class, tiny_cache)
    assert json.loads((folder / "model_index.json").read_text())["_class_name"] == pipeline_class
    pipe, output = run_tiny(pipeline_class, folder)
    assert type(pipe).__name__ == pipeline_class
    frames = output.frames
    assert frames.shape[0] == 1 and frames.shape[-2:] == (64, 64)


def test_mochis_vae_keeps_its_factors_without_the_finest_resnets(tiny_cache):
    """No resnet at the decoder's two finest levels (the example's tiled decode of 19
    frames at 480x848 is what cost), the same 8x and 6x: 4 latent frames make 19 frames."""
    import torch
    from diffusers import AutoencoderKLMochi

    vae = AutoencoderKLMochi.from_pretrained(
        build.component_checkpoint("AutoencoderKLMochi", tiny_cache)
    )
    assert len(vae.decoder.block_out.resnets) == 0 and len(vae.decoder.up_blocks[-1].resnets) == 0
    with torch.no_grad():
        frames = vae.decode(torch.zeros(1, 12, 4, 2, 3)).sample
    assert tuple(frames.shape) == (1, 3, 19, 16, 24)
