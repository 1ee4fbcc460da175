#!/usr/bin/env python3
"""Time `guidelint run` on small diffusers examples against the usual ways, side by side.

    .venv/bin/python scripts/bench_run.py [--examples 20] [--repeat 1] [--write]

Every way runs the same examples (each loads a tiny pipeline and runs 2 steps), with
the same bundled diffusers backend activated, from the same prebuilt tiny cache:

- `guidelint run`: one warm worker imports torch and diffusers once and forks an
  isolated child per example (scratch folder, timeout, no network), one job at a time;
- fresh interpreter: one `python` process per example, as doccmd or a naive runner
  does, paying the imports every time;
- one process, no isolation: every example exec'd in turn in one interpreter, as
  pytest-examples or mktestdocs do (a crash or a leaked global affects the rest);
- `guidelint run` without Landlock: the same run, with a `sitecustomize` on the
  worker's `PYTHONPATH` that makes the sandbox find no Landlock (as on a kernel
  without it), to show what the write confinement costs. The report's `sandbox`
  entry must then say ABI 0, or the benchmark stops.

Wall time is what a user waits; CPU time (user + sys of every process) is steadier on
a shared machine. Each figure is the best of --repeat runs. With --write the figures
replace the "Guide examples" section of docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PERFORMANCE = REPO / "docs" / "PERFORMANCE.md"
SECTION = "## Guide examples"

TEMPLATES = [
    """
    import torch
    from diffusers import StableDiffusionPipeline
    pipe = StableDiffusionPipeline.from_pretrained(
        "stable-diffusion-v1-5/stable-diffusion-v1-5", torch_dtype=torch.float16
    ).to("cuda")
    image = pipe("a fox {n}", num_inference_steps=2,
                 generator=torch.Generator("cuda").manual_seed({n})).images[0]
    print(image.size)
    """,
    """
    from diffusers import DPMSolverMultistepScheduler, StableDiffusionPipeline
    pipe = StableDiffusionPipeline.from_pretrained("stable-diffusion-v1-5/stable-diffusion-v1-5")
    pipe.scheduler = DPMSolverMultistepScheduler.from_config(pipe.scheduler.config)
    print(pipe("a lighthouse {n}", num_inference_steps=2).images[0].size)
    """,
    """
    from diffusers import StableDiffusionImg2ImgPipeline
    from diffusers.utils import load_image
    pipe = StableDiffusionImg2ImgPipeline.from_pretrained("runwayml/stable-diffusion-v1-5")
    init = load_image("https://example.org/sketch-{n}.png").resize((128, 128))
    print(pipe("a mountain", image=init, strength=1.0, num_inference_steps=2).images[0].size)
    """,
    """
    from diffusers import AutoPipelineForInpainting
    from diffusers.utils import load_image
    pipe = AutoPipelineForInpainting.from_pretrained("runwayml/stable-diffusion-inpainting")
    image = load_image("https://example.org/room-{n}.png").resize((128, 128))
    mask = load_image("https://example.org/room_mask.png").resize((128, 128))
    out = pipe("a sofa", image=image, mask_image=mask, height=128, width=128,
               strength=1.0, num_inference_steps=2).images[0]
    print(out.size)
    """,
    """
    import torch
    from diffusers import StableDiffusionXLPipeline
    pipe = StableDiffusionXLPipeline.from_pretrained(
        "stabilityai/stable-diffusion-xl-base-1.0", torch_dtype=torch.float16, variant="fp16"
    )
    pipe.enable_model_cpu_offload()
    print(pipe("a castle {n}", num_inference_steps=2).images[0].size)
    """,
    """
    from diffusers import AutoPipelineForImage2Image
    from diffusers.utils import load_image
    pipe = AutoPipelineForImage2Image.from_pretrained("stabilityai/stable-diffusion-xl-refiner-1.0")
    init = load_image("https://example.org/castle-{n}.png").resize((128, 128))
    print(pipe("sharper", image=init, strength=1.0, num_inference_steps=2).images[0].size)
    """,
    """
    import numpy as np
    from diffusers import ControlNetModel, StableDiffusionControlNetPipeline
    from PIL import Image
    controlnet = ControlNetModel.from_pretrained("lllyasviel/sd-controlnet-canny")
    pipe = StableDiffusionControlNetPipeline.from_pretrained(
        "stable-diffusion-v1-5/stable-diffusion-v1-5", controlnet=controlnet
    )
    edges = Image.fromarray(np.full((128, 128, 3), {n} % 255, dtype=np.uint8))
    print(pipe("a bird", image=edges, num_inference_steps=2).images[0].size)
    """,
    """
    from diffusers import DDPMPipeline
    pipe = DDPMPipeline.from_pretrained("google/ddpm-cat-256")
    print(pipe(num_inference_steps=2).images[0].size)
    """,
    """
    import torch
    from diffusers import DDIMPipeline
    pipe = DDIMPipeline.from_pretrained("fusing/ddim-lsun-bedroom")
    out = pipe(eta=0.0, num_inference_steps=2, generator=torch.manual_seed({n}))
    print(out.images[0].size)
    """,
    """
    from diffusers import AutoPipelineForText2Image, EulerDiscreteScheduler
    pipe = AutoPipelineForText2Image.from_pretrained("stable-diffusion-v1-5/stable-diffusion-v1-5")
    pipe.scheduler = EulerDiscreteScheduler.from_config(pipe.scheduler.config)
    pipe("a boat {n}", num_inference_steps=2).images[0].save("boat-{n}.png")
    print("saved")
    """,
]

# One interpreter, no isolation: activate the backend once, exec every example.
IN_ONE_PROCESS = """
import json, sys
from guidelint.runner.diffusers_backend import activate
activate({"tiny_cache": sys.argv[1], "gpu": False}, lambda line: None)
for path in json.loads(sys.argv[2]):
    exec(compile(open(path).read(), path, "exec"), {"__name__": "__main__"})
"""
# Put on PYTHONPATH (and so imported by every interpreter of that run, the worker
# included), it makes the sandbox see a kernel without Landlock.
NO_LANDLOCK = """
import guidelint.runner.sandbox as sandbox
sandbox.landlock_abi = lambda: 0
"""
# One interpreter per example: the same activation, then the one example.
ONE_EXAMPLE = """
import sys
from guidelint.runner.diffusers_backend import activate
activate({"tiny_cache": sys.argv[1], "gpu": False}, lambda line: None)
exec(compile(open(sys.argv[2]).read(), sys.argv[2], "exec"), {"__name__": "__main__"})
"""


@dataclass
class Timing:
    wall: float
    cpu: float


def examples(count: int) -> list[str]:
    return [
        textwrap.dedent(TEMPLATES[i % len(TEMPLATES)]).strip().replace("{n}", str(i))
        for i in range(count)
    ]


def write_project(root: Path, codes: list[str], tiny: Path) -> list[Path]:
    (root / "docs").mkdir(parents=True)
    blocks = [
        f"## Example {i}\n\n```python {{id=bench-{i}}}\n{code}\n```\n"
        for i, code in enumerate(codes)
    ]
    (root / "docs" / "bench.md").write_text("# Bench\n\n" + "\n".join(blocks))
    (root / "pyproject.toml").write_text(
        '[tool.guidelint]\ninclude = ["docs/**/*.md"]\n'
        f'[tool.guidelint.runner]\ntimeout = 600\ntiny-cache = "{tiny}"\n'
        # PYTHONPATH reaches the worker only for the way without Landlock, which sets it
        'env-allowlist = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "PYTHONPATH"]\n'
    )
    scripts = []
    for i, code in enumerate(codes):
        path = root / "scripts" / f"example_{i}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(code + "\n")
        scripts.append(path)
    return scripts


def timed(commands: list[list[str]], cwd: Path, env: dict[str, str] | None = None) -> Timing:
    """Run the commands one after another; wall and children's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    clock = time.perf_counter()
    for command in commands:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            sys.exit(f"bench: {' '.join(command[:3])}... failed:\n{done.stdout}\n{done.stderr}")
    wall = time.perf_counter() - clock
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(wall, cpu)


def landlock_abi(report: Path) -> int:
    """The Landlock ABI a run's report says its examples were confined with."""
    sandbox = json.loads(report.read_text()).get("sandbox") or {}
    return int(sandbox.get("landlock_abi", 0))


def best(runs: list[Timing]) -> Timing:
    return Timing(min(r.wall for r in runs), min(r.cpu for r in runs))


def measure(count: int, repeat: int) -> dict:
    python = sys.executable
    guidelint = str(Path(python).parent / "guidelint")
    with tempfile.TemporaryDirectory(prefix="bench-run-") as scratch:
        root, tiny = Path(scratch) / "project", Path(scratch) / "tiny"
        scripts = write_project(root, examples(count), tiny)
        timed([[guidelint, "tiny", "build", "--cache", str(tiny)]], root)  # not timed below
        hook = Path(scratch) / "no-landlock"
        hook.mkdir()
        (hook / "sitecustomize.py").write_text(NO_LANDLOCK)
        without_landlock = {**os.environ, "PYTHONPATH": str(hook)}
        report, report_without = root / "report.json", root / "report-no-landlock.json"
        run = [guidelint, "run", "--jobs", "1", "--format", "json", "-o"]
        ways = {
            "guidelint run": [[*run, str(report)]],
            "guidelint run, no Landlock": [[*run, str(report_without)]],
            "fresh interpreter per example": [
                [python, "-c", ONE_EXAMPLE, str(tiny), str(s)] for s in scripts
            ],
            "one process, no isolation": [
                [python, "-c", IN_ONE_PROCESS, str(tiny), json.dumps([str(s) for s in scripts])]
            ],
        }
        envs = {"guidelint run, no Landlock": without_landlock}
        results: dict[str, list[Timing]] = {name: [] for name in ways}
        for _ in range(repeat):
            for name, commands in ways.items():  # interleaved, so load drifts hit all ways
                results[name].append(timed(commands, root, envs.get(name)))
        passed = json.loads(report.read_text())["summary"]["passed"]
        landlock = [landlock_abi(report), landlock_abi(report_without)]
        if landlock[0] == 0 or landlock[1] != 0:
            sys.exit(f"bench: Landlock ABI with / without: {landlock}; expected >0 / 0")
    figures = {name: best(runs) for name, runs in results.items()}
    return {
        "count": count,
        "repeat": repeat,
        "passed": passed,
        "landlock": landlock[0],
        "figures": figures,
        "load": os.getloadavg()[0],
        "cores": os.cpu_count(),
        "python": platform.python_version(),
    }


def render(data: dict) -> str:
    count, figures = data["count"], data["figures"]
    base = figures["one process, no isolation"]
    ours = figures["guidelint run"]
    fresh = figures["fresh interpreter per example"]
    bare = figures["guidelint run, no Landlock"]
    rows = []
    for name, timing in figures.items():
        overhead = (timing.wall - base.wall) / count
        rows.append(
            f"| {name} | {timing.wall:.1f} s | {timing.cpu:.1f} s | "
            f"{overhead:+.2f} s | {timing.wall / base.wall:.2f}x |"
        )
    lines = [
        SECTION,
        "",
        f"Measured with `scripts/bench_run.py`: {count} small diffusers examples (each loads "
        "a tiny pipeline and runs 2 steps: SD, img2img, inpainting, SDXL, ControlNet, DDPM, "
        "DDIM, scheduler swaps), the bundled backend active in every way, one example at a "
        f"time; best of {data['repeat']} interleaved run(s), CPython {data['python']}, "
        f"{data['cores']} cores, a shared machine at a load average of about "
        f"{data['load']:.0f}, so absolute seconds are inflated; the ratios are the point.",
        "",
        "| Way | Wall | CPU | Per example vs no isolation | Wall / no isolation |",
        "|-----|------|-----|-----------------------------|---------------------|",
        *rows,
        "",
        f"`guidelint run` is {fresh.wall / ours.wall:.1f}x faster than a fresh interpreter "
        f"per example and takes {ours.wall / base.wall:.2f}x the wall time "
        f"({ours.cpu / base.cpu:.2f}x the CPU time) of running everything in one unprotected "
        "process. The warm worker pays for importing torch and diffusers once, then forks a "
        "child per example, which finds them imported and pays only its own tiny run plus the "
        "fork, scratch folder and sandbox; a fresh interpreter pays the imports once per "
        "example, which dominates a tiny example many times over. "
        f"({data['passed']} of {count} examples passed under `guidelint run`.)",
        "",
        f"With Landlock (ABI {data['landlock']}) against the same run on a kernel without it: "
        f"{ours.wall:.1f} s against {bare.wall:.1f} s wall, {ours.cpu:.1f} s against "
        f"{bare.cpu:.1f} s CPU ({ours.cpu / bare.cpu:.2f}x). Issue #13's bound, the isolated "
        f"run within 1.3x of one unisolated process: {ours.wall / base.wall:.2f}x wall, "
        f"{ours.cpu / base.cpu:.2f}x CPU.",
        "",
    ]
    return "\n".join(lines)


def write_section(text: str) -> None:
    current = PERFORMANCE.read_text() if PERFORMANCE.exists() else "# Performance\n"
    start = current.find(SECTION + "\n")
    if start < 0:
        updated = current.rstrip("\n") + "\n\n" + text
    else:
        end = current.find("\n## ", start + len(SECTION))
        rest = current[end + 1 :] if end >= 0 else ""
        updated = current[:start] + text + ("\n" + rest if rest else "")
    PERFORMANCE.write_text(updated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="update docs/PERFORMANCE.md")
    args = parser.parse_args()
    data = measure(args.examples, args.repeat)
    text = render(data)
    print(text)
    if args.write:
        write_section(text)
        print(f"wrote the section into {PERFORMANCE.relative_to(REPO)}")


if __name__ == "__main__":
    main()
