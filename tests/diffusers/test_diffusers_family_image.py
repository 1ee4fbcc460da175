"""The SD3/SDXL-era image families (recipes/image.py): planned, built tiny and run for real."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, family_tokenizers  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny  # noqa: E402

MADE_BUILDABLE = [
    "KolorsPipeline",
    "KolorsImg2ImgPipeline",
    "KolorsPAGPipeline",
    "HunyuanDiTPipeline",
    "HunyuanDiTControlNetPipeline",
    "StableDiffusionDepth2ImgPipeline",
    "StableDiffusion3InpaintPipeline",
    "StableDiffusion3PAGPipeline",
    "PixArtSigmaPAGPipeline",
    "SanaPAGPipeline",
    "StableDiffusionControlNetXSPipeline",
    "StableDiffusionXLControlNetXSPipeline",
]


def slot_of(plan, name: str):
    return next(s for s in plan.slots if s.name == name)


def slot(pipeline_class: str, name: str):
    return slot_of(build._plan(pipeline_class), name)


@pytest.mark.parametrize("pipeline_class", MADE_BUILDABLE)
def test_each_image_pipeline_plans(pipeline_class):
    assert build.buildable(pipeline_class)


def test_sd3_latents_have_sixteen_channels_as_its_inpaint_pipeline_checks():
    assert slot("StableDiffusion3InpaintPipeline", "vae").config["latent_channels"] == 16
    assert slot("StableDiffusion3InpaintPipeline", "transformer").config["in_channels"] == 16


@pytest.mark.parametrize(
    ("pipeline_class", "named_block"),
    [("StableDiffusion3PAGPipeline", 13), ("PixArtSigmaPAGPipeline", 14), ("SanaPAGPipeline", 8)],
)
def test_pag_stand_ins_have_the_block_their_example_names(pipeline_class, named_block):
    assert slot(pipeline_class, "transformer").config["num_layers"] > named_block
    assert slot(pipeline_class.replace("PAG", ""), "transformer").config["num_layers"] == 1


def test_auto_pipeline_with_pag_gets_the_repo_class_built_with_pag_recipes():
    from guidelint.runner.diffusers_backend import loading

    auto = "AutoPipelineForText2Image"
    pag = loading.pag_class(auto, "StableDiffusion3Pipeline", {"enable_pag": True})
    assert pag == "StableDiffusion3PAGPipeline"
    assert loading.pag_class(auto, "StableDiffusion3Pipeline", {}) is None
    assert loading.pag_class("StableDiffusion3Pipeline", "X", {"enable_pag": True}) is None
    deep = build._plan("StableDiffusion3Pipeline", recipes_of=pag)
    assert deep.pipeline_class == "StableDiffusion3Pipeline"  # what AutoPipeline reads
    assert slot_of(deep, "transformer").config["num_layers"] > 13
    assert deep.key() != build._plan("StableDiffusion3Pipeline").key()
    hunyuan = build._plan("HunyuanDiTPipeline", recipes_of="HunyuanDiTPAGPipeline")
    assert slot_of(hunyuan, "transformer").config["num_layers"] > 14  # its example's block


def test_hunyuan_cross_attention_takes_bert_and_mt5_widths():
    transformer = slot("HunyuanDiTPipeline", "transformer").config
    assert (
        transformer["cross_attention_dim"]
        == slot("HunyuanDiTPipeline", "text_encoder").config["hidden_size"]
    )
    assert (
        transformer["cross_attention_dim_t5"]
        == slot("HunyuanDiTPipeline", "text_encoder_2").config["d_model"]
    )
    controlnet = slot("HunyuanDiTControlNetPipeline", "controlnet").config
    assert controlnet["transformer_num_layers"] == transformer["num_layers"]


@pytest.mark.parametrize(
    ("hub_id", "component", "pipeline"),
    [
        (
            "InstantX/FLUX.1-dev-Controlnet-Canny-alpha",
            "FluxControlNetModel",
            "FluxControlNetPipeline",
        ),
        (
            "UmerHA/Testing-ConrolNetXS-SDXL-canny",
            "ControlNetXSAdapter",
            "StableDiffusionXLControlNetXSPipeline",
        ),
        (
            "Tencent-Hunyuan/HunyuanDiT-v1.1-ControlNet-Diffusers-Canny",
            "HunyuanDiT2DControlNetModel",
            "HunyuanDiTControlNetPipeline",
        ),
    ],
)
def test_standalone_adapters_come_from_the_pipeline_they_steer(hub_id, component, pipeline):
    from guidelint.runner.diffusers_backend import resolve

    found = resolve.resolve_component(hub_id, component, models={})
    assert found.pipeline == pipeline


def test_xs_unets_have_the_two_resnets_per_block_controlnet_xs_pairs():
    for pipeline_class in (
        "StableDiffusionControlNetXSPipeline",
        "StableDiffusionXLControlNetXSPipeline",
    ):
        assert slot(pipeline_class, "unet").config["layers_per_block"] == 2


def test_chatglm_tokenizer_round_trips_through_its_saved_model_file(tmp_path):
    from diffusers.pipelines.kolors.tokenizer import ChatGLMTokenizer

    built = family_tokenizers.build_chatglm_tokenizer()
    built.save_pretrained(tmp_path)
    loaded = ChatGLMTokenizer.from_pretrained(tmp_path)
    ids = loaded("a cat photo").input_ids
    assert ids == built("a cat photo").input_ids
    assert max(ids) < family_tokenizers.chatglm_vocab_size()
    assert loaded.decode(ids[2:]) == "a cat photo"  # after the [gMASK] sop prefix
    model_file = Path(built.vocab_file)
    del built, loaded
    gc.collect()
    assert not model_file.parent.exists(), "the model file's temporary folder outlived it"


def test_bert_tokenizer_splits_words_and_knows_its_specials():
    built = family_tokenizers.build_bert_tokenizer()
    ids = built("A cat cab")["input_ids"]
    tokens = ["[CLS]", "a", "cat", "c", "##a", "##b", "[SEP]"]  # a word, else its letters
    assert built.convert_ids_to_tokens(ids) == tokens
    assert max(ids) < family_tokenizers.bert_vocab_size()


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-image")


@pytest.mark.slow
@pytest.mark.parametrize(
    "pipeline_class",
    ["KolorsPipeline", "StableDiffusion3InpaintPipeline", "StableDiffusionDepth2ImgPipeline"],
)
def test_image_families_build_load_and_run(tiny_cache, pipeline_class):
    pipe, output = run_tiny(pipeline_class, build.checkpoint_for(pipeline_class, tiny_cache))
    assert type(pipe).__name__ == pipeline_class
    assert output.images.shape[0] == 1
