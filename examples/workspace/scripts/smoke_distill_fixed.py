"""Distill smoke run, fixed: the dial is derived from the realized slice.

Same cap (SMOKE_MAX_ROWS) and the same production geometry (4 x 4 = 16 rows per
optimizer step), but num_train_epochs comes from guidelint.smoke.require_floor
on the rows actually written, which refuses to launch when no dial can meet the
gate. The gate counts only the checkpoint dirs this run wrote.
"""

import sys
from pathlib import Path

from prepare_slice import prepare
from transformers import Trainer, TrainingArguments

from guidelint.smoke import assert_checkpoints, mark_run_start, require_floor

SMOKE_MAX_ROWS = 30
PER_DEVICE_BATCH = 4
GRAD_ACCUM = 4
CHECKPOINT_FLOOR = 2


def smoke_arguments(output_dir: Path, realized_rows: int) -> TrainingArguments:
    dial = require_floor(
        realized_rows=realized_rows,
        per_device_batch=PER_DEVICE_BATCH,
        grad_accum=GRAD_ACCUM,
        save_strategy="steps",
        save_steps=1,
        floor=CHECKPOINT_FLOOR,
    )
    return TrainingArguments(
        output_dir=str(output_dir),
        per_device_train_batch_size=PER_DEVICE_BATCH,
        gradient_accumulation_steps=GRAD_ACCUM,
        num_train_epochs=dial.num_train_epochs,
        save_strategy="steps",
        save_steps=1,
        report_to="none",
    )


def run_smoke(model, load_rows, source: Path, output_dir: Path) -> None:
    slice_path = output_dir / "slice.jsonl"
    realized_rows = prepare(source, slice_path, max_rows=SMOKE_MAX_ROWS)
    mark_run_start(output_dir)
    trainer = Trainer(model=model, args=smoke_arguments(output_dir, realized_rows),
                      train_dataset=load_rows(slice_path))
    trainer.train()
    assert_checkpoints(output_dir, CHECKPOINT_FLOOR)


if __name__ == "__main__":
    print("run_smoke(model, load_rows, source, output_dir) is called by the launcher", sys.argv)
