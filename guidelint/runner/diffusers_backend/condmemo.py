"""A condition image embedded once per loop, not once per step (the CPU path only).

A ControlNet embeds its control image, and Kandinsky 2.2's ControlNet UNet its depth
hint, with convolutions at the image's full resolution, inside every denoiser call:
the same image through the same weights, 24-50 times. Those layers' widths are fixed
by diffusers (Kandinsky's hint block is 3 -> 16 -> ... -> 256 channels whatever the
config says), so a tiny stand-in cannot make them cheap: measured on this project's
2-core machine, they were 237 s of the 395 s the ControlNet-Union img2img example took
(1008x1008, 9 calls of 24 steps) and 232 s of the 306 s of Kandinsky 2.2's ControlNet
example (768x768, 50 steps).

Here the embedding module remembers its last input and output: a call with an equal
input (`torch.equal`), the same weights (each parameter's version counter, device and
dtype) and no autograd returns the output it computed for it. The values are those the
example's own call would compute; only the repeat is skipped. Training, a changed image
or changed weights compute afresh.
"""

from __future__ import annotations

from typing import Any

from guidelint.runner.diffusers_backend.state import current, remember_original

NOTE = (
    "{cls}: the same condition image through the same weights embedded once, its "
    "embedding reused by the denoising steps (identical values; CPU path)"
)


def _weights_key(module) -> tuple:
    return tuple((p._version, p.data_ptr(), p.dtype, p.device) for p in module.parameters())


def _same_input(last, tensor, seen) -> bool:
    import torch

    if seen[0] is tensor and seen[1] == tensor._version:
        return True
    return (
        last.shape == tensor.shape
        and last.dtype == tensor.dtype
        and last.device == tensor.device
        and bool(torch.equal(last, tensor))
    )


def remembered(owner, block, tensor) -> Any:
    """`block(tensor)`, or a copy of what it returned for an equal `tensor` when no weight
    of `owner` (the module keeping the memo, whose class the report names) changed."""
    import torch

    state = current()
    if state is None or state.gpu or torch.is_grad_enabled() or owner.training:
        return block(tensor)
    if not isinstance(tensor, torch.Tensor):
        return block(tensor)
    weights = _weights_key(owner)
    memo = owner.__dict__.get("_guidelint_condmemo")
    if memo is not None and memo[1] == weights and _same_input(memo[0], tensor, memo[3]):
        state.record_once(NOTE.format(cls=type(owner).__name__))
        return memo[2].clone()  # a copy: the caller may change its output in place
    output = block(tensor)
    seen = (tensor, tensor._version)  # the same object, unchanged: no comparison needed
    owner.__dict__["_guidelint_condmemo"] = (tensor.clone(), weights, output.clone(), seen)
    return output


def _patch_embedding(cls) -> None:
    """ControlNetConditioningEmbedding.forward(conditioning): the whole module."""
    original = cls.forward

    def forward(self, conditioning):
        return remembered(self, lambda x: original(self, x), conditioning)

    remember_original(forward, original)
    cls.forward = forward


def _patch_hint(cls) -> None:
    """ImageHintTimeEmbedding.forward(image_embeds, hint): its input_hint_block only."""
    original = cls.forward

    def forward(self, image_embeds, hint):
        time_image_embeds = self.image_norm(self.image_proj(image_embeds))
        return time_image_embeds, remembered(self, self.input_hint_block, hint)

    remember_original(forward, original)
    cls.forward = forward


def install() -> None:
    from diffusers.models.controlnets.controlnet import ControlNetConditioningEmbedding
    from diffusers.models.embeddings import ImageHintTimeEmbedding

    _patch_embedding(ControlNetConditioningEmbedding)
    _patch_hint(ImageHintTimeEmbedding)
