"""SkyReels-V2 diffusion forcing's and HunyuanVideo 1.5's attention without their dense
masks: the same output as diffusers' own code to float32 rounding, and diffusers' own code
wherever the lean path does not apply (no example running, a GPU, autograd, frames a
block does not divide)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("diffusers")

import torch  # noqa: E402

from guidelint.runner.diffusers_backend import maskless, state  # noqa: E402
from guidelint.runner.diffusers_backend.recipes import hunyuan15  # noqa: E402
from guidelint.runner.diffusers_backend.recipes.parts import WAN, Dim  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def installed():
    maskless.install()


def run(model, args, kwargs, gpu: bool | None = False) -> tuple[torch.Tensor, list[str]]:
    """The model's output with an example's state on the CPU path (gpu False), on the GPU
    path (True), or with no example running (None)."""
    lines: list[str] = []
    made = None
    if gpu is not None:
        made = state.State(record_fn=lines.append, gpu=gpu, cache_override=None, root=Path("."))
    state.set_current(made)
    try:
        with torch.no_grad():
            return model(*args, **kwargs, return_dict=False)[0], lines
    finally:
        state.set_current(None)


def skyreels_df(frames_per_block: int = 5):
    from diffusers import SkyReelsV2Transformer3DModel

    torch.manual_seed(0)
    config = {key: value for key, value in WAN.items() if not isinstance(value, Dim)}
    model = SkyReelsV2Transformer3DModel(**config, text_dim=32, in_channels=16, out_channels=16)
    model._set_ar_attention(frames_per_block)  # what the pipeline does with causal_block_size
    return model.eval()


def skyreels_inputs(frames: int):
    generator = torch.Generator().manual_seed(1)
    video = torch.randn(2, 16, frames, 8, 12, generator=generator)
    timesteps = torch.randint(0, 1000, (2, frames), generator=generator)  # one a latent frame
    text = torch.randn(2, 7, 32, generator=generator)
    return (video, timesteps, text), {"enable_diffusion_forcing": True}


def test_skyreels_block_causal_attention_matches_the_dense_mask():
    model = skyreels_df()
    args, kwargs = skyreels_inputs(frames=10)  # two blocks of five latent frames
    own, _ = run(model, args, kwargs, gpu=None)
    lean, lines = run(model, args, kwargs)
    assert lean.shape == own.shape == (2, 16, 10, 8, 12)
    torch.testing.assert_close(lean, own, rtol=1e-5, atol=1e-5)
    assert lines == [maskless.BLOCKS_NOTE]
    assert model.config.num_frame_per_block == 5  # restored after the call


def test_skyreels_lean_path_computes_fewer_pairs_and_no_pair_table(monkeypatch):
    seen: list[tuple[int, int, bool]] = []
    original = torch.nn.functional.scaled_dot_product_attention

    def spy(query, key, value, attn_mask=None, *args, **kwargs):
        seen.append((query.shape[-2], key.shape[-2], attn_mask is not None))
        return original(query, key, value, attn_mask, *args, **kwargs)

    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", spy)
    run(skyreels_df(), *skyreels_inputs(frames=10))
    self_attention = [(queries, keys) for queries, keys, _ in seen if keys != 7]  # not the text
    tokens_a_block = 5 * 4 * 6  # five latent frames of 4x6 patches
    assert self_attention == [
        (tokens_a_block, tokens_a_block),
        (tokens_a_block, 2 * tokens_a_block),
    ]
    assert not any(masked for _, _, masked in seen)


def test_skyreels_frames_a_block_does_not_divide_keep_diffusers_code():
    model = skyreels_df()
    args, kwargs = skyreels_inputs(frames=7)
    with pytest.raises(RuntimeError):  # diffusers' own mask cannot be shaped either
        run(model, args, kwargs)


def test_skyreels_gpu_path_and_autograd_keep_diffusers_code():
    model = skyreels_df()
    args, kwargs = skyreels_inputs(frames=10)
    own, _ = run(model, args, kwargs, gpu=None)
    on_gpu, gpu_lines = run(model, args, kwargs, gpu=True)
    assert torch.equal(on_gpu, own) and gpu_lines == []
    lines: list[str] = []
    state.set_current(
        state.State(record_fn=lines.append, gpu=False, cache_override=None, root=Path("."))
    )
    try:
        model(*args, **kwargs, return_dict=False)[0].sum().backward()
    finally:
        state.set_current(None)
    assert lines == []


def hunyuan15_dit():
    from diffusers import HunyuanVideo15Transformer3DModel

    torch.manual_seed(0)
    widths = {"text_embed_dim": 32, "text_embed_2_dim": 16, "image_embed_dim": 24}
    config = {**hunyuan15.HUNYUAN_VIDEO15, **widths, "in_channels": 9, "out_channels": 4}
    return HunyuanVideo15Transformer3DModel(**config).eval()


def hunyuan15_inputs():
    generator = torch.Generator().manual_seed(1)
    text_mask = torch.ones(2, 10, dtype=torch.long)
    text_mask[0, 6:] = 0  # prompts of different lengths: padding the mask drops
    text_mask[1, 3:] = 0
    byt5_mask = torch.ones(2, 7, dtype=torch.long)
    byt5_mask[:, 4:] = 0
    kwargs = {
        "encoder_hidden_states": torch.randn(2, 10, 32, generator=generator),
        "encoder_attention_mask": text_mask,
        "encoder_hidden_states_2": torch.randn(2, 7, 16, generator=generator),
        "encoder_attention_mask_2": byt5_mask,
        "image_embeds": torch.zeros(2, 5, 24),  # text-to-video: zero image states
    }
    return (torch.randn(2, 9, 3, 4, 6, generator=generator), torch.tensor([500.0, 500.0])), kwargs


def test_hunyuan15_key_padded_attention_matches_the_dense_mask():
    model = hunyuan15_dit()
    args, kwargs = hunyuan15_inputs()
    own, _ = run(model, args, kwargs, gpu=None)
    lean, lines = run(model, args, kwargs)
    assert lean.shape == own.shape == (2, 4, 3, 4, 6)
    torch.testing.assert_close(lean, own, rtol=1e-5, atol=1e-5)
    assert lines == [maskless.HUNYUAN15_NOTE]


def test_a_query_the_mask_drops_gets_what_torchs_attention_gives_it():
    from diffusers.models.attention_dispatch import dispatch_attention_fn

    generator = torch.Generator().manual_seed(2)
    query, key, value = (torch.randn(2, 9, 1, 4, generator=generator) for _ in range(3))
    keep = torch.tensor([[True] * 9, [True] * 6 + [False] * 3])
    dense = keep[:, None, None, :] & keep[:, None, :, None]  # diffusers' pair table
    expected = dispatch_attention_fn(query, key, value, attn_mask=dense)
    lean = maskless.key_padded_attention(dispatch_attention_fn, query, key, value, keep)
    torch.testing.assert_close(lean, expected, rtol=1e-5, atol=1e-6)
