"""The UNet-era image families (recipes/classic.py): planned from their own classes, built
tiny, loaded with their real classes and run."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILDABLE = [
    "KandinskyPipeline",
    "KandinskyImg2ImgPipeline",
    "KandinskyInpaintPipeline",
    "KandinskyCombinedPipeline",
    "KandinskyImg2ImgCombinedPipeline",
    "KandinskyInpaintCombinedPipeline",
    "KandinskyV22ControlnetPipeline",
    "KandinskyV22ControlnetImg2ImgPipeline",
    "Kandinsky3Pipeline",
    "Kandinsky3Img2ImgPipeline",
    "StableCascadePriorPipeline",
    "StableDiffusionImageVariationPipeline",
    "VersatileDiffusionImageVariationPipeline",
    "StableUnCLIPPipeline",
    "StableUnCLIPImg2ImgPipeline",
    "AmusedPipeline",
    "AmusedImg2ImgPipeline",
    "AmusedInpaintPipeline",
    "ShapEPipeline",
    "LDMTextToImagePipeline",
    "LDMPipeline",
    "StableDiffusionLDM3DPipeline",
]


def test_every_classic_pipeline_made_buildable_plans():
    assert [name for name in BUILDABLE if not build.buildable(name)] == []


def test_a_class_a_pipeline_module_defines_is_built_by_its_path():
    text_encoder = slot(generic.plan("KandinskyPipeline"), "text_encoder")
    assert text_encoder.key().startswith("MultilingualCLIP-")
    from diffusers.pipelines.kandinsky.text_encoder import MultilingualCLIP

    assert generic.library_class(text_encoder.class_name) is MultilingualCLIP


def test_kandinsky21_widths_follow_its_multilingual_clip():
    plan = generic.plan("KandinskyPipeline")
    mclip, unet = slot(plan, "text_encoder").config, slot(plan, "unet").config
    assert unet["encoder_hid_dim"] == mclip["transformerDimensions"]
    assert unet["cross_attention_dim"] == mclip["numDims"]
    assert unet["addition_embed_type"] == "text_image"


def test_amused_masks_with_the_transformers_last_token():
    plan = generic.plan("AmusedPipeline")
    transformer, scheduler = slot(plan, "transformer").config, slot(plan, "scheduler").config
    assert scheduler["mask_token_id"] == transformer["vocab_size"] - 1
    assert slot(plan, "vqvae").config["num_vq_embeddings"] == transformer["codebook_size"]


def test_a_slot_annotated_with_a_base_class_gets_the_checkpoints_class():
    plan = generic.plan("LDMTextToImagePipeline")
    assert slot(plan, "bert").class_name.endswith(".LDMBertModel")
    assert slot(plan, "tokenizer").class_name == "BertTokenizer"
    assert slot(plan, "unet").config["cross_attention_dim"] == slot(plan, "bert").config["d_model"]


@pytest.mark.parametrize(
    ("builder", "loaded_as", "specials"),
    [
        ("build_xlm_roberta_tokenizer", "XLMRobertaTokenizer", ("<s>", "</s>")),
        ("build_bert_tokenizer", "BertTokenizer", ("[CLS]", "[SEP]")),
    ],
)
def test_the_offline_tokenizers_load_with_the_real_classes(tmp_path, builder, loaded_as, specials):
    from transformers import AutoTokenizer

    from guidelint.runner.diffusers_backend import family_tokenizers as tokenizers

    getattr(tokenizers, builder)().save_pretrained(tmp_path)
    loaded = AutoTokenizer.from_pretrained(tmp_path)
    assert type(loaded).__name__ == loaded_as
    tokens = loaded.convert_ids_to_tokens(loaded("a photo of a cat").input_ids)
    assert (tokens[0], tokens[-1]) == specials
    assert loaded.unk_token not in tokens


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-classic")


def _extra(pipeline_class):
    """What a pipeline needs beyond run_tiny's common arguments."""
    import torch
    from PIL import Image

    return {
        "KandinskyV22ControlnetPipeline": {"hint": torch.zeros(1, 3, 64, 64)},
        "StableUnCLIPImg2ImgPipeline": {"image_embeds": None},  # the image, not embeddings
        # the mask is resized to the latent grid, a sixteenth of the image
        "AmusedInpaintPipeline": {
            "image": Image.new("RGB", (256, 256)),
            "mask_image": Image.new("L", (256, 256), 255),
        },
        "StableDiffusionLDM3DPipeline": {"output_type": "np"},
    }.get(pipeline_class, {})


# One per new component: the others share these builds.
RUN = [
    "KandinskyPipeline",
    "Kandinsky3Pipeline",
    "StableCascadePriorPipeline",
    "KandinskyV22ControlnetPipeline",
    "StableUnCLIPImg2ImgPipeline",
    "AmusedInpaintPipeline",
    "LDMTextToImagePipeline",
    "StableDiffusionLDM3DPipeline",
]


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", RUN)
def test_each_classic_family_builds_loads_and_runs(tiny_cache, pipeline_class):
    folder = build.checkpoint_for(pipeline_class, tiny_cache)
    pipe, output = run_tiny(pipeline_class, folder, **_extra(pipeline_class))
    assert type(pipe).__name__ == pipeline_class
    produced = next(
        getattr(output, name)
        for name in ("images", "rgb", "image_embeddings")
        if hasattr(output, name)
    )
    assert len(produced) == 1


def test_ledits_gets_the_scheduler_it_makes_of_a_stable_diffusion_checkpoint():
    for name, spacing in [
        ("LEditsPPPipelineStableDiffusion", None),
        ("LEditsPPPipelineStableDiffusionXL", "leading"),
    ]:
        scheduler = slot(generic.plan(name), "scheduler")
        assert scheduler.class_name == "DPMSolverMultistepScheduler"
        assert scheduler.config["algorithm_type"] == "sde-dpmsolver++"
        assert scheduler.config.get("timestep_spacing") == spacing
    xl_unet = slot(generic.plan("LEditsPPPipelineStableDiffusionXL"), "unet")
    assert xl_unet.config["addition_embed_type"] == "text_time"
