"""LoRA weights named by a hub id: a tiny LoRA made for the pipeline that loads it, loaded
by diffusers and PEFT for real; a known repo asked for a file it does not hold is
unsupported-model, not the example's error."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")
pytest.importorskip("peft")

from guidelint.runner.diffusers_backend import adapters, build, loading, state  # noqa: E402


@pytest.fixture(scope="module")
def sd_folder(tmp_path_factory):
    return build.checkpoint_for("StableDiffusionPipeline", tmp_path_factory.mktemp("tiny"))


def _image(pipe):
    import torch

    generator = torch.Generator().manual_seed(0)
    return pipe("a cat", num_inference_steps=2, output_type="np", generator=generator).images


@pytest.mark.slow  # builds and runs a tiny Stable Diffusion pipeline
def test_a_known_lora_repo_loads_a_tiny_lora_that_changes_the_forward(sd_folder, tmp_path):
    from diffusers import StableDiffusionPipeline

    pipe = StableDiffusionPipeline.from_pretrained(sd_folder)
    adapters.install()
    lines: list[str] = []
    state.set_current(
        state.State(record_fn=lines.append, gpu=False, cache_override=None, root=tmp_path)
    )
    try:
        before = _image(pipe)
        pipe.load_lora_weights("latent-consistency/lcm-lora-sdv1-5", adapter_name="lcm")
        loaded = _image(pipe)
        pipe.fuse_lora()
        fused = _image(pipe)
    finally:
        state.set_current(None)
    assert pipe.get_list_adapters() == {"unet": ["lcm"]}  # PEFT layers in the UNet
    assert abs(loaded - before).max() > 1e-4  # the adapter changes what the UNet computes
    assert abs(fused - loaded).max() < 1e-4  # fused into the weights: the same result
    assert any("hub id 'latent-consistency/lcm-lora-sdv1-5' -> a tiny rank-2" in s for s in lines)


def test_the_tiny_lora_has_diffusers_keys_for_every_attention_projection():
    import torch
    from diffusers.models.attention_processor import Attention

    block = torch.nn.Module()
    block.attn1 = Attention(query_dim=8, heads=2, dim_head=4)
    lora = adapters.lora_state_dict(block, "unet", "some/repo/file.safetensors")
    assert sorted(lora) == sorted(
        f"unet.attn1.{name}.lora_{half}.weight"
        for name in ("to_q", "to_k", "to_v", "to_out.0")
        for half in ("A", "B")
    )
    assert lora["unet.attn1.to_q.lora_A.weight"].shape == (adapters.LORA_RANK, 8)
    assert lora["unet.attn1.to_out.0.lora_B.weight"].shape == (8, adapters.LORA_RANK)
    again = adapters.lora_state_dict(block, "unet", "some/repo/file.safetensors")
    assert all(torch.equal(lora[k], again[k]) for k in lora)  # seeded by repo and file


@pytest.mark.slow  # builds and runs a tiny Stable Diffusion pipeline
def test_an_unknown_lora_repo_gets_a_lora_for_the_pipeline_that_loads_it(sd_folder, tmp_path):
    from diffusers import StableDiffusionPipeline

    pipe = StableDiffusionPipeline.from_pretrained(sd_folder)
    adapters.install()
    lines: list[str] = []
    state.set_current(
        state.State(record_fn=lines.append, gpu=False, cache_override=None, root=tmp_path)
    )
    try:
        before = _image(pipe)
        pipe.load_lora_weights(
            "someone/a-style-lora", weight_name="style.safetensors", adapter_name="style"
        )
        pipe.set_adapters(["style"], [0.8])
        loaded = _image(pipe)
    finally:
        state.set_current(None)
    assert pipe.get_list_adapters() == {"unet": ["style"]}
    assert abs(loaded - before).max() > 1e-4
    # the report names the repo and file, and says whose class the LoRA was made for
    said = next(s for s in lines if "someone/a-style-lora" in s)
    assert "weight_name='style.safetensors'" in said
    assert "does not know, so made for the class that loads it (StableDiffusionPipeline)" in said


def test_a_lora_outside_a_pipeline_loader_stays_unsupported_naming_why(tmp_path):
    adapters.install()
    import diffusers.loaders.lora_pipeline  # noqa: F401 - imported, so wrapped
    from diffusers.loaders import lora_base

    state.set_current(
        state.State(record_fn=lambda _line: None, gpu=False, cache_override=None, root=tmp_path)
    )
    try:
        with pytest.raises(loading.UnsupportedModel) as raised:
            lora_base._fetch_state_dict(
                "someone/a-style-lora", "style.safetensors", None, False, None, False,
                None, None, None, None, None, False,
            )  # fmt: skip
    finally:
        state.set_current(None)
    assert "LoRA weights from the hub repo 'someone/a-style-lora'" in str(raised.value)
    assert "cannot tell which model it is for" in str(raised.value)
    assert raised.value.guidelint_outcome == "unsupported-model"


@pytest.mark.slow
def test_a_known_repo_with_a_file_it_does_not_hold_stays_unsupported(sd_folder, tmp_path):
    from diffusers import StableDiffusionPipeline

    pipe = StableDiffusionPipeline.from_pretrained(sd_folder)
    adapters.install()
    state.set_current(
        state.State(record_fn=lambda _line: None, gpu=False, cache_override=None, root=tmp_path)
    )
    try:
        with pytest.raises(loading.UnsupportedModel) as raised:
            pipe.load_lora_weights("wangfuyun/AnimateLCM", weight_name="not-there.safetensors")
    finally:
        state.set_current(None)
    assert "knows this repo and its files ('AnimateLCM_sd15_t2v_lora.safetensors')" in str(
        raised.value
    )


def test_a_local_lora_file_is_not_touched(tmp_path):
    from diffusers.loaders import lora_base

    adapters.install()
    import diffusers.loaders.lora_pipeline  # noqa: F401 - imported, so wrapped

    state.set_current(
        state.State(record_fn=lambda _line: None, gpu=False, cache_override=None, root=tmp_path)
    )
    try:
        import torch

        weights = {"unet.x.lora_A.weight": torch.zeros(1)}
        found, _ = lora_base._fetch_state_dict(
            weights, None, None, False, None, False, None, None, None, None, None, False
        )
    finally:
        state.set_current(None)
    assert found is weights  # a state dict passed in is used as it is
