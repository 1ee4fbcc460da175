"""No harness fault is an example's failure: what an example loads is built before the
sandbox closes, and a build that fails is `build-failed` naming the component.

The slow test runs, from a cold shared cache that the sandboxed children may not
write (the default cache, here `$GUIDELINT_TINY_CACHE`), a representative subset of
the loads examples make: a pipeline by its class (Flux, SD3, Wan, PixArt-Sigma,
AnimateDiff with a motion adapter repo), a component by a known id (the DPT depth
estimator and its processor that SDXL ControlNet img2img uses, a ControlNet, a VAE),
a pipeline through AutoPipeline* with PAG (Kolors), and transformers' `pipeline()`.
Every one must pass, and each folder it loaded must be in the shared cache afterwards:
built by the warm worker, not in the child (which may not build: a late build is
build-failed naming the component). The whole set of buildable classes is not run here: some 250
builds are minutes of CPU on the project's 2-core machines.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, cache  # noqa: E402
from guidelint.runner.outcomes import Outcome  # noqa: E402
from guidelint.runner.run import RunOptions, run_examples  # noqa: E402

GUIDE = """
# Loads, from a cold cache

```python {id=sdxl-controlnet-img2img-depth}
import torch
import numpy as np
from PIL import Image
from transformers import DPTImageProcessor, DPTForDepthEstimation
from diffusers import ControlNetModel, StableDiffusionXLControlNetImg2ImgPipeline, AutoencoderKL

depth_estimator = DPTForDepthEstimation.from_pretrained("Intel/dpt-hybrid-midas").to("cuda")
feature_extractor = DPTImageProcessor.from_pretrained("Intel/dpt-hybrid-midas")
controlnet = ControlNetModel.from_pretrained(
    "diffusers/controlnet-depth-sdxl-1.0-small", torch_dtype=torch.float16
)
vae = AutoencoderKL.from_pretrained("madebyollin/sdxl-vae-fp16-fix", torch_dtype=torch.float16)
pipe = StableDiffusionXLControlNetImg2ImgPipeline.from_pretrained(
    "stabilityai/stable-diffusion-xl-base-1.0", controlnet=controlnet, vae=vae
)
image = Image.new("RGB", (64, 64), "white")
pixels = feature_extractor(images=image, return_tensors="pt").pixel_values
with torch.no_grad():
    depth = depth_estimator(pixels).predicted_depth
depth = torch.nn.functional.interpolate(depth.unsqueeze(1), size=(64, 64))
depth = (depth - depth.min()) / (depth.max() - depth.min() + 1e-6)
rgb = torch.cat([depth] * 3, 1)[0].permute(1, 2, 0).numpy()
control = Image.fromarray((rgb * 255).astype(np.uint8))
out = pipe("a robot", image=image, control_image=control, strength=0.99, num_inference_steps=2)
```

```python {id=by-class}
from diffusers import FluxPipeline, StableDiffusion3Pipeline, WanPipeline, PixArtSigmaPipeline
FluxPipeline.from_pretrained("black-forest-labs/FLUX.1-dev")
StableDiffusion3Pipeline.from_pretrained("stabilityai/stable-diffusion-3-medium-diffusers")
WanPipeline.from_pretrained("Wan-AI/Wan2.1-T2V-1.3B-Diffusers")
PixArtSigmaPipeline.from_pretrained("PixArt-alpha/PixArt-Sigma-XL-2-1024-MS")
```

```python {id=motion-adapter}
from diffusers import AnimateDiffPipeline, MotionAdapter
adapter = MotionAdapter.from_pretrained("guoyww/animatediff-motion-adapter-v1-5-2")
pipe = AnimateDiffPipeline.from_pretrained(
    "SG161222/Realistic_Vision_V5.1_noVAE", motion_adapter=adapter
)
```

```python {id=auto-pag}
from diffusers import AutoPipelineForText2Image
pipe = AutoPipelineForText2Image.from_pretrained(
    "Kwai-Kolors/Kolors-diffusers", enable_pag=True, pag_applied_layers=["mid"]
)
```

```python {id=transformers-pipeline}
from transformers import pipeline
depth = pipeline("depth-estimation", model="Intel/dpt-hybrid-midas")
```
"""


@pytest.fixture(scope="module")
def cold_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    (root / "docs").mkdir()
    (root / "docs" / "GUIDE.md").write_text(textwrap.dedent(GUIDE))
    (root / "pyproject.toml").write_text(
        '[tool.guidelint]\ninclude = ["docs/**/*.md"]\n'
        "[tool.guidelint.runner]\ntimeout = 600\n"  # a watchdog for a busy machine
    )
    shared = tmp_path_factory.mktemp("shared-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(cache.ENV_VAR, str(shared))  # the default cache: children may not write it
        result = run_examples(RunOptions(paths=[root / "docs"], jobs=1, report_dir=root / "r"))
        built = cache.cache_dir()
    return {r.id: r for r in result.results}, built


@pytest.mark.slow  # builds tiny pipelines from nothing and loads them
def test_each_load_passes_from_a_cold_cache_under_the_sandbox(cold_run):
    results, _ = cold_run
    for example_id, result in results.items():
        assert result.status is Outcome.PASSED, f"{example_id}: {result.message}"
    assert results["sdxl-controlnet-img2img-depth"].pipelines == [
        "StableDiffusionXLControlNetImg2ImgPipeline"
    ]
    assert results["auto-pag"].pipelines == ["KolorsPAGPipeline"]


@pytest.mark.slow
def test_what_the_examples_load_was_built_before_the_sandbox_closed(cold_run):
    _, built = cold_run
    components = {p.name.split("-")[0] for p in (built / "components").iterdir()}
    pipelines = {p.name.split("-")[0] for p in (built / "pipelines").iterdir()}
    assert {"DPTForDepthEstimation", "ControlNetModel", "MotionAdapter"} <= components
    assert any(name.startswith("DPTImageProcessor") for name in components), components
    assert {
        "StableDiffusionXLControlNetImg2ImgPipeline",
        "FluxPipeline",
        "StableDiffusion3Pipeline",
        "WanPipeline",
        "PixArtSigmaPipeline",
        "AnimateDiffPipeline",
        "KolorsPipeline",  # planned with KolorsPAGPipeline's recipes, saved as Kolors' repo
    } <= pipelines, pipelines


def test_a_late_build_is_build_failed_naming_the_component_not_a_build_in_scratch(tmp_path):
    """A build this process may not write (a child meeting a load the warm worker did
    not foresee) cannot happen: build-failed naming the component, and nothing is
    built anywhere else (#28: no late build in the example's scratch folder)."""
    from guidelint.runner.verdict import classify_exception

    shared = tmp_path / "shared"
    tried: list[Path] = []

    def build_in(root: Path) -> Path:
        tried.append(root)
        raise PermissionError(13, "refused by the sandbox", str(root / "components"))

    with pytest.raises(build.BuildFailed) as raised:
        build.in_writable_cache(build_in, shared, "ControlNetModel")
    assert tried == [cache.cache_dir(shared)]
    example = {"filename": "GUIDE.md", "expect_error": None}
    judged = classify_exception(raised.value, example, [])  # type: ignore[arg-type]
    assert judged["status"] is Outcome.BUILD_FAILED
    assert "could not build its tiny ControlNetModel" in judged["message"]
    assert "not built before the sandbox closed" in judged["message"]


def test_a_failed_build_is_its_own_outcome_naming_the_component():
    from guidelint.runner.diffusers_backend import generic
    from guidelint.runner.verdict import classify_exception

    try:
        try:
            raise ValueError("channels must divide the groups")
        except ValueError as cause:
            raise generic.ComponentFailed("UNet2DConditionModel ('unet')") from cause
    except generic.ComponentFailed as failed:
        error = build._failed_build(failed, "StableDiffusionPipeline")
    assert isinstance(error, build.BuildFailed)
    example = {"filename": "GUIDE.md", "expect_error": None}
    judged = classify_exception(error, example, [])  # type: ignore[arg-type]
    assert judged["status"] is Outcome.BUILD_FAILED
    assert "tiny UNet2DConditionModel ('unet')" in judged["message"]
    assert "channels must divide the groups" in judged["message"]


def test_an_import_a_component_needs_stays_missing_dependency():
    error = ModuleNotFoundError("No module named 'torchvision'", name="torchvision")
    assert build._failed_build(error, "Qwen2VLProcessor") is error
