"""Committed config files and sibling modules a driver reads, followed inside the project only.

A driver that loads its geometry from `yaml.safe_load(open("smoke.yaml"))`, JSON,
TOML, `HfArgumentParser(...).parse_json_file(...)`, `OmegaConf.load(...)` or a
Hydra `config.yaml` (with literal overrides) is judged on the file's values, each
with its file and line. A path is resolved against the project root (and the
driver's folder); one that leads outside the root, or through a symlink out of it,
is never read: the value is unfollowed, with that reason (GL304).
"""

from __future__ import annotations

import copy
import functools
import json
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from guidelint.smoke.driver_facts import Origin

LOADERS = ("safe_load", "load", "loads", "full_load")
FILE_PARSERS = ("parse_json_file", "parse_yaml_file")
MAX_CONFIG_CHARS = 1_000_000
# TrainingArguments' defaults (transformers 5.x), for HfArgumentParser files that omit a key.
TRAINING_DEFAULTS: dict[str, Any] = {
    "per_device_train_batch_size": 8,
    "gradient_accumulation_steps": 1,
    "num_train_epochs": 3.0,
    "max_steps": -1,
    "save_strategy": "steps",
    "save_steps": 500,
    "save_total_limit": None,
    "dataloader_drop_last": False,
}


class ConfigError(Exception):
    """A config file the check does not read, and why."""


@dataclass(frozen=True)
class ConfigValue:
    """A value of a config file with where it is written."""

    value: Any
    file: str
    line: int | None


@dataclass
class ConfigTree:
    """A mapping (or list) read from a config file; `lines` maps key paths to lines."""

    data: Any
    file: str
    lines: dict[tuple, tuple[str, int]] = field(default_factory=dict)
    path: tuple = ()
    defaults: dict[str, Any] = field(default_factory=dict)  # for keys the file omits

    def get(self, key: object) -> ConfigTree | ConfigValue | None:
        data = self.data
        if isinstance(data, dict) and key in data:
            value = data[key]
        elif isinstance(data, list) and isinstance(key, int) and -len(data) <= key < len(data):
            value = data[key]
        elif isinstance(key, str) and key in self.defaults:
            return ConfigValue(self.defaults[key], f"the default of TrainingArguments.{key}", None)
        else:
            return None
        path = (*self.path, key)
        if isinstance(value, dict | list):
            return ConfigTree(value, self.file, self.lines, path)
        file, line = self.lines.get(path, (self.file, None))
        return ConfigValue(value, file, line)

    def keys(self) -> list[str]:
        return [k for k in self.data if isinstance(k, str)] if isinstance(self.data, dict) else []


def parse_config(text: str, rel: str) -> ConfigTree:
    """A YAML, JSON or TOML file's values with the line of each key."""
    suffix = posixpath.splitext(rel)[1].lower()
    if len(text) > MAX_CONFIG_CHARS:
        raise ConfigError(f"{rel} is larger than {MAX_CONFIG_CHARS} characters")
    if _bracket_depth(text) > MAX_NESTING:
        raise ConfigError(f"{rel} nests more than {MAX_NESTING} levels deep")
    try:
        if suffix == ".toml":
            return _toml(text, rel)
        if suffix == ".json":
            return _json(text, rel)
        return _yaml(text, rel)
    except ConfigError:
        raise
    except Exception as err:  # a parser's own error: one line, never a traceback
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise ConfigError(f"{rel} cannot be parsed ({first})") from None


MAX_CONFIG_NODES = 20_000  # aliases expand: a "billion laughs" file stops here


MAX_NESTING = 100


def _json(text: str, rel: str) -> ConfigTree:
    """JSON's values; the lines from YAML's composer when it reads the file the same (JSON
    is nearly YAML), else from where each key is first written below its parent's."""
    data = json.loads(text)
    try:
        tree = _yaml(text, rel)
    except Exception:  # tabs, or a construct YAML 1.1 reads otherwise (1e-5)
        tree = None
    if tree is not None and tree.data == data:
        return tree
    lines: dict[tuple, tuple[str, int]] = {}
    _json_lines(data, (), 0, text.splitlines(), rel, lines)
    return ConfigTree(data, rel, lines)


def _json_lines(data: Any, path: tuple, start: int, text: list[str], rel: str, lines: dict) -> None:
    if not isinstance(data, dict) or len(lines) > MAX_CONFIG_NODES:
        return
    for key, value in data.items():
        quoted = json.dumps(key)
        at = next((i for i in range(start, len(text)) if quoted in text[i]), None)
        if at is None:
            continue
        lines[(*path, key)] = (rel, at + 1)
        _json_lines(value, (*path, key), at, text, rel, lines)


def _bracket_depth(text: str) -> int:
    """How deep `[` and `{` nest (strings aside, roughly): the parsers recurse per level."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(depth - 1, 0)
    return deepest


def _yaml(text: str, rel: str) -> ConfigTree:
    import yaml

    node = yaml.compose(text, Loader=yaml.SafeLoader)
    lines: dict[tuple, tuple[str, int]] = {}
    data = _from_node(node, (), rel, lines) if node is not None else {}
    return ConfigTree(data, rel, lines)


def _from_node(node: Any, path: tuple, rel: str, lines: dict[tuple, tuple[str, int]]) -> Any:
    import yaml

    if len(lines) >= MAX_CONFIG_NODES or len(path) > 100:
        raise ConfigError(f"{rel} holds more than {MAX_CONFIG_NODES} values or nests too deeply")
    lines[path] = (rel, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node)
            result[key] = _from_node(value_node, (*path, key), rel, lines)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_from_node(item, (*path, i), rel, lines) for i, item in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: Any) -> Any:
    import yaml

    if not isinstance(node, yaml.ScalarNode):
        raise ConfigError("a key that is not a plain value")
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def _toml(text: str, rel: str) -> ConfigTree:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    data = tomllib.loads(text)
    lines: dict[tuple, tuple[str, int]] = {}
    table: tuple = ()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("[") and not line.startswith("[["):
            table = tuple(p.strip().strip("\"'") for p in line.strip("[]").split("."))
            lines[table] = (rel, number)
        elif "=" in line and not line.startswith("#"):
            key = tuple(p.strip().strip("\"'") for p in line.split("=", 1)[0].split("."))
            lines[(*table, *key)] = (rel, number)
    return ConfigTree(data, rel, lines)


# -- paths: a driver's expression for a file, resolved inside the project ---------------


class PathValue:
    """A path as the driver writes it: anchored (relative to the project root, as a path
    built from `__file__` is), or relative to the working directory (tried at the project
    root, then beside the driver)."""

    def __init__(self, text: str, anchored: bool) -> None:
        self.text, self.anchored = text, anchored


def resolve(origin: Origin, path: PathValue) -> str:
    """The file's path relative to the root; ConfigError when it is not read, with why."""
    if posixpath.isabs(path.text):
        raise ConfigError(f"`{path.text}` is an absolute path, outside what the check reads")
    folder = posixpath.dirname(origin.rel)
    candidates = [path.text] if path.anchored else [path.text, posixpath.join(folder, path.text)]
    reason = ""
    for candidate in dict.fromkeys(posixpath.normpath(c) for c in candidates):
        if candidate == ".." or candidate.startswith("../"):
            reason = reason or f"`{path.text}` escapes the project root (not read)"
            continue
        if not origin.contains(candidate):
            reason = reason or f"`{candidate}` is a symlink out of the project root (not read)"
            continue
        if origin.exists(candidate):
            return candidate
    raise ConfigError(reason or f"`{path.text}` is read at run time (no such file in the project)")


CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml")


def load_tree(origin: Origin | None, path: PathValue) -> ConfigTree:
    if origin is None:
        raise ConfigError(f"`{path.text}` is read at run time")
    if not path.text.lower().endswith(CONFIG_SUFFIXES):
        raise ConfigError(f"`{path.text}` is read at run time (not a YAML, JSON or TOML file)")
    rel = resolve(origin, path)
    text = origin.read(rel)
    if text is None:
        raise ConfigError(f"`{rel}` cannot be read")
    parsed = _parsed(text, rel)
    if isinstance(parsed, str):
        raise ConfigError(parsed)
    return copy.deepcopy(parsed)  # a caller may add defaults or overrides to its copy


@functools.lru_cache(maxsize=32)
def _parsed(text: str, rel: str) -> ConfigTree | str:
    """A file parsed once per run however many values a driver reads from it (or why not)."""
    try:
        return parse_config(text, rel)
    except ConfigError as err:
        return str(err)


def hydra_tree(
    origin: Origin | None,
    config_path: str | None,
    config_name: str,
    overrides: list[tuple[str, int | None]],
) -> ConfigTree:
    """A Hydra config: `config_path/config_name.yaml` beside the driver, its defaults list
    composed (`- trainer: smoke` reads `trainer/smoke.yaml` into `trainer`; the primary
    config's own values come last unless `_self_` says otherwise), then literal
    `key.sub=value` overrides (each with its line in the driver)."""
    folder = posixpath.join(posixpath.dirname(origin.rel) if origin else "", config_path or ".")
    tree = _hydra_file(origin, folder, config_name)
    tree = _compose_defaults(origin, folder, tree)
    for override, line in overrides:
        if override.split("=", 1)[0].lstrip("+") in _groups(tree):
            raise ConfigError(f"the override `{override}` picks a config group (not composed)")
        _override(tree, override, line, origin.rel if origin else "")
    return tree


def _hydra_file(origin: Origin | None, folder: str, name: str) -> ConfigTree:
    name = name if name.endswith((".yaml", ".yml")) else f"{name}.yaml"
    return load_tree(origin, PathValue(posixpath.join(folder, name), anchored=True))


def _groups(tree: ConfigTree) -> set[str]:
    return set(getattr(tree, "hydra_groups", set()))


def _compose_defaults(origin: Origin | None, folder: str, tree: ConfigTree) -> ConfigTree:
    if not isinstance(tree.data, dict) or "defaults" not in tree.data:
        return tree
    defaults = tree.data.pop("defaults")
    if not isinstance(defaults, list):
        raise ConfigError(f"{tree.file}: a defaults list that is not a list")
    if "_self_" not in defaults:
        defaults = [*defaults, "_self_"]  # Hydra 1.1+: the primary config's values win
    own = copy.deepcopy(tree)
    result = ConfigTree({}, tree.file, {})
    groups: set[str] = set()
    for entry in defaults:
        if entry == "_self_":
            part = own
        elif isinstance(entry, dict) and len(entry) == 1:
            group, option = next(iter(entry.items()))
            group = str(group).removeprefix("override ").strip()
            if option is None:
                continue
            if not isinstance(option, str) or group.startswith(("optional ", "/")):
                raise ConfigError(f"{tree.file}: the defaults entry {entry} is not composed")
            loaded = _hydra_file(origin, posixpath.join(folder, group), option)
            if isinstance(loaded.data, dict) and "defaults" in loaded.data:
                raise ConfigError(f"{loaded.file}: a nested defaults list is not composed")
            part = _nested(loaded, tuple(group.split("/")))
            groups.add(group.replace("/", "."))
        elif isinstance(entry, str):
            part = _hydra_file(origin, folder, entry)
        else:
            raise ConfigError(f"{tree.file}: the defaults entry {entry!r} is not composed")
        _merge_into(result.data, part.data)
        result.lines.update(part.lines)
    result.hydra_groups = groups  # type: ignore[attr-defined]
    return result


def _nested(tree: ConfigTree, package: tuple[str, ...]) -> ConfigTree:
    """A group's file placed under its package: `trainer/smoke.yaml` under `trainer`."""
    data: Any = tree.data
    for key in reversed(package):
        data = {key: data}
    lines = {(*package, *path): at for path, at in tree.lines.items()}
    return ConfigTree(data, tree.file, lines)


def dotlist_tree(driver: str, overrides: list[tuple[str, int | None]]) -> ConfigTree:
    """`OmegaConf.from_dotlist(["trainer.max_epochs=2"])`: the overrides as a config."""
    tree = ConfigTree({}, driver)
    for override, line in overrides:
        _override(tree, override, line, driver)
    return tree


def merged_tree(trees: list[ConfigTree]) -> ConfigTree:
    """`OmegaConf.merge(a, b, ...)`: later values win, key by key, each with its own line."""
    result = copy.deepcopy(trees[0])
    for other in trees[1:]:
        _merge_into(result.data, other.data)
        result.lines.update(other.lines)
    return result


def _merge_into(base: Any, other: Any) -> None:
    if not (isinstance(base, dict) and isinstance(other, dict)):
        raise ConfigError("merging a config that is not a mapping")
    for key, value in other.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge_into(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def _override(tree: ConfigTree, override: str, line: int | None, driver: str) -> None:
    import yaml

    key, sep, raw = override.lstrip("+").partition("=")
    if not sep or not key or override.startswith("~"):
        raise ConfigError(f"the override `{override}` is not a literal key=value")
    parts = tuple(key.split("."))
    node = tree.data
    for part in parts[:-1]:
        if not isinstance(node, dict):
            raise ConfigError(f"the override `{override}` does not name a mapping")
        node = node.setdefault(part, {})
    if not isinstance(node, dict):
        raise ConfigError(f"the override `{override}` does not name a mapping")
    node[parts[-1]] = yaml.safe_load(raw) if raw else None
    tree.lines[parts] = (driver, line or 0)
