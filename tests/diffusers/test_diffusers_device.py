"""The diffusers backend's GPU path has one switch: $GUIDELINT_DIFFUSERS_DEVICE."""

from __future__ import annotations

import pytest

from guidelint.runner.diffusers_backend.activation import gpu_path
from guidelint.runner.run import _with_tiny_cache_env


def test_auto_takes_the_gpu_path_where_the_worker_sees_cuda():
    assert gpu_path({"gpu": True}) is True
    assert gpu_path({"gpu": False}) is False
    assert gpu_path({"gpu": True, "device": "auto"}) is True


def test_cpu_keeps_the_substitutions_on_a_gpu_machine():
    assert gpu_path({"gpu": True, "device": "cpu"}) is False


def test_gpu_without_a_gpu_is_an_error_not_a_silent_cpu_run():
    with pytest.raises(RuntimeError, match="sees no CUDA device"):
        gpu_path({"gpu": False, "device": "gpu"})
    with pytest.raises(ValueError, match="one of auto, gpu, cpu"):
        gpu_path({"gpu": True, "device": "cuda"})


def test_the_variables_reach_the_worker_as_settings(monkeypatch):
    monkeypatch.setenv("GUIDELINT_DIFFUSERS_DEVICE", "cpu")
    monkeypatch.setenv("GUIDELINT_TINY_CACHE", "/somewhere")
    settings = _with_tiny_cache_env({"timeout": 60})
    assert settings == {"timeout": 60, "device": "cpu", "tiny_cache_env": "/somewhere"}
    monkeypatch.delenv("GUIDELINT_DIFFUSERS_DEVICE")
    monkeypatch.delenv("GUIDELINT_TINY_CACHE")
    assert _with_tiny_cache_env({"timeout": 60}) == {"timeout": 60}
