"""What a diffusers example's outcome says is what happened: one real `guidelint run`.

A pass is on a stand-in of the class the hub id really holds (checked from each
entry's `pipelines`), or the example is `unsupported-model` naming that class; a
missing optional package is `missing-dependency` naming it; a typo, a class
diffusers does not have and a wrong argument are the example's own errors, at
their lines.
"""

from __future__ import annotations

import importlib.util
import json
import textwrap

import pytest

pytest.importorskip("diffusers")

from guidelint.runner.run import RunOptions, run_examples  # noqa: E402

GUIDE = """
# Outcomes

```python {id=sd-text2img}
from diffusers import StableDiffusionPipeline
pipe = StableDiffusionPipeline.from_pretrained("stable-diffusion-v1-5/stable-diffusion-v1-5")
image = pipe("a cat", num_inference_steps=1).images[0]
```

The img2img class loads the same repo, as diffusers itself would:

```python {id=sd-img2img}
from diffusers import StableDiffusionImg2ImgPipeline
from PIL import Image
pipe = StableDiffusionImg2ImgPipeline.from_pretrained("stable-diffusion-v1-5/stable-diffusion-v1-5")
image = pipe("a cat", image=Image.new("RGB", (64, 64)), num_inference_steps=2).images[0]
```

```python {id=auto-pixart}
from diffusers import AutoPipelineForText2Image
pipe = AutoPipelineForText2Image.from_pretrained("PixArt-alpha/PixArt-Sigma-XL-2-1024-MS")
image = pipe("a cat", num_inference_steps=1).images[0]
```

```python {id=dit}
from diffusers import DiffusionPipeline
pipe = DiffusionPipeline.from_pretrained("facebook/DiT-XL-2-256")
image = pipe(class_labels=[207], num_inference_steps=1).images[0]
```

```python {id=unknown-id}
from diffusers import DiffusionPipeline
pipe = DiffusionPipeline.from_pretrained("someone/a-model-nobody-mapped")
```

```python {id=typo}
from diffusers import StableDiffusionXLPipeline
pipe = StableDiffusionXLPipeline.from_pretrained("stabilityai/stable-difusion-xl-base-1.0")
```

```python {id=no-such-class}
from diffusers import StableDiffusionXXLPipeline
```

```python {id=stale-import}
from diffusers.models.controlnet_sd3 import SD3ControlNetModel
```

```python {id=wrong-argument}
from diffusers import DDPMPipeline
pipe = DDPMPipeline.from_pretrained("google/ddpm-cat-256")
image = pipe(num_inference_stepz=1).images[0]
```

```python {id=optional-package}
from diffusers import MidiProcessor
processor = MidiProcessor()
```

```python {id=auto-model}
from diffusers import AutoModel
transformer = AutoModel.from_pretrained("black-forest-labs/FLUX.1-dev", subfolder="transformer")
```

```python {id=transformers-pipeline}
from transformers import pipeline
depth = pipeline("depth-estimation")
print(type(depth.model).__name__, type(depth.image_processor).__name__)
```

```python {id=transformers-pipeline-unknown-default}
from transformers import pipeline
classify = pipeline("image-classification")
```
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    (root / "docs").mkdir()
    (root / "docs" / "GUIDE.md").write_text(textwrap.dedent(GUIDE))
    # Not there yet: the warm worker builds what the examples name into it (the
    # sandboxed children could not create it).
    tiny = tmp_path_factory.mktemp("tiny") / "cache"
    (root / "pyproject.toml").write_text(
        '[tool.guidelint]\ninclude = ["docs/**/*.md"]\n'
        # a watchdog for a busy CI machine, not a speed target
        f'[tool.guidelint.runner]\ntimeout = 600\ntiny-cache = "{tiny}"\n'
    )
    result = run_examples(RunOptions(paths=[root / "docs"], jobs=2, report_dir=root / "report"))
    return {r.id: r for r in result.results}


def line_of(code: str) -> int:
    """The guide line that holds `code` (errors are reported at Markdown lines)."""
    lines = textwrap.dedent(GUIDE).splitlines()
    return next(n for n, line in enumerate(lines, 1) if code in line)


def passed_on_its_own_class_or_unsupported(result, real_class):
    """Either outcome is honest; a pass on another class is the one lie."""
    if result.status.value == "passed":
        assert result.pipelines == [real_class], result.pipelines
    else:
        assert result.status.value == "unsupported-model", result.message
        assert f"tiny {real_class}" in result.message, result.message
        assert result.pipelines == []


@pytest.mark.slow  # real tiny pipelines, built and run
def test_each_outcome_says_what_happened(report):
    assert report["sd-text2img"].status.value == "passed", report["sd-text2img"].message
    assert report["sd-text2img"].pipelines == ["StableDiffusionPipeline"]
    assert report["sd-img2img"].status.value == "passed", report["sd-img2img"].message
    assert report["sd-img2img"].pipelines == ["StableDiffusionImg2ImgPipeline"]

    passed_on_its_own_class_or_unsupported(report["auto-pixart"], "PixArtSigmaPipeline")
    passed_on_its_own_class_or_unsupported(report["dit"], "DiTPipeline")
    auto_model = report["auto-model"]  # one model: from the tiny FluxPipeline's folder
    if auto_model.status.value == "passed":
        assert any("-> tiny FluxPipeline (transformer/)" in s for s in auto_model.substitutions), (
            auto_model.substitutions
        )
    else:
        assert auto_model.status.value == "unsupported-model", auto_model.message
        assert "tiny FluxPipeline" in auto_model.message

    unknown = report["unknown-id"]
    assert unknown.status.value == "unsupported-model"
    assert "'someone/a-model-nobody-mapped'" in unknown.message
    assert "will not guess" in unknown.message

    typo = report["typo"]
    assert typo.status.value == "error"
    assert typo.message.startswith(f"line {line_of('stable-difusion')}: NoSuchModel: ")
    assert "did you mean 'stabilityai/stable-diffusion-xl-base-1.0'?" in typo.message

    no_class = report["no-such-class"]
    assert no_class.status.value == "error"
    assert no_class.message.startswith(
        f"line {line_of('XXL')}: ImportError: cannot import name 'StableDiffusionXXLPipeline'"
    )

    stale = report["stale-import"]  # a module diffusers moved: a bug, not a missing package
    assert stale.status.value == "error"
    assert stale.message.startswith(
        f"line {line_of('controlnet_sd3')}: ModuleNotFoundError: "
        "No module named 'diffusers.models.controlnet_sd3'"
    )

    wrong = report["wrong-argument"]
    assert wrong.status.value == "error"
    assert wrong.message.startswith(f"line {line_of('stepz')}: TypeError: ")
    assert "num_inference_stepz" in wrong.message

    optional = report["optional-package"]
    assert optional.status.value == "missing-dependency"
    assert "MidiProcessor requires the note-seq library" in optional.message
    assert "\ninstall note-seq`" in optional.message  # the whole message, not its first line
    assert "(missing package: note-seq; no guidelint extra brings it" in optional.message

    # without model=, the task's default model (Intel/dpt-large), tiny, with its processor
    depth = report["transformers-pipeline"]
    assert depth.status.value == "passed", depth.message
    assert depth.stdout.split()[0] == "DPTForDepthEstimation"
    assert depth.stdout.split()[1].startswith("DPTImageProcessor")
    unknown = report["transformers-pipeline-unknown-default"]
    assert unknown.status.value == "unsupported-model"
    assert "'google/vit-base-patch16-224'" in unknown.message


@pytest.mark.slow
def test_the_json_entry_lists_the_pipelines_built(report):
    entry = report["sd-img2img"].as_json()
    assert entry["pipelines"] == ["StableDiffusionImg2ImgPipeline"]
    assert json.loads(json.dumps(entry))["status"] == "passed"


def _raised_by(call) -> BaseException:
    with pytest.raises(Exception) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(
    ("raise_it", "package"),
    [
        # diffusers' own checks, raised by importing the real modules
        (lambda: __import__("diffusers.pipelines.consisid.consisid_utils"), "insightface"),
        # a LoRA method without peft: diffusers' decorator raises a ValueError (peft is
        # in the diffusers extra now, so only a venv without it still meets this)
        pytest.param(
            lambda: __import__("diffusers").utils.peft_utils.require_peft_backend(lambda: None)(),
            "peft",
            marks=pytest.mark.skipif(
                importlib.util.find_spec("peft") is not None,
                reason="peft is installed: the LoRA methods do not raise",
            ),
        ),
        # torchaudio's load() without torchcodec (Stable Audio 3's examples)
        pytest.param(
            lambda: __import__("torchaudio").load("reference.wav"),
            "torchcodec",
            marks=pytest.mark.skipif(
                importlib.util.find_spec("torchaudio") is None
                or importlib.util.find_spec("torchcodec") is not None,
                reason="needs torchaudio without torchcodec",
            ),
        ),
    ],
)
def test_diffusers_own_install_messages_name_the_package(raise_it, package):
    from guidelint.runner import verdict

    error = _raised_by(raise_it)
    assert verdict.missing_package(error) == package, error
    assert verdict.install_hint(package).endswith(f"pip install {package}") or (
        "guidelint[diffusers]" in verdict.install_hint(package)
    )


def test_diffusers_mel_without_librosa_is_missing_librosa():
    from guidelint.runner import verdict

    # the ValueError diffusers' Mel raises at construction (audio diffusion's mel slot)
    error = ValueError(
        "Cannot import librosa because No module named 'librosa'. Make sure to correctly "
        "install librosa to be able to install it."
    )
    expected = None if importlib.util.find_spec("librosa") else "librosa"
    assert verdict.missing_package(error) == expected
    assert verdict.missing_package(ValueError("Cannot import 'x' into y")) is None


def test_an_installed_package_a_message_names_is_not_missing():
    from guidelint.runner import verdict

    # the text diffusers raises when accelerate is too old, here where it is installed
    error = ImportError(
        "Using `device_map` requires the `accelerate` library. Please install "
        "it using: `pip install accelerate`."
    )
    assert verdict.missing_package(error) is None
    assert verdict.missing_package(ValueError("some other value")) is None


def test_a_name_imported_only_with_a_missing_package_is_that_package(tmp_path, monkeypatch):
    """diffusers' `if is_torchvision_available(): from .x import Y` leaves Y undefined
    without the package; its NameError names the package, the example's own does not."""
    from guidelint.runner import verdict

    (tmp_path / "guarded_module.py").write_text(
        "def is_absentpkg_available():\n    return False\n\n\n"
        "if is_absentpkg_available():\n    from absentpkg.helpers import Processor\n\n\n"
        "def build():\n    return Processor()\n\n\ndef typo():\n    return Procesor()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import guarded_module

    assert verdict.missing_package(_raised_by(guarded_module.build)) == "absentpkg"
    assert verdict.missing_package(_raised_by(guarded_module.typo)) is None
    assert verdict.missing_package(_raised_by(lambda: undefined_here)) is None  # noqa: F821
    # a tiny pipeline whose constructor meets such a name (OmniGen without torchvision)
    # is missing-dependency, not a build guidelint failed
    from guidelint.runner.diffusers_backend import build

    guarded = _raised_by(guarded_module.build)
    assert build._failed_build(guarded, "OmniGenPipeline") is guarded  # type: ignore[arg-type]
    typo = _raised_by(guarded_module.typo)
    assert isinstance(build._failed_build(typo, "OmniGenPipeline"), build.BuildFailed)  # type: ignore[arg-type]


def test_a_download_no_fixture_serves_is_refused_naming_the_url_not_an_error():
    import urllib.error

    import requests

    from guidelint.runner.diffusers_backend import remote
    from guidelint.runner.outcomes import Outcome
    from guidelint.runner.verdict import classify_exception

    url = "https://hf.co/datasets/sayakpaul/sample-datasets/resolve/main/cat.pt"
    example = {"filename": "GUIDE.md", "expect_error": None}
    for error in (
        requests.exceptions.ConnectionError(remote.refusal(url)),
        urllib.error.URLError(remote.refusal(url)),  # its str: <urlopen error ...>
    ):
        judged = classify_exception(error, example, [])  # type: ignore[arg-type]
        assert judged["status"] is Outcome.REFUSED
        assert judged["message"] == (
            f"the sandbox refused a download: {url} (map the URL to a local file in "
            "[tool.guidelint.runner.fixtures])"
        )
    # the example's own connection error (not the sandbox's refusal) stays its error
    own = requests.exceptions.ConnectionError("Max retries exceeded with url: /x")
    assert classify_exception(own, example, [])["status"] is Outcome.ERROR  # type: ignore[arg-type]


def test_an_image_host_url_with_no_suffix_gets_a_generated_image():
    from guidelint.runner.diffusers_backend import images

    google = "https://lh3.googleusercontent.com/y-iFOHfLTwkuQSUegpwDdgKmOjRSTvPxat63dQLB2=s1200"
    assert images.names_image(google)
    assert images.encoded(google).startswith(b"\x89PNG")
    assert not images.names_image("https://example.org/api/v1/generate")
    assert not images.names_image("https://evil-googleusercontent.com.example.org/x")
