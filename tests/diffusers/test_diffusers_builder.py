"""The generic tiny builder: plans read from pipeline classes, built, loaded and run for real."""

from __future__ import annotations

import copy
import json

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, cache, generic, tiny_table  # noqa: E402
from guidelint.runner.diffusers_backend.tiny_table import Dim, Recipe  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

PRIORITY = [
    "FluxPipeline",
    "StableDiffusion3Pipeline",
    "KandinskyV22PriorPipeline",
    "KandinskyV22Pipeline",
    "AnimateDiffPipeline",
    "StableDiffusionAdapterPipeline",
    "StableDiffusionXLControlNetImg2ImgPipeline",
    "PixArtSigmaPipeline",
    "IFPipeline",
    "DiTPipeline",
    "WanPipeline",
]


def test_the_priority_families_are_buildable():
    assert [name for name in PRIORITY if not build.buildable(name)] == []


def test_widths_are_settled_across_components():
    flux = generic.plan("FluxPipeline")
    latent = slot(flux, "vae").config["latent_channels"]
    transformer = slot(flux, "transformer").config
    assert transformer["in_channels"] == 4 * latent  # 2x2 patches packed into tokens
    assert transformer["joint_attention_dim"] == slot(flux, "text_encoder_2").config["d_model"]
    assert transformer["pooled_projection_dim"] == slot(flux, "text_encoder").config["hidden_size"]

    sd3 = generic.plan("StableDiffusion3Pipeline").slots
    projections = [
        s.config["projection_dim"]
        for s in sd3
        if s.name.startswith("text_encoder") and "projection_dim" in s.config
    ]
    transformer = next(s for s in sd3 if s.name == "transformer").config
    assert transformer["pooled_projection_dim"] == sum(projections)

    wan = generic.plan("WanPipeline")
    assert slot(wan, "transformer").config["in_channels"] == slot(wan, "vae").config["z_dim"]
    assert slot(wan, "tokenizer").class_name == "T5TokenizerFast"  # AutoTokenizer, by its encoder
    assert wan.nones == ("transformer_2",)


def test_a_component_shared_by_pipelines_is_one_build():
    keys = {
        name: slot(generic.plan(name), "transformer").key()
        for name in (
            "FluxPipeline",
            "FluxImg2ImgPipeline",
            "FluxInpaintPipeline",
            "FluxKontextPipeline",
        )
    }
    assert len(set(keys.values())) == 1, keys
    assert slot(generic.plan("FluxFillPipeline"), "transformer").key() not in keys.values()


def test_variants_follow_the_pipeline_class():
    assert slot(generic.plan("StableDiffusionInpaintPipeline"), "unet").config["in_channels"] == 9
    assert (
        slot(generic.plan("StableDiffusionInstructPix2PixPipeline"), "unet").config["in_channels"]
        == 8
    )
    sdxl = slot(generic.plan("StableDiffusionXLPipeline"), "unet").config
    assert sdxl["cross_attention_dim"] == 64 and sdxl["addition_embed_type"] == "text_time"


def test_a_width_two_components_disagree_on_is_cannot_build(monkeypatch):
    monkeypatch.setattr(generic, "_PLANS", {})  # plans of the patched table only
    monkeypatch.setitem(
        tiny_table.RECIPES,
        "T5EncoderModel",
        Recipe(
            "model", {**tiny_table.T5, "d_model": 48}, provides={"t5": "d_model", "text": "d_model"}
        ),
    )
    with pytest.raises(build.CannotBuild) as caught:
        build.checkpoint_for("FluxPipeline")
    assert caught.value.missing in ("T5EncoderModel", "CLIPTextModel")
    assert (
        "gives width 'text'" in caught.value.reason
        and "another component needs" in caught.value.reason
    )


def test_a_width_no_component_provides_is_cannot_build(monkeypatch):
    monkeypatch.setattr(generic, "_PLANS", {})  # plans of the patched table only
    monkeypatch.setitem(
        tiny_table.RECIPES, "DiTTransformer2DModel", Recipe("model", {"in_channels": Dim("t5")})
    )
    with pytest.raises(build.CannotBuild) as caught:
        build.checkpoint_for("DiTPipeline")
    assert caught.value.missing == "DiTTransformer2DModel"
    assert caught.value.reason == (
        "its config needs the width 't5', which no component of DiTPipeline provides "
        "(component 'transformer')"
    )
    assert not build.buildable("DiTPipeline")


@pytest.mark.parametrize(
    ("name", "missing"),
    [
        ("NoSuchPipeline", "NoSuchPipeline"),
        ("GlmImagePipeline", "GlmImageProcessor"),
        ("UNet2DConditionModel", "UNet2DConditionModel"),
    ],
)
def test_what_cannot_be_built_names_the_missing_class(name, missing):
    assert not build.buildable(name)
    with pytest.raises(build.CannotBuild) as caught:
        build.checkpoint_for(name)
    assert caught.value.missing == missing
    assert str(caught.value).startswith(f"no tiny {missing} can be built: ")


def test_the_offline_t5_tokenizer_loads_with_the_real_classes(tmp_path):
    from transformers import AutoTokenizer, T5TokenizerFast

    from guidelint.runner.diffusers_backend.family_tokenizers import (
        build_t5_tokenizer,
        t5_vocab_size,
    )

    build_t5_tokenizer().save_pretrained(tmp_path)
    for loader in (T5TokenizerFast, AutoTokenizer):
        tokenizer = loader.from_pretrained(tmp_path)
        ids = tokenizer("A photo of a cat", padding="max_length", max_length=16).input_ids
        assert len(ids) == 16 and max(ids) < t5_vocab_size()
        assert tokenizer.convert_ids_to_tokens(ids)[:4] == ["▁A", "▁photo", "▁of", "▁a"]
        assert tokenizer.unk_token_id not in ids


@pytest.mark.parametrize(
    ("builder", "loaded_as"),
    [
        ("build_qwen2_tokenizer", "Qwen2Tokenizer"),
        ("build_glm_tokenizer", "TokenizersBackend"),
        ("build_gemma_tokenizer", "GemmaTokenizer"),
        ("build_clip_tokenizer", "CLIPTokenizer"),
    ],
)
def test_each_offline_tokenizer_round_trips_through_auto_tokenizer(tmp_path, builder, loaded_as):
    from transformers import AutoTokenizer

    from guidelint.runner.diffusers_backend import family_tokenizers as tokenizers

    getattr(tokenizers, builder)().save_pretrained(tmp_path)
    loaded = AutoTokenizer.from_pretrained(tmp_path)
    assert type(loaded).__name__ == loaded_as
    ids = loaded("a photo of a cat").input_ids
    assert ids and loaded.decode(ids, skip_special_tokens=True).strip() == "a photo of a cat"


def test_the_glm_tokenizer_gives_an_empty_prompt_tokens():
    from guidelint.runner.diffusers_backend.family_tokenizers import GLM_PREFIX, build_glm_tokenizer

    tokenizer = build_glm_tokenizer()
    assert tokenizer.convert_ids_to_tokens(tokenizer("").input_ids) == GLM_PREFIX


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny")


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", PRIORITY)
def test_each_priority_family_builds_loads_and_runs(tiny_cache, pipeline_class):
    folder = build.checkpoint_for(pipeline_class, tiny_cache)
    assert folder.parent.parent == cache.cache_dir(tiny_cache)  # keyed by the versions
    index = json.loads((folder / "model_index.json").read_text())
    assert index["_class_name"] == pipeline_class
    assert build.checkpoint_for(pipeline_class, tiny_cache) == folder  # cached

    pipe, output = run_tiny(pipeline_class, folder)
    assert type(pipe).__name__ == pipeline_class
    produced = next(
        getattr(output, name)
        for name in ("images", "frames", "image_embeds")
        if hasattr(output, name)
    )
    assert produced.shape[0] == 1
    if pipeline_class == "DiTPipeline":
        assert pipe.labels["umbrella"] == 879  # id2label kept in model_index.json


MORE = [
    "FluxFillPipeline",
    "FluxControlNetPipeline",
    "StableDiffusion3ControlNetPipeline",
    "ChromaPipeline",
    "AuraFlowPipeline",
    "CogVideoXPipeline",
    "LTXPipeline",
    "SanaPipeline",
    "QwenImagePipeline",
    "CogView4Pipeline",
]


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", MORE)
def test_families_with_other_encoders_build_andrun_tiny(tiny_cache, pipeline_class):
    pipe, output = run_tiny(pipeline_class, build.checkpoint_for(pipeline_class, tiny_cache))
    assert type(pipe).__name__ == pipeline_class
    produced = output.images if hasattr(output, "images") else output.frames
    assert produced.shape[0] == 1


@pytest.mark.slow
def test_rebuilding_gives_byte_identical_files(tmp_path):
    first = build.checkpoint_for("PixArtSigmaPipeline", tmp_path / "a")
    second = build.checkpoint_for("PixArtSigmaPipeline", tmp_path / "b")

    def files(folder):
        return {
            p.relative_to(folder).as_posix(): p.read_bytes()
            for p in folder.rglob("*")
            if p.is_file()
        }

    assert files(first) == files(second)
    assert any(path.endswith(".safetensors") for path in files(first))


@pytest.mark.slow
def test_a_single_model_loads_from_its_component_checkpoint(tmp_path):
    from diffusers import FluxTransformer2DModel

    folder = build.component_checkpoint("FluxTransformer2DModel", tmp_path)
    model = FluxTransformer2DModel.from_pretrained(folder)
    assert model.config.in_channels == 4 * tiny_table.VAE_KL["latent_channels"]
    with pytest.raises(build.CannotBuild, match="no tiny recipe"):
        build.component_checkpoint("NoSuchModel", tmp_path)


def test_a_recipe_two_areas_define_is_refused(monkeypatch):
    from guidelint.runner.diffusers_backend.recipes import video

    monkeypatch.setitem(video.RECIPES, "CLIPTextModel", Recipe("model"))
    with pytest.raises(RuntimeError, match="'CLIPTextModel' is defined twice"):
        tiny_table._merged({"CLIPTextModel": Recipe("model")}, "RECIPES")


@pytest.mark.parametrize(
    ("pipeline_class", "slot", "built"),
    [
        ("HunyuanImagePipeline", "guider", "AdaptiveProjectedMixGuidance"),
        ("HunyuanImagePipeline", "ocr_guider", "AdaptiveProjectedMixGuidance"),
        ("HunyuanVideo15Pipeline", "guider", "ClassifierFreeGuidance"),
        ("MotifVideoPipeline", "guider", "ClassifierFreeGuidance"),  # annotated BaseGuidance
    ],
)
def test_a_guider_slot_takes_a_guider_of_its_annotation(pipeline_class, slot, built):
    allowed = generic.slot_classes(generic.pipeline_type(pipeline_class))[slot]
    key = generic.choose_recipe(pipeline_class, slot, allowed)
    guider = generic.Slot(slot, key, generic.recipe_at(key), {})
    assert guider.recipe.kind == "guider"
    assert guider.class_name == built


def test_a_guider_is_made_from_its_config_and_loads_as_a_pipeline_component(tmp_path):
    import diffusers

    key = generic.choose_recipe("MotifVideoPipeline", "guider", ("BaseGuidance",))
    made = generic.component(generic.Slot("guider", key, generic.recipe_at(key), {}), tmp_path, {})

    class GuidedPipeline(diffusers.DiffusionPipeline):
        def __init__(self, guider: diffusers.guiders.BaseGuidance) -> None:
            super().__init__()
            self.register_modules(guider=guider)

    GuidedPipeline(guider=made).save_pretrained(tmp_path / "pipeline")
    loaded = GuidedPipeline.from_pretrained(tmp_path / "pipeline").guider
    assert type(loaded) is diffusers.ClassifierFreeGuidance
    assert loaded.guidance_scale == made.guidance_scale == 7.5  # its default, saved and read back
    with pytest.raises(build.CannotBuild, match="a guider has no weights"):
        build.component_checkpoint("ClassifierFreeGuidance", tmp_path)


def test_building_a_component_leaves_its_cached_plan_as_it_was():
    # transformers' Qwen2.5-VL config adds `rope_theta` into the `rope_scaling` dict it is
    # given; plans are cached per process, so a build from the plan's own dict changed the
    # plan (and its cache key) for every later caller in the process
    plan = generic.plan("QwenImageEditInpaintPipeline")
    encoder = next(s for s in plan.slots if s.name == "text_encoder")
    before = copy.deepcopy(encoder.config)
    generic.make(encoder, {})
    assert generic.plan("QwenImageEditInpaintPipeline") is plan
    assert encoder.config == before
