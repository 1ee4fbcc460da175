"""The Wan VAE on torch's fast CPU kernels: the same video and latents as its own
kernels to float32 rounding, and its own kernels wherever the fast path does not apply."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("diffusers")

import torch  # noqa: E402

from guidelint.runner.diffusers_backend import state, tiny_table, wankernels  # noqa: E402
from guidelint.runner.diffusers_backend.recipes import coarse  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def installed():
    if not torch.backends.mkldnn.is_available():
        pytest.skip("this torch build has no oneDNN")
    wankernels.install()


def example_state(gpu: bool = False) -> tuple[state.State, list[str]]:
    recorded: list[str] = []
    made = state.State(record_fn=recorded.append, gpu=gpu, cache_override=None, root=Path("."))
    return made, recorded


def tiny_wan_vae():
    from diffusers import AutoencoderKLWan

    torch.manual_seed(0)
    return AutoencoderKLWan(**tiny_table.RECIPES["AutoencoderKLWan"].config).eval()


def round_trip(vae, video):
    """The example's two VAE passes: encode a video, decode its latents."""
    latents = vae.encode(video).latent_dist.mode()
    return latents, vae.decode(latents).sample


def run(vae, video, with_state: state.State | None):
    state.set_current(with_state)
    try:
        with torch.no_grad():
            return round_trip(vae, video)
    finally:
        state.set_current(None)


def test_the_fast_kernels_give_the_same_video_and_latents():
    vae, video = tiny_wan_vae(), torch.randn(1, 3, 9, 48, 64)
    own_latents, own_video = run(vae, video, None)  # no example running: diffusers' kernels
    cpu_state, lines = example_state()
    latents, decoded = run(vae, video, cpu_state)
    assert latents.shape == own_latents.shape == (1, 16, 3, 6, 8)
    assert decoded.shape == own_video.shape == (1, 3, 9, 48, 64)
    torch.testing.assert_close(latents, own_latents, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(decoded, own_video, rtol=1e-5, atol=1e-5)
    assert lines == [wankernels.NOTE]


def test_the_coarse_vae_gives_the_same_video_and_latents():
    """The 16x stand-in (two channels, one residual block a decoder level): its levels
    after an upsampling start from one channel (frames read as three time taps) and its
    upsampled frames are channels-last."""
    from diffusers import AutoencoderKLWan

    torch.manual_seed(0)
    vae = AutoencoderKLWan(**coarse.RECIPES["AutoencoderKLWan/coarse"].config).eval()
    video = torch.randn(1, 3, 9, 64, 96)
    own_latents, own_video = run(vae, video, None)
    cpu_state, lines = example_state()
    latents, decoded = run(vae, video, cpu_state)
    assert latents.shape == own_latents.shape == (1, 16, 3, 4, 6)
    assert decoded.shape == own_video.shape == (1, 3, 9, 64, 96)
    torch.testing.assert_close(latents, own_latents, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(decoded, own_video, rtol=1e-5, atol=1e-5)
    assert lines == [wankernels.NOTE]


def test_a_one_channel_convolution_is_conv3d_over_three_time_taps():
    from diffusers.models.autoencoders.autoencoder_kl_wan import WanCausalConv3d

    torch.manual_seed(0)
    conv = WanCausalConv3d(1, 2, 3, padding=1).eval()
    frames = torch.randn(2, 1, 6, 7, 9)  # two cached frames and four new ones, a batch of 2
    expected = torch.nn.functional.conv3d(frames, conv.weight, conv.bias, padding=(0, 1, 1))
    with torch.no_grad():
        assert wankernels._one_channel_in_time(conv, frames)
        taps = wankernels._frames_as_channels(conv, frames, 1, 1)
    assert taps.shape == expected.shape == (2, 2, 4, 7, 9)
    torch.testing.assert_close(taps, expected, rtol=1e-5, atol=1e-5)


def test_the_norm_is_f_normalize_over_channels():
    tensor = torch.randn(2, 3, 4, 5, 6)
    tensor[0, :, 0, 0, 0] = 0.0  # a zero vector: clamped at the same eps, not a division by 0
    expected = torch.nn.functional.normalize(tensor, dim=1)
    torch.testing.assert_close(wankernels.normalized_channels(tensor), expected)


def test_the_gpu_path_and_autograd_keep_diffusers_kernels():
    vae, video = tiny_wan_vae(), torch.randn(1, 3, 5, 32, 32)
    with torch.no_grad():
        own = vae.decode(torch.randn(1, 16, 2, 4, 4, generator=torch.Generator().manual_seed(1)))
    gpu_state, gpu_lines = example_state(gpu=True)
    state.set_current(gpu_state)
    try:
        with torch.no_grad():
            latents = torch.randn(1, 16, 2, 4, 4, generator=torch.Generator().manual_seed(1))
            assert torch.equal(vae.decode(latents).sample, own.sample)
    finally:
        state.set_current(None)
    cpu_state, cpu_lines = example_state()
    state.set_current(cpu_state)
    try:
        decoded = vae.decode(vae.encode(video).latent_dist.mode()).sample  # autograd on
        decoded.sum().backward()
    finally:
        state.set_current(None)
    assert vae.decoder.conv_out.weight.grad is not None
    assert gpu_lines == [] and cpu_lines == []
