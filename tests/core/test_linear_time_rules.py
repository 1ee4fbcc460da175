"""Every rule costs linear time on any input: long paragraphs and long lines (#14, #28).

Each scenario is a file a group of rules applies to, grown in two shapes: many short
lines with no blank line between them (a long paragraph, a long list, a big JSON
file), and the same content on ONE line. Checking 4x the input must cost about 4x
(quadratic is 16x). Measured twice: the whole scenario from cold (parsing and what
the rules share, computed once per file), and each rule on its own on a file whose
shared parts are already computed, so one rule's quadratic part is not hidden under
the others. Times are CPU time with the garbage collector off, the best of several
tries, as a ratio within one run: never against a wall clock, and a neighbour's load
slows both sizes alike. Instruction counts (callgrind) of the same scenarios are in
docs/RELIABILITY.md. `test_every_rule_is_measured` holds the scenarios to the rule
index: a rule added later needs a scenario here.
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.rules.index import BY_CODE, ENGINE, RULES, load
from guidelint.sources import SourceFile

SMALL = 500  # items; LARGE is 4x
LINEAR_ENOUGH = 6.5  # linear is 4 (n log n about 4.9); quadratic 16
TOO_SMALL = 2e-3  # seconds: below this at 4x the input, a cost is too small to tell
NOT_MEASURABLE = {"GL108"}  # --live only: it asks running servers, no file input
# Still quadratic, each measured by scripts/linear_cost.py: (scenario, shape) -> where.
KNOWN_QUADRATIC = {
    ("missing paths", "one-line"): (
        "GL501 reads each reported path's whole line again (the quoted-utterance check, "
        "the word `upstream` before it, the list-item test): many missing paths on one line"
    ),
}


def prose(i: int) -> str:
    """One line of a guide holding what the Markdown rules read."""
    return (
        f"Call `mcp__srv{i % 7}__tool{i}` or `job_submit(gpu={i}, x=1)`, run `scripts/s{i}.py` "
        f"(see [doc](./d{i}.md#part-{i}), [here](#missing-{i}), <docs/a{i}.md>) and call "
        f"`tool{i}` with the `reviewer{i}` subagent; @docs/i{i}.md"
    )


def gotcha(i: int) -> str:
    return f"- **Alpha{i} beta{i} gamma{i}.** Body of lesson {i} (#{i}). fingerprint: {i:08x}"


def shared_gotcha(i: int) -> str:
    """Every headline shares one word: GL205 must not compare every pair (#28)."""
    return f"- **Always alpha{i} beta{i} gamma{i}.** Lesson {i} (#{i}). fingerprint: {i:08x}"


def rare_word_gotcha(i: int) -> str:
    """Headlines built from i's decimal digits: each word is shared by a tenth of the
    entries, none is rarer, and no two headlines repeat each other (three of four
    words in common score 0.75 < 0.8). GL205's worst case for its prefix filter (#28)."""
    places = ("north", "east", "south", "west")  # 10,000 headlines differ
    words = " ".join(f"{word}{(i // 10**place) % 10}" for place, word in enumerate(places))
    return f"- **{words.capitalize()}.** Lesson {i} (#{i}). fingerprint: {i:08x}"


def crowding_gotcha(i: int) -> str:
    """GL205's worst case under its limits: each headline's rarest word is in 30
    headlines, just under the 32 that make a word crowded, so every entry is compared
    with up to 29 earlier ones; the other three words (in 32-40 of every 150
    headlines) tell apart the 30 headlines of a group, which repeat none."""
    group = f"north{i // 30}"
    palette = f"east{i % 4} south{(i // 4) % 4} west{(i // 16) % 4}"  # i % 64: distinct
    return f"- **{group.capitalize()} {palette}.** Lesson {i} (#{i}). fingerprint: {i:08x}"


def server(i: int) -> tuple[str, dict]:
    spec = {"command": "npx", "args": ["-y", f"pkg{i}"], "env": {"TOKEN": f"${{T{i}}}"}}
    if i % 2:
        spec = {"url": f"http://h{i}.example.com/mcp?api_key=sk-{i:012d}"}
    return f"s{i}", spec


def hook(i: int) -> dict:
    action = {"type": "command", "command": f"scripts/h{i}.sh", "timeout": i}
    call = {"type": "mcp_tool", "server": f"s{i % 7}", "tool": f"t{i}"}  # GL623 resolves it
    return {"matcher": f"Tool{i}|mcp__srv__t{i}", "hooks": [action, call]}


def markdown(rel: str, head: str, item: Callable[[int], str]) -> Callable[[int, str], str]:
    def make(n: int, shape: str) -> str:
        sep = {"lines": "\n", "entries": "\n\n"}.get(shape, " ")  # entries: scripts/linear_cost.py
        return head + sep.join(item(i) for i in range(n)) + "\n"

    return make


def front_matter(n: int, shape: str) -> str:
    tools = ", ".join(f"mcp__srv__t{i}" for i in range(n))
    if shape == "lines":
        keys = "".join(f"key{i}: value {i}\n" for i in range(n))
        return f"---\nname: a\n{keys}tools: Read\n---\n" + "x\n" * n
    head = f"---\nname: a\ndescription: d\ntools: {tools}\ndisallowedTools: {tools}\n---\n"
    return head + prose(0) * (n // 4) + "\n"


def fence(n: int, shape: str) -> str:
    if shape == "lines":
        body = "".join(f"x{i} = f{i}(1, 2)  # `{i}`\n" for i in range(n))
    else:
        body = "x = [" + ", ".join(f"f{i}(1)" for i in range(n)) + "]\n"
    return f"# Guide\n\n```python {{example=good}}\n{body}```\n"


def nested_fences(n: int, shape: str) -> str:
    """Fences closed early by a fence nested inside them (GL503), or one long line."""
    if shape == "lines":
        body = "".join(f"```markdown\nShow {i}:\n\n```python\nrun({i})\n```\n\n" for i in range(n))
    else:
        body = "```text\n" + " ".join(f"```x{i}" for i in range(n)) + "\n```\n"
    return "# Guide\n\n" + body


def mcp_json(n: int, shape: str) -> str:
    data = {"mcpServers": dict(server(i) for i in range(n))}
    return json.dumps(data, indent=2 if shape == "lines" else None)


def settings_json(n: int, shape: str) -> str:
    allow = [f"mcp__srv{i}__t{i}" for i in range(n)] + [f"Bash(x{i})" for i in range(n)]
    allow += [f"Write(/d{i}/**)" for i in range(n)]  # GL620 looks each folder up
    data = {"permissions": {"allow": allow}, "hooks": {"PreToolUse": [hook(i) for i in range(n)]}}
    data.update((f"setting{i}", i) for i in range(n))  # GL621 spells each key
    return json.dumps(data, indent=2 if shape == "lines" else None)


def plugin_json(n: int, shape: str) -> str:
    """A manifest naming many component files, none of them present (GL615's worst case:
    a did-you-mean for each), and many inline servers."""
    data = {
        "name": "p",
        "version": "1.0.0",
        "commands": [f"./commands/c{i}.md" for i in range(n)],
        "agents": [f"./agent/a{i}.md" for i in range(n)],
        "mcpServers": dict(server(i) for i in range(n)),
    }
    return json.dumps(data, indent=2 if shape == "lines" else None)


def marketplace_json(n: int, shape: str) -> str:
    """A marketplace listing one name many times, from folders that do not exist."""
    plugins = [{"name": f"p{i % 3}", "source": f"./plugins/p{i}"} for i in range(n)]
    data = {"name": "m", "owner": {"name": "o"}, "plugins": plugins}
    return json.dumps(data, indent=2 if shape == "lines" else None)


def driver(n: int, shape: str) -> str:
    head = "from transformers import Trainer, TrainingArguments\n\nSMOKE_MAX_ROWS = 30\n\n\n"
    call = "TrainingArguments(output_dir=o, per_device_train_batch_size=4, save_steps=1)"
    if shape == "lines":
        body = "".join(f"    a{i} = {call}\n" for i in range(n))
    else:
        body = "    a = [" + ", ".join(call for _ in range(n)) + "]\n"
    tail = "    trainer = Trainer(args=a0, train_dataset=rows[:SMOKE_MAX_ROWS])\n"
    return head + "def smoke(rows, o):\n" + body + tail


TREE_DEPTH = 32  # levels of the real folder chain a drawn tree walks down (`tree/a/a/...`)


def file_tree(n: int, shape: str) -> str:
    """A drawn file tree (GL504) that walks down a real chain of folders `a/`, each
    level holding `.keep` and `README.md` and naming a missing `fN.py` (reported),
    again and again; or, on one line, an entry with a long comment."""
    if shape == "one-line":
        words = " ".join(f"w{i}" for i in range(n))
        body = f"├── a/  # {words}\n├── .keep\n├── README.md\n└── f0.py\n"
    else:
        lines = []
        for i in range(n):
            depth = (i // 4) % TREE_DEPTH
            name = ("a/", ".keep", "README.md", f"f{i}.py")[i % 4]
            lines.append("│   " * (depth + (i % 4 != 0)) + "├── " + name)
        body = ("\n\n" if shape == "entries" else "\n").join(lines) + "\n"
    return f"# Layout\n\n```\ntree/\n{body}```\n"


# Prose no GL501 signal reads (no "upstream", "clone", "memory", "build"): a paragraph's bulk.
LOREM = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
    "incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud "
    "exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. "
)


def missing_paths(n: int, shape: str) -> str:
    """A page of many distinct missing paths (`tree/` exists, so each is reported), each
    looked for earlier in the page under another repository. `entries`: paragraphs of
    about 1.9 KB, so that 150 of them are past GL501's 64 KB window (`EARLIER_REACH`)
    and a lookup from the page's start would grow with it; `lines` and `one-line`: the
    paths alone, one paragraph or one line (what GL501 reads per paragraph or line)."""
    if shape == "entries":
        return "# Guide\n\n" + "".join(
            f"{LOREM * 8}See `tree/missing/part{i}.md` for part {i}.\n\n" for i in range(n)
        )
    sep = "\n" if shape == "lines" else " "
    return "# Guide\n\n" + sep.join(f"See `tree/missing/part{i}.md`." for i in range(n)) + "\n"


GOTCHAS_HEAD = "# Gotchas\n\n## LESSONS index\n\n- [Gone](#gone)\n\n## Lessons\n\n"
SCENARIOS: dict[str, tuple[str, Callable[[int, str], str], tuple[str, ...]]] = {
    "guide": (
        "docs/guide.md",
        markdown("docs/guide.md", "# Guide\n\n", prose),
        ("GL101", "GL102", "GL103", "GL104", "GL105", "GL501", "GL502"),
    ),
    "fenced": ("docs/run.md", fence, ("GL401", "GL402", "GL403", "GL501", "GL503")),
    "nested fences": ("docs/nested.md", nested_fences, ("GL401", "GL503")),
    "file tree": ("docs/layout.md", file_tree, ("GL504",)),
    "gotchas": (
        ".claude/rules/gotchas.md",
        markdown(".claude/rules/gotchas.md", GOTCHAS_HEAD, gotcha),
        ("GL201", "GL202", "GL203", "GL204", "GL205", "GL206", "GL207", "GL208"),
    ),
    "gotchas sharing a word": (
        ".claude/rules/gotchas.md",
        markdown(".claude/rules/gotchas.md", GOTCHAS_HEAD, shared_gotcha),
        ("GL205",),
    ),
    "gotchas sharing their rarest words": (
        ".claude/rules/gotchas.md",
        markdown(".claude/rules/gotchas.md", GOTCHAS_HEAD, rare_word_gotcha),
        ("GL205",),
    ),
    "gotchas crowding the limit": (
        ".claude/rules/gotchas.md",
        markdown(".claude/rules/gotchas.md", GOTCHAS_HEAD, crowding_gotcha),
        ("GL205",),
    ),
    "agent": (
        ".claude/agents/a.md",
        front_matter,
        ("GL107", "GL601", "GL606", "GL607", "GL611", "GL613", "GL622", "GL501", "GL502"),
    ),
    "skill": ("skills/x/SKILL.md", front_matter, ("GL601", "GL607", "GL608", "GL611", "GL622")),
    "AGENTS.md": ("AGENTS.md", markdown("AGENTS.md", "# Agents\n\n", prose), ("GL502", "GL610")),
    "CLAUDE.md": ("CLAUDE.md", markdown("CLAUDE.md", "# Claude\n\n", prose), ("GL502", "GL612")),
    "mcp.json": (
        ".mcp.json",
        mcp_json,
        ("GL109", "GL110", "GL605", "GL609", "GL614", "GL617", "GL618"),
    ),
    "plugin": (
        "plugins/p/.claude-plugin/plugin.json",
        plugin_json,
        ("GL604", "GL605", "GL609", "GL615"),
    ),
    "marketplace": (".claude-plugin/marketplace.json", marketplace_json, ("GL616",)),
    "settings": (
        ".claude/settings.json",
        settings_json,
        ("GL106", "GL602", "GL603", "GL604", "GL620", "GL621", "GL623"),
    ),
    "driver": ("scripts/train.py", driver, ("GL301", "GL302", "GL303", "GL304")),
    "missing paths": ("docs/missing.md", missing_paths, ("GL501",)),
}


def best_seconds(run: Callable[[], object], tries: int = 3) -> float:
    """The least CPU time of `tries` runs, the garbage collector off meanwhile (a
    collection's cost depends on everything alive, not on this input alone)."""
    best = float("inf")
    for _ in range(tries):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def check_seconds(engine: Engine, root: Path, rel: str, text: str) -> float:
    """The whole scenario from cold: a fresh file each time, parsed and checked."""
    return best_seconds(
        lambda: engine.check_source(SourceFile(path=root / rel, rel=rel, text=text))
    )


def rule_seconds(engine: Engine, root: Path, rel: str, text: str) -> dict[str, float]:
    """Each rule alone on one file whose shared parts (parse, derived data) are
    computed already: what the rule itself costs."""
    file = SourceFile(path=root / rel, rel=rel, text=text)
    engine.check_source(file)  # computes what the rules share, once
    project = engine.project
    return {
        rule.code: best_seconds(lambda rule=rule: list(rule.check(file, project)), tries=2)
        for rule in engine.rules
        if file.kind in rule.file_kinds and rule.applies_to(file, project)
    }


def engine_for(root: Path, codes: tuple[str, ...]) -> Engine:
    config = Config(select=list(codes))
    return Engine(Project(root, config), build_selection(config))


def make_root(path: Path) -> Path:
    """The project the scenarios are checked in (also scripts/linear_cost.py's)."""
    (path / "scripts").mkdir()
    chain = path / "tree" / "/".join(["a"] * TREE_DEPTH)  # the file tree's folders
    chain.mkdir(parents=True)
    for level in [chain, *chain.parents][: TREE_DEPTH + 1]:
        (level / ".keep").touch()
        (level / "README.md").touch()
    servers = dict(server(i) for i in range(7))  # the guide's `mcp__srvN__...` names
    (path / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    return path


@pytest.fixture
def root(tmp_path) -> Path:
    return make_root(tmp_path)


def test_every_rule_is_measured():
    measured = {code for _, _, codes in SCENARIOS.values() for code in codes}
    every = {entry.code for entry in RULES if entry.kinds != ENGINE} - NOT_MEASURABLE
    assert every - measured == set()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_each_scenario_reaches_its_rules(root, name):
    """The scenarios measure the rules they name: each applies to its file."""
    rel, make, codes = SCENARIOS[name]
    project = Project(root, Config(select=list(codes)))
    file = SourceFile(path=root / rel, rel=rel, text=make(10, "lines"))
    for code in codes:
        rule = load(BY_CODE[code])()
        assert file.kind in rule.file_kinds and rule.applies_to(file, project), (name, code)


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["lines", "one-line"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_rule_grows_linearly(root, name, shape, request):
    if (name, shape) in KNOWN_QUADRATIC:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_QUADRATIC[name, shape], strict=True))
    rel, make, codes = SCENARIOS[name]
    engine = engine_for(root, codes)
    small_text, large_text = make(SMALL, shape), make(4 * SMALL, shape)
    worst: dict[str, float] = {}
    for _ in range(2):  # a neighbour's burst can inflate one try; quadratic fails both
        ratios = {
            "all, from cold": _ratio(
                check_seconds(engine, root, rel, small_text),
                check_seconds(engine, root, rel, large_text),
            )
        }
        small = rule_seconds(engine, root, rel, small_text)
        large = rule_seconds(engine, root, rel, large_text)
        ratios.update({code: _ratio(small[code], large[code]) for code in large})
        worst = {k: min(v, worst.get(k, v)) for k, v in ratios.items()}
        if max(worst.values()) < LINEAR_ENOUGH:
            break
    assert set(worst) - {"all, from cold"} == set(codes), "a rule of the scenario did not run"
    slow = {k: round(v, 1) for k, v in worst.items() if v >= LINEAR_ENOUGH}
    assert not slow, f"{name} ({shape}): {SMALL} -> {4 * SMALL} items cost x{slow}"


def _ratio(small: float, large: float) -> float:
    """How much more the 4x input cost; 1 when the larger is too small to tell."""
    return large / max(small, 1e-9) if large >= TOO_SMALL else 1.0


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["text", "github", "sarif", "json"])
def test_reports_grow_linearly_with_findings_on_one_line(root, fmt):
    """Each finding's excerpt and UTF-16 column read a bounded part of its line (an
    emoji on it, so the UTF-16 columns count), not the line once per finding."""
    from guidelint.reporters import Report, renderer

    render = renderer(fmt)
    engine = engine_for(root, ("GL110", "GL605"))

    def seconds(n: int) -> float:
        text = mcp_json(n, "one-line").replace('"npx"', '"npx \U0001f600"')
        (root / ".mcp.json").write_text(text, encoding="utf-8")
        findings = engine.check_source(
            SourceFile(path=root / ".mcp.json", rel=".mcp.json", text=text)
        )
        best = float("inf")
        for _ in range(3):
            report = Report(findings=findings, root=root, files_checked=1)
            start = time.process_time()
            render(report)
            best = min(best, time.process_time() - start)
        return best

    ratios = []
    for _ in range(2):
        ratios.append(seconds(4 * SMALL) / max(seconds(SMALL), 1e-4))
        if ratios[-1] < LINEAR_ENOUGH:
            break
    assert min(ratios) < LINEAR_ENOUGH, f"{fmt}: {SMALL} -> {4 * SMALL} servers: {ratios}"


def test_gl205_compares_headlines_sharing_their_rarest_words_linearly(monkeypatch):
    """4x the entries, 4x the headline comparisons (every pair was 16x), counted, not
    timed: on `crowding_gotcha`, GL205's worst case under its limits (each entry is
    compared with up to 29 others from the first group on), and on `rare_word_gotcha`,
    where every word is crowded past 330 entries (then no entry is compared)."""
    from guidelint.gotchas.headlines import headline_tokens, similarity
    from guidelint.rules import gl205_duplicate_gotcha

    compared: list[int] = []
    monkeypatch.setattr(
        gl205_duplicate_gotcha, "similarity", lambda a, b: compared.append(1) or similarity(a, b)
    )

    def comparisons(make: Callable[[int], str], n: int) -> int:
        compared.clear()
        tokens = [headline_tokens(make(i).split("**")[1]) for i in range(n)]
        repeats = gl205_duplicate_gotcha.Repeats(tokens, 0.8)
        assert [repeats.first_repeat(i) for i in range(n)] == [None] * n
        return len(compared)

    for make in (crowding_gotcha, rare_word_gotcha):
        small, large = comparisons(make, SMALL), comparisons(make, 4 * SMALL)
        assert large <= 4.1 * small, f"{make.__name__}: {SMALL} -> {4 * SMALL}: {small} -> {large}"
    for n in (SMALL, 4 * SMALL):  # each full group of 30 costs its 435 pairs, no more
        assert comparisons(crowding_gotcha, n) == n // 30 * sum(range(30)) + sum(range(n % 30))
