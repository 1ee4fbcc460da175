"""The Wan VAE's convolutions and RMS norms on torch's fast CPU kernels (the CPU path only).

`AutoencoderKLWan` (Wan, SkyReels-V2, Helios, AnyFlow, SANA-Video, ChronoEdit) runs
causal 3D convolutions and channel RMS norms at every frame's full resolution. The
tiny stand-in has 1-3 channels there, and at so few channels torch's own heuristic
(`ConvParams::use_mkldnn`: batch x channels x frames x rows <= 20,480 "native is
faster") sends each `conv3d` to its reference kernel, `slow_conv3d_forward`, and
`F.normalize` over the channel axis of a 5-D tensor reduces along a strided axis:
profiled on a 480x832 decode with cProfile and torch's profiler, 63 % and 27 % of the
time. Here the same convolution (3x3x3 or 3x1x1) goes to oneDNN
(`torch.mkldnn_convolution`, the kernel torch itself picks at more channels; a 1x1x1
one, a plain matrix product, stays on torch's choice, 15x faster than oneDNN at one
input channel) and the same norm is computed as the square root of a sum of squares
over the contiguous layout. Nothing the example computes changes:
the same weights, inputs and formula; only float32 rounding differs (measured at most
3.4e-7 on a decoded video and 1.1e-6 on encoded latents, where the two kernels' sums
run in another order). With autograd on, a GPU, another dtype or padding mode, the
original runs.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.state import State, current, remember_original

NOTE = (
    "AutoencoderKLWan: its 3D convolutions on oneDNN's kernel and its RMS norms as a sum "
    "of squares (the same values to float32 rounding; CPU path): at the tiny VAE's few "
    "channels torch picks its slow reference kernel"
)


def _fast_path(tensor) -> State | None:
    """The example's state where it runs on the CPU path, in inference, on a float32
    CPU tensor; None where diffusers' own kernels should run."""
    import torch

    state = current()
    if (
        state is None
        or state.gpu
        or torch.is_grad_enabled()
        or not isinstance(tensor, torch.Tensor)
        or tensor.device.type != "cpu"
        or tensor.dtype != torch.float32
        or tensor.layout != torch.strided
    ):
        return None
    return state


def _patch_conv(cls) -> None:
    """WanCausalConv3d._conv_forward(input, weight, bias): nn.Conv3d's, after its own
    causal padding (the module's `padding` is (0, 0, 0) by then)."""
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


def normalized_channels(tensor, eps: float = 1e-12):
    """`F.normalize(tensor, dim=1)`: each position's channel vector over its L2 norm,
    the norm clamped at F.normalize's default eps."""
    norm = tensor.square().sum(dim=1, keepdim=True).sqrt()
    return tensor / norm.clamp_min(eps)


def _patch_norm(cls) -> None:
    """WanRMS_norm.forward(x): F.normalize over channels, times sqrt(dim) and gamma, plus bias."""
    original = cls.forward

    def forward(self, x):
        state = _fast_path(x)
        if state is None or not self.channel_first:
            return original(self, x)
        state.record_once(NOTE)
        return normalized_channels(x) * self.scale * self.gamma + self.bias

    remember_original(forward, original)
    cls.forward = forward


def install() -> None:
    import torch

    if not torch.backends.mkldnn.is_available():
        return
    from diffusers.models.autoencoders import autoencoder_kl_wan

    _patch_conv(autoencoder_kl_wan.WanCausalConv3d)
    _patch_norm(autoencoder_kl_wan.WanRMS_norm)
