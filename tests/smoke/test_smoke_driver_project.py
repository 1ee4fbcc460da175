"""GL301-GL304 over drivers that read the rest of their repository: sibling modules,
committed config files (YAML, JSON, TOML, HfArgumentParser, Hydra), every assignment
form, Lightning and Accelerate. Each driver marks its expected findings inline, as in
tests/smoke/test_smoke_driver_corpus.py: `# expect: GL301(n=1) "part of the message"`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from tests.smoke.marks import assert_findings_match_marks

PROJECT = Path(__file__).parents[1] / "fixtures" / "smoke" / "project"
DRIVERS = sorted((PROJECT / "scripts").glob("*.py"))
HELPERS = {"smoke_settings"}  # imported by drivers, no gate of their own


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("smoke_project")
    shutil.copytree(PROJECT, root, dirs_exist_ok=True)
    outside = tmp_path_factory.mktemp("outside")
    (outside / "smoke.yaml").write_text("num_train_epochs: 2\nper_device_train_batch_size: 4\n")
    os.symlink(outside / "smoke.yaml", root / "configs" / "linked_out.yaml")
    return root


def lint(root: Path, rel: str):
    project = Project(root, Config(select=["GL3"]))
    return Engine(project, build_selection(project.config)).check_file(rel)


def test_project_corpus_is_large_and_mixed():
    drivers = [p for p in DRIVERS if p.stem not in HELPERS]
    assert len(drivers) >= 20
    bad = {p.stem.removesuffix("_bad") for p in drivers if p.stem.endswith("_bad")}
    fixed = {p.stem.removesuffix("_fixed") for p in drivers if p.stem.endswith("_fixed")}
    assert len(bad & fixed) >= 8


@pytest.mark.parametrize("path", DRIVERS, ids=[p.stem for p in DRIVERS])
def test_project_driver_findings_match_marks(path, project_copy):
    findings = lint(project_copy, f"scripts/{path.name}")
    assert_findings_match_marks(findings, path.read_text())


def test_no_correct_driver_gets_gl304_for_an_assignment_form(project_copy):
    for path in DRIVERS:
        if path.stem.endswith("_fixed"):
            assert lint(project_copy, f"scripts/{path.name}") == [], path.name


HOSTILE_DRIVER = """import yaml
from transformers import Trainer, TrainingArguments
cfg = yaml.safe_load(open("configs/{name}"))
args = TrainingArguments(output_dir="out", per_device_train_batch_size=4,
                         num_train_epochs=cfg["epochs"], save_steps=1)
Trainer(model=None, args=args, train_dataset=rows[:30]).train()
assert len(list(OUT.glob("checkpoint-*"))) >= 2
"""
LAUGHS = (
    "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)
    )
    + "epochs: 1\n"
)


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("laughs.yaml", LAUGHS, "more than 20000 values"),
        ("broken.yaml", "epochs: [1, 2\n", "cannot be parsed"),
        (
            "deep.yaml",
            "a: " + "[" * 5000 + "]" * 5000 + "\nepochs: 1\n",
            "nests more than 100 levels",
        ),
        ("list.yaml", "- 1\n- 2\n", "no entry 'epochs'"),
    ],
)
def test_hostile_config_files_are_one_clear_gl304(tmp_path, name, content, reason):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / name).write_text(content)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "drive.py").write_text(HOSTILE_DRIVER.format(name=name))
    [finding] = lint(tmp_path, "scripts/drive.py")
    assert finding.code == "GL304" and reason in finding.message, finding.message
    assert "\n" not in finding.message


def test_circular_and_broken_imports_are_unfollowed_not_a_crash(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "a_settings.py").write_text("from b_settings import BATCH\n")
    (scripts / "b_settings.py").write_text("from a_settings import BATCH\n")
    (scripts / "bad_settings.py").write_text("BATCH = (\n")
    driver = HOSTILE_DRIVER.replace('cfg["epochs"]', "1").replace(
        "per_device_train_batch_size=4", "per_device_train_batch_size=BATCH"
    )
    for module, reason in (
        ("a_settings", "too many modules"),
        ("bad_settings", "not valid Python"),
    ):
        (scripts / "drive.py").write_text(
            f"from {module} import BATCH\n" + driver.format(name="x.yaml")
        )
        [finding] = lint(tmp_path, "scripts/drive.py")
        assert finding.code == "GL304" and reason in finding.message, finding.message


def test_a_config_value_changes_the_verdict_and_the_cache_sees_the_file(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "drive.py").write_text(HOSTILE_DRIVER.format(name="smoke.yaml"))
    (tmp_path / "configs" / "smoke.yaml").write_text("epochs: 1\n")
    assert [f.code for f in lint(tmp_path, "scripts/drive.py")] == ["GL301"]
    (tmp_path / "configs" / "smoke.yaml").write_text("epochs: 2\n")
    assert lint(tmp_path, "scripts/drive.py") == []
    engine = Engine(
        Project(tmp_path, Config(select=["GL3"])), build_selection(Config(select=["GL3"]))
    )
    engine.record_lookups()
    engine.check_file("scripts/drive.py")
    assert engine.lookups is not None
    looked_up = {getattr(key, "path", key) for key in engine.lookups["scripts/drive.py"]}
    assert "configs/smoke.yaml" in looked_up


PATHS = [
    '"configs/smoke.yaml"',
    'Path("configs/smoke.yaml")',
    'Path("configs") / "smoke.yaml"',
    'Path(__file__).parent.parent / "configs" / "smoke.yaml"',
    'os.path.join(os.path.dirname(__file__), "..", "configs", "smoke.yaml")',
    'Path("configs/smoke.yaml").resolve()',
]
LOADS = [
    "yaml.safe_load(open({}))",
    "yaml.safe_load(Path({}).read_text())",
    "yaml.load(Path({}).open('r'))",
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("load", LOADS)
def test_every_way_of_naming_the_config_file_reads_it(tmp_path, path, load):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "smoke.yaml").write_text("epochs: 1\n")
    (tmp_path / "scripts").mkdir()
    driver = HOSTILE_DRIVER.format(name="smoke.yaml").replace(
        'yaml.safe_load(open("configs/smoke.yaml"))', load.format(path)
    )
    (tmp_path / "scripts" / "drive.py").write_text("import os\nfrom pathlib import Path\n" + driver)
    [finding] = lint(tmp_path, "scripts/drive.py")
    assert finding.code == "GL301" and "epochs=1 (configs/smoke.yaml:1)" in finding.message


def test_json_that_yaml_reads_otherwise_keeps_its_lines():
    from guidelint.smoke.driver_configs import parse_config

    tree = parse_config(
        '{\n\t"train": {\n\t\t"epochs": 1,\n\t\t"lr": 1e-5\n\t},\n\t"floor": 2\n}\n', "c.json"
    )
    train = tree.get("train")
    assert (train.get("epochs").line, train.get("lr").value, tree.get("floor").line) == (3, 1e-5, 6)


def test_toml_values_have_their_lines():
    from guidelint.smoke.driver_configs import parse_config

    tree = parse_config("[smoke]\nbatch = 8\n\n[smoke.save]\nsteps = 2\n", "c.toml")
    smoke = tree.get("smoke")
    assert (smoke.get("batch").line, smoke.get("save").get("steps").line) == (2, 5)


def _origin(files: dict[str, str]):
    from guidelint.smoke.driver_facts import Origin

    return Origin("scripts/train.py", files.get, lambda rel: True, lambda rel: rel in files)


@pytest.mark.parametrize(
    ("defaults", "epochs", "where"),
    [
        ("[{trainer: smoke}]", 5, ("conf/config.yaml", 3)),  # _self_ implied last: own wins
        ("[_self_, {trainer: smoke}]", 1, ("conf/trainer/smoke.yaml", 1)),
        ("[{trainer: smoke}, _self_]", 5, ("conf/config.yaml", 3)),
    ],
)
def test_hydra_defaults_follow_self_order(defaults, epochs, where):
    from guidelint.smoke.driver_configs import hydra_tree

    files = {
        "conf/config.yaml": f"defaults: {defaults}\ntrainer:\n  max_epochs: 5\n",
        "conf/trainer/smoke.yaml": "max_epochs: 1\naccumulate_grad_batches: 4\n",
    }
    tree = hydra_tree(_origin(files), "../conf", "config", [("trainer.max_steps=2", 9)])
    trainer = tree.get("trainer")
    found = trainer.get("max_epochs")
    assert (found.value, (found.file, found.line)) == (epochs, where)
    assert trainer.get("accumulate_grad_batches").value == 4
    steps = trainer.get("max_steps")
    assert (steps.value, steps.file, steps.line) == (2, "scripts/train.py", 9)


def test_a_gate_without_a_floor_is_not_a_gate_and_messages_are_one_line(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "drive.py").write_text(
        "from transformers import TrainingArguments\n"
        "EPOCHS = load(\n    'a very long call',\n    spread='over lines',\n)\n"
        "args = TrainingArguments(per_device_train_batch_size=4, num_train_epochs=EPOCHS)\n"
        "if (args.save_steps * 100) % (args.eval_steps * 100) != 0:\n    raise ValueError('x')\n"
        "assert trainer.state.global_step >= 2\n"
    )
    [finding] = lint(tmp_path, "scripts/drive.py")
    assert (finding.code, finding.line) == ("GL304", 9)
    assert "\n" not in finding.message and "load( 'a very long call'" in finding.message


def test_a_check_on_a_setting_is_not_a_gate(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "drive.py").write_text(
        "from transformers import TrainingArguments\n"
        "gradient_accumulation_steps = 2 * 2\n"
        "if gradient_accumulation_steps != 1:\n    raise ValueError('one plugin only')\n"
    )
    assert lint(tmp_path, "scripts/drive.py") == []


def test_a_missing_omegaconf_file_is_named_in_gl304(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "drive.py").write_text(
        "import lightning as L\nfrom omegaconf import OmegaConf\n"
        "from torch.utils.data import DataLoader\n"
        "cfg = OmegaConf.load('conf/missing.yaml')\n"
        "loader = DataLoader(rows[:30], batch_size=4)\n"
        "trainer = L.Trainer(max_epochs=cfg.trainer.max_epochs)\n"
        "trainer.fit(model, loader)\n"
        "assert trainer.global_step >= 2\n"
    )
    [finding] = lint(tmp_path, "scripts/drive.py")
    assert finding.code == "GL304"
    assert (
        "`conf/missing.yaml` is read at run time (no such file in the project)" in finding.message
    )


@pytest.mark.parametrize(
    ("expression", "epochs"),
    [
        ('cfg.get("epochs", 3)', "epochs=1 (configs/smoke.yaml:1)"),
        ('cfg.get("missing", 1)', "epochs=1 (line 5)"),
    ],
)
def test_get_with_a_default_reads_the_file_or_the_default(tmp_path, expression, epochs):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "smoke.yaml").write_text("epochs: 1\n")
    (tmp_path / "scripts").mkdir()
    driver = HOSTILE_DRIVER.format(name="smoke.yaml").replace('cfg["epochs"]', expression)
    (tmp_path / "scripts" / "drive.py").write_text(driver)
    [finding] = lint(tmp_path, "scripts/drive.py")
    assert finding.code == "GL301" and epochs in finding.message, finding.message
