"""Flux 2 dev (recipes/flux2.py): planned with its Mistral 3 text model and Pixtral
processor; built as far as this machine allows; run with a prompt given by keyword."""

from __future__ import annotations

import importlib.util

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, family_tokenizers, generic  # noqa: E402
from guidelint.runner.diffusers_backend.recipes import flux2  # noqa: E402
from tests.diffusers.tiny_pipelines import slot  # noqa: E402

HAS_TORCHVISION = importlib.util.find_spec("torchvision") is not None
PROMPT = "A cat holding a sign that says hello world"  # the docstring example's


def test_flux2_dev_plans_with_the_classes_its_checkpoint_ships():
    assert build.buildable("Flux2Pipeline")
    plan = generic.plan("Flux2Pipeline")
    assert slot(plan, "text_encoder").class_name == "Mistral3ForConditionalGeneration"
    assert slot(plan, "tokenizer").class_name == "PixtralProcessor"  # `tokenizer: AutoProcessor`
    assert slot(plan, "transformer").config["guidance_embeds"]  # dev embeds its guidance


def test_widths_follow_the_three_stacked_mistral_layers():
    plan = generic.plan("Flux2Pipeline")
    encoder = slot(plan, "text_encoder").config
    transformer = slot(plan, "transformer").config
    text = encoder["text_config"]
    # the pipeline reads hidden states 10, 20, 30: each a layer's output, not the final norm
    assert text["num_hidden_layers"] > max(flux2.DEV_LAYERS)
    assert transformer["joint_attention_dim"] == len(flux2.DEV_LAYERS) * text["hidden_size"]
    assert transformer["in_channels"] == 4 * slot(plan, "vae").config["latent_channels"]
    vocab = family_tokenizers.mistral_vocabulary()
    assert text["vocab_size"] == len(vocab)
    assert encoder["image_token_index"] == vocab["[IMG]"]
    assert text["pad_token_id"] == vocab["<pad>"]


def test_the_mistral_tokenizer_writes_the_flux2_prompt_in_mistral_s_chat_layout(tmp_path):
    from diffusers.pipelines.flux2.pipeline_flux2 import SYSTEM_MESSAGE, format_input
    from transformers import AutoTokenizer

    family_tokenizers.build_mistral_tokenizer().save_pretrained(tmp_path)
    loaded = AutoTokenizer.from_pretrained(tmp_path)
    messages = format_input(prompts=[PROMPT])
    text = loaded.apply_chat_template(messages[0], tokenize=False)
    assert text == f"<s>[SYSTEM_PROMPT]{SYSTEM_MESSAGE}[/SYSTEM_PROMPT][INST]{PROMPT}[/INST]"
    ids = loaded.apply_chat_template(
        messages, tokenize=True, return_dict=True, padding="max_length", max_length=512
    )["input_ids"][0]
    assert ids[0] == loaded.bos_token_id == 1
    assert ids[-1] == loaded.pad_token_id == 11  # padded to the pipeline's 512 tokens
    assert len(loaded) == family_tokenizers.mistral_vocab_size()


@pytest.mark.skipif(HAS_TORCHVISION, reason="the processor builds where torchvision is")
def test_without_torchvision_the_processor_fails_as_the_real_one_loads(tmp_path):
    # transformers declares PixtralProcessor itself to need torchvision: loading the real
    # FLUX.2-dev processor meets this ImportError, and so does building the tiny one
    import transformers

    with pytest.raises(ImportError, match="PixtralProcessor requires the Torchvision library"):
        transformers.PixtralProcessor.from_pretrained(tmp_path)
    with pytest.raises(ImportError, match="PixtralProcessor requires the Torchvision library"):
        build.checkpoint_for("Flux2Pipeline", tmp_path)


@pytest.mark.slow
def test_flux2_dev_runs_with_a_keyword_prompt_and_refuses_a_positional_one(tmp_path):
    """The real __call__ on the tiny components. Without torchvision the processor is
    replaced by its own tokenizer (all the prompt path calls is `apply_chat_template`)."""
    import diffusers
    import torch
    from transformers import AutoTokenizer

    plan = generic.plan("Flux2Pipeline")
    components: dict = {}
    for part in plan.slots:
        if part.name == "tokenizer" and not HAS_TORCHVISION:
            family_tokenizers.build_mistral_tokenizer().save_pretrained(tmp_path / "tokenizer")
            components["tokenizer"] = AutoTokenizer.from_pretrained(tmp_path / "tokenizer")
        else:
            components[part.name] = generic.component(part, tmp_path / "components", components)
    pipe = diffusers.Flux2Pipeline(**components)
    pipe.set_progress_bar_config(disable=True)
    output = pipe(
        prompt=PROMPT,
        num_inference_steps=2,
        guidance_scale=2.5,
        height=64,
        width=64,
        output_type="pt",
        generator=torch.manual_seed(0),
    )
    assert tuple(output.images.shape) == (1, 3, 64, 64)
    assert output.images.isfinite().all()
    # the docstring example's `pipe(prompt, ...)`: __call__'s first parameter is `image`
    with pytest.raises(ValueError, match="Provide either `prompt` or `prompt_embeds`"):
        pipe(PROMPT, num_inference_steps=2, height=64, width=64)
