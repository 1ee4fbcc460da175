"""Which tiny stand-in answers a hub id (pure functions over names: no torch needed)."""

from __future__ import annotations

import pytest

from guidelint.runner.diffusers_backend import cache
from guidelint.runner.diffusers_backend.resolve import (
    FAMILY_ALIASES,
    Target,
    Unresolved,
    is_hub_id,
    known_models,
    near_miss,
    resolve_component,
    resolve_pipeline,
)

TABLE = "by guidelint's table of known models"


def pipeline(hub_id, class_name, models=None, root=None):
    return resolve_pipeline(hub_id, class_name, models=models or {}, root=root)


def component(hub_id, class_name, models=None, root=None):
    return resolve_component(hub_id, class_name, models=models or {}, root=root)


@pytest.mark.parametrize(
    ("hub_id", "class_name", "expected"),
    [
        ("black-forest-labs/FLUX.1-schnell", "DiffusionPipeline", "FluxPipeline"),
        (
            "stabilityai/stable-diffusion-3-medium-diffusers",
            "DiffusionPipeline",
            "StableDiffusion3Pipeline",
        ),
        (
            "PixArt-alpha/PixArt-Sigma-XL-2-1024-MS",
            "AutoPipelineForText2Image",
            "PixArtSigmaPipeline",
        ),
        ("facebook/DiT-XL-2-256", "DiffusionPipeline", "DiTPipeline"),
        ("Wan-AI/Wan2.1-T2V-1.3B-Diffusers", "DiffusionPipeline", "WanPipeline"),
        ("ali-vilab/i2vgen-xl", "DiffusionPipeline", "I2VGenXLPipeline"),  # "xl", yet not SDXL
        (
            "stabilityai/stable-diffusion-xl-base-1.0",
            "DiffusionPipeline",
            "StableDiffusionXLPipeline",
        ),
        ("google/ddpm-cifar10-32", "DiffusionPipeline", "DDPMPipeline"),
    ],
)
def test_a_generic_class_resolves_by_the_table_of_known_ids(hub_id, class_name, expected):
    assert pipeline(hub_id, class_name) == Target(pipeline=expected, reason=TABLE)


@pytest.mark.parametrize(
    ("hub_id", "class_name"),
    [
        ("someone/my-finetune", "StableDiffusionPipeline"),
        ("stable-diffusion-v1-5/stable-diffusion-v1-5", "StableDiffusionControlNetPipeline"),
        ("gligen/gligen-generation-text-box", "StableDiffusionGLIGENPipeline"),
        ("PixArt-alpha/PixArt-XL-2-1024-MS", "PAGPixArtSigmaPipeline"),
    ],
)
def test_a_named_pipeline_class_is_what_runs(hub_id, class_name):
    assert pipeline(hub_id, class_name) == Target(
        pipeline=class_name, reason=f"by the class {class_name}"
    )


def test_an_unknown_id_under_a_generic_class_is_not_guessed():
    found = pipeline("someone/sdxl-lora-merge-xl", "DiffusionPipeline")
    assert isinstance(found, Unresolved)
    assert found.typo_of is None
    assert "will not guess" in found.message
    assert "[tool.guidelint.runner.models]" in found.message


def test_a_near_miss_of_a_known_id_is_a_typo_even_under_a_named_class():
    for class_name in ("DiffusionPipeline", "StableDiffusionXLPipeline"):
        found = pipeline("stabilityai/stable-difusion-xl-base-1.0", class_name)
        assert isinstance(found, Unresolved)
        assert found.typo_of == "stabilityai/stable-diffusion-xl-base-1.0"
        assert "did you mean 'stabilityai/stable-diffusion-xl-base-1.0'?" in found.message
    assert near_miss("someone/completely-different") is None


@pytest.mark.parametrize(
    ("hub_id", "class_name"),
    [
        ("black-forest-labs/FLUX.2-dev", "Flux2Pipeline"),  # another version: FLUX.1-dev's sibling
        ("black-forest-labs/FLUX.2-dev", "DiffusionPipeline"),
        ("black-forest-labs/FLUX.1-dev-x", "Flux2Pipeline"),  # near FLUX.1-dev, another class
    ],
)
def test_a_sibling_version_or_another_class_is_not_called_a_typo(hub_id, class_name):
    found = pipeline(hub_id, class_name)
    assert not (isinstance(found, Unresolved) and found.typo_of), found


@pytest.mark.parametrize(
    ("hub_id", "class_name", "expected"),
    [
        ("lllyasviel/sd-controlnet-canny", "ControlNetModel", "StableDiffusionControlNetPipeline"),
        (
            "lllyasviel/control_v11p_sd15_inpaint",
            "ControlNetModel",
            "StableDiffusionControlNetPipeline",
        ),
        (
            "diffusers/controlnet-canny-sdxl-1.0",
            "ControlNetModel",
            "StableDiffusionXLControlNetPipeline",
        ),
        ("madebyollin/sdxl-vae-fp16-fix", "AutoencoderKL", "StableDiffusionXLPipeline"),
        ("stabilityai/sd-vae-ft-mse", "AutoencoderKL", "StableDiffusionPipeline"),
        ("openai/clip-vit-large-patch14", "CLIPTokenizer", "StableDiffusionPipeline"),
        ("guoyww/animatediff-motion-adapter-v1-5-2", "MotionAdapter", "AnimateDiffPipeline"),
        # a component of a pipeline repo comes from that pipeline's checkpoint
        (
            "stabilityai/stable-diffusion-xl-base-1.0",
            "UNet2DConditionModel",
            "StableDiffusionXLPipeline",
        ),
        # (FLUX.1-dev: its FluxPipeline is the 'dev' variant, test_diffusers_family_hubvariants.py)
        ("black-forest-labs/FLUX.1-schnell", "AutoModel", "FluxPipeline"),
        ("black-forest-labs/FLUX.1-schnell", "T5EncoderModel", "FluxPipeline"),
    ],
)
def test_components_come_from_the_pipeline_that_carries_a_consistent_one(
    hub_id, class_name, expected
):
    assert component(hub_id, class_name) == Target(pipeline=expected, reason=TABLE)


def test_a_model_repo_without_a_pipeline_resolves_to_its_own_class():
    assert component("Intel/dpt-hybrid-midas", "DPTForDepthEstimation") == Target(
        component="DPTForDepthEstimation", reason=TABLE
    )
    assert component("Intel/dpt-large", "AutoModel") == Target(
        component="DPTForDepthEstimation", reason=TABLE
    )  # an Auto class loads what the repo holds


def test_a_component_repo_loaded_as_another_class_is_refused():
    found = component("lllyasviel/sd-controlnet-canny", "UNet2DConditionModel")
    assert isinstance(found, Unresolved)
    assert "holds ControlNetModel, not a UNet2DConditionModel" in found.message


def test_unknown_ids_resolve_by_a_named_class_but_never_under_an_auto_class():
    assert component("someone/my-adapter", "MotionAdapter") == Target(
        component="MotionAdapter", reason="by the class MotionAdapter"
    )
    for auto in ("AutoModel", "AutoTokenizer", "AutoModelForDepthEstimation"):
        assert isinstance(component("someone/my-model", auto), Unresolved)


def test_a_pattern_in_the_config_names_a_class_an_old_family_or_a_folder(tmp_path):
    models = {"acme/shoes-*": "StableDiffusionXLPipeline", "acme/old-*": "sd", "acme/w-*": "w"}
    found = pipeline("acme/shoes-v2", "StableDiffusionPipeline", models)
    assert found == Target(
        pipeline="StableDiffusionXLPipeline",
        reason="by pattern 'acme/shoes-*' in [tool.guidelint.runner.models]",
    )
    assert pipeline("acme/old-v1", "DiffusionPipeline", models).pipeline == FAMILY_ALIASES["sd"]
    local = component("acme/w-unet", "UNet2DConditionModel", models, root=tmp_path)
    assert local.folder == str(tmp_path / "w")
    assert local.describe() == f"'{tmp_path / 'w'}'"


def test_the_table_names_only_classes_diffusers_has():
    diffusers = pytest.importorskip("diffusers")
    import transformers

    pipelines, components = known_models()
    for class_name in pipelines.values():
        assert hasattr(diffusers, class_name), class_name
    for entry in components.values():
        for class_name in entry.classes:
            assert hasattr(diffusers, class_name) or hasattr(transformers, class_name), class_name
        assert entry.pipeline is None or hasattr(diffusers, entry.pipeline), entry.pipeline
    assert all(key == key.lower() for key in (*pipelines, *components))


def test_local_paths_are_not_hub_ids(tmp_path):
    assert not is_hub_id(str(tmp_path))
    assert not is_hub_id(tmp_path)
    assert is_hub_id("stabilityai/stable-diffusion-xl-base-1.0")
    assert not is_hub_id(None)


def test_the_cache_is_keyed_by_versions_and_overridable(tmp_path, monkeypatch):
    key = cache.version_key()
    assert "torch-" in key and "diffusers-" in key
    assert cache.cache_dir(tmp_path) == tmp_path / key
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "env"))
    assert cache.cache_dir() == tmp_path / "env" / key
    monkeypatch.delenv(cache.ENV_VAR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "guidelint" / "tiny" / key
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "sandbox-home"))  # a worker's HOME
    assert not str(cache.cache_dir()).startswith(str(tmp_path))
