"""The images an example saved, kept by the warm worker: copied from the example's
scratch folder into the report folder, never through a symlink.

The example cannot write the report folder (docs/RUNNING.md, "Threat model"): what
lands there is what the worker copied, after each example's record came, walking
the scratch folder with descriptors and `O_NOFOLLOW` (guidelint/confine.py). A link,
a FIFO, a file over `MAX_IMAGE_BYTES` or past `MAX_IMAGES` is not kept.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field

from guidelint.confine import DIR_FLAGS, copy_into, files_below, open_dir, open_subdir, safe_name

# Kept in the report folder: images, and the videos export_to_video writes.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tiff", ".mp4", ".webm")
MAX_IMAGE_BYTES = 64 * 1024 * 1024
MAX_IMAGES = 200  # per unit
NOT_KEPT = ("home", "tmp", "shm")  # the scratch folder's own HOME, TMPDIR and /dev/shm


@dataclass
class Keeper:
    scratch: str  # the unit's scratch folder (made by the worker)
    unit_dir: str  # the unit's report folder, inside the checked report folder
    per_example: bool  # a session's: one folder per example inside the unit's
    seen: dict[str, tuple[int, int]] = field(default_factory=dict)  # rel -> (mtime, size)
    kept: int = 0

    def keep(self, example_slug: str) -> list[str]:
        """Copy the images written or changed since the last call; where they went."""
        try:
            scratch = os.open(self.scratch, DIR_FLAGS)
        except OSError:
            return []
        target: int | None = None
        kept: list[str] = []
        try:
            for rel, source in files_below(scratch, skip_top=NOT_KEPT):
                if not rel.lower().endswith(IMAGE_SUFFIXES) or self.kept >= MAX_IMAGES:
                    continue
                info = os.fstat(source)
                stamp = (info.st_mtime_ns, info.st_size)
                if self.seen.get(rel) == stamp:
                    continue  # an earlier example of the session wrote it
                self.seen[rel] = stamp
                if target is None:
                    target = self._target(example_slug)
                kept.extend(self._copy(source, target, rel, example_slug))
        except (OSError, RecursionError):
            pass  # what was copied so far stays kept
        finally:
            os.close(scratch)
            if target is not None:
                os.close(target)
        return kept

    def _target(self, example_slug: str) -> int:
        parent, name = os.path.split(self.unit_dir)
        folder = open_dir(parent, name, "report folder")
        if not self.per_example:
            return folder
        try:
            return open_subdir(folder, example_slug)
        finally:
            os.close(folder)

    def _copy(self, source: int, target: int, rel: str, example_slug: str) -> list[str]:
        *folders, name = [safe_name(part, "_") for part in rel.split(os.sep)]
        folder = os.dup(target)
        try:
            for part in folders:
                inner = open_subdir(folder, part)
                os.close(folder)
                folder = inner
            if not copy_into(source, folder, name, MAX_IMAGE_BYTES):
                return []
        except (OSError, ValueError):
            return []
        finally:
            with contextlib.suppress(OSError):
                os.close(folder)
        self.kept += 1
        where = [self.unit_dir, *([example_slug] if self.per_example else []), *folders, name]
        return [os.path.join(*where)]
