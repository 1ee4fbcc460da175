"""The held-out sets' false families of GL502, GL503, GL607, GL616 and GL601
(docs/PRECISION.md, "Held-out set 8 fixes: anchors, fences, skills, marketplaces"):
doc-builder's explicit heading ids, a fence an HTML block takes in, a SKILL.md in
another framework's agent folder, Anthropic's own marketplace under a reserved name,
and a template asset's `{placeholders}` in front matter. Each is checked on a small
tree, the false case silent and the true one next to it still reported.
"""

from __future__ import annotations

import json
from pathlib import Path

from guidelint.check import CheckOptions, run_check
from tests.conftest import write_tree


def findings(root: Path, files: dict[str, str], code: str) -> list[tuple[str, int, str]]:
    write_tree(root, files)
    report = run_check(CheckOptions(paths=[root], select=[code], use_cache=False))
    return sorted((f.path, f.line, f.message) for f in report.findings)


# --- GL502: doc-builder's `## Heading [[id]]` ----------------------------------------

PHILOSOPHY = (
    "# 철학 [[philosophy]]\n\n"
    "## 성능보다는 사용성을 [[usability-over-performance]]\n\n"
    "## 쉬움보다는 간단함을 [[simple-over-easy]]\n\n"
    "## 추상화보다는 수정 가능하고 기여하기 쉬움을\n\n"
    "## See [[Other page]]\n"
)


def test_an_explicit_heading_id_is_the_anchor(tmp_path):
    index = (
        "# 소개\n\n"
        "[a](conceptual/philosophy#usability-over-performance), "
        "[b](conceptual/philosophy#simple-over-easy), [c](#how-to-open-a-pr).\n\n"
        "## PR을 열기 위한 방법 [[how-to-open-a-pr]]\n"
    )
    files = {"docs/ko/index.md": index, "docs/ko/conceptual/philosophy.md": PHILOSOPHY}
    assert findings(tmp_path, files, "GL502") == []


def test_anchors_no_explicit_id_makes_stay_reported(tmp_path):
    index = (
        "# 소개\n\n"
        "[a](conceptual/philosophy#tweakable-contributor-friendly-over-abstraction)\n"
        "[b](conceptual/philosophy#쉬움보다는-간단함을)\n"
        "[c](conceptual/philosophy#Other page)\n"
    )
    files = {"docs/ko/index.md": index, "docs/ko/conceptual/philosophy.md": PHILOSOPHY}
    found = findings(tmp_path, files, "GL502")
    assert [line for _, line, _ in found] == [3, 4]  # `#Other page` is no link (a space)
    assert "tweakable-contributor-friendly" in found[0][2]


# --- GL503: a fence opener an HTML block takes in ------------------------------------

SWALLOWED = (
    "# Train\n\n"
    "<frameworkcontent>\n<pt>\n```python\npipe = load()\n\npipe.to('cuda')\n```\n"
    "</pt>\n</frameworkcontent>\n"
)


def test_a_swallowed_opener_is_reported_once_at_the_opener(tmp_path):
    found = findings(tmp_path, {"docs/train.md": SWALLOWED}, "GL503")
    assert [(path, line) for path, line, _ in found] == [("docs/train.md", 5)]
    assert "HTML block that starts at line 3" in found[0][2], found
    assert "at line 9 opens a fence that is never closed" in found[0][2]


def test_a_doc_builder_page_renders_the_swallowed_fence(tmp_path):
    files = {
        "docs/source/ko/training/train.md": SWALLOWED,
        "docs/source/ko/_toctree.yml": "- title: Training\n",
    }
    assert findings(tmp_path, files, "GL503") == []


def test_real_unclosed_fences_stay_reported_on_a_doc_builder_page(tmp_path):
    page = "# Cite\n\n<div>\n\ntext\n\n</div>\n\n```bibtex\n@misc{x,\n}\n```}\n\nAfter.\n"
    files = {"docs/source/en/cite.md": page, "docs/source/en/_toctree.yml": "- title: Cite\n"}
    found = findings(tmp_path, files, "GL503")
    assert [line for _, line, _ in found] == [9]
    assert "never closed" in found[0][2]


def test_a_fence_closed_inside_the_html_block_leaks_nothing(tmp_path):
    page = "# A\n\n<details>\n```bash\nmake\n```\n</details>\n\n```bash\nleft open\n"
    found = findings(tmp_path, {"docs/a.md": page}, "GL503")
    assert [line for _, line, _ in found] == [9]  # the real unclosed fence, as before
    assert "HTML block" not in found[0][2]


# --- GL607: skills where a harness loads them ----------------------------------------

NO_FRONT_MATTER = "# Haiku house style\n\nFollow 5-7-5.\n"


def test_another_frameworks_agent_folder_is_no_skill_folder(tmp_path):
    files = {
        "cookbook/antigravity/example_agent/agent.yaml": "id: haiku-bot\n",
        "cookbook/antigravity/example_agent/AGENTS.md": "# Bot\n\nRead the style guide.\n",
        "cookbook/antigravity/example_agent/skills/haiku/SKILL.md": NO_FRONT_MATTER,
    }
    assert findings(tmp_path, files, "GL607") == []


def test_skills_a_harness_loads_are_still_checked(tmp_path):
    skill_paths = [
        ".claude/skills/a/SKILL.md",
        "tools/bot/.agents/skills/b/SKILL.md",
        "skills/c/SKILL.md",
        "plugins/tools/skills/d/SKILL.md",
        "integrations/ext/skills/e/SKILL.md",
        "packages/lib/skills/f/SKILL.md",
        "integrations/claw/skills/g/SKILL.md",
        "internal/templates/skills/h/SKILL.md",
    ]
    files = {rel: NO_FRONT_MATTER for rel in skill_paths}
    files["integrations/ext/.codex-plugin/plugin.json"] = json.dumps({"name": "ext"})
    files["packages/lib/package.json"] = json.dumps({"name": "lib"})
    files["integrations/claw/openclaw.plugin.json"] = json.dumps({"id": "claw"})
    found = findings(tmp_path, files, "GL607")
    assert sorted(path for path, _, _ in found) == sorted(skill_paths)


# --- GL616: a reserved name in its owner's marketplace -------------------------------


def marketplace(name: str, owner: dict[str, str]) -> dict[str, str]:
    data = {"name": name, "owner": owner, "plugins": []}
    return {".claude-plugin/marketplace.json": json.dumps(data, indent=2)}


def test_anthropics_own_marketplace_may_use_a_reserved_name(tmp_path):
    owners = [
        {"name": "Anthropic", "email": "support@anthropic.com"},
        {"name": "Keith Lazuka", "email": "klazuka@anthropic.com"},
        {"name": "Skills team", "url": "https://github.com/anthropics/skills"},
    ]
    for index, owner in enumerate(owners):
        root = tmp_path / str(index)
        assert findings(root, marketplace("anthropic-agent-skills", owner), "GL616") == []


def test_a_reserved_name_in_anyone_elses_marketplace_is_reported(tmp_path):
    owners = [
        {"name": "Tools Team", "email": "tools@example.com"},
        {"name": "Tools Team", "email": "anthropic.com@example.com"},
        {"name": "Tools Team", "url": "https://anthropic.com.example.org/"},
        {"name": "Anthropic fan club"},
    ]
    for index, owner in enumerate(owners):
        root = tmp_path / str(index)
        found = findings(root, marketplace("claude-code-plugins", owner), "GL616")
        assert [line for _, line, _ in found] == [2], owner


def test_an_impersonating_name_is_reported_whoever_the_owner(tmp_path):
    found = findings(tmp_path, marketplace("anthropic-plugins-v2", {"name": "Anthropic"}), "GL616")
    assert [line for _, line, _ in found] == [2]


# --- GL601: a template asset's `{placeholders}` --------------------------------------

TEMPLATE_FRONT = (
    "---\nname: Quill\nsources:\n  - {planning_artifacts}/prds/quill/prd.md\n---\n\n# Quill\n"
)


def test_a_template_assets_placeholders_are_filled_in_before_reading(tmp_path):
    files = {
        "src/skills/ux/SKILL.md": "---\nname: ux\ndescription: Design the UX.\n---\n",
        "src/skills/ux/assets/example.md": TEMPLATE_FRONT,
        "templates/report/page.md": TEMPLATE_FRONT,
    }
    assert findings(tmp_path, files, "GL601") == []


def test_placeholders_elsewhere_and_other_errors_in_assets_stay_reported(tmp_path):
    broken = "---\nname: Quill\ndescription: [unclosed {x}\n---\n"
    files = {
        "docs/page.md": TEMPLATE_FRONT,
        "src/skills/ux/assets/broken.md": broken,
    }
    found = findings(tmp_path, files, "GL601")
    assert [path for path, _, _ in found] == ["docs/page.md", "src/skills/ux/assets/broken.md"]
