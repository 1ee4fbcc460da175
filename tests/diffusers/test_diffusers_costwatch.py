"""A denoising loop that cannot fit its example's timeout stops early, naming its cost;
one that fits runs to its end; an allocation torch refuses names its size."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.diffusers_backend import build, costwatch, state  # noqa: E402
from guidelint.runner.outcomes import Outcome  # noqa: E402
from guidelint.runner.verdict import classify_exception  # noqa: E402


@pytest.fixture(scope="module")
def ddpm(tmp_path_factory):
    from diffusers import DDPMPipeline

    folder = build.checkpoint_for("DDPMPipeline", tmp_path_factory.mktemp("tiny"))
    costwatch.install()
    return DDPMPipeline.from_pretrained(folder)


def watched(budget_s: float) -> state.State:
    return state.State(
        record_fn=lambda _line: None,
        gpu=False,
        cache_override=None,
        root=Path("."),
        budget_s=budget_s,
    )


def run_under(budget_s: float, pipe, steps: int):
    state.set_current(watched(budget_s))
    try:
        return pipe(num_inference_steps=steps, output_type="np")
    finally:
        state.set_current(None)


@pytest.mark.slow  # builds a tiny DDPM pipeline
def test_a_loop_that_cannot_fit_stops_with_its_measured_cost(ddpm):
    with pytest.raises(costwatch.TooSlow) as raised:
        run_under(1e-6, ddpm, steps=20)
    message = str(raised.value)
    assert message.startswith("DDPMPipeline: ")
    assert "the denoiser's input 1x3x16x16" in message
    # stopped by its first call (where that took a second: a loaded machine) or a step
    assert "its 20 steps" in message or " of 20 " in message
    assert "1e-06 s timeout" in message


@pytest.mark.slow
def test_a_loop_that_fits_runs_to_its_end(ddpm):
    images = run_under(600, ddpm, steps=3).images
    assert images.shape == (1, 16, 16, 3)


def test_the_budget_is_the_longest_timeout_of_the_unit():
    assert costwatch.budget({"timeouts": [60, 300], "timeout": 60}) == 300
    assert costwatch.budget({"timeout": 45}) == 45


class _Config:
    def __init__(self, patch_size, patch_size_t=None, **more) -> None:
        self.patch_size, self.patch_size_t = patch_size, patch_size_t
        self.__dict__.update(more)


class _Model:
    def __init__(self, **config) -> None:
        self.config = _Config(**config)


def test_tokens_are_latent_positions_over_the_patch():
    wan = _Model(patch_size=(1, 2, 2))
    assert costwatch._tokens((1, 16, 21, 90, 160), wan) == 75_600
    assert costwatch._tokens((2, 6930, 128), None) == 6930  # packed: (batch, tokens, width)
    assert costwatch._tokens((1, 2, 64000), None) is None  # a 1-D UNet's audio samples
    assert costwatch._tokens((1, 4, 128, 128), _Model(patch_size=2)) == 4096
    assert costwatch._tokens((1, 4, 128, 128), None) is None


def test_kandinsky5s_channels_last_input_counts_its_frames():
    """(batch, frames, height, width, channels): 121 frames at 512x768 are 31 latent frames
    of 64x96, 47,616 tokens in 1x2x2 patches (the run of 2026-12-05 said 6,144)."""
    kandinsky5 = _Model(patch_size=(1, 2, 2), in_visual_dim=4)
    assert costwatch._tokens((1, 31, 64, 96, 4), kandinsky5) == 47_616
    assert costwatch._tokens((1, 31, 64, 96, 9), kandinsky5) == 47_616  # image-to-video


def test_a_tensor_torch_cannot_allocate_is_crashed_naming_its_size():
    error = RuntimeError(
        "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't "
        "allocate memory: you tried to allocate 26291374080 bytes. Error code 12"
    )
    example = {"filename": "GUIDE.md", "expect_error": None}
    judged = classify_exception(error, example, [])  # type: ignore[arg-type]
    assert judged["status"] is Outcome.CRASHED
    assert "could not allocate one tensor of 24.5 GiB" in judged["message"]


def test_work_that_cannot_end_before_the_deadline_stops_just_before_it():
    import time

    late = watched(60)
    late.started = time.perf_counter() - 58  # 58 s into a 60 s example
    state.set_current(late)
    try:
        assert costwatch.past_deadline(next_s=2.0, left_s=10.0, budget_s=60)
        assert not costwatch.past_deadline(next_s=0.5, left_s=1.0, budget_s=60)  # ends in time
        late.started = time.perf_counter() - 10  # early: the runner's deadline is far
        assert not costwatch.past_deadline(next_s=2.0, left_s=100.0, budget_s=60)
    finally:
        state.set_current(None)


@pytest.fixture(scope="module")
def wan_vae(tmp_path_factory):
    from diffusers import AutoencoderKLWan

    folder = build.component_checkpoint("AutoencoderKLWan", tmp_path_factory.mktemp("tiny"))
    costwatch.install()
    return AutoencoderKLWan.from_pretrained(folder).eval()


@pytest.mark.slow  # builds a tiny Wan VAE
def test_a_video_vae_pass_that_cannot_fit_stops_after_its_second_chunk(wan_vae):
    import torch

    video = torch.zeros(1, 3, 13, 16, 16)  # the first frame, then three chunks of four
    state.set_current(watched(1e-6))
    try:
        with pytest.raises(costwatch.TooSlow) as raised, torch.no_grad():
            wan_vae.encode(video)
    finally:
        state.set_current(None)
    message = str(raised.value)
    assert message.startswith("AutoencoderKLWan: encoding the 1x3x13x16x16 video chunk by chunk")
    assert "chunk 2 of 4 took" in message and "the 2 chunks left need about" in message


@pytest.mark.slow
def test_a_video_vae_pass_that_fits_runs_to_its_end(wan_vae):
    import torch

    state.set_current(watched(600))
    try:
        with torch.no_grad():
            latents = wan_vae.encode(torch.zeros(1, 3, 9, 16, 16)).latent_dist.mode()
            frames = wan_vae.decode(latents).sample
    finally:
        state.set_current(None)
    assert frames.shape == (1, 3, 9, 16, 16)


@pytest.fixture(scope="module")
def hunyuan_vae(tmp_path_factory):
    from diffusers import AutoencoderKLHunyuanVideo

    folder = build.component_checkpoint(
        "AutoencoderKLHunyuanVideo", tmp_path_factory.mktemp("tiny")
    )
    costwatch.install()
    return AutoencoderKLHunyuanVideo.from_pretrained(folder).eval()


def _decode_hunyuan(vae, latent_frames: int, budget_s: float):
    import torch

    state.set_current(watched(budget_s))
    try:
        with torch.no_grad():
            return vae.decode(torch.zeros(1, 4, latent_frames, 2, 2)).sample
    finally:
        state.set_current(None)


@pytest.mark.slow  # builds a tiny HunyuanVideo VAE
def test_a_frame_wise_hunyuan_decode_past_the_deadline_stops_after_its_first_window(hunyuan_vae):
    # 13 latent frames: windows of 5 at a stride of 3, 5 decoder calls (Kandinsky 5's 31: 11)
    with pytest.raises(costwatch.TooSlow) as raised:
        _decode_hunyuan(hunyuan_vae, 13, 1e-6)
    message = str(raised.value)
    assert message.startswith(
        "AutoencoderKLHunyuanVideo: decoding the 1x4x13x2x2 video chunk by chunk"
    )
    # past the deadline already: its windows are alike, so the first one's time counts
    assert "chunk 1 of 5 took" in message and "the 4 chunks left need about" in message


@pytest.mark.slow
def test_a_frame_wise_hunyuan_decode_that_fits_or_is_tiled_runs_to_its_end(hunyuan_vae):
    assert _decode_hunyuan(hunyuan_vae, 13, 600).shape == (1, 3, 49, 16, 16)
    hunyuan_vae.enable_tiling()  # a window makes several calls: not watched
    try:
        assert _decode_hunyuan(hunyuan_vae, 13, 1e-6).shape == (1, 3, 49, 16, 16)
    finally:
        hunyuan_vae.disable_tiling()


@pytest.mark.slow
def test_a_loop_at_the_runners_deadline_stops_with_its_figures(ddpm, monkeypatch):
    # the step-level check alone: at the deadline the first call's own check stops it
    # sooner (the next test)
    monkeypatch.setattr(costwatch._TimedSteps, "first_call", lambda self, call_s: None)
    message = _too_slow_at(ddpm, started_ago=60)  # the runner's deadline is now
    assert message.startswith("DDPMPipeline: denoising step 2 of 20 took ")
    assert "s into the example, the 18 steps left need about" in message
    assert message.endswith("stopped before the runner's deadline")


@pytest.fixture(scope="module")
def shap_e_renderer(tmp_path_factory):
    from diffusers.pipelines.shap_e.renderer import ShapERenderer

    folder = build.component_checkpoint("ShapERenderer", tmp_path_factory.mktemp("tiny"))
    costwatch.install()
    return ShapERenderer.from_pretrained(folder).eval()


def shap_e_latent(renderer):
    """One latent as the Shap-E pipeline hands it to the renderer: (1, rows, d_latent)."""
    import torch

    rows = sum(shape[0] for shape in renderer.config.param_shapes)
    return torch.zeros(1, rows, renderer.config.d_latent)


@pytest.mark.slow  # builds a tiny Shap-E renderer and renders a few ray batches
def test_a_shap_e_render_that_cannot_fit_stops_after_its_second_ray_batch(shap_e_renderer):
    import torch

    state.set_current(watched(1e-6))
    try:
        with pytest.raises(costwatch.TooSlow) as raised:
            # 20 views of 16x16: 5,120 rays, 20 batches of 256
            shap_e_renderer.decode_to_image(
                shap_e_latent(shap_e_renderer), torch.device("cpu"), size=16, ray_batch_size=256
            )
    finally:
        state.set_current(None)
    message = str(raised.value)
    assert message.startswith("ShapERenderer: rendering 5,120 rays (16x16 views) 256 a batch")
    assert "batch 2 of 20 took" in message and "the 18 batches left need about" in message
    assert "render_rays" not in vars(shap_e_renderer)  # the timed stand-in is gone


@pytest.mark.slow
def test_a_shap_e_render_that_fits_runs_to_its_end(shap_e_renderer):
    import torch

    state.set_current(watched(600))
    try:
        images = shap_e_renderer.decode_to_image(
            shap_e_latent(shap_e_renderer), torch.device("cpu"), size=8, ray_batch_size=640
        )
    finally:
        state.set_current(None)
    assert tuple(images.shape) == (20, 8, 8, 3)


@pytest.mark.slow
def test_a_first_call_that_leaves_no_time_for_the_rest_stops_with_its_figures(ddpm):
    """A first call that ends at the runner's deadline (Kandinsky 6's took 52 s of its 60)
    stops there, before a second step the runner would kill bare."""
    message = _too_slow_at(ddpm, started_ago=61)  # the first call ends past the deadline
    assert message.startswith("DDPMPipeline: the denoiser's first call took")
    assert (
        "its 20 steps make at least 20 calls, past the deadline of this example's 60 s" in message
    )


def _too_slow_at(ddpm, started_ago: float) -> str:
    """costwatch's message when 20 DDPM steps start `started_ago` seconds into a 60 s example."""
    import time

    late = watched(60)
    late.started = time.perf_counter() - started_ago
    state.set_current(late)
    try:
        with pytest.raises(costwatch.TooSlow) as raised:
            ddpm(num_inference_steps=20, output_type="np")
    finally:
        state.set_current(None)
    return str(raised.value)


@pytest.mark.slow  # builds a tiny DiT pipeline
def test_a_first_call_too_slow_to_end_is_timed_by_its_first_block(tmp_path):
    """A denoiser whose first call outlasts the timeout (HunyuanVideo image-to-video:
    118,800 tokens a call) is timed by the first of its transformer blocks."""
    from diffusers import DiTPipeline

    folder = build.checkpoint_for("DiTPipeline", tmp_path)
    costwatch.install()
    pipe = DiTPipeline.from_pretrained(folder)
    blocks = len(pipe.transformer.transformer_blocks)
    state.set_current(watched(1e-6))
    try:
        with pytest.raises(costwatch.TooSlow) as raised:
            pipe(class_labels=[1], num_inference_steps=20, output_type="np")
    finally:
        state.set_current(None)
    message = str(raised.value)
    assert message.startswith(
        f"DiTPipeline: the first of the {blocks} transformer blocks of the denoiser's first "
        "call took"
    )
    assert "its 20 steps make at least 20 calls" in message


class FakeClock:
    """costwatch's time.perf_counter, advanced by each step's cost."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def run_steps(monkeypatch, costs: list[float], budget_s: float = 60.0) -> int:
    """A loop of len(costs) steps taking those seconds under costwatch's step timer (no
    example running, so only the margin rule can stop it): how many ran."""
    clock = FakeClock()
    monkeypatch.setattr(costwatch.time, "perf_counter", clock)
    steps = costwatch._TimedSteps(iter(costs), object(), len(costs), budget_s)
    ran = 0
    for cost in steps:
        clock.now += cost
        ran += 1
    return ran


def repaint_like(second_step_s: float) -> list[float]:
    """RePaint's 4,570 steps: runs of ten UNet steps (14 ms) and ten undo steps (4 ms),
    its second step slow as on a loaded machine: about 43 s in all."""
    costs = [(0.014 if (i // 10) % 2 == 0 else 0.004) for i in range(4570)]
    costs[1] = second_step_s
    return costs


def test_a_loop_of_short_steps_is_judged_on_their_mean_not_on_step_2(monkeypatch):
    # step 2 at 30 ms x 4,568 steps left is 137 s, past 2x 60 s; the loop's mean is not
    assert run_steps(monkeypatch, repaint_like(0.030)) == 4570


def test_a_loop_of_short_steps_that_cannot_fit_stops_after_a_second_of_them(monkeypatch):
    with pytest.raises(costwatch.TooSlow) as raised:
        run_steps(monkeypatch, [0.05] * 4570)
    message = str(raised.value)
    assert message.startswith("object: denoising steps 2-")
    assert "of 4570 took 0.050 s each on average" in message
    assert "more than 2x this example's 60 s timeout" in message


def test_a_slow_step_2_is_still_judged_alone(monkeypatch):
    with pytest.raises(costwatch.TooSlow) as raised:
        run_steps(monkeypatch, [1.3] * 100)
    assert str(raised.value).startswith("object: denoising step 2 of 100 took 1.3 s;")


def test_a_short_first_call_is_no_evidence_for_the_margin_rule(monkeypatch):
    """RePaint's first UNet call (warm-up) at 0.3 s, counted at a tenth for each of its
    4,569 steps left, is 137 s: past 2x 60 s, yet the loop fits. A first call of 1 s or
    more is judged as before."""
    clock = FakeClock()
    monkeypatch.setattr(costwatch.time, "perf_counter", clock)
    steps = costwatch._TimedSteps(iter(()), object(), 4570, 60.0)
    steps.first_call(0.3)
    with pytest.raises(costwatch.TooSlow) as raised:
        steps.first_call(3.0)
    assert "first call took 3.0 s" in str(raised.value)
