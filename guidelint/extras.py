"""Optional extras: which one brings a module, and the one line that says to install it."""

from __future__ import annotations

# Top-level module -> the extra of guidelint that installs it (pyproject.toml).
EXTRA_OF_MODULE = {
    "libcst": "smoke",
    "mcp": "tools",
    "pygls": "lsp",
    "lsprotocol": "lsp",
    "watchfiles": "watch",
    "torch": "diffusers",
    "diffusers": "diffusers",
    "transformers": "diffusers",
    "accelerate": "diffusers",
    "safetensors": "diffusers",
    "PIL": "diffusers",
    "cv2": "diffusers",
}


def missing_extra(error: BaseException) -> str | None:
    """The extra whose module an ImportError is about (None: not an optional module)."""
    if not isinstance(error, ImportError) or not error.name:
        return None
    return EXTRA_OF_MODULE.get(error.name.split(".")[0])


def install_hint(error: ImportError, extra: str, what: str = "the rules that need it") -> str:
    """`libcst is not installed, so ... did not run: install guidelint[smoke]`."""
    module = (error.name or "").split(".")[0]
    return f"{module} is not installed, so {what} did not run: install guidelint[{extra}]"


def unavailable(what: str, error: ImportError) -> str:
    """`the diffusers backend is unavailable: No module named 'torch': install
    guidelint[diffusers]`; without the hint when the module is no extra's."""
    extra = missing_extra(error)
    reason = f"{what} is unavailable: {error}"
    return f"{reason}: install guidelint[{extra}]" if extra else reason
