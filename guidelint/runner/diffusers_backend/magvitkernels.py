"""EasyAnimate's MagViT convolutions on oneDNN (the CPU path only), as wankernels.py does
for the Wan VAE.

`AutoencoderKLMagvit` (every EasyAnimate pipeline's VAE) runs causal 3D convolutions
(`EasyAnimateCausalConv3d`, an `nn.Conv3d` after its own temporal padding) over every
pixel of every frame. The tiny stand-in has 2 channels a level, and at so few channels
torch's heuristic (`ConvParams::use_mkldnn`) sends each `conv3d` to its reference
kernel, `slow_conv3d_forward`: decoding the text-to-video example's 49 frames at
512x512 took 8.8 CPU-s on one thread, 2.1 on oneDNN (2026-12-05). The same
convolution (a 1x1x1 one, a plain matrix product, stays on torch's choice) with the same
weights and inputs; only float32 rounding differs (the sums run in another order). With
autograd on, a GPU, another dtype or padding mode, the original runs.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.state import remember_original
from guidelint.runner.diffusers_backend.wankernels import _fast_path

NOTE = (
    "AutoencoderKLMagvit: its 3D convolutions on oneDNN's kernel (the same values to "
    "float32 rounding; CPU path): at the tiny VAE's few channels torch picks its slow "
    "reference kernel"
)


def _patch_conv(cls) -> None:
    """EasyAnimateCausalConv3d._conv_forward(input, weight, bias): nn.Conv3d's, after the
    class's own causal padding (its `padding` is (0, h, w) by then)."""
    import torch

    original = cls._conv_forward

    def _conv_forward(self, input, weight, bias):  # noqa: A002 - nn.Conv3d's names
        state = _fast_path(input)
        pointwise = all(size == 1 for size in weight.shape[2:])  # torch's own path is faster
        if (
            state is None
            or pointwise
            or self.padding_mode != "zeros"
            or weight.dtype != input.dtype
            or isinstance(self.padding, str)
        ):
            return original(self, input, weight, bias)
        state.record_once(NOTE)
        return torch.mkldnn_convolution(
            input.contiguous(),
            weight.contiguous(),
            bias,
            self.padding,
            self.stride,
            self.dilation,
            self.groups,
        )

    remember_original(_conv_forward, original)
    cls._conv_forward = _conv_forward


def install() -> None:
    import torch

    if not torch.backends.mkldnn.is_available():
        return
    from diffusers.models.autoencoders import autoencoder_kl_magvit

    _patch_conv(autoencoder_kl_magvit.EasyAnimateCausalConv3d)
