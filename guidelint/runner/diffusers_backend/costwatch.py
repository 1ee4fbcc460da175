"""A denoising loop that cannot finish within its example's timeout stops, saying what it costs.

A video example at 720x1280 and 81 frames asks a tiny DiT for attention over 75,600
tokens, 100 times: it would run until the timeout and end as a bare `timeout`. Every
diffusers pipeline reports its steps through `DiffusionPipeline.progress_bar`; timing
the second step (the first pays for warm-up) gives the loop's cost, and when the steps
left need more than twice the example's timeout the example stops there, as `timeout`,
with the measured figures: seconds a step, the denoiser's input and its token count.
A first call so slow that a tenth of it for every step still cannot fit stops the
loop before step 2 (Wan at 720p: 51 s for one call over 75,600 tokens).
Nothing the example computes changes; a loop that fits runs to its end untouched.
"""

from __future__ import annotations

import math
import time

from guidelint.runner.diffusers_backend.state import current, remember_original

MARGIN = 2.0  # stop only when the steps left need more than this many timeouts
# Just before the runner's deadline, a loop that cannot end before it stops with its
# figures rather than being killed bare: when the next two steps would end within this
# many seconds of the deadline (two: on a loaded machine one step can take twice another).
DEADLINE_GRACE_S = 3.0
# The denoiser's first call pays for warm-up (kernel choices, allocations at new shapes):
# measured 3.1-3.3 s for Kandinsky 2.2's and the T2I-Adapter's UNets whose later calls
# take tenths of a second. Judged on it alone, the loop counts at a tenth of that.
FIRST_CALL_DISCOUNT = 10.0
# A loop of short steps is judged on their mean once they have run this long, not on
# step 2 alone: one 14 ms step of RePaint's 4,570 (of two kinds: 2,410 UNet calls, 2,160
# cheaper undo steps) taken at 30 ms on a loaded machine extrapolated past the margin.
JUDGE_AFTER_S = 1.0


class TooSlow(TimeoutError):
    """The denoising loop cannot finish in time: the outcome timeout, with its cost."""

    guidelint_outcome = "timeout"


class _TimedSteps:
    """tqdm's stand-in for one loop: passes everything on, and times each step."""

    def __init__(self, bar, pipeline, total: int | None, budget_s: float) -> None:
        self.bar, self.pipeline, self.total, self.budget_s = bar, pipeline, total, budget_s
        self.marks = [time.perf_counter()]
        self.judged = False  # the margin rule decides once (see JUDGE_AFTER_S)
        self.shape: tuple[int, ...] | None = None
        self._hook = _watch_input(pipeline, self)

    # the loop's two forms: `with progress_bar(total=n) as bar: ... bar.update()`
    # and `for t in progress_bar(timesteps)`
    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        self._close()
        return self.bar.__exit__(*exc)

    def __iter__(self):
        try:
            for item in self.bar:
                yield item
                self._stepped()
        finally:
            self._close()

    def __len__(self) -> int:
        return len(self.bar)

    def __getattr__(self, name: str):
        return getattr(self.bar, name)

    def update(self, n: int = 1):
        result = self.bar.update(n)
        self._stepped()
        return result

    def _stepped(self) -> None:
        self.marks.append(time.perf_counter())
        done = len(self.marks) - 1
        total = self.total or 0
        if done < 2 or total <= done:
            return
        step_s = self.marks[-1] - self.marks[-2]
        left = total - done
        # the steps left at the loop's mean pace (step 1 pays for warm-up), so one slow
        # step on a loaded machine does not stop a loop that would end in time
        mean_s = (self.marks[-1] - self.marks[1]) / (done - 1)
        # judged at step 2 where that step alone took JUDGE_AFTER_S, as before
        if not self.judged and self.marks[-1] - self.marks[1] >= JUDGE_AFTER_S:
            self.judged = True
            if mean_s * left > MARGIN * self.budget_s:
                self._close()
                raise TooSlow(self._message(mean_s, done, total))
        if past_deadline(max(step_s, mean_s), mean_s * left, self.budget_s):
            self._close()
            raise TooSlow(self._deadline_message(mean_s, done, total))

    def first_call(self, call_s: float) -> None:
        """The denoiser's first call took `call_s`: the loop makes at least one a step.
        It stops here when the later calls, each counted at a tenth of it, need more
        than MARGIN timeouts, or cannot end before the runner's deadline (Kandinsky 6's
        first call took 52 s of its 60: the second step would have been killed bare)."""
        total = self.total or 0
        if total <= 2:
            return
        later_s = call_s / FIRST_CALL_DISCOUNT
        # a first call under JUDGE_AFTER_S is no evidence for the margin rule (RePaint's
        # warm-up call at load 21 took some 0.3 s: at a tenth, times its 4,569 steps left,
        # past 2x 60 s); its steps are judged on their mean instead
        if call_s >= JUDGE_AFTER_S and later_s * (total - 1) > MARGIN * self.budget_s:
            self._close()
            raise TooSlow(self._first_call_message(call_s, total, "more than"))
        if past_deadline(later_s, later_s * (total - 1), self.budget_s):
            self._close()
            raise TooSlow(self._first_call_message(call_s, total, "past the deadline of"))

    def first_block(self, block_s: float, blocks: int) -> None:
        """The first block of the denoiser's first call took `block_s`, and the call runs
        `blocks` like it: the call takes at least their sum. A call over 118,800 tokens
        (HunyuanVideo image-to-video at 720x1280, 129 frames) outlasts a 60 s timeout
        alone, so the call's own end comes too late to be timed. Only the margin rule:
        the deadline rule waits for the call (first_call)."""
        total = self.total or 0
        call_s = block_s * blocks
        if total > 2 and call_s / FIRST_CALL_DISCOUNT * (total - 1) > MARGIN * self.budget_s:
            self._close()
            raise TooSlow(self._first_block_message(block_s, blocks, total))

    def _first_block_message(self, block_s: float, blocks: int, total: int) -> str:
        name = type(self.pipeline).__name__
        return (
            f"{name}: the first of the {blocks} transformer blocks of the denoiser's first "
            f"call took {block_s:.1f} s{self._input()}; {elapsed_s():.0f} s into the "
            f"example, its {total} steps make at least {total} calls, more than "
            f"{MARGIN:g}x this example's {self.budget_s:g} s timeout (runner.timeout) even "
            f"were each later call {FIRST_CALL_DISCOUNT:g}x faster: stopped there"
        )

    def _first_call_message(self, call_s: float, total: int, verdict: str) -> str:
        name = type(self.pipeline).__name__
        limit = f"{MARGIN:g}x " if verdict == "more than" else ""
        return (
            f"{name}: the denoiser's first call took {call_s:.1f} s{self._input()}; "
            f"{elapsed_s():.0f} s into the example, its {total} steps make at least "
            f"{total} calls, {verdict} {limit}this example's {self.budget_s:g} s timeout "
            f"(runner.timeout) even were each later call {FIRST_CALL_DISCOUNT:g}x faster: "
            "stopped there"
        )

    def _message(self, step_s: float, done: int, total: int) -> str:
        name = type(self.pipeline).__name__
        left = total - done
        return (
            f"{name}: denoising {_pace(step_s, done, total)}{self._input()}; "
            f"the {left} steps left need about {step_s * left:.0f} s, more than "
            f"{MARGIN:g}x this example's {self.budget_s:g} s timeout (runner.timeout): "
            "stopped there"
        )

    def _deadline_message(self, step_s: float, done: int, total: int) -> str:
        name = type(self.pipeline).__name__
        left = total - done
        return (
            f"{name}: denoising {_pace(step_s, done, total)}{self._input()}; "
            f"{elapsed_s():.0f} s into the example, the {left} steps left need about "
            f"{step_s * left:.0f} s more, past this example's {self.budget_s:g} s timeout "
            "(runner.timeout): stopped before the runner's deadline"
        )

    def _input(self) -> str:
        if self.shape is None:
            return ""
        dims = "x".join(str(d) for d in self.shape)
        tokens = _tokens(self.shape, _denoiser(self.pipeline))
        return f" (the denoiser's input {dims}" + (f", {tokens:,} tokens)" if tokens else ")")

    def _close(self) -> None:
        if self._hook is not None:
            self._hook.remove()
            self._hook = None


def _pace(step_s: float, done: int, total: int) -> str:
    """'step 2 of 50 took 1.3 s', or the mean of steps 2 to `done` (milliseconds where a
    step is short: RePaint's take 0.010 s)."""
    took = f"{step_s:.1f}" if step_s >= 0.1 else f"{step_s:.3f}"
    if done == 2:
        return f"step 2 of {total} took {took} s"
    return f"steps 2-{done} of {total} took {took} s each on average"


def _denoiser(pipeline):
    for name in ("transformer", "unet", "prior"):
        model = getattr(pipeline, name, None)
        if model is not None and hasattr(model, "register_forward_pre_hook"):
            return model
    return None


class _Hooks:
    def __init__(self, *handles) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def _watch_input(pipeline, steps: _TimedSteps):
    """Hooks on the denoiser: its input's shape, and the time of its first call, which
    alone can show that the loop cannot fit (a step calls it at least once)."""
    model = _denoiser(pipeline)
    if model is None:
        return None
    started: list[float] = []

    def before(_module, args, kwargs):
        found = args[0] if args else kwargs.get("hidden_states", kwargs.get("sample"))
        if steps.shape is None and hasattr(found, "shape"):
            steps.shape = tuple(found.shape)
        started.append(time.perf_counter())

    def after(_module, _args, _kwargs, _output):
        if len(started) == 1 and len(steps.marks) == 1:  # the first call, in step 1
            steps.first_call(time.perf_counter() - started[0])

    return _Hooks(
        model.register_forward_pre_hook(before, with_kwargs=True),
        model.register_forward_hook(after, with_kwargs=True),
        *_watch_first_block(model, steps, started),
    )


def _watch_first_block(model, steps: _TimedSteps, calls: list[float]) -> tuple:
    """Hooks on a transformer's first block (`transformer_blocks[0]`): its time in the
    denoiser's first call bounds the call's from below (first_block)."""
    blocks = getattr(model, "transformer_blocks", None)
    if not blocks or not hasattr(blocks, "__len__"):
        return ()
    started: list[float] = []

    def before(_module, _args, _kwargs):
        if len(calls) == 1 and not started:  # the first call's first block, once
            started.append(time.perf_counter())

    def after(_module, _args, _kwargs, _output):
        if len(calls) == 1 and len(started) == 1 and len(steps.marks) == 1:
            started.append(time.perf_counter())
            steps.first_block(started[1] - started[0], len(blocks))

    first = blocks[0]
    return (
        first.register_forward_pre_hook(before, with_kwargs=True),
        first.register_forward_hook(after, with_kwargs=True),
    )


def _tokens(shape: tuple[int, ...], model) -> int | None:
    """The sequence a transformer attends over: packed (batch, tokens, width), or the
    latent's positions over its patch size; None for what has no tokens (a 1-D UNet's
    (batch, channels, samples))."""
    if len(shape) == 3:
        return shape[1] if shape[1] > shape[2] else None
    config = getattr(model, "config", None)
    patch = getattr(config, "patch_size", None)
    if len(shape) < 4 or patch is None:
        return None
    # Kandinsky 5's visual input is channels-last: (batch, frames, height, width, channels)
    channels_last = getattr(config, "in_visual_dim", None) is not None
    positions = math.prod(shape[1:-1] if channels_last else shape[2:])
    if isinstance(patch, int):
        temporal = getattr(config, "patch_size_t", None) or 1
        per_patch = patch * patch * (temporal if len(shape) == 5 else 1)
    else:
        per_patch = math.prod(patch)
    return positions // max(1, per_patch)


def elapsed_s() -> float:
    """Seconds since the current example began (its activation)."""
    state = current()
    return 0.0 if state is None else time.perf_counter() - state.started


def past_deadline(next_s: float, left_s: float, budget_s: float) -> bool:
    """Whether work that needs `left_s` more cannot end before the runner's deadline,
    and the next piece (`next_s`) would end past it: the runner kills the example before
    another report, so it stops here with its figures. Work that can end in time is
    never stopped."""
    now = elapsed_s()
    return now + left_s > budget_s and now + 2 * next_s > budget_s - DEADLINE_GRACE_S


class _ChunkedCoder:
    """A video VAE that encodes or decodes chunk by chunk (AutoencoderKLWan: the first
    frame, then four frames a chunk; one latent frame a chunk when decoding;
    AutoencoderKLHunyuanVideo: overlapping windows of latent frames): the second
    chunk's time gives the whole pass's cost. Wan image-to-video encodes its 81-frame
    conditioning video (the image, then 80 empty frames) at the example's size before
    the denoiser's first call, which alone outlasts a 60 s timeout here."""

    def __init__(
        self,
        vae,
        verb: str,
        shape: tuple[int, ...],
        chunks: int,
        budget_s: float,
        alike_from: int = 2,
    ):
        self.vae, self.verb, self.shape = vae, verb, shape
        self.chunks, self.budget_s = chunks, budget_s
        # the first chunk whose time stands for the others' (Wan's first is one frame)
        self.alike_from = alike_from
        self.marks: list[float] = []

    def before(self, _module, _args, _kwargs) -> None:
        self.marks.append(time.perf_counter())

    def after(self, _module, _args, _kwargs, _output) -> None:
        done = len(self.marks)
        if done < self.alike_from or done >= self.chunks:
            return
        chunk_s = time.perf_counter() - self.marks[-1]
        left_s = chunk_s * (self.chunks - done)
        if (done == 2 and left_s > MARGIN * self.budget_s) or past_deadline(
            chunk_s, left_s, self.budget_s
        ):
            raise TooSlow(self._message(chunk_s, done, left_s))

    def _message(self, chunk_s: float, done: int, left_s: float) -> str:
        dims = "x".join(str(d) for d in self.shape)
        return (
            f"{type(self.vae).__name__}: {self.verb} the {dims} video chunk by chunk, chunk "
            f"{done} of {self.chunks} took {chunk_s:.1f} s; {elapsed_s():.0f} s into the "
            f"example, the {self.chunks - done} chunks left need about {left_s:.0f} s "
            f"more, past this example's {self.budget_s:g} s timeout (runner.timeout): stopped there"
        )


def _watch_chunks(cls, method: str, part: str, verb: str, chunks_of, alike_from: int = 2) -> None:
    """Wrap `cls.method(self, x)` so each call of `self.<part>` (one chunk) is timed;
    `chunks_of(self, frames)`: how many calls the pass makes, None where not watched."""
    original = getattr(cls, method)

    def watched(self, x, *args, **kwargs):
        state = current()
        coder = getattr(self, part, None)
        chunks = chunks_of(self, x.shape[2]) if x.dim() == 5 else None
        if state is None or state.budget_s is None or coder is None or chunks is None:
            return original(self, x, *args, **kwargs)
        watch = _ChunkedCoder(self, verb, tuple(x.shape), chunks, state.budget_s, alike_from)
        hooks = _Hooks(
            coder.register_forward_pre_hook(watch.before, with_kwargs=True),
            coder.register_forward_hook(watch.after, with_kwargs=True),
        )
        try:
            return original(self, x, *args, **kwargs)
        finally:
            hooks.remove()

    remember_original(watched, original)
    setattr(cls, method, watched)


class _RayBatches:
    """Shap-E's NeRF renderer (`ShapERenderer.decode_to_image`) renders its 20 pan views
    4,096 rays a batch, each ray at 64 coarse then 192 fine points, every point through a
    fixed 93-wide sine encoding before the MLP: at the example's frame_size 256 that is
    320 batches of some 8 s each here, whatever the MLP's width. The second batch's time
    gives the whole render's cost (each batch renders twice: coarse, then fine)."""

    def __init__(self, renderer, size: int, rays: int, batch: int, budget_s: float) -> None:
        self.renderer, self.size, self.rays, self.batch = renderer, size, rays, batch
        self.batches, self.budget_s = rays // batch, budget_s
        self.marks = [time.perf_counter()]
        self.calls = 0

    def rendered(self) -> None:
        """One `render_rays` call ended: every second one ends a batch."""
        self.calls += 1
        if self.calls % 2:
            return
        self.marks.append(time.perf_counter())
        done = len(self.marks) - 1
        if done < 2 or done >= self.batches:
            return
        batch_s = self.marks[-1] - self.marks[-2]
        left_s = batch_s * (self.batches - done)
        if (done == 2 and left_s > MARGIN * self.budget_s) or past_deadline(
            batch_s, left_s, self.budget_s
        ):
            raise TooSlow(self._message(batch_s, done, left_s))

    def _message(self, batch_s: float, done: int, left_s: float) -> str:
        return (
            f"{type(self.renderer).__name__}: rendering {self.rays:,} rays "
            f"({self.size}x{self.size} views) {self.batch:,} a batch, batch {done} of "
            f"{self.batches} took {batch_s:.1f} s; {elapsed_s():.0f} s into the example, the "
            f"{self.batches - done} batches left need about {left_s:.0f} s more, past this "
            f"example's {self.budget_s:g} s timeout (runner.timeout): stopped there"
        )


def _watch_rays(cls) -> None:
    """Wrap `cls.decode_to_image` (Shap-E's renderer) so each ray batch is timed."""
    from diffusers.pipelines.shap_e.camera import create_pan_cameras

    original = cls.decode_to_image

    def watched(self, latents, device, size: int = 64, ray_batch_size: int = 4096, **kwargs):
        state = current()
        if state is None or state.budget_s is None:
            return original(self, latents, device, size, ray_batch_size, **kwargs)
        rays = create_pan_cameras(size).camera_rays.shape[1]  # what the render makes
        watch = _RayBatches(self, size, rays, ray_batch_size, state.budget_s)
        render_rays = self.render_rays
        before = vars(self).get("render_rays")  # a watch around this one (installed twice)

        def timed(*args, **kw):
            result = render_rays(*args, **kw)
            watch.rendered()
            return result

        vars(self)["render_rays"] = timed  # the instance's, for this call only
        try:
            return original(self, latents, device, size, ray_batch_size, **kwargs)
        finally:
            if before is None:
                vars(self).pop("render_rays", None)
            else:
                vars(self)["render_rays"] = before

    remember_original(watched, original)
    setattr(cls, "decode_to_image", watched)  # noqa: B010 - mypy


def budget(settings: dict) -> float:
    """The longest timeout of the examples this child runs (the runner's default else)."""
    timeouts = [t for t in settings.get("timeouts") or () if t]
    return float(max(timeouts) if timeouts else settings.get("timeout") or 60)


def install() -> None:
    from diffusers import DiffusionPipeline

    original = DiffusionPipeline.progress_bar

    def progress_bar(self, iterable=None, total=None):
        bar = original(self, iterable=iterable, total=total)
        state = current()
        if state is None or state.budget_s is None:
            return bar
        steps = total if total is not None else _length(iterable)
        return _TimedSteps(bar, self, steps, state.budget_s)

    remember_original(progress_bar, original)
    setattr(DiffusionPipeline, "progress_bar", progress_bar)  # noqa: B010 - mypy
    install_coders()


def install_coders() -> None:
    from diffusers import AutoencoderKLHunyuanVideo, AutoencoderKLWan
    from diffusers.pipelines.shap_e.renderer import ShapERenderer

    _watch_rays(ShapERenderer)
    _watch_chunks(AutoencoderKLWan, "_encode", "encoder", "encoding", lambda _, f: 1 + (f - 1) // 4)
    _watch_chunks(AutoencoderKLWan, "_decode", "decoder", "decoding", lambda _, f: f)
    # its windows are alike from the first: the deadline rule counts it (Kandinsky 6's
    # decode after its loop had 20 s windows at load 14; the second ended past 60 s)
    _watch_chunks(
        AutoencoderKLHunyuanVideo,
        "_temporal_tiled_decode",
        "decoder",
        "decoding",
        _hunyuan_tiles,
        alike_from=1,
    )


def _hunyuan_tiles(vae, frames: int) -> int | None:
    """The decoder calls of AutoencoderKLHunyuanVideo's frame-wise decode (Kandinsky 5 and
    6 decode 31 latent frames at 512x768 in 11 overlapping windows, one call each); None
    with spatial tiling on, where a window makes several calls."""
    if vae.use_tiling:
        return None
    stride = vae.tile_sample_stride_num_frames // vae.temporal_compression_ratio
    return -(-frames // max(1, stride))


def _length(iterable) -> int | None:
    try:
        return len(iterable)
    except TypeError:
        return None
