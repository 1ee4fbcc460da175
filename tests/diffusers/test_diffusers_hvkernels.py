"""The HunyuanVideo VAE's causal convolutions on oneDNN in channels-last order: the same
video and latents as its own kernels to float32 rounding, and its own kernels wherever
the fast path does not apply."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("diffusers")

import torch  # noqa: E402

from guidelint.runner.diffusers_backend import hvkernels, state, tiny_table  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def installed():
    if not torch.backends.mkldnn.is_available():
        pytest.skip("this torch build has no oneDNN")
    hvkernels.install()


def example_state(gpu: bool = False) -> tuple[state.State, list[str]]:
    recorded: list[str] = []
    made = state.State(record_fn=recorded.append, gpu=gpu, cache_override=None, root=Path("."))
    return made, recorded


def tiny_hunyuan_vae(key: str = "AutoencoderKLHunyuanVideo"):
    from diffusers import AutoencoderKLHunyuanVideo

    torch.manual_seed(0)
    return AutoencoderKLHunyuanVideo(**tiny_table.RECIPES[key].config).eval()


def run(vae, video, with_state: state.State | None):
    """The example's two VAE passes, encode then decode, with or without an example's state."""
    state.set_current(with_state)
    try:
        with torch.no_grad():
            latents = vae.encode(video).latent_dist.mode()
            return latents, vae.decode(latents).sample
    finally:
        state.set_current(None)


def worst_error(got, exact) -> float:
    """The largest difference from the float64 result, over that result's largest value."""
    return ((got.double() - exact).abs().max() / exact.abs().max()).item()


@pytest.mark.slow  # two round trips of each VAE, one in float64: 5-7 s each
@pytest.mark.parametrize(
    ("key", "size", "latent_size"),
    [
        ("AutoencoderKLHunyuanVideo", (48, 64), (6, 8)),  # 8x: HunyuanVideo, FramePack
        ("AutoencoderKLHunyuanVideo/coarse", (64, 96), (2, 3)),  # 32x: Kandinsky 5
    ],
)
def test_the_fast_kernels_give_the_same_video_and_latents(key, size, latent_size):
    """Against the same VAE in float64: the fast kernels' float32 error is of the size of
    diffusers' own (measured 0.7-4.3e-5 of the largest value for both, the group norms
    over a 2x3 latent amplifying each convolution's rounding), not a different formula."""
    vae, video = tiny_hunyuan_vae(key), torch.randn(1, 3, 9, *size)
    own_latents, own_video = run(vae, video, None)  # no example running: diffusers' kernels
    cpu_state, lines = example_state()
    latents, decoded = run(vae, video, cpu_state)
    exact_latents, exact_video = run(tiny_hunyuan_vae(key).double(), video.double(), None)
    assert latents.shape == own_latents.shape == (1, 4, 3, *latent_size)
    assert decoded.shape == own_video.shape == (1, 3, 9, *size)
    assert decoded.is_contiguous()  # diffusers' next layers see the layout they expect
    for fast, own, exact in (
        (latents, own_latents, exact_latents),
        (decoded, own_video, exact_video),
    ):
        assert worst_error(own, exact) < 1e-4
        assert worst_error(fast, exact) < 1e-4
    assert lines == [hvkernels.NOTE]


def test_a_strided_convolution_is_nn_conv3d():
    """The encoder's downsamplers: stride 2 in space and time, the output channels-first."""
    torch.manual_seed(2)
    conv = torch.nn.Conv3d(2, 3, 3, stride=(2, 2, 2))
    padded = torch.randn(1, 2, 7, 10, 12)
    with torch.no_grad():
        expected = conv(padded)
        got = hvkernels.channels_last_convolution(conv, padded)
    assert got.shape == expected.shape and got.is_contiguous()
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)


def test_the_gpu_path_and_autograd_keep_diffusers_kernels():
    vae, video = tiny_hunyuan_vae(), torch.randn(1, 3, 5, 32, 32)

    def latents():
        return torch.randn(1, 4, 2, 4, 4, generator=torch.Generator().manual_seed(1))

    with torch.no_grad():
        own = vae.decode(latents()).sample
    gpu_state, gpu_lines = example_state(gpu=True)
    state.set_current(gpu_state)
    try:
        with torch.no_grad():
            assert torch.equal(vae.decode(latents()).sample, own)
    finally:
        state.set_current(None)
    cpu_state, cpu_lines = example_state()
    state.set_current(cpu_state)
    try:
        decoded = vae.decode(vae.encode(video).latent_dist.mode()).sample  # autograd on
        decoded.sum().backward()
    finally:
        state.set_current(None)
    assert vae.decoder.conv_out.conv.weight.grad is not None
    assert gpu_lines == [] and cpu_lines == []
