"""LTX-2 video-and-audio pipelines (recipes/ltx2.py): they plan, build tiny and run for real."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILT = [
    "LTX2Pipeline",
    "LTX2ImageToVideoPipeline",
    "LTX2ConditionPipeline",
    "LTX2InContextPipeline",
    "LTX2HDRPipeline",
    "LTX2DFRPipeline",
    "LTX2DFRTemporalRefinePipeline",
    "LTX2LatentUpsamplePipeline",
]


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_the_video_vae_keeps_the_real_compression():
    # 32x in space (4x4 patches, three 2x downsamplings), 8x in time: 6144 latent tokens at
    # the examples' 768x512, 121 frames, as for the real model
    vae = slot(generic.plan("LTX2Pipeline"), "vae").config
    assert vae["patch_size"] * 2**3 == vae["spatial_compression_ratio"] == 32
    assert vae["temporal_compression_ratio"] == 8


def test_the_audio_widths_agree_across_vae_transformer_and_vocoder():
    plan = generic.plan("LTX2Pipeline")
    audio_vae, transformer = slot(plan, "audio_vae").config, slot(plan, "transformer").config
    packed = audio_vae["latent_channels"] * audio_vae["mel_bins"] // 4  # 4x mel compression
    assert transformer["audio_in_channels"] == packed == audio_vae["base_channels"]
    assert slot(plan, "vocoder").config["in_channels"] == 2 * audio_vae["mel_bins"]


def test_the_connectors_read_every_gemma_layer():
    plan = generic.plan("LTX2Pipeline")
    text = slot(plan, "text_encoder").config["text_config"]
    connectors = slot(plan, "connectors").config
    assert connectors["text_proj_in_factor"] == text["num_hidden_layers"] + 1  # and embeddings
    assert connectors["caption_channels"] == text["hidden_size"]
    assert plan.nones == ("duration_head", "processor", "prompt_enhancer")


def test_dfr_temporal_refine_upsamples_time_not_space():
    upsampler = slot(generic.plan("LTX2DFRTemporalRefinePipeline"), "temporal_latent_upsampler")
    assert upsampler.config["temporal_upsample"] and not upsampler.config["spatial_upsample"]
    assert slot(generic.plan("LTX2LatentUpsamplePipeline"), "latent_upsampler").config.get(
        "spatial_upsample", True
    )


def test_dfr_transformer_marks_keyframe_slots():
    # LTX2DFRPipeline refuses a transformer without the keyframe embedding (LTX-2.5)
    for pipeline_class in ("LTX2DFRPipeline", "LTX2DFRTemporalRefinePipeline"):
        transformer = slot(generic.plan(pipeline_class), "transformer").config
        assert transformer["use_keyframes_abs_pos_embedding"] is True
    # distilled: its own sigmas, no dynamic shift (the pipeline passes no `mu`)
    scheduler = slot(generic.plan("LTX2DFRPipeline"), "scheduler")
    assert not scheduler.config.get("use_dynamic_shifting")
    assert "use_keyframes_abs_pos_embedding" not in (
        slot(generic.plan("LTX2Pipeline"), "transformer").config
    )


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-ltx2")


@pytest.mark.slow
def test_image_to_video_builds_and_runs_tiny(tiny_cache):
    # everything LTX2Pipeline runs, and the video VAE's encoder for the first frame;
    # 9 frames at 24 fps: 2 latent frames, 0.375 s of sound at the vocoder's 24 kHz
    pipeline_class = "LTX2ImageToVideoPipeline"
    pipe, (video, audio) = run_tiny(
        pipeline_class,
        build.checkpoint_for(pipeline_class, tiny_cache),
        num_frames=9,
        frame_rate=24.0,
        return_dict=False,
    )
    assert type(pipe).__name__ == pipeline_class
    assert video.shape == (1, 9, 3, 64, 64)
    rate = pipe.vocoder.config.output_sampling_rate
    assert audio.shape[1] == 2 and abs(audio.shape[-1] - 9 / 24 * rate) < 0.15 * rate
