"""Write the realized data slice of a workspace: at most MAX_ROWS rows of a JSONL file."""

import json
import sys
from pathlib import Path

MAX_ROWS = 30


def prepare(source: Path, target: Path, max_rows: int = MAX_ROWS) -> int:
    rows = []
    with source.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rows.append(json.loads(line))
            if len(rows) == max_rows:
                break
    target.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return len(rows)


if __name__ == "__main__":
    print(prepare(Path(sys.argv[1]), Path(sys.argv[2])))
