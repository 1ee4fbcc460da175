"""Proof on disk: the real transformers Trainer against guidelint.smoke.simulate.

Each case trains a one-layer torch model (built locally, CPU, no downloads) with
the real Trainer, then compares global_step, state.epoch and the checkpoint-*
dirs left in output_dir with what the library predicts. The grid covers every
branch of the arithmetic: partial accumulation groups, a final save off the
save_steps grid, ratio save_steps, epoch saves cut by max_steps, fractional
epochs (and their float rounding), drop_last, empty loaders, rotation with stale
dirs and with the best model, and iterable datasets.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import pytest

from guidelint.smoke import Geometry, Plan, PlanOutcome, SavePolicy, Schedule, simulate
from guidelint.smoke.disk import checkpoint_dirs

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


@dataclass(frozen=True)
class Case:
    name: str
    rows: int
    batch: int
    accum: int = 1
    drop_last: bool = False
    epochs: float = 1.0
    max_steps: int = -1
    strategy: str = "steps"
    save_steps: float = 1
    limit: int | None = None
    stale: tuple[int, ...] = ()
    best_step: int | None = None
    iterable: bool = False
    expect: dict = field(default_factory=dict)  # hand-checked facts, beside the library's

    def plan(self) -> Plan:
        return Plan(
            rows=self.rows,
            geometry=Geometry(
                per_device_batch=self.batch,
                grad_accum=self.accum,
                drop_last=self.drop_last,
                iterable=self.iterable,
            ),
            schedule=Schedule(num_train_epochs=self.epochs, max_steps=self.max_steps),
            save=SavePolicy(
                strategy=self.strategy,
                save_steps=self.save_steps,
                save_total_limit=self.limit,
                best_step=self.best_step,
            ),
            existing_checkpoints=self.stale,
        )


GRID = [
    Case("incident-realized-2", rows=2, batch=4, accum=4, expect={"steps": 1, "disk": [1]}),
    Case("incident-at-cap-30", rows=30, batch=4, accum=4, expect={"steps": 2, "disk": [1, 2]}),
    Case("partial-accum-group-steps", rows=20, batch=4, accum=3, epochs=2, expect={"steps": 4}),
    Case("fewer-batches-than-accum", rows=5, batch=2, accum=4, epochs=3, expect={"steps": 3}),
    Case("final-save-off-grid", rows=28, batch=4, save_steps=3, expect={"disk": [3, 6, 7]}),
    Case(
        "default-save-steps-500", rows=10, batch=4, epochs=2, save_steps=500, expect={"disk": [6]}
    ),
    Case("ratio-save-steps", rows=40, batch=4, save_steps=0.3, expect={"disk": [3, 6, 9, 10]}),
    Case(
        "epoch-saves-cut-by-max-steps",
        rows=12,
        batch=4,
        max_steps=7,
        strategy="epoch",
        expect={"disk": [3, 6, 7]},
    ),
    Case(
        "epoch-saves-fractional-epochs",
        rows=16,
        batch=4,
        epochs=1.5,
        strategy="epoch",
        expect={"disk": [4, 6]},
    ),
    Case("half-epoch", rows=10, batch=2, epochs=0.5, expect={"steps": 3}),
    # 2.2 * 25 is 55.00000000000001 in floats, and the Trainer takes its ceil.
    Case(
        "float-rounding-2.2-epochs",
        rows=25,
        batch=1,
        epochs=2.2,
        save_steps=100,
        expect={"steps": 56, "disk": [56]},
    ),
    Case("drop-last", rows=10, batch=4, drop_last=True, expect={"steps": 2}),
    Case(
        "drop-last-empty-with-max-steps-epoch-save",
        rows=3,
        batch=4,
        drop_last=True,
        max_steps=5,
        strategy="epoch",
        expect={"outcome": PlanOutcome.CHECKPOINT_0, "disk": [0]},
    ),
    Case(
        "drop-last-empty-with-max-steps-step-save",
        rows=3,
        batch=4,
        drop_last=True,
        max_steps=5,
        expect={"outcome": PlanOutcome.NO_TRAINING, "disk": []},
    ),
    Case("rotation", rows=20, batch=4, limit=2, expect={"disk": [4, 5]}),
    Case(
        "rotation-deletes-stale-first",
        rows=12,
        batch=4,
        limit=2,
        stale=(100, 200),
        expect={"disk": [2, 3]},
    ),
    Case(
        "stale-dirs-count-without-limit", rows=8, batch=4, stale=(50,), expect={"disk": [1, 2, 50]}
    ),
    Case(
        "best-model-limit-1-keeps-best-not-last",
        rows=16,
        batch=4,
        limit=1,
        best_step=2,
        expect={"disk": [2]},
    ),
    Case(
        "best-model-protected-by-rotation",
        rows=16,
        batch=4,
        limit=2,
        best_step=1,
        expect={"disk": [1, 4]},
    ),
    Case(
        "epoch-boundary-max-steps",
        rows=8,
        batch=4,
        max_steps=4,
        strategy="epoch",
        expect={"disk": [2, 4]},
    ),
    Case(
        "iterable-partial-group-never-steps",
        rows=10,
        batch=2,
        accum=2,
        max_steps=5,
        strategy="epoch",
        iterable=True,
        expect={"disk": [2, 4, 5]},
    ),
    Case(
        "iterable-one-pass", rows=8, batch=2, max_steps=3, iterable=True, expect={"disk": [1, 2, 3]}
    ),
]


class TinyRegressor(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(2, 1)

    def forward(self, x, labels=None):
        prediction = self.linear(x).squeeze(-1)
        return {"loss": torch.nn.functional.mse_loss(prediction, labels), "logits": prediction}


def _rows(count: int) -> list[dict]:
    generator = torch.Generator().manual_seed(0)
    return [
        {"x": torch.randn(2, generator=generator), "labels": torch.tensor(float(i % 3))}
        for i in range(count)
    ]


class RowStream(torch.utils.data.IterableDataset):
    def __init__(self, rows: list[dict]) -> None:
        self.rows = rows

    def __iter__(self):
        return iter(self.rows)


class StopAfterPasses(transformers.TrainerCallback):
    """Ends a run that would never end, so the test can observe it."""

    def __init__(self, passes: int) -> None:
        self.passes, self.seen = passes, 0

    def on_epoch_end(self, args, state, control, **kwargs):
        self.seen += 1
        if self.seen >= self.passes:
            control.should_training_stop = True
        return control


def _trainer(case: Case, output_dir: str, callbacks=()):
    best = case.best_step

    class ScoredTrainer(transformers.Trainer):
        # The metric peaks at best_step, so the best checkpoint is known in advance.
        def evaluate(self, *args, **kwargs):
            score = -abs(self.state.global_step - best)
            metrics = {"eval_score": float(score)}
            self.log(metrics)
            return metrics

    best_args = {}
    if best is not None:
        best_args = dict(
            load_best_model_at_end=True,
            eval_strategy=case.strategy,
            eval_steps=case.save_steps,
            metric_for_best_model="score",
            greater_is_better=True,
        )
    args = transformers.TrainingArguments(
        output_dir=output_dir,
        per_device_train_batch_size=case.batch,
        gradient_accumulation_steps=case.accum,
        dataloader_drop_last=case.drop_last,
        num_train_epochs=case.epochs,
        max_steps=case.max_steps,
        save_strategy=case.strategy,
        save_steps=case.save_steps,
        save_total_limit=case.limit,
        save_only_model=True,
        report_to="none",
        use_cpu=True,
        disable_tqdm=True,
        logging_strategy="no",
        seed=0,
        **best_args,
    )
    rows = _rows(case.rows)
    dataset = RowStream(rows) if case.iterable else rows
    cls = ScoredTrainer if best is not None else transformers.Trainer
    return cls(
        model=TinyRegressor(),
        args=args,
        train_dataset=dataset,
        eval_dataset=rows[:1] or None,
        callbacks=list(callbacks),
    )


def _make_stale(output_dir: str, steps: tuple[int, ...]) -> None:
    an_hour_ago = time.time() - 3600
    for step in steps:
        path = os.path.join(output_dir, f"checkpoint-{step}")
        os.makedirs(path)
        with open(os.path.join(path, "trainer_state.json"), "w") as handle:
            handle.write("{}")
        os.utime(os.path.join(path, "trainer_state.json"), (an_hour_ago, an_hour_ago))
        os.utime(path, (an_hour_ago, an_hour_ago))


# A Trainer run per case; the fast loop keeps the incident runs (test_smoke_example_workspace).
@pytest.mark.slow
@pytest.mark.parametrize("case", GRID, ids=[c.name for c in GRID])
def test_trainer_matches_library(case, tmp_path):
    predicted = simulate(case.plan())
    output_dir = str(tmp_path / "out")
    os.makedirs(output_dir)
    _make_stale(output_dir, case.stale)
    trainer = _trainer(case, output_dir)
    trainer.train()
    on_disk = list(checkpoint_dirs(output_dir))
    assert predicted.outcome is case.expect.get("outcome", PlanOutcome.OK)
    assert trainer.state.global_step == predicted.steps
    assert on_disk == list(predicted.checkpoints_on_disk)
    if predicted.steps:
        assert trainer.state.epoch == pytest.approx(predicted.epochs_run)
    if "steps" in case.expect:
        assert predicted.steps == case.expect["steps"]
    if "disk" in case.expect:
        assert on_disk == case.expect["disk"]


@pytest.mark.parametrize(
    "case",
    [
        Case("drop-last-empty-with-epochs", rows=3, batch=4, drop_last=True),
        Case("iterable-with-epochs", rows=4, batch=2, iterable=True),
    ],
    ids=lambda c: c.name,
)
def test_trainer_raises_where_library_says_it_cannot_start(case, tmp_path):
    predicted = simulate(case.plan())
    assert predicted.outcome in (PlanOutcome.EMPTY_DATALOADER, PlanOutcome.NEEDS_MAX_STEPS)
    with pytest.raises(ValueError):
        _trainer(case, str(tmp_path / "out")).train()
    assert checkpoint_dirs(tmp_path / "out") == {}


def test_iterable_pass_shorter_than_accumulation_never_steps(tmp_path):
    case = Case("never-ends", rows=2, batch=2, accum=4, max_steps=3, iterable=True)
    assert simulate(case.plan()).outcome is PlanOutcome.NEVER_ENDS
    trainer = _trainer(case, str(tmp_path / "out"), callbacks=[StopAfterPasses(25)])
    trainer.train()
    # 25 full passes over the data and not one optimizer step: it would never reach 3.
    assert trainer.state.global_step == 0


DDP_CASES = [
    Case("ddp-sized", rows=9, batch=2, expect={"steps": 3}),
    Case("ddp-drop-last", rows=9, batch=2, drop_last=True, expect={"steps": 2}),
    Case("ddp-partial-accum", rows=7, batch=2, accum=2, expect={"steps": 1}),
    Case(
        "ddp-iterable",
        rows=10,
        batch=2,
        max_steps=4,
        strategy="epoch",
        iterable=True,
        expect={"disk": [3, 4]},
    ),
    Case(
        "ddp-iterable-accum",
        rows=10,
        batch=2,
        accum=2,
        max_steps=3,
        strategy="epoch",
        iterable=True,
        expect={"disk": [1, 2, 3]},
    ),
]


@pytest.mark.slow  # the grid again, in two real processes
def test_two_processes_match_the_library(tmp_path):
    """World size 2 on CPU (torchrun + gloo): accelerate's even sharding of batches."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parents[1] / "fixtures" / "smoke" / "ddp_cases.py"
    cases = [
        dict(
            rows=c.rows,
            batch=c.batch,
            accum=c.accum,
            drop_last=c.drop_last,
            iterable=c.iterable,
            max_steps=c.max_steps,
            strategy=c.strategy,
        )
        for c in DDP_CASES
    ]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc_per_node",
            "2",
            str(script),
            json.dumps(cases),
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULTS ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    results = json.loads(lines[0].removeprefix("RESULTS "))
    for case, got in zip(DDP_CASES, results, strict=True):
        plan = case.plan().model_copy(
            update={"geometry": case.plan().geometry.model_copy(update={"world_size": 2})}
        )
        predicted = simulate(plan)
        assert got["world"] == 2
        assert (got["steps"], got["disk"]) == (
            predicted.steps,
            list(predicted.checkpoints_on_disk),
        ), case.name
        if "steps" in case.expect:
            assert got["steps"] == case.expect["steps"], case.name
        if "disk" in case.expect:
            assert got["disk"] == case.expect["disk"], case.name
