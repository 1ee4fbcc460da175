"""The yardstick: diffusers' own docstring examples, run unchanged through `guidelint run`.

One real run (warm worker, forked sandboxed children, the bundled backend) covers
the verbatim docstring corpus, docs/DIFFUSERS.md, the example workspace's
DIFFUSION.md and a guide with a missing package; the tests read its report.
"""

from __future__ import annotations

import importlib
import re
import shutil
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.run import RunOptions, run_examples  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parents[1] / "fixtures" / "diffusers"
P = "diffusers.pipelines."

# id -> (module, EXAMPLE_DOC_STRING or the class whose __call__ holds the example)
SOURCES = {
    "sd-text2img": (P + "stable_diffusion.pipeline_stable_diffusion", "EXAMPLE_DOC_STRING"),
    "sd-img2img": (P + "stable_diffusion.pipeline_stable_diffusion_img2img", "EXAMPLE_DOC_STRING"),
    "sd-inpaint": (
        P + "stable_diffusion.pipeline_stable_diffusion_inpaint",
        "StableDiffusionInpaintPipeline",
    ),
    "sdxl-text2img": (P + "stable_diffusion_xl.pipeline_stable_diffusion_xl", "EXAMPLE_DOC_STRING"),
    "sdxl-img2img": (
        P + "stable_diffusion_xl.pipeline_stable_diffusion_xl_img2img",
        "EXAMPLE_DOC_STRING",
    ),
    "sdxl-inpaint": (
        P + "stable_diffusion_xl.pipeline_stable_diffusion_xl_inpaint",
        "EXAMPLE_DOC_STRING",
    ),
    "controlnet-text2img": (P + "controlnet.pipeline_controlnet", "EXAMPLE_DOC_STRING"),
    "controlnet-img2img": (P + "controlnet.pipeline_controlnet_img2img", "EXAMPLE_DOC_STRING"),
    "controlnet-inpaint": (P + "controlnet.pipeline_controlnet_inpaint", "EXAMPLE_DOC_STRING"),
    "controlnet-sdxl": (P + "controlnet.pipeline_controlnet_sd_xl", "EXAMPLE_DOC_STRING"),
    "ddpm": (P + "ddpm.pipeline_ddpm", "DDPMPipeline"),
    "ddim": (P + "ddim.pipeline_ddim", "DDIMPipeline"),
}

# What each shipped example does here; the two that do not pass are real problems
# of the examples, reported with their reason, not shimmed away.
EXPECTED = {
    "sd-text2img": ("passed", ""),
    "sd-img2img": ("passed", ""),
    "sd-inpaint": ("passed", ""),
    "sdxl-text2img": ("passed", ""),
    "sdxl-img2img": ("passed", ""),
    # `>>> pipe.to("cuda")` echoes the pipeline with no output stated: a script line
    "sdxl-inpaint": ("passed", ""),
    "controlnet-text2img": ("passed", ""),
    "controlnet-img2img": ("passed", ""),
    "controlnet-sdxl": ("passed", ""),
    "ddpm": ("passed", ""),
    # the pipeline returns an ImagePipelineOutput, not a tensor
    "ddim": ("error", "AttributeError: 'ImagePipelineOutput' object has no attribute 'cpu'"),
    # make_canny_condition uses cv2 (and Image) without importing them
    "controlnet-inpaint": ("error", "NameError: name 'cv2' is not defined"),
}


# The pipeline class each passing example runs (its JSON entry's `pipelines`).
PIPELINES = {
    "sd-text2img": "StableDiffusionPipeline",
    "sd-img2img": "StableDiffusionImg2ImgPipeline",
    "sd-inpaint": "StableDiffusionInpaintPipeline",
    "sdxl-text2img": "StableDiffusionXLPipeline",
    "sdxl-img2img": "StableDiffusionXLImg2ImgPipeline",
    "sdxl-inpaint": "StableDiffusionXLInpaintPipeline",
    "controlnet-text2img": "StableDiffusionControlNetPipeline",
    "controlnet-img2img": "StableDiffusionControlNetImg2ImgPipeline",
    "controlnet-sdxl": "StableDiffusionXLControlNetPipeline",
    "ddpm": "DDPMPipeline",
}


def shipped_example(module: str, where: str) -> str:
    loaded = importlib.import_module(module)
    doc = getattr(loaded, where) if where.isupper() else getattr(loaded, where).__call__.__doc__
    block = re.search(r"```py\n(.*?)```", doc, re.S).group(1)
    return textwrap.dedent(block).strip("\n")


def run_everything(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(FIXTURES / "docstrings", root / "docs" / "docstrings")
    shutil.copytree(FIXTURES / "guides", root / "docs" / "guides")
    shutil.copy(REPO / "docs" / "DIFFUSERS.md", root / "docs" / "DIFFUSERS.md")
    shutil.copy(
        REPO / "examples" / "workspace" / "docs" / "DIFFUSION.md", root / "docs" / "DIFFUSION.md"
    )
    (root / "data").mkdir()
    (root / "data" / "prompt.txt").write_text("a red shoe\n")
    tiny = tmp_path_factory.mktemp("tiny")
    (root / "pyproject.toml").write_text(
        '[tool.guidelint]\ninclude = ["docs/**/*.md"]\n'
        # a watchdog for a busy CI machine, not a speed target
        f'[tool.guidelint.runner]\ntimeout = 600\ntiny-cache = "{tiny}"\n'
        '[tool.guidelint.runner.models]\n"acme/*" = "sd"\n'
        '[tool.guidelint.runner.fixtures]\n"https://example.org/data/*" = "data/prompt.txt"\n'
    )
    result = run_examples(RunOptions(paths=[root / "docs"], jobs=2, report_dir=root / "report"))
    return result.results, {r.id: r for r in result.results}, root


def test_the_corpus_is_what_diffusers_ships():
    import diffusers

    if diffusers.__version__ != "0.42.1":
        pytest.skip(f"the corpus was copied from diffusers 0.42.1, not {diffusers.__version__}")
    from guidelint.runner.examples import extract
    from guidelint.sources import load

    found = {}
    for path in sorted((FIXTURES / "docstrings").glob("*.md")):
        file = load(path, path.name, 1 << 20)
        found.update({e.id: e.source.rstrip("\n") for e in extract(file.markdown, path.name)})
    assert sorted(found) == sorted(SOURCES)
    for example_id, (module, where) in SOURCES.items():
        assert found[example_id] == shipped_example(module, where), example_id


def check_shipped_examples_run_unchanged_or_show_the_real_bug(report):
    _, by_id, _ = report
    for example_id, (status, message) in EXPECTED.items():
        result = by_id[example_id]
        assert result.status.value == status, (example_id, result.message)
        assert message in result.message, (example_id, result.message)
        loads = [s for s in result.substitutions if "from_pretrained: hub id" in s]
        assert loads, f"{example_id}: no tiny checkpoint was loaded"
        if status == "passed":  # on a stand-in of the class the example names
            assert result.pipelines == [PIPELINES[example_id]], (example_id, result.pipelines)


def check_each_shimmed_run_lists_its_substitutions(report):
    _, by_id, _ = report
    assert by_id["controlnet-text2img"].substitutions == [
        "requests GET https://hf.co/datasets/huggingface/documentation-images/resolve/main/"
        "diffusers/input_image_vermeer.png -> a generated 512x512 image",
        "ControlNetModel.from_pretrained(torch_dtype=torch.float16) -> torch.float32 (no GPU)",
        "ControlNetModel.from_pretrained: hub id 'lllyasviel/sd-controlnet-canny' -> tiny "
        "StableDiffusionControlNetPipeline (controlnet/), by guidelint's table of known models",
        "StableDiffusionControlNetPipeline.from_pretrained(torch_dtype=torch.float16) -> "
        "torch.float32 (no GPU)",
        "StableDiffusionControlNetPipeline.from_pretrained: hub id "
        "'stable-diffusion-v1-5/stable-diffusion-v1-5' -> tiny StableDiffusionControlNetPipeline, "
        "by the class StableDiffusionControlNetPipeline",
        "StableDiffusionControlNetPipeline.enable_xformers_memory_efficient_attention() skipped "
        "(no GPU)",
        "StableDiffusionControlNetPipeline.enable_model_cpu_offload() skipped (no GPU)",
        "ControlNetConditioningEmbedding: the same condition image through the same weights "
        "embedded once, its embedding reused by the denoising steps (identical values; CPU "
        "path)",
    ]
    assert by_id["ddpm"].substitutions == [
        "DDPMPipeline.from_pretrained: hub id 'google/ddpm-cat-256' -> tiny DDPMPipeline, "
        "by the class DDPMPipeline"
    ]


def check_images_the_examples_save_are_kept(report):
    _, by_id, root = report
    kept = {Path(p).name for r in by_id.values() for p in r.images}
    assert {
        "ddpm_generated_image.png",
        "fantasy_landscape.png",
        "fox.png",
        "cat.png",
        "preview.png",
        "refined.png",
    } <= kept
    assert all(Path(p).is_relative_to(root / "report") for r in by_id.values() for p in r.images)


def check_the_diffusers_guide_runs(report):
    everything, _, _ = report
    results = [r for r in everything if r.path == "docs/DIFFUSERS.md"]
    assert len(results) == 6
    assert [r.status.value for r in results] == ["passed"] * 6, [r.message for r in results]


def check_the_workspace_guide_shows_passed_pending_and_broken(report):
    _, by_id, _ = report
    assert by_id["preview"].status.value == "passed"
    assert by_id["refine"].status.value == "pending-passed"
    broken = by_id["contact-sheet"]
    assert broken.status.value == "error"
    assert broken.message.startswith(
        "line 73: ValueError: `height` and `width` have to be divisible by 8 but are 500 and 500."
    )


def check_a_missing_package_is_missing_dependency(report):
    _, by_id, _ = report
    result = by_id["needs-a-missing-package"]
    assert result.status.value == "missing-dependency"
    assert "No module named 'diffusers_lora_magic_not_installed'" in result.message


def check_config_mappings_relative_to_the_project_root(report):
    _, by_id, root = report
    result = by_id["mapped"]
    assert result.status.value == "passed", result.message
    assert result.substitutions == [
        "DiffusionPipeline.from_pretrained: hub id 'acme/shoes-v2' -> tiny "
        "StableDiffusionPipeline, by pattern 'acme/*' in [tool.guidelint.runner.models]",
        f"requests GET https://example.org/data/prompt.txt -> fixture {root / 'data/prompt.txt'}",
    ]


CHECKS = [
    check_shipped_examples_run_unchanged_or_show_the_real_bug,
    check_each_shimmed_run_lists_its_substitutions,
    check_images_the_examples_save_are_kept,
    check_the_diffusers_guide_runs,
    check_the_workspace_guide_shows_passed_pending_and_broken,
    check_a_missing_package_is_missing_dependency,
    check_config_mappings_relative_to_the_project_root,
]


@pytest.mark.slow  # every diffusers docstring example, for real
def test_one_guidelint_run_over_the_corpus_and_the_guides(tmp_path_factory):
    """One run (a minute of work), then every check on its report; one test so that
    pytest-xdist cannot split the checks over two workers and run it twice."""
    report = run_everything(tmp_path_factory)
    failures = []
    for check in CHECKS:
        try:
            check(report)
        except AssertionError as error:
            failures.append(f"{check.__name__}: {error}")
    assert not failures, "\n\n".join(failures)
