"""A condition image is embedded once per denoising loop: the same values as computing
it at every step, recomputed for another image, other weights or under autograd."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("diffusers")

import torch  # noqa: E402

from guidelint.runner.diffusers_backend import condmemo, state  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def installed():
    condmemo.install()


@pytest.fixture()
def lines():
    recorded: list[str] = []
    state.set_current(
        state.State(record_fn=recorded.append, gpu=False, cache_override=None, root=Path("."))
    )
    yield recorded
    state.set_current(None)


def embedding():
    from diffusers.models.controlnets.controlnet import ControlNetConditioningEmbedding

    torch.manual_seed(0)
    module = ControlNetConditioningEmbedding(4, block_out_channels=(2, 2)).eval()
    torch.nn.init.normal_(module.conv_out.weight)  # zero-initialised: make it say something
    return module


def unpatched(module, image):
    return type(module).forward.__wrapped__(module, image)


def test_the_same_image_is_embedded_once_with_the_same_values(lines):
    module, image = embedding(), torch.randn(2, 3, 32, 32)
    with torch.no_grad():
        first, second = module(image), module(image)
        expected = unpatched(module, image)
    assert torch.equal(first, expected) and torch.equal(second, expected)
    assert second is not first  # a copy: the caller may change it in place
    assert lines == [condmemo.NOTE.format(cls="ControlNetConditioningEmbedding")]


def test_an_equal_image_in_another_tensor_is_reused(lines):
    module, image = embedding(), torch.randn(1, 3, 16, 16)
    with torch.no_grad():
        module(image)
        assert torch.equal(module(image.clone()), unpatched(module, image))
    assert len(lines) == 1


def test_another_image_or_changed_weights_are_computed_afresh(lines):
    module, image, other = embedding(), torch.randn(1, 3, 16, 16), torch.randn(1, 3, 16, 16)
    with torch.no_grad():
        module(image)
        assert torch.equal(module(other), unpatched(module, other))
        module.conv_in.weight.mul_(2.0)  # the weights changed in place
        assert torch.equal(module(other), unpatched(module, other))
        image.add_(1.0)  # the image the memo saw changed in place
        assert torch.equal(module(image), unpatched(module, image))
    assert lines == []


def test_autograd_and_training_are_never_served_from_the_memo(lines):
    module, image = embedding(), torch.randn(1, 3, 16, 16)
    module(image).sum().backward()  # grad enabled: computed, and differentiable
    assert module.conv_in.weight.grad is not None
    with torch.no_grad():
        module.train()
        module(image)
        module(image)
    assert lines == []


def test_kandinsky_hint_block_is_embedded_once(lines):
    from diffusers.models.embeddings import ImageHintTimeEmbedding

    module = ImageHintTimeEmbedding(image_embed_dim=8, time_embed_dim=16).eval()
    image_embeds, hint = torch.randn(2, 8), torch.randn(2, 3, 16, 16)
    with torch.no_grad():
        first = module(image_embeds, hint)
        second = module(image_embeds * 2, hint)  # the image embedding is not remembered
        expected = type(module).forward.__wrapped__(module, image_embeds * 2, hint)
    assert torch.equal(second[0], expected[0]) and torch.equal(second[1], expected[1])
    assert not torch.equal(first[0], second[0])
    assert lines == [condmemo.NOTE.format(cls="ImageHintTimeEmbedding")]


def test_nothing_is_remembered_outside_an_example():
    module, image = embedding(), torch.randn(1, 3, 16, 16)
    with torch.no_grad():
        module(image)
    assert "_guidelint_condmemo" not in module.__dict__
