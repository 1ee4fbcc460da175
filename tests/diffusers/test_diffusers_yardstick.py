"""The yardstick's goal figure and its reviewed list of the examples' real bugs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("diffusers")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "diffusers_yardstick.py"


@pytest.fixture(scope="module")
def yardstick():
    spec = importlib.util.spec_from_file_location("diffusers_yardstick", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_each_listed_bug_is_a_line_of_an_installed_example(yardstick):
    examples = {m.name: m.example.splitlines() for m in yardstick.collect()}
    for module, bug in yardstick.REAL_BUGS.items():
        assert module in examples, module
        assert 1 <= bug.line - 3 <= len(examples[module]), (module, bug.line)
        assert examples[module][bug.line - 4].strip(), (module, "a blank line")


def test_the_goal_leaves_out_missing_packages_and_confirmed_bugs_and_names_stale_ones(
    yardstick,
):
    row = yardstick.Row
    ddim = yardstick.REAL_BUGS["ddim.pipeline_ddim"]
    rows = [
        row("flux.pipeline_flux", "passed", "", 1.0),
        row("sana.pipeline_sana", "unsupported-model", "", 1.0),
        row("consisid.pipeline_consisid", "missing-dependency", "", 1.0),
        # fails as the list says: a real bug, out of the count
        row("ddim.pipeline_ddim", "error", "", 1.0, message=f"line {ddim.line}: {ddim.says}"),
        # listed, but now fails elsewhere: stale, so it stays in the count
        row("lucy.pipeline_lucy_edit", "error", "", 1.0, message="line 40: OSError: gone"),
    ]
    text, stale = yardstick.goal(rows)
    assert text.startswith("Goal (issue #29: at least 90 %): 1 passed of 4 examples ")
    assert "(5 modules - 1 real bugs) = 25 %; without the 1 missing-dependency ones: " in text
    assert text.endswith("1 of 3 = 33 %.")
    assert [r.module for r in stale] == ["lucy.pipeline_lucy_edit"]
    # a bug past the line where the example stops (a package missing here) is not reached,
    # which does not make its entry stale
    flux2 = yardstick.REAL_BUGS["flux2.pipeline_flux2"]
    unreached = row("flux2.pipeline_flux2", "missing-dependency", "", 1.0, message="line 7: ...")
    assert flux2.line > 7 and yardstick.goal([unreached])[1] == []
    rendered = yardstick.table(rows, "a test")
    assert "The real-bug list is stale for: lucy.pipeline_lucy_edit (no longer line 4:" in rendered
    assert f"| ddim.pipeline_ddim | {ddim.line} | {ddim.wrong} |" in rendered
    assert "Causes of the non-passes: real bug 1, missing dependency 1, no stand-in 1, " in rendered
    assert "unreviewed 1." in rendered


def _raised_through_the_runner(tmp_path):
    """An example's exception as the child catches it: the runner's frame that ran the
    example, the example's own frame, then a frame of guidelint's backend that raised."""
    from guidelint.runner import verdict

    runner = Path(verdict.__file__).parent
    namespace: dict = {}
    backend_code = "def build():\n    raise ValueError('a tiny config the harness got wrong')\n"
    exec(compile(backend_code, str(runner / "diffusers_backend" / "fake.py"), "exec"), namespace)
    example_code = "def example():\n    build()\n"
    exec(compile(example_code, str(tmp_path / "GUIDE.md"), "exec"), namespace)
    harness_code = "def harness():\n    try:\n        example()\n    except ValueError as e:\n"
    harness_code += "        return e\n"
    exec(compile(harness_code, str(runner / "child.py"), "exec"), namespace)
    return namespace["harness"]()


def test_a_traceback_ending_in_guidelint_is_a_harness_fault_not_the_examples_error(
    yardstick, tmp_path
):
    from guidelint.runner.verdict import classify_exception

    error = _raised_through_the_runner(tmp_path)
    example = {"filename": str(tmp_path / "GUIDE.md"), "expect_error": None}
    judged = classify_exception(error, example, [])  # type: ignore[arg-type]
    details = judged["traceback"]
    # the frame that ran the example is left out; the backend's frame stays
    assert "child.py" not in details and "GUIDE.md" in details
    assert yardstick.guidelint_frame(details).endswith("diffusers_backend/fake.py:2")
    row = yardstick.Row("flux.pipeline_flux", "error", "", 1.0, details=details)
    assert yardstick.classify(row) == "harness fault"
    rendered = yardstick.table([row], "a test")
    assert "Harness faults (build-failed, or a traceback ending in guidelint's code): " in rendered
    assert "flux.pipeline_flux (error, at " in rendered
    # nor is one torch raised under the backend's torch-function mode, which passes
    # every call on (the innermost frame is guidelint's, but only forwards the call)
    passed_on = (
        'Traceback (most recent call last):\n  File "<doctest x[9]>", line 1, in <module>\n'
        '  File "/v/diffusers/schedulers/scheduling_ddpm_parallel.py", line 397, in f\n'
        "    alpha_prod_t = self.alphas_cumprod[t]\n"
        '  File "/w/guidelint/runner/diffusers_backend/devices.py", line 146, in mode\n'
        "    return func(*args, **kwargs)\n"
        "IndexError: index 1000 is out of bounds for dimension 0 with size 1000\n"
    )
    assert yardstick.guidelint_frame(passed_on) is None
    # an exception the example's own code raised is not one
    own = 'Traceback (most recent call last):\n  File "/x/GUIDE.md", line 3, in <module>\n'
    assert yardstick.guidelint_frame(own) is None


def test_a_reviewed_cause_applies_while_the_example_still_ends_that_way(yardstick, monkeypatch):
    reviewed = yardstick.Reviewed("timeout", "still running after 60s", "load", "passed alone")
    monkeypatch.setitem(yardstick.REVIEWED, "flux.pipeline_flux", reviewed)
    row = yardstick.Row(
        "flux.pipeline_flux", "timeout", "", 60.2, message="still running after 60s"
    )
    assert yardstick.classify(row) == "load"
    row.outcome, row.message = "error", "line 3: OSError: gone"
    assert yardstick.classify(row) == "unreviewed"
    measured = "line 9: TooSlow: step 2 of 50 took 4.2 s; the 48 steps left need about 200 s"
    costly = yardstick.Row("aura_flow.pipeline_aura_flow", "timeout", "", 10.4, message=measured)
    assert yardstick.classify(costly) == "cost"
    url = "https://hf.co/datasets/x/resolve/main/cat.pt"
    for outcome, said in (
        ("error", f"line 25: ConnectionError: no network while examples run: {url}"),
        ("refused", f"line 25: the sandbox refused a download: {url}"),
    ):
        fetched = yardstick.Row("deprecated.x", outcome, "", 1.0, message=said)
        assert yardstick.classify(fetched) == "example download"


def test_a_doctest_mismatch_is_summed_up_by_its_statement_and_stated_output(yardstick):
    message = (
        "line 8:\nFailed example:\n    pipe.to('cuda')\nExpected:\n    # a comment\n"
        "Got:\n    X {\n    }\n    <BLANKLINE>\n"
    )
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    assert (
        yardstick.repl_reason(lines[1:])
        == "pipe.to('cuda') printed other than the stated '# a comment'"
    )
    raised = ["Traceback (most recent call last):", "NameError: name 'pipe' is not defined"]
    assert yardstick.repl_reason(raised) == "NameError: name 'pipe' is not defined"
