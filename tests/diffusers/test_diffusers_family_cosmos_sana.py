"""Cosmos and the later SANA pipelines (recipes/cosmos_sana.py): they plan, build tiny
and run for real, or stop where diffusers itself does without `cosmos_guardrail`."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner import verdict  # noqa: E402
from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

SANA = ["SanaSprintPipeline", "SanaSprintImg2ImgPipeline", "SanaControlNetPipeline"]
COSMOS = [
    "CosmosTextToWorldPipeline",
    "CosmosVideoToWorldPipeline",
    "Cosmos2TextToImagePipeline",
    "Cosmos2VideoToWorldPipeline",
    "Cosmos2_5_PredictBasePipeline",
    "Cosmos2_5_TransferPipeline",
]


@pytest.mark.parametrize("pipeline_class", SANA + COSMOS)
def test_each_family_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_sana_sprint_gets_the_scm_scheduler_and_a_guidance_embedding():
    plan = generic.plan("SanaSprintPipeline")
    # the annotation says DPMSolverMultistep; the checkpoints ship SCMScheduler
    assert slot(plan, "scheduler").class_name == "SCMScheduler"
    transformer = slot(plan, "transformer").config
    assert transformer["guidance_embeds"] and transformer["sample_size"] == 32


def test_sana_wm_plans_once_the_ltx2_vae_is_in_the_table():
    # SANA-WM pairs its DiT with LTX-2's VAE, a recipe of the ltx2 area
    from guidelint.runner.diffusers_backend import tiny_table

    if "AutoencoderKLLTX2Video" not in tiny_table.RECIPES:
        with pytest.raises(build.CannotBuild, match="AutoencoderKLLTX2Video"):
            build._plan("SanaWMPipeline")
        return
    plan = generic.plan("SanaWMPipeline")
    transformer = slot(plan, "transformer").config
    assert transformer["in_channels"] == slot(plan, "vae").config["latent_channels"]
    assert transformer["caption_channels"] == slot(plan, "text_encoder").config["hidden_size"]


def test_the_sana_controlnet_has_its_dits_widths():
    plan = generic.plan("SanaControlNetPipeline")
    controlnet, transformer = slot(plan, "controlnet").config, slot(plan, "transformer").config
    for key in ("in_channels", "num_attention_heads", "attention_head_dim", "caption_channels"):
        assert controlnet[key] == transformer[key]


def test_cosmos_widths_follow_their_encoders_and_vaes():
    v2w = generic.plan("Cosmos2VideoToWorldPipeline")
    assert slot(v2w, "transformer").config["in_channels"] == slot(v2w, "vae").config["z_dim"] + 1
    assert (
        slot(v2w, "transformer").config["text_embed_dim"]
        == (slot(v2w, "text_encoder").config["d_model"])
    )
    # Cosmos 2.5 concatenates every Qwen2.5-VL layer's hidden states
    predict = generic.plan("Cosmos2_5_PredictBasePipeline")
    text = slot(predict, "text_encoder").config["text_config"]
    assert slot(predict, "transformer").config["text_embed_dim"] == (
        text["hidden_size"] * text["num_hidden_layers"]
    )
    transfer = generic.plan("Cosmos2_5_TransferPipeline")
    controlnet, vae = slot(transfer, "controlnet").config, slot(transfer, "vae").config
    assert controlnet["latent_channels"] == vae["z_dim"] + 2  # condition and padding masks


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-cosmos-sana")


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", SANA)
def test_sana_families_build_and_run_tiny(tiny_cache, pipeline_class):
    pipe, output = run_tiny(
        pipeline_class,
        build.checkpoint_for(pipeline_class, tiny_cache),
        use_resolution_binning=False,
    )
    assert type(pipe).__name__ == pipeline_class
    assert output.images.shape[-2:] == (64, 64)


@pytest.mark.slow
def test_a_cosmos_pipeline_stops_where_diffusers_does_without_cosmos_guardrail(tiny_cache):
    # every Cosmos pipeline builds its CosmosSafetyChecker in __init__; absent the
    # package, diffusers raises ImportError, which the runner reports as missing
    if verdict._installed("cosmos_guardrail"):
        pytest.skip("cosmos_guardrail is installed")
    with pytest.raises(ImportError) as raised:
        build.checkpoint_for("CosmosTextToWorldPipeline", tiny_cache)
    assert verdict.missing_package(raised.value) == "cosmos_guardrail"


@pytest.mark.slow
def test_a_cosmos_pipeline_has_no_stand_in_for_the_safety_checker_it_fetches(
    tiny_cache, monkeypatch
):
    # with cosmos_guardrail installed, CosmosSafetyChecker() fetches its guard models as it
    # is built: offline, that is no tiny stand-in (unsupported-model), not guidelint's fault
    pytest.importorskip("cosmos_guardrail")
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(build.CannotBuild) as raised:
        build.checkpoint_for("Cosmos2TextToImagePipeline", tiny_cache)
    assert raised.value.missing == "CosmosSafetyChecker"
    assert "fetches from the hub" in raised.value.reason


class _FetchingPart:
    def __init__(self):
        from huggingface_hub.errors import LocalEntryNotFoundError

        raise LocalEntryNotFoundError("offline")


class _PipelineBuildingAPart:
    def __init__(self):
        self.part = _FetchingPart()


def test_the_part_a_pipeline_init_was_building_is_named():
    with pytest.raises(Exception) as raised:
        _PipelineBuildingAPart()
    assert generic.fetches_from_hub(raised.value)
    assert generic.built_in_init(raised.value, "_PipelineBuildingAPart") == "_FetchingPart"
    assert not generic.fetches_from_hub(ValueError("another failure"))


@pytest.mark.slow
def test_auto_model_on_the_transfer_repo_loads_a_tiny_cosmos_controlnet(tiny_cache, tmp_path):
    # the repo's ControlNets live in branches; AutoModel names no class, the table does
    import diffusers

    from guidelint.runner.diffusers_backend import loading
    from guidelint.runner.diffusers_backend.state import State

    state = State(
        record_fn=lambda message: None, gpu=False, cache_override=str(tiny_cache), root=tmp_path
    )
    folder, inner, _ = loading.component_folder(
        state, "nvidia/Cosmos-Transfer2.5-2B", diffusers.AutoModel, "model", {}
    )
    assert inner is None
    controlnet = diffusers.AutoModel.from_pretrained(str(folder))
    assert type(controlnet).__name__ == "CosmosControlNetModel"
    home = generic.plan("Cosmos2_5_TransferPipeline")
    assert controlnet.config.latent_channels == slot(home, "controlnet").config["latent_channels"]
