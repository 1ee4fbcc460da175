"""Load a tiny pipeline folder with its real class and call it once, as a user would.

Shared by the builder's tests: the arguments a pipeline's `__call__` accepts are
given (a prompt, a 64x64 image and mask, 5 frames, zero image embeddings), 2 steps.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend import tiny_table


def run_tiny(pipeline_class: str, folder, **extra):
    """`extra`: arguments a pipeline needs beyond the common ones (Kandinsky's depth hint)."""
    import inspect

    import diffusers
    import torch
    from PIL import Image

    pipe = getattr(diffusers, pipeline_class).from_pretrained(folder)
    pipe.set_progress_bar_config(disable=True)
    accepted = inspect.signature(pipe.__call__).parameters
    image = Image.new("RGB", (64, 64), (120, 30, 200))
    given = {
        "prompt": "a photo of a cat",
        "height": 64,
        "width": 64,
        "num_frames": 5,
        "image": image,
        "control_image": image,
        "mask_image": Image.new("L", (64, 64), 255),
        "strength": 1.0,
        "image_embeds": torch.zeros(1, tiny_table.CLIP_VISION["projection_dim"]),
        "negative_image_embeds": torch.zeros(1, tiny_table.CLIP_VISION["projection_dim"]),
        "class_labels": pipe.get_label_ids(["umbrella"])
        if hasattr(pipe, "get_label_ids")
        else None,
        "output_type": "pt" if "Prior" not in pipeline_class else None,
    }
    kwargs = {k: v for k, v in given.items() if k in accepted and v is not None} | extra
    return pipe, pipe(num_inference_steps=2, generator=torch.manual_seed(0), **kwargs)


def slot(plan, name):
    """The slot called `name` of a builder plan."""
    return next(s for s in plan.slots if s.name == name)
