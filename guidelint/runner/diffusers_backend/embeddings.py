"""Prompt embeddings an example downloads as a dataset file, made for the tiny text encoder.

diffusers' Pix2Pix-Zero example fetches `cat.pt` and `dog.pt` from the dataset
`sayakpaul/sample-datasets` and passes `torch.load` of each as `source_embeds` and
`target_embeds`: the edit direction's two ends, made as pix2pix-zero's
`make_edit_direction.py` makes its `embeddings_sd_1.4/cat.pt` (and as diffusers'
`get_embeds(prompts)` returns them): the mean over captions of a cat (of a dog) of SD 1.4's
text encoder's last hidden states in float16, `unsqueeze(0)`: shape (1, 77, 768), 77 tokens
(the CLIP tokenizer's `model_max_length`), 768 the width of CLIP ViT-L/14. (The file itself
could not be read here, no network: that shape is the script's.) The pipeline reads it only
through `embeds.mean(0)`, added to the prompt's embeddings, so it must be as wide as the
text encoder that encodes the prompt. Served here: a float16 tensor of that shape at the
width of the tiny text encoder of the pipeline named below (seeded by the URL, unit
variance like a final layer norm's output), saved with `torch.save` as the real file is.
A `[tool.guidelint.runner.fixtures]` entry for the URL wins over it; any other dataset
file is still refused.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass


@dataclass(frozen=True)
class Embeddings:
    what: str  # the captions the real file encodes
    pipeline: str  # whose tiny text encoder the prompt goes through
    tokens: int = 77  # the CLIP tokenizer's model_max_length


SAMPLE_DATASETS = "datasets/sayakpaul/sample-datasets/resolve/main/"
HOSTS = ("https://hf.co/", "https://huggingface.co/")
# file -> what it holds (CompVis/stable-diffusion-v1-4's stand-in: StableDiffusionPipeline)
FILES = {
    "cat.pt": Embeddings("captions of a cat", "StableDiffusionPipeline"),
    "dog.pt": Embeddings("captions of a dog", "StableDiffusionPipeline"),
}


def known(url: str) -> Embeddings | None:
    for host in HOSTS:
        prefix = host + SAMPLE_DATASETS
        if url.startswith(prefix):
            return FILES.get(url[len(prefix) :].split("?", 1)[0])
    return None


def width(entry: Embeddings) -> int:
    """The hidden size of the tiny text encoder of `entry.pipeline` (its recipe, unbuilt)."""
    from guidelint.runner.diffusers_backend import generic

    plan = generic.plan(entry.pipeline)
    encoder = next(slot for slot in plan.slots if slot.name == "text_encoder")
    return int(encoder.config["hidden_size"])


def describe(url: str) -> str:
    entry = known(url)
    assert entry is not None
    return (
        f"float16 prompt embeddings of shape (1, {entry.tokens}, {width(entry)}) for the tiny "
        f"{entry.pipeline}'s text encoder, seeded (the real file: {entry.what}, 768 wide)"
    )


def made(url: str) -> bytes:
    import torch

    entry = known(url)
    assert entry is not None
    seed = int.from_bytes(hashlib.sha256(url.encode()).digest()[:4], "big")
    generator = torch.Generator().manual_seed(seed)
    shape = (1, entry.tokens, width(entry))
    tensor = torch.randn(shape, generator=generator).to(torch.float16)
    buffer = io.BytesIO()
    torch.save(tensor, buffer)
    return buffer.getvalue()
