"""The later image, language and audio families (recipes/image_audio.py): AudioLDM 2,
Stable Audio 3 and ACE-Step built tiny; the Qwen3-VL processor pipelines refused with
the ImportError their real processor meets here (its video processor needs torchvision)."""

from __future__ import annotations

import importlib.util

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny  # noqa: E402

BUILT = ["AudioLDM2Pipeline", "StableAudio3Pipeline", "AceStepPipeline"]
QWEN3_VL_PROCESSOR = [
    "BriaFibo2Pipeline",
    "DreamLitePipeline",
    "DreamLiteMobilePipeline",
    "JoyImageEditPipeline",
    "JoyImageEditPlusPipeline",
    "NucleusMoEImagePipeline",
]
HAS_TORCHVISION = importlib.util.find_spec("torchvision") is not None


@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_image_audio_family_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_audioldm2_unet_reads_gpt2_and_t5_states():
    from guidelint.runner.diffusers_backend import generic

    slots = {s.name: s.config for s in generic.plan("AudioLDM2Pipeline").slots}
    gpt2, t5 = slots["language_model"]["n_embd"], slots["text_encoder_2"]["d_model"]
    assert slots["unet"]["cross_attention_dim"][-1] == (None, gpt2, t5)
    projection = slots["projection_model"]
    assert projection["text_encoder_dim"] == slots["text_encoder"]["projection_dim"]
    assert (projection["text_encoder_1_dim"], projection["langauge_model_dim"]) == (t5, gpt2)


@pytest.mark.skipif(HAS_TORCHVISION, reason="torchvision is installed: the processor loads")
@pytest.mark.parametrize("pipeline_class", QWEN3_VL_PROCESSOR)
def test_qwen3_vl_processor_pipelines_name_torchvision(pipeline_class):
    with pytest.raises(ImportError, match="requires the Torchvision library"):
        build.buildable(pipeline_class)


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-image-audio")


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", BUILT)
def test_each_image_audio_family_builds_loads_and_runs(tiny_cache, pipeline_class):
    folder = build.checkpoint_for(pipeline_class, cache_override=tiny_cache)
    pipe, output = run_tiny(pipeline_class, folder)
    assert type(pipe).__name__ == pipeline_class
    waveforms = output.audios
    assert waveforms.ndim in (2, 3) and waveforms.shape[-1] > 0  # batch, (channels,) samples


def load_modular_from_the_hub(tiny_cache: str):
    """In a child: activate, then load Bria FIBO's prompt-to-JSON blocks by hub id."""
    from diffusers.modular_pipelines import ModularPipeline, ModularPipelineBlocks

    from guidelint.runner.diffusers_backend import activate

    activate({"tiny_cache": tiny_cache, "gpu": False}, [].append)
    refused = []
    for owner in (ModularPipeline, ModularPipelineBlocks):
        try:
            owner.from_pretrained("briaai/FIBO-VLM-prompt-to-JSON", trust_remote_code=True)
        except OSError as error:
            refused.append((getattr(error, "guidelint_outcome", None), str(error)))
    return refused


@pytest.mark.slow  # importing diffusers' modular pipelines costs seconds
def test_a_modular_pipeline_from_a_hub_id_is_unsupported_naming_its_repo(tmp_path):
    from tests.diffusers.test_diffusers_shims import in_child

    outcome, refused = in_child(load_modular_from_the_hub, str(tmp_path))
    assert outcome == "returned", refused
    assert [outcome for outcome, _ in refused] == ["unsupported-model"] * 2
    assert all("'briaai/FIBO-VLM-prompt-to-JSON'" in message for _, message in refused)
    assert "trust_remote_code" in refused[0][1]
