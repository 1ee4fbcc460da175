"""LoRA weights named by a hub id are unsupported-model, not the example's error."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")
pytest.importorskip("peft")

from guidelint.runner.diffusers_backend import adapters, build, loading, state  # noqa: E402


@pytest.mark.slow  # builds a tiny Stable Diffusion pipeline
def test_a_lora_repo_from_the_hub_is_unsupported_model_naming_it(tmp_path):
    from diffusers import StableDiffusionPipeline

    pipe = StableDiffusionPipeline.from_pretrained(
        build.checkpoint_for("StableDiffusionPipeline", tmp_path / "tiny")
    )
    adapters.install()
    state.set_current(
        state.State(record_fn=lambda _line: None, gpu=False, cache_override=None, root=tmp_path)
    )
    try:
        with pytest.raises(loading.UnsupportedModel) as raised:
            pipe.load_lora_weights("someone/a-style-lora", weight_name="style.safetensors")
    finally:
        state.set_current(None)
    assert "LoRA weights from the hub repo 'someone/a-style-lora'" in str(raised.value)
    assert "weight_name='style.safetensors'" in str(raised.value)
    assert raised.value.guidelint_outcome == "unsupported-model"


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
