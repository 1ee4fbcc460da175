"""The deprecated UNet-era families (recipes/legacy.py): planned from their own classes,
built tiny, and run through their real classes, or refused by diffusers as the real
checkpoints are."""

from __future__ import annotations

import inspect
import json

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic, tiny_table  # noqa: E402
from tests.diffusers.tiny_pipelines import slot  # noqa: E402

BUILDABLE = [
    "VersatileDiffusionDualGuidedPipeline",
    "VersatileDiffusionTextToImagePipeline",
    "AltDiffusionPipeline",
    "AltDiffusionImg2ImgPipeline",
    "PaintByExamplePipeline",
    "ShapEImg2ImgPipeline",
    "DanceDiffusionPipeline",
    "VideoToVideoSDPipeline",
]
# The class of each deprecated pipeline's own component, and the library its real
# checkpoints' model_index.json names for it.
DEPRECATED_LIBRARY = {
    "AltDiffusionPipeline": ("text_encoder", "alt_diffusion"),
    "VersatileDiffusionTextToImagePipeline": ("text_unet", "versatile_diffusion"),
    "PaintByExamplePipeline": ("image_encoder", "paint_by_example"),
}


def test_every_legacy_pipeline_made_buildable_plans():
    assert [name for name in BUILDABLE if not build.buildable(name)] == []


def test_versatiles_text_unet_mirrors_the_image_unets_attention_layout():
    plan = generic.plan("VersatileDiffusionTextToImagePipeline")
    text_unet, image_unet = slot(plan, "text_unet").config, slot(plan, "image_unet").config
    for key in ("block_out_channels", "layers_per_block", "attention_head_dim"):
        assert text_unet[key] == image_unet[key]
    assert text_unet["cross_attention_dim"] == image_unet["cross_attention_dim"]
    assert [t.replace("Flat", "2D") for t in text_unet["down_block_types"]] == list(
        image_unet["down_block_types"]
    )


def test_dual_guided_image_encoder_gives_the_257_tokens_its_dual_attention_splits():
    vision = slot(generic.plan("VersatileDiffusionDualGuidedPipeline"), "image_encoder").config
    assert (vision["image_size"] // vision["patch_size"]) ** 2 + 1 == 257


def test_paint_by_example_attends_to_its_image_encoders_projection():
    plan = generic.plan("PaintByExamplePipeline")
    encoder, unet = slot(plan, "image_encoder"), slot(plan, "unet").config
    assert encoder.recipe.builder == "CLIPVisionConfig"
    assert unet["cross_attention_dim"] == encoder.config["projection_dim"]
    assert unet["in_channels"] == 9  # latents, masked image latents and the mask


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-legacy")


def components_of(folder):
    """Each component of a tiny checkpoint, loaded with its own class from its folder."""
    index = json.loads((folder / "model_index.json").read_text())
    loaded = {}
    for name, entry in index.items():
        if not (isinstance(entry, list) and len(entry) == 2):
            continue
        if entry[1] is None:  # an optional component the checkpoint leaves out
            loaded[name] = None
            continue
        class_name = entry[1]
        for recipe_class in (r.builds or k for k, r in tiny_table.RECIPES.items()):
            if recipe_class.rpartition(".")[2] == class_name:
                class_name = recipe_class  # a pipeline module's class: by its path
                break
        loaded[name] = generic.library_class(class_name).from_pretrained(folder / name)
    return loaded


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", sorted(DEPRECATED_LIBRARY))
def test_a_deprecated_pipelines_checkpoint_names_its_real_library_and_its_parts_run(
    tiny_cache, pipeline_class
):
    import diffusers
    from PIL import Image

    folder = build.checkpoint_for(pipeline_class, cache_override=tiny_cache)
    component, library = DEPRECATED_LIBRARY[pipeline_class]
    index = json.loads((folder / "model_index.json").read_text())
    assert index[component][0] == library
    # diffusers 0.42 refuses it as it refuses the real repo: that folder is gone
    with pytest.raises(ValueError, match=f"{library} is not one of the libraries"):
        getattr(diffusers, pipeline_class).from_pretrained(folder)
    pipe = getattr(diffusers, pipeline_class)(**components_of(folder))
    pipe.set_progress_bar_config(disable=True)
    image, mask = Image.new("RGB", (64, 64), (120, 30, 200)), Image.new("L", (64, 64), 255)
    extra = {"example_image": image, "image": image, "mask_image": mask}
    given = {"prompt": "a cat"} if "prompt" in inspect.signature(pipe).parameters else extra
    out = pipe(num_inference_steps=2, height=64, width=64, output_type="np", **given)
    assert out.images.shape == (1, 64, 64, 3)


@pytest.mark.slow
def test_dance_diffusion_builds_loads_and_makes_stereo_audio(tiny_cache):
    folder = build.checkpoint_for("DanceDiffusionPipeline", cache_override=tiny_cache)
    import diffusers

    pipe = diffusers.DiffusionPipeline.from_pretrained(folder)
    assert type(pipe).__name__ == "DanceDiffusionPipeline"
    pipe.set_progress_bar_config(disable=True)
    audio = pipe(num_inference_steps=2, audio_length_in_s=0.1).audios
    assert audio.shape[:2] == (1, 2)


def test_a_transformers_pipeline_without_model_stands_in_for_the_tasks_default():
    from transformers import pipelines

    from guidelint.runner.diffusers_backend import loading, transformers_hub

    # what transformers itself loads: Kandinsky 2.2 ControlNet's depth estimator
    assert transformers_hub.default_model(pipelines, "depth-estimation") == "Intel/dpt-large"
    with pytest.raises(loading.UnsupportedModel, match="no default model"):
        transformers_hub.default_model(pipelines, "no-such-task")
