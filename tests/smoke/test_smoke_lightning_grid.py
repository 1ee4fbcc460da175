"""Proof on disk: the real PyTorch Lightning Trainer against guidelint.smoke.lightning.

Each case fits a one-layer LightningModule (CPU, no downloads, no logger, no
validation) on n rows with a DataLoader of batch B (drop_last or not), under
limit_train_batches (int or float), accumulate_grad_batches, max_epochs and/or
max_steps, with a ModelCheckpoint (every_n_train_steps, every_n_epochs, save_top_k,
save_last) writing into a fresh dirpath. trainer.global_step and the `*.ckpt` files
left (last.ckpt apart) are compared with simulate_lightning, case by case.
"""

from __future__ import annotations

import itertools
import logging
import random
import warnings
from pathlib import Path

import pytest

from guidelint.smoke.lightning import (
    LightningOutcome,
    LightningPlan,
    simulate_lightning,
    train_batches,
)

HAND_CHECKED = [
    # 10 rows, batch 4: 3 batches; GA 2 steps after batches 2 and 3: 2 steps an epoch.
    (LightningPlan(10, 4, accumulate_grad_batches=2, max_epochs=2, save_top_k=-1), 4, 2),
    # drop_last: 2 batches; limit 0.5 of them: 1 batch an epoch, 3 epochs, every epoch saved.
    (
        LightningPlan(9, 4, drop_last=True, limit_train_batches=0.5, max_epochs=3, save_top_k=-1),
        3,
        3,
    ),
    # every 2 steps over 5 steps: saves at 2 and 4, none at the epoch's end.
    (LightningPlan(5, 1, max_epochs=1, every_n_train_steps=2, save_top_k=-1), 5, 2),
    # every epoch, max_steps=5 cuts the third epoch (2 steps each) short: saves at 2, 4, 5.
    (LightningPlan(4, 2, max_steps=5, every_n_epochs=1, save_top_k=-1), 5, 3),
]


def grid() -> list[LightningPlan]:
    """A deterministic sample of every dimension's branches (at least 100 cases)."""
    chooser = random.Random(31)
    cases: list[LightningPlan] = [plan for plan, _, _ in HAND_CHECKED]
    dims = itertools.product(
        (1, 3, 7, 16, 17),  # rows
        (1, 4, 8),  # batch
        (False, True),  # drop_last
        (1, 3),  # accumulate_grad_batches
        (1.0, 2, 0.5),  # limit_train_batches
    )
    for rows, batch, drop_last, accum, limit in dims:
        max_epochs, max_steps = chooser.choice(
            [(1, -1), (2, -1), (3, -1), (None, 3), (4, 5), (2, 2)]
        )
        every_steps, every_epochs = chooser.choice(
            [(None, None), (1, None), (2, None), (None, 2), (3, 0), (0, 1), (2, 1)]
        )
        cases.append(
            LightningPlan(
                rows, batch, drop_last, accum, limit, max_epochs, max_steps, every_steps,
                every_epochs, chooser.choice([-1, 1, 0]), chooser.choice([None, True, False]),
            )
        )  # fmt: skip
    return cases


CASES = grid()


def test_grid_is_large_and_covers_each_branch():
    ran = [p for p in CASES if simulate_lightning(p).outcome is LightningOutcome.OK]
    assert len(ran) >= 100
    outcomes = {simulate_lightning(plan).outcome for plan in CASES}
    assert set(LightningOutcome) <= outcomes
    assert any(p.max_steps > 0 and p.max_epochs for p in CASES)
    assert any(
        isinstance(p.limit_train_batches, float) and p.limit_train_batches < 1 for p in CASES
    )


@pytest.mark.parametrize(("plan", "steps", "files"), HAND_CHECKED)
def test_hand_checked_cases(plan, steps, files):
    result = simulate_lightning(plan)
    assert (result.steps, result.checkpoint_files) == (steps, files)


def test_train_batches_follow_lightning_limits():
    assert train_batches(10, 4, False, 2) == 2
    assert train_batches(10, 4, True, 1.0) == 2
    assert train_batches(10, 4, False, 0.5) == 1  # int(3 * 0.5)
    assert train_batches(3, 4, False, 0.5) is None  # int(1 * 0.5) == 0: Lightning raises
    assert train_batches(3, 4, True, 1.0) == 0


def _fit(plan: LightningPlan, dirpath: Path) -> tuple[str, int, int, bool]:
    import torch
    from lightning.fabric.utilities.exceptions import MisconfigurationException
    from lightning.pytorch import LightningModule, Trainer
    from lightning.pytorch.callbacks import ModelCheckpoint
    from torch.utils.data import DataLoader, TensorDataset

    class Tiny(LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.layer = torch.nn.Linear(1, 1)

        def training_step(self, batch, batch_idx):
            (x,) = batch
            return self.layer(x).pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.01)

    torch.manual_seed(0)
    data = TensorDataset(torch.randn(plan.rows, 1))
    loader = DataLoader(data, batch_size=plan.batch_size, drop_last=plan.drop_last)
    try:
        checkpoint = ModelCheckpoint(
            dirpath=dirpath, every_n_train_steps=plan.every_n_train_steps,
            every_n_epochs=plan.every_n_epochs, save_top_k=plan.save_top_k,
            save_last=plan.save_last,
        )  # fmt: skip
    except MisconfigurationException:
        return "invalid", 0, 0, False
    trainer = Trainer(
        accelerator="cpu", devices=1, logger=False, enable_progress_bar=False,
        enable_model_summary=False, callbacks=[checkpoint], max_epochs=plan.max_epochs,
        max_steps=plan.max_steps, limit_train_batches=plan.limit_train_batches,
        accumulate_grad_batches=plan.accumulate_grad_batches, num_sanity_val_steps=0,
        default_root_dir=dirpath.parent,
    )  # fmt: skip
    try:
        trainer.fit(Tiny(), train_dataloaders=loader)
    except MisconfigurationException:
        return "limit-error", 0, 0, False
    files = sorted(p.name for p in dirpath.glob("*.ckpt")) if dirpath.exists() else []
    last = "last.ckpt" in files
    return "ran", trainer.global_step, len(files) - int(last), last


@pytest.mark.slow
def test_the_real_lightning_trainer_agrees_on_every_case(tmp_path):
    pytest.importorskip("lightning")
    logging.getLogger("lightning").setLevel(logging.ERROR)
    logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
    disagreements = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for index, plan in enumerate(CASES):
            predicted = simulate_lightning(plan)
            ran, steps, files, last = _fit(plan, tmp_path / f"case{index}" / "checkpoints")
            refused = {
                LightningOutcome.LIMIT_ERROR: "limit-error",
                LightningOutcome.INVALID: "invalid",
            }
            if predicted.outcome in refused or ran in refused.values():
                if ran != refused.get(predicted.outcome):
                    disagreements.append((plan, predicted.outcome, ran, steps, files, last))
                continue
            got = (steps, files, last)
            expected = (predicted.steps, predicted.checkpoint_files, predicted.last)
            if got != expected:
                disagreements.append((plan, expected, got))
    assert disagreements == [], "\n".join(map(str, disagreements[:20]))


@pytest.mark.parametrize(
    ("gate", "counted"),
    [
        ('len(os.listdir("ckpts"))', True),
        ('len(list(d.glob("epoch=*.ckpt")))', False),
        ('len(list(d.glob("*.ckpt")))', True),
        ('len(glob.glob(f"{d}/*.ckpt"))', True),
        ('len(glob.glob(f"{d}/epoch*"))', False),
    ],
)
def test_a_gate_counts_last_ckpt_when_its_glob_matches_it(gate, counted):
    from guidelint.smoke.lightning_check import counts_last

    assert counts_last(gate) is counted


@pytest.mark.slow
def test_the_corpus_lightning_counterexample_is_real(tmp_path):
    """GL301's counterexample for tests/fixtures/smoke/project/scripts/lightning_bad.py,
    run on the real Trainer: n=1 leaves one file; the fixed twin's max_steps=2 leaves two."""
    import re

    pytest.importorskip("lightning")
    from guidelint.config import Config
    from guidelint.engine import Engine, build_selection
    from guidelint.project import Project

    project_root = Path(__file__).parents[1] / "fixtures" / "smoke" / "project"
    project = Project(project_root, Config(select=["GL301"]))
    [finding] = Engine(project, build_selection(project.config)).check_file(
        "scripts/lightning_bad.py"
    )
    rows = int(re.match(r"realized n=(\d+) row", finding.message).group(1))
    geometry = dict(batch_size=4, accumulate_grad_batches=4, every_n_train_steps=1, save_top_k=-1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bad = _fit(LightningPlan(rows, max_epochs=1, **geometry), tmp_path / "bad" / "ckpts")
        fixed = _fit(LightningPlan(rows, max_steps=2, **geometry), tmp_path / "fixed" / "ckpts")
    assert (bad[1], bad[2]) == (1, 1)  # one step, one file: below the gate's 2
    assert (fixed[1], fixed[2]) == (2, 2)
