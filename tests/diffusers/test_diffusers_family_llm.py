"""Pipelines conditioned on decoder language models (recipes/llm.py): planned, built, run."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, family_tokenizers, generic  # noqa: E402
from tests.diffusers.tiny_pipelines import run_tiny, slot  # noqa: E402

BUILT = [
    "ZImagePipeline",
    "ZImageImg2ImgPipeline",
    "ZImageInpaintPipeline",
    "Flux2KleinPipeline",
    "Flux2KleinInpaintPipeline",
    "Flux2KleinKVPipeline",
    "LuminaPipeline",
    "Lumina2Pipeline",
    "BriaPipeline",
    "Krea2Pipeline",
]
# one per transformer family, the cheapest of each: what the slow test builds and runs
RUN = ["ZImagePipeline", "Flux2KleinPipeline", "LuminaPipeline", "Lumina2Pipeline", "BriaPipeline"]


def test_every_llm_family_pipeline_plans():
    assert [name for name in BUILT if not build.buildable(name)] == []


def test_a_generic_annotation_takes_the_class_the_checkpoint_ships():
    # text_encoder: PreTrainedModel, tokenizer: AutoTokenizer
    z_image = generic.plan("ZImagePipeline")
    assert slot(z_image, "text_encoder").class_name == "Qwen3Model"
    assert slot(z_image, "tokenizer").class_name == "Qwen2Tokenizer"
    transformer = slot(z_image, "transformer").config
    assert transformer["cap_feat_dim"] == slot(z_image, "text_encoder").config["hidden_size"]
    assert transformer["in_channels"] == slot(z_image, "vae").config["latent_channels"]
    lumina = generic.plan("LuminaPipeline")  # text_encoder: GemmaPreTrainedModel
    assert slot(lumina, "text_encoder").class_name == "GemmaForCausalLM"


def test_a_generic_annotation_no_table_names_stays_unbuildable():
    # the model-editing pipeline's `scheduler: SchedulerMixin` names only the base class,
    # and no table records the class its real checkpoint ships: refused, never filled with
    # a look-alike (Motif Video's and PRX Pixel's are recorded now: recipes/newimage.py)
    with pytest.raises(build.CannotBuild) as refused:
        build._plan("StableDiffusionModelEditingPipeline")
    assert refused.value.missing == "SchedulerMixin"


def test_widths_follow_the_stacked_text_layers():
    klein = generic.plan("Flux2KleinPipeline")
    encoder = slot(klein, "text_encoder").config
    transformer = slot(klein, "transformer").config
    assert encoder["num_hidden_layers"] > 27  # Klein reads hidden states 9, 18 and 27
    assert transformer["joint_attention_dim"] == 3 * encoder["hidden_size"]
    assert transformer["in_channels"] == 4 * slot(klein, "vae").config["latent_channels"]
    krea = generic.plan("Krea2Pipeline")
    text = slot(krea, "text_encoder").config["text_config"]
    assert slot(krea, "transformer").config["text_hidden_dim"] == text["hidden_size"]
    assert text["num_hidden_layers"] == 36  # Krea 2 reads up to hidden state 35


def test_the_qwen3_chat_template_closes_an_empty_think_block(tmp_path):
    from transformers import AutoTokenizer

    family_tokenizers.build_qwen3_tokenizer().save_pretrained(tmp_path)
    loaded = AutoTokenizer.from_pretrained(tmp_path)
    messages = [{"role": "user", "content": "a cat"}]
    text = loaded.apply_chat_template(
        messages, tokenize=False, add_generation_prompt=True, enable_thinking=False
    )
    prompt = "<|im_start|>user\na cat<|im_end|>\n<|im_start|>assistant\n"
    assert text == prompt + "<think>\n\n</think>\n\n"
    thinking = loaded.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert thinking == prompt
    assert len(loaded) == family_tokenizers.qwen3_vocab_size()
    assert loaded.convert_tokens_to_ids("</think>") < family_tokenizers.qwen3_vocab_size()


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-llm")


@pytest.mark.slow
@pytest.mark.parametrize("pipeline_class", RUN)
def test_each_llm_family_builds_loads_and_runs(tiny_cache, pipeline_class):
    pipe, output = run_tiny(pipeline_class, build.checkpoint_for(pipeline_class, tiny_cache))
    assert type(pipe).__name__ == pipeline_class
    images = output.images
    assert tuple(images.shape) == (1, 3, 64, 64)
    assert images.isfinite().all()
