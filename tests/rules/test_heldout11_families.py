"""GL401's false families of held-out set 11 (docs/PRECISION.md, "Held-out set 11
fixes: GL401"), all from huggingface_hub's guides: a `>>>` session under `# comment`
lines in a ```python fence, a session whose continuation lines carry no `... `, and
a class body's `(...)` beside arguments elided with `...`. Each false case is checked
on a small real tree, silent, with the true errors labelled beside it still reported
at their lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from tests.conftest import write_tree


def _gl401(root: Path, guide: str) -> list[tuple[int, str]]:
    write_tree(root, {"docs/guide.md": guide})
    report = run_check(CheckOptions(paths=[root], select=["GL401"], use_cache=False))
    return sorted((f.line, f.message) for f in report.findings)


def _guide(*blocks: str) -> str:
    return "# Guide\n\n" + "\n".join(f"```python\n{block}```\n" for block in blocks)


COMMENTED_SESSION = (
    "# Download from the `v1.0` tag\n"
    '>>> hf_hub_download(repo_id="x/y", filename="config.json", revision="v1.0")\n'
    "'/home/me/.cache/config.json'\n"
    "\n"
    '# Progress bar will be shown for `name="peft.foo.bar"`\n'
    '>>> for _ in tqdm(range(5), name="peft.foo.bar"):\n'
    "...     pass\n"
    "100%|███████████████████████| 5/5 [00:00<00:00, 117817.53it/s]\n"
)
UNPROMPTED_CONTINUATION = (
    "from huggingface_hub import InferenceClient\n"
    ">>> client = InferenceClient(\n"
    '    provider="replicate",\n'
    '    api_key="hf_****"  # Your HF token\n'
    ")\n"
    '>>> image = client.text_to_image("A flying car.", model="black-forest-labs/FLUX.1")\n'
)
CLASS_BODY_ELIDED = (
    "class PyTorchModelHubMixin(ModelHubMixin):\n"
    "   (...)\n"
    "\n"
    "   def _save_pretrained(self, save_directory):\n"
    '      """Save a model card and the weights."""\n'
    "      model_card = ModelCard.from_template(\n"
    "         card_data=ModelCardData(\n"
    "            license='mit',\n"
    '            library_name="pytorch",\n'
    "            ...\n"
    "         ),\n"
    "         model_summary=...,\n"
    "         model_type=...,\n"
    "         ...\n"
    "      )\n"
    '      (save_directory / "README.md").write_text(str(model_card))\n'
    '      torch.save(obj=self.module.state_dict(), f=save_directory / "model.bin")\n'
)


@pytest.mark.parametrize(
    "block",
    [COMMENTED_SESSION, UNPROMPTED_CONTINUATION, CLASS_BODY_ELIDED],
    ids=["comments above the first prompt", "no ... prompt", "class body (...)"],
)
def test_a_session_or_an_elision_read_as_meant_is_no_syntax_error(
    tmp_path: Path, block: str
) -> None:
    assert _gl401(tmp_path, _guide(block)) == []


# The true ones labelled in held-out set 11, each beside a false one's shape.
TRUE_ERRORS: dict[str, tuple[str, int | None]] = {
    "a colon after a call": (
        "# List the trending collections\n"
        '>>> collections = list_collections(sort="trending", limit=5):\n'
        ">>> for collection in collections:\n"
        "...   print(collection.slug)\n"
        "teknium/quantized-models-6544690bb978e0b0f7328748\n",
        None,  # a ```python fence, not a session to the runner: reported, where it stumbles
    ),
    "an = in a dict": (
        '# Add a secret\n>>> api.add_space_secret(repo_id=repo_id, secrets={"key"="HF_TOKEN"})\n',
        2,
    ),
    "a missing comma among ... lines": (
        ">>> api.create_repo(\n"
        "...     repo_id=repo_id,\n"
        '...     space_sdk="gradio"\n'
        '...     space_hardware="cpu-upgrade",\n'
        "... )\n",
        3,
    ),
    "a missing comma with no ... prompt": (
        '>>> client = InferenceClient(\n    provider="replicate"\n    api_key="hf_****",\n)\n',
        1,
    ),
    "an unclosed quote": (
        '# Set the key\n>>> os.environ["OPENAI_API_KEY] = "sk-..."\n>>> client = OpenAI()\n',
        2,
    ),
    "an elided argument's missing comma": (
        "card = ModelCard.from_template(\n"
        "    card_data=ModelCardData(\n"
        "        license='mit',\n"
        "        ...\n"
        "    )\n"
        "    model_summary=...,\n"
        ")\n",
        5,
    ),
}


@pytest.mark.parametrize("name", TRUE_ERRORS)
def test_a_real_error_in_a_session_is_still_reported(tmp_path: Path, name: str) -> None:
    block, row = TRUE_ERRORS[name]
    found = _gl401(tmp_path, _guide(block))
    assert len(found) == 1 and found[0][1].startswith("example does not parse")
    if row is not None:
        assert found[0][0] == 3 + row  # the fence opens on line 3


def test_a_block_of_plain_code_with_ellipses_is_no_session(tmp_path: Path) -> None:
    # A `...` with no `>>>` in the block is an elision: not taken off as a prompt, so a
    # real error after it stays.
    block = "config = Config(\n    ...\n    beta=0.0\n    gamma=1.0,\n)\n"
    assert [line for line, _ in _gl401(tmp_path, _guide(block))] == [3 + 3]


def test_code_above_the_first_prompt_keeps_its_error(tmp_path: Path) -> None:
    # Unprompted code before `>>>` is no session's comment: its error is reported.
    block = "client = Client(\n>>> client.run()\n"
    assert [line for line, _ in _gl401(tmp_path, _guide(block))] == [3 + 1]
