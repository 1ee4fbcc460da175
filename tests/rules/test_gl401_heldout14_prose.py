"""GL401's false family of held-out set 14 (docs/PRECISION.md, "Held-out set 14 fixes:
GL401's prose, trees and data files"): what is no Python in a ```` ```python ```` fence
(printed messages, a flow in Japanese prose, a file list or tree, a checklist, YAML
under a comment naming its file, a sketch), each silent, with the copy-paste failures
of the same set still reported at their line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check
from guidelint.rules.gl401_example_syntax_error import _line_shapes, not_python_code
from tests.conftest import write_tree

# Each the shape of a held-out 14 block labelled false, cut down.
NOT_PYTHON = {
    "a printed error message": "fixture 'confidence_checker' not found\n",
    "a printed similarity report": (
        'Current error: "JWT token validation failed missing secret"\n'
        'Past error:    "JWT validation failed secret not found"\n'
        "Overlap:       7/8 keywords match = 87.5% similarity ✅\n"
    ),
    "a flow with an arrow": (
        "File: setup/components/modes.py\n"
        "Source: superclaude/modes/*.md\n"
        "Target: ~/.claude/*.md\n\n"
        "Example:\n"
        "  superclaude/modes/MODE_Brainstorming.md\n"
        "    ↓\n"
        "  ~/.claude/MODE_Brainstorming.md\n"
    ),
    "numbered steps in Japanese": (
        "# setup/components/*.py が実行される\n\n"
        "1. ~/.claude/ ディレクトリ作成\n"
        "2. commands/sc/ にスラッシュコマンド配置\n"
    ),
    "a file list with comments": (
        "# 優先度: 高\n"
        "setup/components/commands.py    # コマンドインストール\n"
        "setup/data/commands/*.md        # コマンド仕様（ソース）\n"
        "superclaude/core/              # コア機能実装\n"
    ),
    "a file tree": (
        "superclaude/validators/\n"
        "├── security_roughcheck.py  # Hardcoded secret detection\n"
        "└── test_runner.py          # Test execution\n"
    ),
    "a checklist": (
        "✅ Checks:\n"
        "- Load Reflexion memory\n"
        "- Search for similar past failures\n\n"
        "❌ Concerns:\n"
        "- Found similar mistakes (score -= 0.3 per match)\n\n"
        "Score: 0.0 - 1.0\n"
        "Weight: 30% (learn from history)\n"
    ),
    "a note after the code": (
        "checker = ConfidenceChecker()\n"
        "confidence = checker.assess(context)\n\n"
        "Token Cost: ~2K (confidence moduleのみ)\n"
    ),
    "YAML under a comment naming its file": (
        "llm = await agent.attach_llm(OpenAIAugmentedLLM)\n\n"
        "# Configuration (in mcp_agent.secrets.yaml or mcp_agent.config.yaml)\n"
        "openai:\n"
        '  api_key: "your-openai-api-key"\n'
        '  reasoning_effort: "medium"  # For o1/o3 models\n'
    ),
    "a signature broken before its return annotation": (
        "class SelfCheckProtocol:\n"
        "    def validate(self, implementation: Dict[str, Any])\n"
        "        -> Tuple[bool, List[str]]:\n"
        '        """Four Questions Protocol:\n'
        "        1. All tests pass?\n"
        '        """\n'
        "        # Python実装\n"
    ),
    "an if body that is `# ...`": (
        'if Confirm.ask("Continue?"):\n'
        "    # ...\n\n"
        "# Multi-select\n"
        'selected = questionary.checkbox("Select:", choices=["core"]).ask()\n'
    ),
}


@pytest.mark.parametrize("name", sorted(NOT_PYTHON))
def test_what_is_no_python_is_no_syntax_error(name: str) -> None:
    source = NOT_PYTHON[name]
    with pytest.raises(SyntaxError):
        ast.parse(source)  # each fails as Python: the case is real
    assert not_python_code(source)


# Copy-paste failures a user would hit, held-out 14's true findings among them.
STILL_ERRORS = {
    "a plain string broken over lines": (
        "result = await orchestrator.generate(\n"
        '    "Research quantum computing applications in cryptography,\n'
        '    analyze current limitations, and propose future directions"\n'
        ")\n"
    ),
    "a missing comma and an unclosed string": (
        "await deploy_config(\n"
        '   app_name="My MCP Agent App"\n'
        '   config_dir="path/to/project/configuration,\n'
        '   api_key="your-api-key",\n'
        ")\n"
    ),
    "indentation mixed": (
        "async with gen_client(name) as server:\n"
        "    execution = WorkflowExecution(\n"
        "      **json.loads(text)\n"
        "   )\n\n"
        "   run_id = execution.run_id\n"
    ),
    "a typo alone in its paragraph": (
        "import torch\n\npipe line= CogVideoXPipeline.from_pretrained(name)\n"
    ),
    "an if body that is a comment saying what to do": (
        "for item in items:\n    # process\n\nitem_map = {item.id: item for item in items}\n"
    ),
    "broken Python under a comment naming a YAML file": (
        "# Load mcp_agent.config.yaml\nconfig = yaml.safe_load(open(path)\n"
    ),
    "the page's text a fence took in (Markdown, not a note)": (
        "def controls():\n    return {}\n\n**Privacy by Design**\n"
    ),
    "a missing colon on a one-line signature": (
        "def validate(self, data: dict) -> bool\n    return True\n"
    ),
}


@pytest.mark.parametrize("name", sorted(STILL_ERRORS))
def test_copy_paste_failures_are_still_errors(name: str) -> None:
    source = STILL_ERRORS[name]
    with pytest.raises(SyntaxError):
        ast.parse(source)
    assert not not_python_code(source)


def test_line_shapes_tell_prose_from_code() -> None:
    source = (
        "from x import compile regions\n"  # a statement: a typo in code
        "- Load Reflexion memory\n"  # a bullet of words
        '"a" "b"\n'  # implicit concatenation
        'reveal_type(t"")\n'  # a t-string (Python 3.14), no words side by side
        "x = a if b else c\n"
        '"""Returns: (passed, issues)\n'
        "Inside a docstring: no code\n"
        '"""\n'
        "# a comment\n"
        "total/count\n"  # a division, not a path
        "docs/guide.md  # a path\n"
    )
    shapes = [False, True, False, False, False, False, None, False, None, False, True, None]
    assert _line_shapes(source) == shapes


def _findings(root: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    write_tree(root, files)
    report = run_check(CheckOptions(paths=[root], select=["GL401"], use_cache=False))
    return sorted((f.path, f.line, f.message) for f in report.findings)


def test_a_guide_with_both_reports_only_the_copy_paste_failure(tmp_path: Path) -> None:
    guide = (
        "# Deep orchestrator\n\n"
        "```python\n" + NOT_PYTHON["a file tree"] + "```\n\n"
        "```python\n" + NOT_PYTHON["a note after the code"] + "```\n\n"
        "```python\n" + STILL_ERRORS["a plain string broken over lines"] + "```\n"
    )
    found = _findings(tmp_path, {"README.md": guide})
    assert [(line, "unterminated string" in message) for _, line, message in found] == [(18, True)]
