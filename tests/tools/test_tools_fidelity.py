"""scripts/fidelity_tools.py: published servers' READMEs against their catalogued lists,
unchanged and with every kind of drift injected (docs/TOOLS.md records the figures)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fidelity_tools.py"


def load_script():
    spec = importlib.util.spec_from_file_location("fidelity_tools", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_no_miss_no_false_flag_and_every_did_you_mean_right():
    fidelity = load_script()
    results = fidelity.run()
    assert len(results) >= 6
    for result in results:
        assert result.misses == [], result.package
        assert result.false_flags == [], result.package
        assert result.right_suggestions == result.suggestions > 0, result.package
    # Every drift kind was injected in every README (hyphenated: where the name has a _ or -).
    assert all(result.drifts >= 7 for result in results)
    # The reviewed defects of the READMEs themselves are still found.
    defects = {r.package: len(r.readme_defects) for r in results if r.readme_defects}
    assert set(defects) == set(fidelity.REVIEWED_README_DRIFT)


def test_the_drifts_of_one_readme_are_each_reported_with_the_right_suggestion():
    fidelity = load_script()
    (result,) = fidelity.run(["mcp-server-time"])
    assert (result.misses, result.false_flags) == ([], [])
    assert result.drifts == 8 and result.right_suggestions == result.suggestions == 6
