"""An example's autograd does not depend on what the warm worker imported for another.

cosmos_guardrail turns autograd off when it is imported, and diffusers imports it with
its Cosmos pipelines; the warm worker imports the classes a guide's examples name
before it forks them. Before the child set autograd back on, an example that only
named a Cosmos pipeline made the next example's `backward()` fail in the same worker.
"""

from __future__ import annotations

import pytest

from guidelint.runner.run import RunOptions, run_examples

GUIDE = """# Guide

```python
from diffusers import Cosmos2TextToImagePipeline
print(Cosmos2TextToImagePipeline.__name__)
```

```python
import torch
layer = torch.nn.Linear(2, 1)
layer(torch.ones(2)).sum().backward()
assert layer.weight.grad is not None
```
"""


@pytest.mark.slow
def test_a_pipeline_that_turns_autograd_off_does_not_reach_the_next_example(tmp_path):
    pytest.importorskip("cosmos_guardrail", reason="the [diffusers] extra's Cosmos checker")
    (tmp_path / ".git").mkdir()
    guide = tmp_path / "guide.md"
    guide.write_text(GUIDE)
    report = run_examples(RunOptions(paths=[guide], jobs=1, report_dir=tmp_path / "report"))
    outcomes = [(r.line, r.status.value, r.message) for r in report.results]
    assert [status for _, status, _ in outcomes] == ["passed", "passed"], outcomes
