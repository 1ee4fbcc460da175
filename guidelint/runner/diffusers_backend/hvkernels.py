"""The HunyuanVideo VAE's causal convolutions on oneDNN in channels-last order (the CPU path only).

`AutoencoderKLHunyuanVideo` (HunyuanVideo, its image-to-video, SkyReels and FramePack
pipelines, Kandinsky 5 and 6's video pipelines) pads each 3D convolution's input
itself (`HunyuanVideoCausalConv3d`: replicate, causal in time), then runs an
`nn.Conv3d` with no padding at every frame's full resolution. The tiny stand-in has a
few channels there, and at so few channels torch's heuristic
(`ConvParams::use_mkldnn`, as in `wankernels.py` for the Wan VAE) sends the lower
levels' convolutions to its reference kernel, `slow_conv3d_forward`, and the
full-resolution ones to oneDNN in the channels-first layout. Profiled with torch's
profiler on one thread (Kandinsky 5's window of 5 latent frames decoded to 17 frames at
512x768 on the 32x stand-in, 4.1 s): 51 % in four full-resolution `mkldnn_convolution`
calls, 29 % in twenty `slow_conv3d_forward` calls of the lower levels, then SiLU,
replication padding and group norm, about 5 % each. Here the same convolution goes to
oneDNN (`torch.mkldnn_convolution`) with its input and weight in the channels-last
order (`torch.channels_last_3d`), where oneDNN's kernel for few channels is about
twice as fast, and its output comes back in the channels-first order diffusers' next
layer expects. Nothing the example computes changes: the same padding, weights, inputs
and formula; only float32 rounding differs (the two kernels' sums run in another
order). A 1x1x1 convolution (a plain matrix product, faster on torch's own path), with
autograd on, on the GPU path or in another dtype, diffusers' own code runs.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.state import remember_original

# The same gate as the Wan VAE's kernels: the CPU path, inference, a float32 CPU tensor.
from guidelint.runner.diffusers_backend.wankernels import _fast_path

NOTE = (
    "AutoencoderKLHunyuanVideo: its 3D convolutions on oneDNN's kernel in channels-last "
    "order (the same values to float32 rounding; CPU path): at the tiny VAE's few "
    "channels torch picks its slow reference kernel"
)


def channels_last_convolution(conv, padded):
    """`conv(padded)` for an `nn.Conv3d` with zero padding mode, through oneDNN with its
    input and weight in channels-last order; the output channels-first (contiguous)."""
    import torch

    channels_last = torch.channels_last_3d
    output = torch.mkldnn_convolution(
        padded.contiguous(memory_format=channels_last),
        conv.weight.contiguous(memory_format=channels_last),
        conv.bias,
        conv.padding,
        conv.stride,
        conv.dilation,
        conv.groups,
    )
    return output.contiguous()


def _patch_causal_conv(cls) -> None:
    """HunyuanVideoCausalConv3d.forward(hidden_states): F.pad with its causal padding and
    pad mode, then its nn.Conv3d."""
    import torch.nn.functional as F

    original = cls.forward

    def forward(self, hidden_states):
        state = _fast_path(hidden_states)
        conv = self.conv
        pointwise = all(size == 1 for size in conv.kernel_size)  # torch's own path is faster
        if (
            state is None
            or pointwise
            or conv.padding_mode != "zeros"
            or conv.weight.dtype != hidden_states.dtype
        ):
            return original(self, hidden_states)
        state.record_once(NOTE)
        padded = F.pad(hidden_states, self.time_causal_padding, mode=self.pad_mode)
        return channels_last_convolution(conv, padded)

    remember_original(forward, original)
    cls.forward = forward


def install() -> None:
    import torch

    if not torch.backends.mkldnn.is_available():
        return
    from diffusers.models.autoencoders import autoencoder_kl_hunyuan_video

    _patch_causal_conv(autoencoder_kl_hunyuan_video.HunyuanVideoCausalConv3d)
