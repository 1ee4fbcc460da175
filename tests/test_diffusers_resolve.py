"""Which tiny checkpoint stands in for a hub id (pure functions: no torch needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.runner.diffusers_backend import cache
from guidelint.runner.diffusers_backend.resolve import is_hub_id, resolve

CACHE = Path("/cache")


def resolved(hub_id, class_name, *, models=None, single_model=None, **kwargs):
    if single_model is None:
        single_model = not class_name.endswith("Pipeline") and "Pipeline" not in class_name
    return resolve(
        hub_id, class_name, models=models or {}, cache=CACHE, single_model=single_model, **kwargs
    )


@pytest.mark.parametrize(
    ("hub_id", "class_name", "family", "subfolder"),
    [
        ("stable-diffusion-v1-5/stable-diffusion-v1-5", "StableDiffusionPipeline", "sd", None),
        (
            "stable-diffusion-v1-5/stable-diffusion-v1-5",
            "StableDiffusionImg2ImgPipeline",
            "sd",
            None,
        ),
        (
            "stable-diffusion-v1-5/stable-diffusion-inpainting",
            "StableDiffusionInpaintPipeline",
            "sd-inpaint",
            None,
        ),
        ("someone/my-finetune", "StableDiffusionPipeline", "sd", None),  # by the class
        (
            "stabilityai/stable-diffusion-xl-refiner-1.0",
            "StableDiffusionXLImg2ImgPipeline",
            "sdxl",
            None,
        ),
        ("stabilityai/stable-diffusion-xl-base-1.0", "DiffusionPipeline", "sdxl", None),
        ("stable-diffusion-v1-5/stable-diffusion-v1-5", "AutoPipelineForText2Image", "sd", None),
        (
            "stable-diffusion-v1-5/stable-diffusion-v1-5",
            "StableDiffusionControlNetInpaintPipeline",
            "sd",
            None,
        ),  # the base checkpoint, not an inpainting one
        ("google/ddpm-cat-256", "DDPMPipeline", "ddpm", None),
        ("google/ddpm-cifar10-32", "DiffusionPipeline", "ddpm", None),
        ("fusing/ddim-lsun-bedroom", "DDIMPipeline", "ddim", None),
        ("lllyasviel/sd-controlnet-canny", "ControlNetModel", "sd-controlnet", "controlnet"),
        ("lllyasviel/control_v11p_sd15_inpaint", "ControlNetModel", "sd-controlnet", "controlnet"),
        ("diffusers/controlnet-canny-sdxl-1.0", "ControlNetModel", "sdxl-controlnet", "controlnet"),
        ("madebyollin/sdxl-vae-fp16-fix", "AutoencoderKL", "sdxl", "vae"),
        ("stabilityai/sd-vae-ft-mse", "AutoencoderKL", "sd", "vae"),
        ("openai/clip-vit-large-patch14", "CLIPTokenizer", "sd", "tokenizer"),
    ],
)
def test_hub_ids_resolve_to_the_family_that_fits(hub_id, class_name, family, subfolder):
    found = resolved(hub_id, class_name)
    assert found is not None
    assert (found.family, found.subfolder) == (family, subfolder)
    assert found.folder == str(CACHE / family)


def test_an_explicit_subfolder_is_kept_and_schedulers_default_to_theirs():
    unet = resolved(
        "stabilityai/stable-diffusion-xl-base-1.0", "UNet2DConditionModel", subfolder="unet"
    )
    assert (unet.family, unet.subfolder) == ("sdxl", "unet")
    scheduler = resolved(
        "stable-diffusion-v1-5/stable-diffusion-v1-5",
        "DPMSolverMultistepScheduler",
        single_model=True,
        is_scheduler=True,
    )
    assert (scheduler.family, scheduler.subfolder) == ("sd", "scheduler")


@pytest.mark.parametrize(
    ("hub_id", "class_name"),
    [
        ("CompVis/ldm-text2im-large-256", "DiffusionPipeline"),  # another architecture
        ("stabilityai/stable-diffusion-3-medium-diffusers", "StableDiffusion3Pipeline"),
        ("stabilityai/stable-video-diffusion-img2vid", "DiffusionPipeline"),
        ("Intel/dpt-hybrid-midas", "DPTForDepthEstimation"),
        ("black-forest-labs/FLUX.1-dev", "FluxPipeline"),
        ("PixArt-alpha/PixArt-XL-2-1024-MS", "PixArtAlphaPipeline"),  # "XL", yet not SDXL
    ],
)
def test_ids_nothing_stands_in_for_are_not_guessed(hub_id, class_name):
    assert resolved(hub_id, class_name) is None


def test_a_pattern_in_the_config_wins_over_the_class():
    models = {"acme/*": "sdxl"}
    found = resolved("acme/shoes-v2", "StableDiffusionPipeline", models=models)
    assert found.family == "sdxl"
    assert "pattern 'acme/*'" in found.reason


def test_a_pattern_may_point_at_a_local_folder(tmp_path):
    (tmp_path / "unet").mkdir()
    models = {"acme/unet-*": "weights"}
    found = resolved("acme/unet-v1", "UNet2DConditionModel", models=models, root=tmp_path)
    assert found.family is None
    assert found.folder == str(tmp_path / "weights")
    assert found.subfolder == "unet"
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "config.json").write_text("{}")
    assert (
        resolved("acme/unet-v1", "UNet2DConditionModel", models=models, root=tmp_path).subfolder
        is None
    )  # the folder is the model itself


def test_the_report_line_names_id_family_and_reason():
    found = resolved("lllyasviel/sd-controlnet-canny", "ControlNetModel")
    text = found.describe("lllyasviel/sd-controlnet-canny")
    assert text == (
        "hub id 'lllyasviel/sd-controlnet-canny' -> tiny 'sd-controlnet' "
        "(controlnet/), by the id's words"
    )


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
