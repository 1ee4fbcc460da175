"""The audio families the generic builder makes tiny: Stable Audio and LongCat AudioDiT."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build  # noqa: E402
from guidelint.runner.diffusers_backend.recipes import audio  # noqa: E402
from tests.tiny_pipelines import run_tiny  # noqa: E402

BUILT = ["StableAudioPipeline", "LongCatAudioDiTPipeline"]


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_audio_family_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_stable_audio_widths_follow_its_vae_and_projection():
    from guidelint.runner.diffusers_backend import generic

    slots = {s.name: s.config for s in generic.plan("StableAudioPipeline").slots}
    latent = slots["vae"]["decoder_input_channels"]
    assert slots["transformer"]["in_channels"] == slots["transformer"]["out_channels"] == latent
    conditioning = slots["projection_model"]["conditioning_dim"]
    assert slots["transformer"]["global_states_input_dim"] == 2 * conditioning
    assert slots["projection_model"]["text_encoder_dim"] == slots["text_encoder"]["d_model"]
    assert slots["scheduler"]["prediction_type"] == "v_prediction"


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-audio")


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_audio_family_builds_loads_and_makes_audio(tiny_cache, pipeline_class):
    folder = build.checkpoint_for(pipeline_class, cache_override=tiny_cache)
    pipe, output = run_tiny(pipeline_class, folder)
    assert type(pipe).__name__ == pipeline_class
    waveforms = output.audios
    assert waveforms.ndim == 3 and waveforms.shape[-1] > 0  # batch, channels, samples
    sample_rate = getattr(pipe.vae.config, "sampling_rate", None) or pipe.vae.config.sample_rate
    assert sample_rate == audio.TINY_SAMPLE_RATE
