"""The audio families the generic builder makes tiny: Stable Audio, LongCat AudioDiT,
AudioLDM, MusicLDM and Audio Diffusion."""

from __future__ import annotations

import importlib.util

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build  # noqa: E402
from guidelint.runner.diffusers_backend.recipes import audio  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny  # noqa: E402

BUILT = ["StableAudioPipeline", "LongCatAudioDiTPipeline", "AudioLDMPipeline"]
# Built too, but its __call__ fails on transformers 5 as it would on the real model:
# ClapModel.get_text_features returns an output object, not the tensor it expects.
PLANNED = [*BUILT, "MusicLDMPipeline"]


@pytest.mark.parametrize("pipeline_class", PLANNED)
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
    assert waveforms.ndim in (2, 3) and waveforms.shape[-1] > 0  # batch, (channels,) samples
    audio_config = pipe.vocoder.config if hasattr(pipe, "vocoder") else pipe.vae.config
    sample_rate = getattr(audio_config, "sampling_rate", None) or audio_config.sample_rate
    assert sample_rate == audio.TINY_SAMPLE_RATE


def test_the_offline_roberta_tokenizer_loads_with_the_ids_clap_expects(tmp_path):
    from transformers import AutoTokenizer

    from guidelint.runner.diffusers_backend import family_tokenizers

    family_tokenizers.build_roberta_tokenizer().save_pretrained(tmp_path)
    loaded = AutoTokenizer.from_pretrained(tmp_path)
    assert type(loaded).__name__.startswith("RobertaTokenizer")
    ids = {"bos": 0, "pad": 1, "eos": 2}
    assert (
        {k: getattr(loaded, f"{k}_token_id") for k in ids}
        == {k: audio.CLAP_TEXT[f"{k}_token_id"] for k in ids}
        == ids
    )
    encoded = loaded("a cat", padding="max_length", max_length=10).input_ids
    assert encoded[0] == 0 and encoded.index(2) == 6 and encoded[7:] == [1, 1, 1]
    assert max(encoded) < family_tokenizers.roberta_vocab_size()


HAS_LIBROSA = importlib.util.find_spec("librosa") is not None
needs_librosa = pytest.mark.skipif(not HAS_LIBROSA, reason="diffusers' Mel needs librosa")


@needs_librosa
def test_audio_diffusion_plans_the_unet2d_its_repo_ships_and_a_mel_of_its_size():
    from guidelint.runner.diffusers_backend import generic

    plan = generic.plan("AudioDiffusionPipeline")
    slots = {s.name: s for s in plan.slots}
    # annotated UNet2DConditionModel; audio-diffusion-256 ships a UNet2DModel
    assert slots["unet"].recipe.builds == "UNet2DModel"
    unet = slots["unet"].config
    assert unet["in_channels"] == unet["out_channels"] == 1  # a spectrogram: one channel
    size = unet["sample_size"]
    assert slots["mel"].config == {"x_res": size, "y_res": size}
    assert slots["scheduler"].recipe_key == "DDPMScheduler"  # 1000 steps, as the repo
    assert "vqvae" not in slots  # the latent sibling repo has one, this one none


@pytest.mark.skipif(HAS_LIBROSA, reason="librosa is installed")
def test_audio_diffusion_without_librosa_names_it():
    from guidelint.runner import verdict
    from guidelint.runner.diffusers_backend import generic

    with pytest.raises(ImportError) as raised:
        generic.plan("AudioDiffusionPipeline")
    assert verdict.missing_package(raised.value) == "librosa"


@pytest.mark.slow
@needs_librosa
def test_audio_diffusion_builds_and_makes_a_spectrogram_and_its_audio(tiny_cache):
    from diffusers import AudioDiffusionPipeline, UNet2DModel

    folder = build.checkpoint_for("AudioDiffusionPipeline", tiny_cache)
    pipe = AudioDiffusionPipeline.from_pretrained(folder)
    assert type(pipe.unet) is UNet2DModel and pipe.vqvae is None
    assert pipe.get_default_steps() == 1000  # DDPM, as the example's pipe() runs
    output = pipe(steps=2)
    size, hop = pipe.mel.x_res, pipe.mel.hop_length
    assert output.images[0].size == (size, size)
    # Griffin-Lim over `size` frames of `hop` samples (librosa's centred frames)
    assert output.audios[0].shape == (1, hop * (size - 1))
    assert pipe.mel.get_sample_rate() == 22050  # the repo's Mel default
