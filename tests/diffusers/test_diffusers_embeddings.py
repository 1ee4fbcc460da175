"""Prompt embeddings a Pix2Pix-Zero example downloads, made for the tiny text encoder
(embeddings.py): the shape the real file has, at the stand-in's width."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import embeddings  # noqa: E402

CAT = "https://hf.co/datasets/sayakpaul/sample-datasets/resolve/main/cat.pt"


def test_only_the_two_files_of_the_sample_dataset_are_made():
    assert embeddings.known(CAT).what == "captions of a cat"
    dog = CAT.replace("hf.co", "huggingface.co").replace("cat.pt", "dog.pt")
    assert embeddings.known(dog).what == "captions of a dog"
    assert embeddings.known(CAT.replace("cat.pt", "horse.pt")) is None
    assert embeddings.known("https://example.com/cat.pt") is None


def test_a_made_file_loads_as_the_real_one_does_at_the_tiny_encoders_width():
    import torch

    tensor = torch.load(io.BytesIO(embeddings.made(CAT)))
    from guidelint.runner.diffusers_backend import generic

    plan = generic.plan("StableDiffusionPipeline")
    encoder = next(slot for slot in plan.slots if slot.name == "text_encoder").config
    assert tensor.shape == (1, encoder["max_position_embeddings"], encoder["hidden_size"])
    assert tensor.dtype == torch.float16
    assert torch.equal(tensor, torch.load(io.BytesIO(embeddings.made(CAT))))  # seeded
    dog = torch.load(io.BytesIO(embeddings.made(CAT.replace("cat", "dog"))))
    assert not torch.equal(tensor, dog)  # two ends of an edit direction, not one


PIX2PIX_ZERO_EXAMPLE = """\
# Pix2Pix-Zero

diffusers' example, at 2 steps where it asks 50.

```python
import requests
import torch

from diffusers import DDIMScheduler, StableDiffusionPix2PixZeroPipeline


def download(embedding_url, local_filepath):
    r = requests.get(embedding_url)
    with open(local_filepath, "wb") as f:
        f.write(r.content)


model_ckpt = "CompVis/stable-diffusion-v1-4"
pipeline = StableDiffusionPix2PixZeroPipeline.from_pretrained(model_ckpt, torch_dtype=torch.float16)
pipeline.scheduler = DDIMScheduler.from_config(pipeline.scheduler.config)
pipeline.to("cuda")

prompt = "a high resolution painting of a cat in the style of van gough"
source_emb_url = "https://hf.co/datasets/sayakpaul/sample-datasets/resolve/main/cat.pt"
target_emb_url = "https://hf.co/datasets/sayakpaul/sample-datasets/resolve/main/dog.pt"

for url in [source_emb_url, target_emb_url]:
    download(url, url.split("/")[-1])

src_embeds = torch.load(source_emb_url.split("/")[-1])
target_embeds = torch.load(target_emb_url.split("/")[-1])
images = pipeline(
    prompt,
    source_embeds=src_embeds,
    target_embeds=target_embeds,
    num_inference_steps=2,
    cross_attention_guidance_amount=0.15,
).images

images[0].save("edited_image_dog.png")
```
"""


@pytest.mark.slow
def test_the_pix2pix_zero_example_runs_with_the_made_embeddings(tmp_path):
    from guidelint.runner.run import RunOptions, run_examples

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "P2PZ.md").write_text(PIX2PIX_ZERO_EXAMPLE, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.guidelint]\ninclude = ["docs/**/*.md"]\n'
        f'[tool.guidelint.runner]\ntimeout = 600\ntiny-cache = "{tmp_path / "tiny"}"\n'
    )
    result = run_examples(RunOptions(paths=[tmp_path / "docs"], jobs=1)).results[0]
    assert result.status.value == "passed", result.message
    assert result.pipelines == ["StableDiffusionPix2PixZeroPipeline"]
    made = [line for line in result.substitutions if "prompt embeddings" in line]
    assert len(made) == 2
