"""The diffusers backend's activate(): real tiny pipelines, offline, on the CPU.

Each test activates the backend in a forked child (as `guidelint run` does), so the
patches never leak into this pytest process; the child sends back what it saw.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("diffusers")

CHILD_TIMEOUT = 300  # a watchdog for hangs, not a speed limit


def in_child(function, *args, **kwargs):
    """Run function(*args, **kwargs) in a forked child: its value, or its exception as text."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            result = ("returned", function(*args, **kwargs))
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            result = ("raised", f"{type(error).__name__}: {error}")
        with os.fdopen(write_fd, "wb") as pipe:
            pickle.dump(result, pipe)
        os._exit(0)
    os.close(write_fd)
    data, deadline = b"", time.monotonic() + CHILD_TIMEOUT
    with os.fdopen(read_fd, "rb") as pipe:
        while True:
            ready, _, _ = select.select([pipe], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                pytest.fail(f"the child hung for {CHILD_TIMEOUT}s")
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                break
            data += chunk
    os.waitpid(pid, 0)
    return pickle.loads(data)


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    """Checkpoints built once, in the parent, into a folder of this test run."""
    from guidelint.runner.diffusers_backend import cache, preload

    folder = tmp_path_factory.mktemp("tiny")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(cache.ENV_VAR, str(folder))  # preload fills the default cache
        preload()
    return str(folder)


def activated(tiny_cache, code: str, **settings):
    """Activate in this (child) process, run `code`, return its `result` and the records."""
    from guidelint.runner.diffusers_backend import activate

    records: list[str] = []
    activate({"tiny_cache": tiny_cache, "gpu": False, **settings}, records.append)
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102 - an example, as the runner would run it
    return namespace.get("result"), records


def run(tiny_cache, code: str, **settings):
    outcome, value = in_child(activated, tiny_cache, code, **settings)
    assert outcome == "returned", value
    return value


SD_ON_A_GPU = """
import torch
from diffusers import StableDiffusionPipeline

pipe = StableDiffusionPipeline.from_pretrained(
    "stable-diffusion-v1-5/stable-diffusion-v1-5", torch_dtype=torch.float16, variant="fp16"
)
pipe = pipe.to("cuda")
generator = torch.Generator("cuda").manual_seed(0)
image = pipe("an astronaut", num_inference_steps=2, generator=generator).images[0]
again = pipe("an astronaut", num_inference_steps=2,
             generator=torch.Generator(device="cuda").manual_seed(0)).images[0]
result = {
    "size": image.size,
    "same": image.tobytes() == again.tobytes(),
    "device": str(pipe.device),
    "dtype": str(pipe.unet.dtype),
    "generator_is_a_generator": isinstance(generator, torch.Generator),
    "default_is_a_generator": isinstance(torch.manual_seed(1), torch.Generator),
    "tokenizer_length": pipe.tokenizer.model_max_length,
}
"""


@pytest.mark.slow  # a real diffusers pipeline run
def test_a_gpu_example_runs_on_the_cpu_and_says_what_was_substituted(tiny_cache):
    result, records = run(tiny_cache, SD_ON_A_GPU)
    assert result == {
        "size": (64, 64),  # sample_size 8 x VAE scale factor 8
        "same": True,  # seeded generators are deterministic
        "device": "cpu",
        "dtype": "torch.float32",
        "generator_is_a_generator": True,
        "default_is_a_generator": True,
        "tokenizer_length": 77,
    }
    assert records == [
        "StableDiffusionPipeline.from_pretrained(torch_dtype=torch.float16) -> torch.float32 "
        "(no GPU)",
        "variant='fp16' ignored: tiny checkpoints have one variant",
        "StableDiffusionPipeline.from_pretrained: hub id "
        "'stable-diffusion-v1-5/stable-diffusion-v1-5' -> tiny StableDiffusionPipeline, by the "
        "class StableDiffusionPipeline",
        "StableDiffusionPipeline.to('cuda'): 'cuda' -> 'cpu' (no GPU)",
        "torch.Generator('cuda') -> cpu generator (no GPU)",
        "torch.Generator('cuda') -> cpu generator (no GPU)",
    ]


REMOTE = """
import io
import requests
import urllib.request
from huggingface_hub import hf_hub_download
from huggingface_hub.errors import LocalEntryNotFoundError
from diffusers.utils import load_image
from PIL import Image

base = "https://huggingface.co/datasets/diffusers/test-arrays/resolve/main/"
image = load_image(base + "boy.png")
mask = load_image(base + "boy_mask.png")
jpeg = Image.open(io.BytesIO(requests.get("https://example.org/sketch.jpg").content))
opened = Image.open(urllib.request.urlopen("https://example.org/cat.webp"))
path = hf_hub_download("some/repo", "input.png", repo_type="dataset")
result = {
    "image": (image.size, image.mode),
    "mask_centre_corner": (mask.getpixel((256, 256)), mask.getpixel((2, 2))),
    "jpeg": (jpeg.format, jpeg.size),
    "webp": opened.size,
    "hub_file": Image.open(path).size,
    "fixture": requests.get("https://example.org/data/prompts.txt").text,
}
for call in (lambda: requests.get("https://example.org/api/v1/generate"),
             lambda: urllib.request.urlopen("https://example.org/index.html"),
             lambda: hf_hub_download("some/repo", "lora.safetensors")):
    try:
        call()
    except (requests.ConnectionError, OSError) as error:
        result.setdefault("refused", []).append(type(error).__name__ + ": " + str(error))
"""


def test_remote_files_come_from_fixtures_and_other_requests_fail_cleanly(tiny_cache, tmp_path):
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("a red shoe\n")
    fixtures = {"https://example.org/data/*": str(prompts)}
    result, records = run(tiny_cache, REMOTE, fixtures=fixtures)
    assert result["image"] == ((512, 512), "RGB")
    assert result["mask_centre_corner"] == ((255, 255, 255), (0, 0, 0))
    assert result["jpeg"] == ("JPEG", (512, 512))
    assert result["webp"] == (512, 512)
    assert result["hub_file"] == (512, 512)
    assert result["fixture"] == "a red shoe\n"
    refused = result["refused"]
    assert len(refused) == 3
    assert refused[0].startswith(
        "ConnectionError: no network while examples run: https://example.org/api/v1/generate"
    )
    assert refused[1].startswith("URLError")
    assert refused[2].startswith("LocalEntryNotFoundError")
    assert all("[tool.guidelint.runner.fixtures]" in line for line in refused)
    assert (
        "requests GET https://huggingface.co/datasets/diffusers/test-arrays/resolve/main/"
        "boy_mask.png -> a generated 512x512 mask"
    ) in records
    assert f"requests GET https://example.org/data/prompts.txt -> fixture {prompts}" in records


def test_an_id_nothing_stands_in_for_fails_with_one_clear_line(tiny_cache):
    code = (
        "from diffusers import DiffusionPipeline\n"
        "DiffusionPipeline.from_pretrained('kakaobrain/karlo-v1-alpha')\n"
    )
    outcome, message = in_child(activated, tiny_cache, code)
    assert outcome == "raised"
    assert message.startswith(
        "UnsupportedModel: DiffusionPipeline.from_pretrained('kakaobrain/karlo-v1-alpha') "
        "needs a tiny UnCLIPPipeline (by guidelint's table of known models), and "
        "guidelint cannot build one"
    )


MAPPED = """
from diffusers import DiffusionPipeline, UNet2DConditionModel, DPMSolverMultistepScheduler

pipe = DiffusionPipeline.from_pretrained("acme/shoes-xl-v2")
unet = UNet2DConditionModel.from_pretrained("acme/unet-only")
scheduler = DPMSolverMultistepScheduler.from_pretrained(
    "stable-diffusion-v1-5/stable-diffusion-v1-5", subfolder="scheduler"
)
pipe.scheduler = DPMSolverMultistepScheduler.from_config(pipe.scheduler.config)
image = pipe("a shoe", num_inference_steps=2).images[0]
result = [type(pipe).__name__, unet.config.in_channels, type(scheduler).__name__, image.size]
"""


def test_config_patterns_map_ids_to_tiny_pipelines_and_local_folders(tiny_cache):
    from guidelint.runner.diffusers_backend import build

    unet_folder = build.checkpoint_for("StableDiffusionInpaintPipeline", tiny_cache) / "unet"
    models = {"acme/shoes-*": "StableDiffusionPipeline", "acme/unet-only": str(unet_folder)}
    result, records = run(tiny_cache, MAPPED, models=models)
    # the pattern names the class (the id's words, "xl", mean nothing); the local folder
    # is the model itself
    assert result == ["StableDiffusionPipeline", 9, "DPMSolverMultistepScheduler", (64, 64)]
    assert records[0] == (
        "DiffusionPipeline.from_pretrained: hub id 'acme/shoes-xl-v2' -> tiny "
        "StableDiffusionPipeline, by pattern 'acme/shoes-*' in [tool.guidelint.runner.models]"
    )
    assert records[1] == (
        f"UNet2DConditionModel.from_pretrained: hub id 'acme/unet-only' -> '{unet_folder}', "
        "by pattern 'acme/unet-only' in [tool.guidelint.runner.models]"
    )
    assert records[2] == (
        "DPMSolverMultistepScheduler.from_pretrained: hub id "
        "'stable-diffusion-v1-5/stable-diffusion-v1-5' -> tiny StableDiffusionPipeline "
        "(scheduler/), by guidelint's table of known models"
    )


GPU_SWITCHES = """
import torch
from diffusers import StableDiffusionPipeline

pipe = StableDiffusionPipeline.from_pretrained("stable-diffusion-v1-5/stable-diffusion-v1-5")
pipe.enable_model_cpu_offload()
pipe.enable_xformers_memory_efficient_attention()
pipe.unet = torch.compile(pipe.unet, mode="reduce-overhead", fullgraph=True)

@torch.compile(mode="max-autotune")
def double(x):
    return x * 2

pipe.vae.half()
text_encoder = pipe.text_encoder.cuda()
noise = torch.randn(1, 4, 8, 8, device="cuda", dtype=torch.float16)
moved = torch.ones(2).to("cuda:0").half()
image = pipe("a cat", num_inference_steps=2, latents=noise).images[0]
result = {
    "unet": type(pipe.unet).__name__,
    "double": double(torch.ones(1)).tolist(),
    "vae": str(pipe.vae.dtype),
    "text_encoder": str(text_encoder.device),
    "noise": (str(noise.device), str(noise.dtype)),
    "moved": (str(moved.device), str(moved.dtype)),
    "size": image.size,
}
"""


def test_gpu_only_switches_are_no_ops_on_the_cpu(tiny_cache):
    result, records = run(tiny_cache, GPU_SWITCHES)
    assert result == {
        "unet": "UNet2DConditionModel",  # not an OptimizedModule: compile was skipped
        "double": [2.0],
        "vae": "torch.float32",
        "text_encoder": "cpu",
        "noise": ("cpu", "torch.float32"),
        "moved": ("cpu", "torch.float32"),
        "size": (64, 64),
    }
    for expected in (
        "StableDiffusionPipeline.enable_model_cpu_offload() skipped (no GPU)",
        "StableDiffusionPipeline.enable_xformers_memory_efficient_attention() skipped (no GPU)",
        "torch.compile() skipped: the model runs eagerly (no GPU)",
        "AutoencoderKL.half() keeps float32 (no GPU)",
        "CLIPTextModel.cuda() stays on cpu (no GPU)",
        "torch.randn(): 'cuda' -> 'cpu', torch.float16 -> torch.float32 (no GPU)",
        "tensor.to(): 'cuda:0' -> 'cpu' (no GPU)",
        "tensor.half() kept on cpu/float32 (no GPU)",
    ):
        assert expected in records


def test_activating_again_swaps_settings_without_stacking_patches(tiny_cache):
    code = (
        "from guidelint.runner.diffusers_backend import activate\n"
        "import torch\n"
        "later = []\n"
        "activate({'tiny_cache': TINY, 'gpu': False}, later.append)\n"
        "torch.nn.Linear(2, 2).to('cuda')\n"
        "result = later\n"
    ).replace("TINY", repr(tiny_cache))
    result, first_records = run(tiny_cache, code)
    assert result == ["Linear.to('cuda'): 'cuda' -> 'cpu' (no GPU)"]  # once, to the new record
    assert first_records == []


def test_with_gpu_set_examples_run_as_written(tiny_cache):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: .to('cuda') would work")
    code = (
        "import torch\n"
        "from diffusers import StableDiffusionPipeline\n"
        "pipe = StableDiffusionPipeline.from_pretrained('stable-diffusion-v1-5/sd-v1-5')\n"
        "pipe.to('cuda')\n"
    )
    outcome, message = in_child(activated, tiny_cache, code, gpu=True)
    assert outcome == "raised"  # no CPU fallback: this machine really has no CUDA
    assert "cuda" in message.lower() or "nvidia" in message.lower()


def test_a_missing_import_stays_a_module_not_found_error(tiny_cache):
    outcome, message = in_child(activated, tiny_cache, "import cv3_not_installed\n")
    assert (outcome, message) == (
        "raised",
        "ModuleNotFoundError: No module named 'cv3_not_installed'",
    )


def _threaded_torch_then_fork(tiny_cache):
    """The parent's intra-op pool is busy before the fork, as in a warm worker."""
    import torch

    torch.set_num_threads(2)
    matrix = torch.randn(512, 512)
    for _ in range(20):
        matrix = torch.tanh(matrix @ matrix)
    code = (
        "import torch\n"
        "from diffusers import DDIMPipeline\n"
        "x = torch.randn(512, 512)\n"
        "y = (x @ x).sum().item()\n"
        "pipe = DDIMPipeline.from_pretrained('fusing/ddim-lsun-bedroom')\n"
        "result = pipe(num_inference_steps=2, output_type='np').images.shape\n"
    )
    outcome, value = in_child(activated, tiny_cache, code)
    return outcome, value[0] if outcome == "returned" else value


def test_a_child_forked_after_threaded_torch_ops_does_not_deadlock(tiny_cache):
    # In a fresh interpreter, as the warm worker is: this pytest process may hold the
    # threads of earlier tests (a Trainer's, a language server's), and a fork copies
    # the locks they held, which hangs the child for reasons no worker has.
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        outcome, shape = pool.apply(in_child, (_threaded_torch_then_fork, tiny_cache))
    assert outcome == "returned", shape
    assert shape == ("returned", (1, 16, 16, 3))


def test_the_package_stays_light_until_used():
    code = (
        "import sys, guidelint.runner.diffusers_backend as backend\n"
        "heavy = [m for m in ('torch', 'diffusers', 'transformers') if m in sys.modules]\n"
        "assert callable(backend.preload) and callable(backend.activate)\n"
        "print(heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr


VIDEO = """
from diffusers.utils import export_to_video, load_video

frames = load_video("https://huggingface.co/datasets/huggingface/documentation-images/resolve/main/diffusers/hiker.mp4")
path = export_to_video(frames, "out.mp4", fps=8)
again = load_video(path)
result = [len(frames), frames[0].size, frames[0].mode, len(again)]
"""


def test_a_video_url_gets_a_generated_video_that_load_video_reads(
    tiny_cache, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # export_to_video writes where the example runs
    result, records = run(tiny_cache, VIDEO)
    assert result == [8, (256, 256), "RGB", 8]
    assert records == [
        "requests GET https://huggingface.co/datasets/huggingface/documentation-images/resolve/"
        "main/diffusers/hiker.mp4 -> a generated 256x256 video of 8 frames"
    ]
