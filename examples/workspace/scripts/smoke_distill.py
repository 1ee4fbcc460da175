"""Distill smoke run, then the production relaunch (the incident's driver, as it was).

The smoke slice is capped at SMOKE_MAX_ROWS rows, but the source may realize
fewer (2, in the incident). Production geometry is kept: 4 per device x 4
accumulation = 16 rows per optimizer step.
"""

import sys
from pathlib import Path

from prepare_slice import prepare
from transformers import Trainer, TrainingArguments

SMOKE_MAX_ROWS = 30
PER_DEVICE_BATCH = 4
GRAD_ACCUM = 4


def smoke_arguments(output_dir: Path) -> TrainingArguments:
    return TrainingArguments(
        output_dir=str(output_dir),
        per_device_train_batch_size=PER_DEVICE_BATCH,
        gradient_accumulation_steps=GRAD_ACCUM,
        num_train_epochs=1,  # calibrated on the cap: 30 rows make 2 optimizer steps
        save_strategy="steps",
        save_steps=1,
        report_to="none",
    )


def run_smoke(model, load_rows, source: Path, output_dir: Path) -> None:
    slice_path = output_dir / "slice.jsonl"
    prepare(source, slice_path, max_rows=SMOKE_MAX_ROWS)
    trainer = Trainer(model=model, args=smoke_arguments(output_dir),
                      train_dataset=load_rows(slice_path))
    trainer.train()
    checkpoints = sorted(output_dir.glob("checkpoint-*"))
    assert len(checkpoints) >= 2, f"smoke saved {len(checkpoints)} checkpoints"


if __name__ == "__main__":
    print("run_smoke(model, load_rows, source, output_dir) is called by the launcher", sys.argv)
