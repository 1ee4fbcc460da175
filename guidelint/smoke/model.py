"""The inputs and outputs of the smoke arithmetic, as pydantic models and enums."""

from __future__ import annotations

import enum

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SaveStrategy(str, enum.Enum):
    STEPS = "steps"
    EPOCH = "epoch"
    NO = "no"


class PlanOutcome(str, enum.Enum):
    """What a run does, named: the failure modes are not numbers."""

    OK = "ok"
    # Epoch-based training over a dataloader of length 0 (drop_last with fewer
    # rows than one global batch, or no rows): the Trainer raises ValueError.
    EMPTY_DATALOADER = "empty-dataloader"
    # An iterable dataset (no len) with max_steps unset: the Trainer raises ValueError.
    NEEDS_MAX_STEPS = "needs-max-steps"
    # An iterable pass shorter than one accumulation group never steps; training loops forever.
    NEVER_ENDS = "never-ends"
    # An empty loader under max_steps with epoch saving: checkpoint-0, no training.
    CHECKPOINT_0 = "checkpoint-0"
    # Zero optimizer steps and nothing saved (empty loader under max_steps, or epochs=0).
    NO_TRAINING = "no-training"


class FloorKind(str, enum.Enum):
    CHECKPOINTS = "checkpoints"
    STEPS = "steps"


class Geometry(_Frozen):
    """Batch geometry: what one optimizer step consumes."""

    per_device_batch: int = Field(ge=1)
    grad_accum: int = Field(default=1, ge=1)
    world_size: int = Field(default=1, ge=1)
    drop_last: bool = False
    iterable: bool = False  # an IterableDataset (no len)

    @classmethod
    def of(cls, batch, accum=1, world=1, drop_last=False, iterable=False) -> Geometry:
        """From the short names the CLI and require_floor use."""
        return cls(
            per_device_batch=batch,
            grad_accum=accum,
            world_size=world,
            drop_last=drop_last,
            iterable=iterable,
        )

    @property
    def effective_batch(self) -> int:
        return self.per_device_batch * self.grad_accum * self.world_size


class SavePolicy(_Frozen):
    strategy: SaveStrategy = SaveStrategy.STEPS
    # An absolute step interval, or a ratio of the total steps when below 1.
    save_steps: int | float = Field(default=500, gt=0)
    save_total_limit: int | None = None
    # The step whose checkpoint holds the best metric so far (evaluation decides
    # it, not arithmetic); its dir is protected from rotation, and with
    # save_total_limit=1 only it survives the end of training.
    best_step: int | None = None

    @model_validator(mode="after")
    def _integral_steps(self) -> SavePolicy:
        if self.save_steps > 1 and self.save_steps != int(self.save_steps):
            raise ValueError(f"save_steps must be an integer if above 1: {self.save_steps}")
        return self

    def interval(self, total_steps: int) -> int:
        """save_steps as the Trainer resolves it (TrainerState.compute_steps)."""
        if self.save_steps < 1:
            import math

            return math.ceil(total_steps * self.save_steps)
        return int(self.save_steps)


class Schedule(_Frozen):
    """The dial: max_steps wins when positive, else num_train_epochs."""

    num_train_epochs: float = Field(default=3.0, ge=0)
    max_steps: int = -1

    @property
    def by_steps(self) -> bool:
        return self.max_steps > 0

    def describe(self) -> str:
        if self.by_steps:
            return f"max_steps={self.max_steps}"
        epochs = self.num_train_epochs
        return f"epochs={int(epochs) if epochs == int(epochs) else epochs}"


class Plan(_Frozen):
    rows: int = Field(ge=0)  # realized rows, after any cap or filter
    geometry: Geometry
    schedule: Schedule = Field(default_factory=Schedule)
    save: SavePolicy = Field(default_factory=SavePolicy)
    # Step numbers of checkpoint-* dirs already in output_dir (from earlier runs).
    # They are assumed older than this run's saves (the Trainer rotates by mtime).
    existing_checkpoints: tuple[int, ...] = ()


class PlanResult(_Frozen):
    outcome: PlanOutcome
    steps: int  # optimizer steps taken (global_step at the end)
    epochs_run: float  # trainer.state.epoch at the end (passes for iterable datasets)
    epochs_entered: int
    saved_steps: tuple[int, ...]  # global steps at which a checkpoint was written
    checkpoints_on_disk: tuple[int, ...]  # step numbers of checkpoint-* dirs left, stale included
    run_checkpoints: int  # this run's checkpoints left on disk
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome is PlanOutcome.OK

    def floor_value(self, kind: FloorKind) -> int:
        """What a floor of this kind measures; 0 unless the run trains and ends."""
        if not self.ok:
            return 0
        return self.run_checkpoints if kind is FloorKind.CHECKPOINTS else self.steps
