"""No assignment form makes the proof give up: each form below defines BATCH=4, ACCUM=4
and EPOCHS for the same driver. With EPOCHS=2 the floor holds for every realized n (no
finding at all, GL304 included); with EPOCHS=1 GL301 names the real counterexample, n=1.
"""

from __future__ import annotations

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project

DRIVER = """from transformers import Trainer, TrainingArguments
{forms}


def smoke(model, rows, out):
    args = TrainingArguments(output_dir=out, per_device_train_batch_size=BATCH,
                             gradient_accumulation_steps=ACCUM, num_train_epochs=EPOCHS,
                             save_steps=1)
    Trainer(model=model, args=args, train_dataset=rows[:30]).train()
    assert len(list(out.glob("checkpoint-*"))) >= 2
"""

FORMS = {
    "tuple": "BATCH, ACCUM, EPOCHS = 4, 4, {e}",
    "list": "[BATCH, ACCUM] = [4, 4]\nEPOCHS = {e}",
    "nested": "(BATCH, ACCUM), EPOCHS = (4, 4), {e}",
    "starred": "BATCH, *_rest, ACCUM = 4, 0, 0, 4\nEPOCHS = {e}",
    "chained": "BATCH = ACCUM = 4\nEPOCHS = {e}",
    "annotated": "BATCH: int = 4\nACCUM: int = 4\nEPOCHS: float = {e}",
    "augmented": "BATCH = 2\nBATCH *= 2\nACCUM = 8\nACCUM //= 2\nEPOCHS = 0\nEPOCHS += {e}",
    "reassigned": "BATCH = 8\nBATCH = 4\nACCUM = 2\nACCUM = ACCUM * 2\nEPOCHS = {e}",
    "walrus": "if (BATCH := 4) and (ACCUM := 4):\n    pass\nEPOCHS = {e}",
    "if_else": (
        "LARGE = False\nif LARGE:\n    BATCH, ACCUM = 16, 1\n    EPOCHS = 9\n"
        "else:\n    BATCH, ACCUM = 4, 4\n    EPOCHS = {e}"
    ),
    "elif": (
        "MODE = 'quick'\nif MODE == 'full':\n    BATCH = 32\nelif MODE == 'quick':\n"
        "    BATCH = 4\nelse:\n    BATCH = 8\nACCUM = 4\nEPOCHS = {e}"
    ),
    "if_override": "BATCH, ACCUM = 16, 1\nif True:\n    BATCH, ACCUM = 4, 4\nEPOCHS = {e}",
    "environ": (
        "import os\nBATCH = int(os.environ.get('B', '4'))\nACCUM = int(os.getenv('A', 4))\n"
        "EPOCHS = float(os.environ.get('E', '{e}'))"
    ),
    "class": (
        "class Smoke:\n    BATCH = 4\n    ACCUM = 4\n    EPOCHS = {e}\n"
        "BATCH, ACCUM, EPOCHS = Smoke.BATCH, Smoke.ACCUM, Smoke.EPOCHS"
    ),
    "dict_call": (
        "CFG = dict(batch=4, accum=4, epochs={e})\n"
        "BATCH, ACCUM, EPOCHS = CFG['batch'], CFG['accum'], CFG['epochs']"
    ),
    "namespace": (
        "from types import SimpleNamespace\nCFG = SimpleNamespace(batch=4, accum=4, epochs={e})\n"
        "BATCH, ACCUM, EPOCHS = CFG.batch, CFG.accum, CFG.epochs"
    ),
    "tuple_name": "GEOMETRY = (4, 4, {e})\nBATCH, ACCUM, EPOCHS = GEOMETRY",
    "tuple_function": (
        "def geometry():\n    return 4, 4, {e}\n\n\nBATCH, ACCUM, EPOCHS = geometry()"
    ),
    "try_except": (
        "try:\n    import fast_kernels\n    BATCH = 4\nexcept ImportError:\n    BATCH = 4\n"
        "ACCUM = 4\nEPOCHS = {e}"
    ),
    "main_block": (
        "BATCH, ACCUM = 8, 1\nif __name__ == '__main__':\n    BATCH, ACCUM = 4, 4\nEPOCHS = {e}"
    ),
    "with_block": "with open('log.txt') as log:\n    BATCH, ACCUM = 4, 4\nEPOCHS = {e}",
    "with_reassigned": (
        "BATCH, ACCUM, EPOCHS = 2, 4, 0\nwith open('log.txt') as log:\n    BATCH = BATCH * 2\n"
        "    EPOCHS += {e}"
    ),
    "sibling_module": "from geometry_settings import ACCUM, BATCH, EPOCHS",
    "sibling_package": (
        "from settings.geometry import ACCUM, BATCH\nfrom .geometry_settings import EPOCHS"
    ),
}


def lint(tmp_path, forms: str, epochs: int):
    scripts = tmp_path / "scripts"
    scripts.mkdir(exist_ok=True)
    (scripts / "geometry_settings.py").write_text(f"BATCH, ACCUM = 4, 4\nEPOCHS = {epochs}\n")
    (tmp_path / "settings").mkdir(exist_ok=True)
    (tmp_path / "settings" / "geometry.py").write_text("(BATCH, ACCUM) = (4, 4)\n")
    (scripts / "drive.py").write_text(DRIVER.format(forms=forms.format(e=epochs)))
    project = Project(tmp_path, Config(select=["GL3"]))
    return Engine(project, build_selection(project.config)).check_file("scripts/drive.py")


@pytest.mark.parametrize("form", FORMS)
def test_a_correct_driver_is_proven_in_every_form(tmp_path, form):
    assert lint(tmp_path, FORMS[form], 2) == []


@pytest.mark.parametrize("form", FORMS)
def test_a_buggy_driver_gets_the_real_counterexample_in_every_form(tmp_path, form):
    findings = lint(tmp_path, FORMS[form], 1)
    assert [f.code for f in findings] == ["GL301"], [f.message for f in findings]
    assert findings[0].message.startswith("realized n=1 row -> 1 optimizer step -> 1 checkpoint")
    assert "batch=4 (" in findings[0].message and "gradient accumulation=4 (" in findings[0].message
