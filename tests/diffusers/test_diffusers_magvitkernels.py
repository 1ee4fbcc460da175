"""EasyAnimate's MagViT on oneDNN: the same video and latents as its own kernels to
float32 rounding, and its own kernels wherever the fast path does not apply."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("diffusers")

import torch  # noqa: E402

from guidelint.runner.diffusers_backend import magvitkernels, state, tiny_table  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def installed():
    if not torch.backends.mkldnn.is_available():
        pytest.skip("this torch build has no oneDNN")
    magvitkernels.install()


def example_state(gpu: bool = False) -> tuple[state.State, list[str]]:
    recorded: list[str] = []
    made = state.State(record_fn=recorded.append, gpu=gpu, cache_override=None, root=Path("."))
    return made, recorded


def tiny_magvit():
    from diffusers import AutoencoderKLMagvit

    torch.manual_seed(0)
    config = dict(tiny_table.RECIPES["AutoencoderKLMagvit"].config)
    config.pop("cache_mag_vae")  # a checkpoint key, not an __init__ argument
    return AutoencoderKLMagvit(**config).eval()


def run(vae, video, with_state: state.State | None):
    """The example's two VAE passes (encode a video, decode its latents), with an
    example's state or, with None, as diffusers runs them."""
    state.set_current(with_state)
    try:
        with torch.no_grad():
            latents = vae.encode(video).latent_dist.mode()
            return latents, vae.decode(latents).sample
    finally:
        state.set_current(None)


def test_onednn_gives_the_same_latents_and_video():
    vae, video = tiny_magvit(), torch.rand(1, 3, 9, 64, 48) * 2 - 1
    own_latents, own_video = run(vae, video, None)
    cpu_state, lines = example_state()
    latents, decoded = run(vae, video, cpu_state)
    assert latents.shape == own_latents.shape == (1, 4, 3, 8, 6)  # 8x in space, 4x in time
    assert decoded.shape == own_video.shape == (1, 3, 9, 64, 48)
    torch.testing.assert_close(latents, own_latents, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(decoded, own_video, rtol=1e-5, atol=1e-5)
    assert lines == [magvitkernels.NOTE]


def test_the_gpu_path_and_autograd_keep_diffusers_kernels():
    vae, video = tiny_magvit(), torch.rand(1, 3, 5, 32, 32)
    own_latents, own_video = run(vae, video, None)
    gpu_state, gpu_lines = example_state(gpu=True)
    latents, decoded = run(vae, video, gpu_state)
    assert torch.equal(latents, own_latents) and torch.equal(decoded, own_video)
    cpu_state, cpu_lines = example_state()
    state.set_current(cpu_state)
    try:
        with torch.enable_grad():
            vae.decode(own_latents.requires_grad_())
    finally:
        state.set_current(None)
    assert gpu_lines == cpu_lines == []
