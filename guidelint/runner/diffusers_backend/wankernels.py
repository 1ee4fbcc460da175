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
over the contiguous layout. At 1-3 channels oneDNN is fastest over channels-last voxels
(session 39, profiled by input shape on a 720x1280 decode): the convolutions run
channels-last with the rows' and columns' zeros as their own padding (no padded copy), a
one-channel input as three time taps of a 2D convolution, and the upsampled frames that
WanResample's `nn.Conv2d` reads are channels-last. Nothing the example computes changes:
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
    """WanCausalConv3d.forward(x, cache_x): the cached frames (or zeros) before x in time,
    zeros around each frame, then nn.Conv3d's convolution with no padding of its own."""
    import torch
    import torch.nn.functional as F

    original = cls.forward

    def forward(self, x, cache_x=None):
        state = _fast_path(x)
        weight = self.weight
        pointwise = all(size == 1 for size in weight.shape[2:])  # torch's own path is faster
        if state is None or pointwise or self.padding_mode != "zeros" or weight.dtype != x.dtype:
            return original(self, x, cache_x)
        state.record_once(NOTE)
        width, _, height, _, before, _ = self._padding
        if cache_x is not None and before > 0:
            x = torch.cat([cache_x.to(x.device), x], dim=2)
            before -= cache_x.shape[2]
        if before > 0:  # the causal padding: zero frames before, none after
            x = F.pad(x, (0, 0, 0, 0, before, 0))
        if _one_channel_in_time(self, x):
            return _frames_as_channels(self, x, height, width)
        # the rows' and columns' zeros are oneDNN's own padding (no padded copy of the
        # frames), over channels-last voxels: at 2 or 3 channels its channels-first kernel
        # is the slow one (3x3x3, 2 -> 2 channels over 4 frames of 720x1280: 207 ms, 70 ms
        # channels-last, 98 ms with both layout copies; the same values, bit for bit)
        return torch.mkldnn_convolution(
            x.contiguous(memory_format=torch.channels_last_3d),
            weight.contiguous(memory_format=torch.channels_last_3d),
            self.bias,
            (0, height, width),
            self.stride,
            self.dilation,
            self.groups,
        ).contiguous()

    remember_original(forward, original)
    cls.forward = forward


def _one_channel_in_time(conv, x) -> bool:
    """A one-channel input to a 3-tap, stride-1 convolution in time (each decoder level's
    first residual convolution after its upsampling halved the channels to one)."""
    return (
        x.shape[1] == 1
        and conv.groups == 1
        and conv.weight.shape[2] == 3
        and conv.stride[0] == 1
        and conv.dilation[0] == 1
    )


def _frames_as_channels(conv, x, height: int, width: int):
    """The 3x3x3 convolution of a one-channel video as a 2D one over each output frame's
    three input frames, read as three channels (channels-last, the frames' own order):
    one channel is where oneDNN's 3D kernel is slowest (1 -> 2 channels over 4 frames of
    720x1280: 159 ms, 71 ms this way; the same products, summed in another order)."""
    import torch

    batch, _, frames, rows, columns = x.shape
    out_frames = frames - 2
    windows = x[:, 0].unfold(1, 3, 1).contiguous()  # batch, out frame, row, column, tap
    images = windows.permute(0, 1, 4, 2, 3).reshape(batch * out_frames, 3, rows, columns)
    weight = conv.weight[:, 0].contiguous(memory_format=torch.channels_last)  # out, tap, kh, kw
    out = torch.mkldnn_convolution(
        images,
        weight,
        conv.bias,
        (height, width),
        conv.stride[1:],
        conv.dilation[1:],
        1,
    )
    out = out.reshape(batch, out_frames, *out.shape[1:])  # batch, frame, channel, row, column
    return out.permute(0, 2, 1, 3, 4).contiguous()


def _patch_upsample(cls) -> None:
    """WanUpsample.forward(x): nearest-exact upsampling of (batch x frames) 2D images, which
    WanResample hands straight to its nn.Conv2d (a halving of the channels). Upsampled
    channels-last, that convolution takes torch's channels-last path: 2 -> 1 channels over
    four 720x1280 frames 153 ms channels-first, 38 ms channels-last (the same values)."""
    import torch

    original = cls.forward

    def forward(self, x):
        state = _fast_path(x)
        if state is None or x.dim() != 4:
            return original(self, x)
        return original(self, x.contiguous(memory_format=torch.channels_last))

    remember_original(forward, original)
    cls.forward = forward


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
    _patch_upsample(autoencoder_kl_wan.WanUpsample)
