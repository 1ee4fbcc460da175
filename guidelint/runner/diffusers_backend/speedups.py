"""GPU-only speed and memory switches as no-ops on a CPU (installed only when there is no GPU).

Model offloading needs an accelerator to offload to, xformers needs CUDA kernels, and
torch.compile on a CPU would spend longer compiling than a tiny pipeline runs.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.state import current, remember_original

PIPELINE_NO_OPS = (
    "enable_model_cpu_offload",
    "enable_sequential_cpu_offload",
    "enable_xformers_memory_efficient_attention",
)


def patch_no_op(cls, method: str) -> None:
    original = getattr(cls, method)

    def skipped(self, *args, **kwargs):
        state = current()
        if state is None or state.gpu:
            return original(self, *args, **kwargs)
        state.record(f"{type(self).__name__}.{method}() skipped (no GPU)")
        return None

    remember_original(skipped, original)
    setattr(cls, method, skipped)


def install_compile() -> None:
    import torch

    original = torch.compile

    def compile(model=None, *args, **kwargs):  # noqa: A001 - stands in for torch.compile
        state = current()
        if state is None or state.gpu:
            return original(model, *args, **kwargs)
        state.record("torch.compile() skipped: the model runs eagerly (no GPU)")
        if model is None:  # used as @torch.compile(mode=...)
            return lambda fn: fn
        return model

    remember_original(compile, original)
    torch.compile = compile
    patch_no_op(torch.nn.Module, "compile")


def install() -> None:
    from diffusers import DiffusionPipeline, ModelMixin

    for method in PIPELINE_NO_OPS:
        patch_no_op(DiffusionPipeline, method)
    patch_no_op(ModelMixin, "enable_xformers_memory_efficient_attention")
    install_compile()
