"""The Accelerate loop model (guidelint.smoke.accelerate_check.loop_counts) against a real
Accelerator: the loop people write, run on CPU over a grid of rows, batch, accumulation,
epochs, cadence and counter, counting optimizer steps and save_state calls."""

from __future__ import annotations

import itertools

import pytest

from guidelint.smoke.accelerate_check import loop_counts

GRID = list(
    itertools.product(
        (1, 9, 16),  # rows
        (2, 4),  # batch
        (1, 3),  # gradient_accumulation_steps
        (2,),  # epochs
        (2, 3),  # save cadence
        (("steps", 0), ("batch", 0), ("batch", 1)),  # counter, offset
    )
)


def test_loop_counts_by_hand():
    # 9 rows, batch 2: 5 batches; GA 3 syncs after batches 3 and 5: 2 steps an epoch.
    assert loop_counts(9, 2, 3, False, "epochs", 2, 2, "steps", 0) == (4, 2)
    # enumerate's index, `step % 2 == 0`: batches 0, 2, 4 of 5, every epoch.
    assert loop_counts(9, 2, 1, False, "epochs", 2, 2, "batch", 0) == (10, 6)
    # `(step + 1) % 2 == 0`: batches 1 and 3.
    assert loop_counts(9, 2, 1, False, "epochs", 1, 2, "batch", 1) == (5, 2)


def _real(rows, batch, accum, epochs, cadence, counter, offset):
    torch = pytest.importorskip("torch")
    accelerate = pytest.importorskip("accelerate")
    from torch.utils.data import DataLoader, TensorDataset

    accelerator = accelerate.Accelerator(gradient_accumulation_steps=accum, cpu=True)
    model = torch.nn.Linear(1, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(TensorDataset(torch.randn(rows, 1)), batch_size=batch)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    steps = saves = global_step = 0
    for _epoch in range(epochs):
        for step, (x,) in enumerate(loader):
            with accelerator.accumulate(model):
                accelerator.backward(model(x).pow(2).mean())
                optimizer.step()
                optimizer.zero_grad()
            if accelerator.sync_gradients:
                steps += 1
                global_step += 1
                if counter == "steps" and global_step % cadence == 0:
                    saves += 1
            if counter == "batch" and (step + offset) % cadence == 0:
                saves += 1
    accelerator.free_memory()
    return steps, saves


@pytest.mark.slow
def test_the_real_accelerate_loop_agrees():
    disagreements = []
    for rows, batch, accum, epochs, cadence, (counter, offset) in GRID:
        predicted = loop_counts(
            rows, batch, accum, False, "epochs", epochs, cadence, counter, offset
        )
        real = _real(rows, batch, accum, epochs, cadence, counter, offset)
        if predicted != real:
            disagreements.append(
                ((rows, batch, accum, epochs, cadence, counter, offset), predicted, real)
            )
    assert disagreements == [], disagreements[:10]
