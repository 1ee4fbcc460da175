"""CPU fallbacks for examples written for a GPU (installed only when there is none).

`.to("cuda")`, `.cuda()`, `device="cuda"` and `torch.Generator("cuda")` run on the
CPU; float16/bfloat16 become float32 (half precision on a CPU is slow or missing).
Pipelines and modules are patched where the example calls them, so the report names
the call; a TorchFunctionMode catches the same requests on plain tensors.
"""

from __future__ import annotations

from guidelint.runner.diffusers_backend.state import current, remember_original


def is_cuda(device) -> bool:
    import torch

    if isinstance(device, torch.device):
        return device.type == "cuda"
    if isinstance(device, str):
        return device.split(":")[0] == "cuda"
    return isinstance(device, int) and not isinstance(device, bool)


def is_half(dtype) -> bool:
    import torch

    return dtype in (torch.float16, torch.bfloat16)


def cpu_arguments(args: tuple, kwargs: dict) -> tuple[tuple, dict, list[str]]:
    """The same `.to()`-style arguments with cuda -> cpu and half -> float32, and what changed."""
    import torch

    changed: list[str] = []

    def swap(value):
        if is_cuda(value):
            changed.append(f"{value!r} -> 'cpu'")
            return "cpu"
        if is_half(value):
            changed.append(f"{value} -> torch.float32")
            return torch.float32
        return value

    new_args = tuple(swap(a) for a in args)
    new_kwargs = {k: swap(v) if k in ("device", "dtype") else v for k, v in kwargs.items()}
    return new_args, new_kwargs, changed


def call_text(owner: str, method: str, args: tuple, kwargs: dict) -> str:
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{owner}.{method}({', '.join(shown)})"


def patch_to(cls, method: str = "to") -> None:
    """Wrap `cls.<method>(device/dtype...)` so cuda and half requests stay on the CPU."""
    original = getattr(cls, method)

    def to(self, *args, **kwargs):
        state = current()
        if state is None or state.gpu:
            return original(self, *args, **kwargs)
        new_args, new_kwargs, changed = cpu_arguments(args, kwargs)
        if changed:
            called = call_text(type(self).__name__, method, args, kwargs)
            state.record(f"{called}: {', '.join(changed)} (no GPU)")
        return original(self, *new_args, **new_kwargs)

    remember_original(to, original)
    setattr(cls, method, to)


def patch_keep(cls, method: str, why: str) -> None:
    """Make `cls.<method>()` (cuda, half, bfloat16) return the module unchanged."""
    original = getattr(cls, method)

    def keep(self, *args, **kwargs):
        state = current()
        if state is None or state.gpu:
            return original(self, *args, **kwargs)
        state.record(f"{type(self).__name__}.{method}() {why} (no GPU)")
        return self

    remember_original(keep, original)
    setattr(cls, method, keep)


def install_generator() -> None:
    """torch.Generator("cuda") makes a CPU generator; isinstance(x, torch.Generator) still works."""
    import torch

    real = torch._C.Generator

    class GeneratorType(type):
        def __instancecheck__(cls, obj):
            return isinstance(obj, real)

        def __subclasscheck__(cls, sub):
            return issubclass(sub, real)

        def __call__(cls, device="cpu"):
            state = current()
            if state is not None and not state.gpu and is_cuda(device):
                state.record(f"torch.Generator({device!r}) -> cpu generator (no GPU)")
                device = "cpu"
            return real(device)

    class Generator(metaclass=GeneratorType):
        """Stands in for torch.Generator while examples run (see guidelint docs/DIFFUSERS.md)."""

    # Replacing torch's class is the point; mypy refuses assignments to a class.
    torch.Generator = Generator  # type: ignore[misc, assignment]


def cpu_mode():
    """A TorchFunctionMode that keeps tensor-level cuda/half requests on the CPU."""
    import torch
    from torch.overrides import TorchFunctionMode

    keep_methods = {
        torch.Tensor.cuda: "cuda",
        torch.Tensor.half: "half",
        torch.Tensor.bfloat16: "bfloat16",
    }

    class CpuFallback(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            state = current()
            if state is None or state.gpu:
                return func(*args, **kwargs)
            if func in keep_methods:
                state.record_once(f"tensor.{keep_methods[func]}() kept on cpu/float32 (no GPU)")
                return args[0].float() if args[0].is_floating_point() else args[0]
            if func is torch.Tensor.to:
                head, rest, changed = cpu_arguments(args[1:], kwargs)
                if changed:
                    state.record_once(f"tensor.to(): {', '.join(changed)} (no GPU)")
                    args, kwargs = (args[0], *head), rest
            elif "device" in kwargs or "dtype" in kwargs:
                _, new_kwargs, changed = cpu_arguments((), kwargs)
                if changed:
                    name = getattr(func, "__name__", "a torch function")
                    state.record_once(f"torch.{name}(): {', '.join(changed)} (no GPU)")
                    kwargs = new_kwargs
            return func(*args, **kwargs)

    return CpuFallback()


_MODE = None


def install() -> None:
    """Patch pipelines, modules, generators and tensor ops once per process."""
    global _MODE
    import torch
    from diffusers import DiffusionPipeline, ModelMixin
    from transformers import PreTrainedModel

    # each class overrides these itself, so each needs its own wrapper
    for cls in (DiffusionPipeline, torch.nn.Module, ModelMixin, PreTrainedModel):
        if "to" in vars(cls):
            patch_to(cls)
        for method, why in (
            ("cuda", "stays on cpu"),
            ("half", "keeps float32"),
            ("bfloat16", "keeps float32"),
        ):
            if method in vars(cls):
                patch_keep(cls, method, why)
    install_generator()
    _MODE = cpu_mode()
    _MODE.__enter__()  # stays active for the rest of the process (the example's run)
